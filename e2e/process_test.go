package main

import (
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/store/sqlite"
)

// TestProcessReconnects builds the real binary and runs it as its own
// process against the fake Discord through DISCORD_API_BASE, then drops the
// gateway: the bot must resume and answer the next command, and stop
// cleanly on SIGTERM.
func TestProcessReconnects(t *testing.T) {
	fake.Reset()
	dir := t.TempDir()
	bot := startProcess(t, dir)

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

	if err := bot.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-bot.exited:
		if bot.exitErr != nil {
			t.Fatalf("exit after SIGTERM: %v", bot.exitErr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the bot did not exit within 20 s of SIGTERM")
	}
	out := bot.logs.String()
	if strings.Contains(out, strings.TrimPrefix(fakediscord.DefaultToken, "Bot ")) {
		t.Fatal("the token appeared in the bot's output")
	}
	if !strings.Contains(out, "gateway resumed") || !strings.Contains(out, "stopped cleanly") {
		t.Fatalf("output lacks the resume or the clean stop:\n%s", out)
	}
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// botProcess is the mazebot binary running against the fake.
type botProcess struct {
	cmd     *exec.Cmd
	logs    *syncBuffer
	exited  chan struct{} // closed when the process has exited
	exitErr error         // valid once exited is closed
}

var (
	buildOnce   sync.Once
	builtBinary string
	buildErr    error
)

// mazebotBinary builds the binary once per test run.
func mazebotBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mazebot-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBinary = filepath.Join(dir, "mazebot")
		if out, err := exec.Command("go", "build", "-o", builtBinary, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBinary
}

// startProcess runs the binary in dir (no .env there) with its database in
// dir, and kills it at the end of the test if it is still running. env
// adds to or overrides its environment ("NAME=value"). Its output must
// show no secret.
func startProcess(t testing.TB, dir string, env ...string) *botProcess {
	t.Helper()
	p := &botProcess{cmd: exec.Command(mazebotBinary(t)), logs: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(),
		"DISCORD_TOKEN="+strings.TrimPrefix(fakediscord.DefaultToken, "Bot "),
		"DISCORD_API_BASE="+fake.URL(),
		"DISCORD_GUILD_ID=",
		"MAZEBOT_DB="+filepath.Join(dir, "mazebot.db"),
		"MAZEBOT_SECRET="+e2eSecret,
		"LOG_LEVEL=debug",
	)
	// exec keeps the last value of a name given twice.
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exitErr = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill() // fails harmlessly once it has exited
		<-p.exited
		if leaked := leakedSecrets(p.logs.String(), e2eSecret); len(leaked) > 0 {
			t.Errorf("secrets in the bot's output: %v", leaked)
		}
		if t.Failed() {
			t.Logf("bot output:\n%s", p.logs.String())
		}
	})
	return p
}

// TestProcessKillKeepsResults: a finish the member saw acknowledged is in
// the database after the bot is killed with SIGKILL (no shutdown at all).
func TestProcessKillKeepsResults(t *testing.T) {
	fake.Reset()
	dir := t.TempDir()
	bot := startProcess(t, dir)
	ctx := testContext(t)
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "command sync", func() bool { _, _, puts := fake.Commands(); return puts > 0 })
	mazeMsg, m := postMaze(t, opt("algorithm", "sidewinder"), opt("size", 15), opt("seed", 5))
	p := startGame(t, mazeMsg, m, fakediscord.DefaultUserID)
	p.walk()
	// The win was acknowledged (the member sees the result): kill now.
	if err := bot.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-bot.exited

	db, err := sqlite.Open(ctx, filepath.Join(dir, "mazebot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The results themselves, read straight from the file: no store method
	// lists every result of a maze outside a contest.
	raw, err := sql.Open("sqlite", filepath.Join(dir, "mazebot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.QueryContext(ctx, `SELECT user_id, clicks, tiles FROM finishes WHERE maze_id = ?`, m.ID().String())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type result struct {
		user          string
		clicks, tiles int
	}
	var runs []result
	for rows.Next() {
		var r result
		if err := rows.Scan(&r.user, &r.clicks, &r.tiles); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].clicks != p.clicks || runs[0].tiles != len(p.path)-1 || runs[0].user != fakediscord.DefaultUserID {
		t.Fatalf("after kill -9 the finishes are %+v, want one of %d clicks and %d tiles", runs, p.clicks, len(p.path)-1)
	}
	if _, err := db.LastPost(ctx, mazeMsg.ChannelID); err != nil {
		t.Fatalf("the posted maze was lost: %v", err)
	}
}

// endpointAddr waits for the process to log where its HTTP endpoint
// listens, and returns that address.
func endpointAddr(t *testing.T, p *botProcess) string {
	t.Helper()
	var addr string
	waitFor(t, "the HTTP endpoint", func() bool {
		for line := range strings.Lines(p.logs.String()) {
			if _, rest, ok := strings.Cut(line, `msg="HTTP interactions endpoint listening" addr=`); ok {
				addr, _, _ = strings.Cut(rest, " ")
				return true
			}
		}
		return false
	})
	return addr
}

// TestProcessReplayAfterKill (issue 9, row 1): an interaction answered over
// the HTTP endpoint and sent again after the bot was killed with SIGKILL and
// restarted on the same database is refused, and runs nothing: no second
// edit of the reply, no second record of the post.
func TestProcessReplayAfterKill(t *testing.T) {
	fake.Reset()
	dir := t.TempDir()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	key := "DISCORD_PUBLIC_KEY=" + hex.EncodeToString(pub)
	first := startProcess(t, dir, "HTTP_ADDR=127.0.0.1:0", key)
	addr := endpointAddr(t, first)
	waitFor(t, "command sync", func() bool { _, _, puts := fake.Commands(); return puts > 0 })
	fake.UseHTTPEndpoint("http://"+addr+"/interactions", priv)
	t.Cleanup(func() { fake.UseHTTPEndpoint("", nil) })
	ix := slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 201), opt("render", "png"))
	id := mazeIDIn(t, final(t, ix).Content)
	const edits = "PATCH /webhooks/{app}/{token}/messages/@original"
	editsBefore := len(fake.Requests(edits))

	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	second := startProcess(t, dir, "HTTP_ADDR="+addr, key)
	endpointAddr(t, second)

	ctx := testContext(t)
	status, body, err := fake.ReplayHTTP(ctx, ix, false)
	if err != nil {
		t.Fatal(err)
	}
	if status != 409 {
		t.Fatalf("the replay after a restart answered %d %q, want 409", status, body)
	}
	if got := len(fake.Requests(edits)); got != editsBefore {
		t.Fatalf("the replay edited the reply again (%d edits, want %d)", got, editsBefore)
	}
	raw, err := sql.Open("sqlite", filepath.Join(dir, "mazebot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var posts int
	if err := raw.QueryRowContext(ctx, `SELECT count(*) FROM posts WHERE maze_id = ?`, id.String()).Scan(&posts); err != nil {
		t.Fatal(err)
	}
	if posts != 1 {
		t.Fatalf("maze %s recorded %d times, want once", id, posts)
	}
}
