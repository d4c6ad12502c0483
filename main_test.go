package main

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
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

// TestLoggerRedactsTokens: whatever error or text carries an interaction
// or webhook URL, the logger writes it without the token.
func TestLoggerRedactsTokens(t *testing.T) {
	const token = "c2VjcmV0LWludGVyYWN0aW9uLXRva2Vu"
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		log, err := newLogger(&buf, "debug", format)
		if err != nil {
			t.Fatal(err)
		}
		log.Error("call failed",
			"err", fmt.Errorf("respond: %w", &url.Error{Op: "Post", URL: "http://127.0.0.1:1/api/v9/interactions/1/" + token + "/callback", Err: context.DeadlineExceeded}),
			"url", "https://discord.com/api/v9/webhooks/2/"+token+"/messages/@original")
		out := buf.String()
		if strings.Contains(out, token) || strings.Count(out, "{token}") != 2 || !strings.Contains(out, "deadline exceeded") {
			t.Fatalf("%s log line %q, want both URLs with {token} and the cause kept", format, out)
		}
	}
}
