package e2e

import (
	"crypto/ed25519"
	"encoding/hex"
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
	t.Parallel()
	fake := newDiscord(t)
	dir := t.TempDir()
	bot := fake.startProcess(t, dir)

	ctx := testContext(t)
	fake.waitSynced(t, 1)
	if msg := final(t, fake.slash(t, "maze", opt("size", 11))); !strings.Contains(msg.Text(), "11×11") {
		t.Fatalf("before the drop /maze gave %q", msg.Text())
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
	if msg := final(t, fake.slash(t, "maze", opt("size", 13))); !strings.Contains(msg.Text(), "13×13") {
		t.Fatalf("after the drop /maze gave %q", msg.Text())
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

// TestProcessKillKeepsResults: a finish the member saw acknowledged is in
// the database after the bot is killed with SIGKILL (no shutdown at all).
func TestProcessKillKeepsResults(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dir := t.TempDir()
	bot := fake.startProcess(t, dir)
	ctx := testContext(t)
	fake.waitSynced(t, 1)
	mazeMsg, m := fake.postMaze(t, opt("algorithm", "sidewinder"), opt("size", 15), opt("seed", 5))
	p := fake.startGame(t, mazeMsg, m, fakediscord.DefaultUserID)
	p.walk()
	// The win was acknowledged (the member sees the result): kill now.
	bot.kill(t)

	db, err := openDB(ctx, filepath.Join(dir, "mazebot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The results themselves, read straight from the file: no store method
	// lists every result of a maze outside a contest.
	runs, err := finishesOf(ctx, filepath.Join(dir, "mazebot.db"), m.ID().String())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].clicks != p.clicks || runs[0].tiles != len(p.path)-1 || runs[0].user != fakediscord.DefaultUserID {
		t.Fatalf("after kill -9 the finishes are %+v, want one of %d clicks and %d tiles", runs, p.clicks, len(p.path)-1)
	}
	if err := db.lastPost(ctx, mazeMsg.ChannelID); err != nil {
		t.Fatalf("the posted maze was lost: %v", err)
	}
}

// TestProcessReplayAfterKill (issue 9, row 1): an interaction answered over
// the HTTP endpoint and sent again after the bot was killed with SIGKILL and
// restarted on the same database is refused, and runs nothing: no second
// edit of the reply, no second record of the post.
func TestProcessReplayAfterKill(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dir := t.TempDir()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	key := "DISCORD_PUBLIC_KEY=" + hex.EncodeToString(pub)
	first := fake.startProcess(t, dir, "HTTP_ADDR=127.0.0.1:0", key)
	addr := first.endpointAddr(t)
	waitFor(t, "command sync", func() bool { return fake.CommandPuts() > 0 })
	fake.UseHTTPEndpoint("http://"+addr+"/interactions", priv)
	ix := fake.slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 201), opt("render", "png"))
	id := mazeIDIn(t, final(t, ix).Text())
	const edits = "PATCH /webhooks/{app}/{token}/messages/@original"
	editsBefore := len(fake.Requests(edits))

	first.kill(t)
	second := fake.startProcess(t, dir, "HTTP_ADDR="+addr, key)
	second.endpointAddr(t)

	ctx := testContext(t)
	status, body, err := fake.ReplayHTTP(ctx, ix.Interaction, false)
	if err != nil {
		t.Fatal(err)
	}
	if status != 409 {
		t.Fatalf("the replay after a restart answered %d %q, want 409", status, body)
	}
	if got := len(fake.Requests(edits)); got != editsBefore {
		t.Fatalf("the replay edited the reply again (%d edits, want %d)", got, editsBefore)
	}
	posts, err := postsOf(ctx, filepath.Join(dir, "mazebot.db"), id.String())
	if err != nil {
		t.Fatal(err)
	}
	if posts != 1 {
		t.Fatalf("maze %s recorded %d times, want once", id, posts)
	}
}
