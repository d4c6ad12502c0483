package health

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/metrics"
)

// world is what the probe looks at: the shards and the database, changed
// by the test.
type world struct {
	mu     sync.Mutex
	shards []metrics.ShardState
	dbErr  error
}

func (w *world) readShards() []metrics.ShardState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]metrics.ShardState(nil), w.shards...)
}

func (w *world) ping(context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dbErr
}

func (w *world) set(f func(w *world)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(w)
}

var discard = slog.New(slog.DiscardHandler)

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Code, rec.Body.String()
}

func TestReadyz(t *testing.T) {
	w := &world{}
	r := NewReadiness(w.readShards, w.ping, discard)
	h := Handler(r)
	check := func(t *testing.T, wantCode int, wantText ...string) {
		t.Helper()
		code, body := get(t, h, "/readyz")
		if code != wantCode {
			t.Fatalf("/readyz = %d %q, want %d", code, body, wantCode)
		}
		for _, s := range wantText {
			if !strings.Contains(body, s) {
				t.Fatalf("/readyz body %q lacks %q", body, s)
			}
		}
		if code, _ := get(t, h, "/healthz"); code != http.StatusOK {
			t.Fatalf("/healthz = %d while /readyz is %d, want 200 throughout", code, wantCode)
		}
	}
	ctx := context.Background()

	t.Run("ErrBeforeAnything", func(t *testing.T) {
		check(t, http.StatusServiceUnavailable, "no shard started", "not checked yet")
	})
	w.set(func(w *world) { w.shards = []metrics.ShardState{{ID: 2}, {ID: 3}} })
	r.pingOnce(ctx)
	t.Run("ErrShardsConnecting", func(t *testing.T) {
		check(t, http.StatusServiceUnavailable, "2 of 2 shards not connected (2, 3)")
	})
	w.set(func(w *world) { w.shards[0].Connected = true })
	t.Run("ErrOneShardDown", func(t *testing.T) {
		check(t, http.StatusServiceUnavailable, "1 of 2 shards not connected (3)")
	})
	w.set(func(w *world) { w.shards[1].Connected = true })
	t.Run("OK", func(t *testing.T) { check(t, http.StatusOK, "ready") })

	w.set(func(w *world) { w.dbErr = errors.New("connection refused") })
	r.pingOnce(ctx)
	t.Run("ErrDatabaseGone", func(t *testing.T) {
		check(t, http.StatusServiceUnavailable, "database: connection refused")
	})
	w.set(func(w *world) { w.dbErr = nil; w.shards[0].Connected = false })
	r.pingOnce(ctx)
	t.Run("ErrShardDroppedAfterDatabaseBack", func(t *testing.T) {
		code, body := get(t, h, "/readyz")
		if code != http.StatusServiceUnavailable || strings.Contains(body, "database") {
			t.Fatalf("/readyz = %d %q, want 503 for the shard only", code, body)
		}
	})
	w.set(func(w *world) { w.shards[0].Connected = true })
	t.Run("OKAgain", func(t *testing.T) { check(t, http.StatusOK, "ready") })
}

// TestPingThatHangs: a database that never answers makes the probe
// report it within the ping's timeout instead of hanging /readyz.
func TestPingThatHangs(t *testing.T) {
	r := NewReadiness(func() []metrics.ShardState { return []metrics.ShardState{{ID: 0, Connected: true}} },
		func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }, discard)
	r.pingTimeout = 10 * time.Millisecond
	r.pingOnce(context.Background())
	if err := r.Check(); err == nil || !strings.Contains(err.Error(), "database") {
		t.Fatalf("Check = %v, want the database's deadline", err)
	}
}

func TestRunStops(t *testing.T) {
	r := NewReadiness(func() []metrics.ShardState { return []metrics.ShardState{{ID: 0, Connected: true}} },
		func(context.Context) error { return nil }, discard)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	cancel()
	<-done
	if err := r.Check(); !errors.Is(err, errStopping) {
		t.Fatalf("Check after Run ended = %v, want stopping", err)
	}
	code, _ := get(t, Handler(r), "/healthz")
	if code != http.StatusOK {
		t.Fatalf("/healthz while stopping = %d, want 200", code)
	}
}

func TestMethods(t *testing.T) {
	h := Handler(NewReadiness(func() []metrics.ShardState { return nil }, func(context.Context) error { return nil }, discard))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/healthz", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST /healthz = %d, want 405", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("HEAD /healthz = %d, want 200", rec.Code)
	}
}

// TestOutageIsLogged: the database going away is logged at once, again
// each minute it stays away, and its return with how long it was gone;
// a healthy database logs nothing (issue 16 row 9).
func TestOutageIsLogged(t *testing.T) {
	var logs bytes.Buffer
	w := &world{shards: []metrics.ShardState{{ID: 0, Connected: true}}}
	r := NewReadiness(w.readShards, w.ping, slog.New(slog.NewTextHandler(&logs, nil)))
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	r.now = func() time.Time { return now }
	step := func(d time.Duration) { now = now.Add(d); r.pingOnce(context.Background()) }
	step(0)
	step(PingEvery)
	if logs.Len() != 0 {
		t.Fatalf("a healthy database logged %q", logs.String())
	}
	w.set(func(w *world) { w.dbErr = errors.New("dial tcp 127.0.0.1:5432: connect: connection refused") })
	step(PingEvery)
	step(PingEvery)
	if got := strings.Count(logs.String(), "database unreachable"); got != 1 || !strings.Contains(logs.String(), "connection refused") {
		t.Fatalf("after the database went away: %q, want one error with the cause", logs.String())
	}
	step(time.Minute)
	if !strings.Contains(logs.String(), "database still unreachable") || !strings.Contains(logs.String(), "for=1m2s") {
		t.Fatalf("a minute later: %q, want a reminder with how long", logs.String())
	}
	w.set(func(w *world) { w.dbErr = nil })
	step(PingEvery)
	if !strings.Contains(logs.String(), "database reachable again") || !strings.Contains(logs.String(), "after=1m4s") {
		t.Fatalf("after the return: %q, want how long it was gone", logs.String())
	}
	before := logs.Len()
	step(PingEvery)
	if logs.Len() != before {
		t.Fatalf("logged again once healthy: %q", logs.String()[before:])
	}
}
