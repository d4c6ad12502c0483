package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestE2EDatabaseLockedOut: while another process holds SQLite's write
// lock, a command gets an apology, privately and well inside the 15 s a
// deferred reply has, and the bot stays up; the failure is counted, and
// the command works once the lock is gone. The first write is the replay
// guard's record of the interaction, which fails closed: no command runs
// without it.
// (A PostgreSQL that stops is the same path: store/guard bounds each call.)
func TestE2EDatabaseLockedOut(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dbPath := newDBFile(t)
	cfg := fake.config(dbPath)
	cfg.MetricsAddr = "127.0.0.1:0"
	app := fake.launch(t, cfg)
	ctx := testContext(t)

	other, err := sqliteFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	locked := true
	unlock := func() {
		if locked {
			locked = false
			if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer unlock()

	sent := time.Now()
	ix := fake.slash(t, "maze", opt("size", 7))
	msg, err := ix.WaitFollowup(ctx, 0)
	if err != nil {
		t.Fatalf("no apology: %v (rejections %v)", err, ix.Rejections())
	}
	if took := time.Since(sent); !msg.Ephemeral() || !strings.Contains(msg.Text(), "Sorry") || took > 15*time.Second {
		t.Fatalf("after %v: %q (ephemeral %v), want a private apology within 15 s", took, msg.Text(), msg.Ephemeral())
	}
	if orig := ix.Original(); orig != nil && !orig.Deleted {
		t.Fatalf("a public placeholder stays: %+v", orig)
	}
	_, metrics := fetch(t, "http://"+app.MetricsAddr()+"/metrics")
	if n, _ := sample(metrics, `mazebot_store_errors_total{op="FirstSeen"}`); n != 1 {
		t.Fatalf("mazebot_store_errors_total{op=\"FirstSeen\"} = %v, want 1", n)
	}
	if code, _ := fetch(t, "http://"+app.MetricsAddr()+"/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz = %d during the outage", code)
	}

	unlock()
	if next := final(t, fake.slash(t, "maze", opt("size", 9))); !strings.Contains(next.Text(), "9×9") {
		t.Fatalf("after the lock, /maze gave %q", next.Text())
	}
}
