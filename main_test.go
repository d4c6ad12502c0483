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

// TestBotWithoutTokenFails: asked to run the bot (as the container does)
// without a token, mazebot says where to put one and exits non-zero, so
// an orchestrator sees the failure; it draws no maze (issue 16 row 12).
func TestBotWithoutTokenFails(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("DISCORD_TOKEN", "")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"bot"}, &stdout, &stderr); code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr.String())
	}
	if !strings.Contains(stderr.String(), "docker run -e DISCORD_TOKEN=") || strings.Contains(stderr.String(), "go run .") || stdout.Len() != 0 {
		t.Fatalf("stdout %q, stderr:\n%s\nwant the container's advice and no maze", stdout.String(), stderr.String())
	}
}

// TestHelpAndVersion: help says what each mode does, the bot's help lists
// its settings without starting it, and the version prints (issue 16 row
// 11).
func TestHelpAndVersion(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "Bot would.connect") // bot --help must not
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"mazebot bot", "mazebot maze", "mazebot store copy", "mazebot bot --help"}},
		{[]string{"help"}, []string{"mazebot bot --help"}},
		{[]string{"bot", "--help"}, []string{"DISCORD_TOKEN", "MAZEBOT_DB", "HTTP_ADDR", "METRICS_ADDR", ".env"}},
		{[]string{"bot", "-h"}, []string{"DISCORD_SHARD_IDS"}},
		{[]string{"version"}, []string{"mazebot "}},
		{[]string{"--version"}, []string{"mazebot "}},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tc.args, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
			t.Fatalf("%v: exit %d, stderr %q", tc.args, code, stderr.String())
		}
		for _, want := range tc.want {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%v: %q lacks %q", tc.args, stdout.String(), want)
			}
		}
	}
}

func TestRunUnknownCommand(t *testing.T) {
	for _, args := range [][]string{{"mase"}, {"bot", "now"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Fatalf("%v: exit %d, want 2", args, code)
		}
		if !strings.Contains(stderr.String(), "--help") || strings.Count(stderr.String(), "\n") > 1 {
			t.Fatalf("%v: stderr %q, want one line pointing to --help", args, stderr.String())
		}
	}
}
