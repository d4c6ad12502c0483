package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
)

// TestProcessReconnects builds the real binary and runs it as its own
// process against the fake Discord through DISCORD_API_BASE, then drops the
// gateway: the bot must resume and answer the next command, and stop
// cleanly on SIGTERM.
func TestProcessReconnects(t *testing.T) {
	fake.Reset()
	dir := t.TempDir()
	binary := filepath.Join(dir, "mazebot")
	build := exec.Command("go", "build", "-o", binary, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var logs syncBuffer
	cmd := exec.Command(binary)
	cmd.Dir = dir // no .env there
	cmd.Env = append(os.Environ(),
		"DISCORD_TOKEN="+strings.TrimPrefix(fakediscord.DefaultToken, "Bot "),
		"DISCORD_API_BASE="+fake.URL(),
		"DISCORD_GUILD_ID=",
		"MAZEBOT_DB="+filepath.Join(dir, "mazebot.db"),
		"LOG_LEVEL=debug",
	)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("bot output:\n%s", logs.String())
		}
	})

	ctx := testContext(t)
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "command sync", func() bool { _, _, puts := fake.Commands(); return puts > 0 })
	if msg := final(t, slash(t, "maze", opt("size", 11))); !strings.Contains(msg.Content, "11×11") {
		t.Fatalf("before the drop /maze gave %q", msg.Content)
	}

	identifies, resumes := fake.Identifies(), fake.Resumes()
	fake.DropGateway()
	waitFor(t, "resume", func() bool { return fake.Resumes() > resumes })
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fake.Identifies(); got != identifies {
		t.Fatalf("the bot identified again (%d → %d) instead of resuming", identifies, got)
	}
	if msg := final(t, slash(t, "maze", opt("size", 13))); !strings.Contains(msg.Content, "13×13") {
		t.Fatalf("after the drop /maze gave %q", msg.Content)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the bot did not exit within 20 s of SIGTERM")
	}
	out := logs.String()
	if strings.Contains(out, strings.TrimPrefix(fakediscord.DefaultToken, "Bot ")) {
		t.Fatal("the token appeared in the bot's output")
	}
	if !strings.Contains(out, "gateway resumed") || !strings.Contains(out, "stopped cleanly") {
		t.Fatalf("output lacks the resume or the clean stop:\n%s", out)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
