package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestRunWithoutToken: the README's first command on a fresh machine (no
// token, no .env) explains how to set one and shows an offline maze.
func TestRunWithoutToken(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("DISCORD_TOKEN", "")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "DISCORD_TOKEN is not set") || !strings.Contains(stderr.String(), "maze ID:") {
		t.Fatalf("stderr lacks the token help or the maze ID:\n%s", stderr.String())
	}
	rows := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(rows) != 21 || rows[0] != strings.Repeat("#", 21) {
		t.Fatalf("stdout is not a 21-row maze:\n%s", stdout.String())
	}
}

func TestRunUnknownCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"mase"}, &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), `unknown command "mase"`) || !strings.Contains(stderr.String(), "usage") {
		t.Fatalf("stderr:\n%s", stderr.String())
	}
}
