package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mazebot/cli"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
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

// TestMazeOnlyBuild: go build -tags mazeonly is the offline maze tool. It
// links none of the bot's packages (their initialisation alone is most of
// the full build's start-up memory, issue 17), draws the same mazes as the
// full build, and says plainly that the bot and store copy are not in it.
func TestMazeOnlyBuild(t *testing.T) {
	testkit.SkipShort(t, "builds the maze-only binary")
	deps, err := exec.Command("go", "list", "-deps", "-tags", "mazeonly", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps -tags mazeonly: %v", err)
	}
	for _, dep := range strings.Fields(string(deps)) {
		for _, bot := range []string{"discordgo", "pgx", "modernc.org/sqlite", "database/sql", "prometheus", "protobuf", "time/tzdata", "net/http",
			"mazebot/app", "mazebot/bot", "mazebot/commands", "mazebot/store", "mazebot/contest", "mazebot/metrics", "mazebot/lang", "mazebot/arena"} {
			if strings.Contains(dep, bot) {
				t.Errorf("the maze-only build links %s", dep)
			}
		}
	}

	bin := filepath.Join(t.TempDir(), "mazebot")
	if out, err := exec.Command("go", "build", "-tags", "mazeonly", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags mazeonly: %v\n%s", err, out)
	}
	work := t.TempDir() // where the build runs: store copy must write nothing here
	mazeOnly := func(args ...string) (stdout, stderr string, code int) {
		var out, errOut bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = work, &out, &errOut
		cmd.Env = append(os.Environ(), "DISCORD_TOKEN=")
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
	}

	// Every format of every algorithm, byte for byte: issue 17's memory
	// figures are this build's, so it must be the same maze tool.
	for _, algorithm := range mazecore.Algorithms {
		for _, format := range cli.Formats() {
			args := []string{"maze", algorithm.String(), "41", "--seed", "7", "--solve", "--format", format, "-o", "-"}
			var want, wantErr bytes.Buffer
			if code := run(context.Background(), args, &want, &wantErr); code != 0 {
				t.Fatalf("full build %v: exit %d, %s", args, code, wantErr.String())
			}
			got, gotErr, code := mazeOnly(args...)
			if code != 0 || got != want.String() || gotErr != wantErr.String() {
				t.Errorf("%s %s: the maze-only build (exit %d, %d bytes, stderr %q) differs from the full build (%d bytes, stderr %q)",
					algorithm, format, code, len(got), gotErr, want.Len(), wantErr.String())
			}
		}
	}

	stdout, stderr, code := mazeOnly()
	if code != 0 || !strings.Contains(stderr, "maze-only build") || !strings.HasPrefix(stdout, strings.Repeat("#", 21)+"\n") {
		t.Errorf("bare mazebot: exit %d, stderr %q, stdout %q; want the note and a maze", code, stderr, stdout)
	}
	for _, args := range [][]string{{"bot"}, {"store", "copy", "--from", "a.db", "--to", "b.db"}} {
		stdout, stderr, code := mazeOnly(args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "-tags mazeonly") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and where the full build is", args, code, stdout, stderr, exitUsage)
		}
	}
	if entries, err := os.ReadDir(work); err != nil || len(entries) != 0 {
		t.Errorf("the maze-only build left %v in its working directory (%v), want nothing: store copy wrote a database", entries, err)
	}
	for _, help := range [][]string{{"--help"}, {"maze", "--help"}} {
		if stdout, _, code := mazeOnly(help...); code != 0 || !strings.Contains(stdout, "mazebot maze") || strings.Contains(stdout, "store copy ") {
			t.Errorf("%v: exit %d, %q; want the maze command only", help, code, stdout)
		}
	}
}
