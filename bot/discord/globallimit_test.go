package discord

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mazebot/bot"
)

// TestGlobalLimitTurns: burst requests go at once, the next ones a turn
// apart, and after a pause the burst is there again; whatever the order,
// no second holds more than rate+burst.
func TestGlobalLimitTurns(t *testing.T) {
	l := GlobalLimit(nil, 10, 2).(*globalLimit)
	t0 := time.Unix(1_700_000_000, 0)
	for i, want := range []time.Duration{0, 0, 100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond} {
		if got := l.reserve(t0); got != want {
			t.Fatalf("request %d waits %s, want %s", i, got, want)
		}
	}
	later := t0.Add(10 * time.Second)
	if got := l.reserve(later); got != 0 {
		t.Fatalf("after a pause: waits %s, want 0", got)
	}
	// Requests arriving every millisecond for 3 s: count what goes in
	// each second.
	l = GlobalLimit(nil, 10, 2).(*globalLimit)
	var sent []time.Time
	for ms := range 3000 {
		now := t0.Add(time.Duration(ms) * time.Millisecond)
		sent = append(sent, now.Add(l.reserve(now)))
	}
	for _, start := range sent {
		n := 0
		for _, at := range sent {
			if !at.Before(start) && at.Before(start.Add(time.Second)) {
				n++
			}
		}
		if n > 12 {
			t.Fatalf("%d requests in the second from %s, want at most 12", n, start)
		}
	}
}

// TestGlobalLimitSkipsInteractions: a request without the bot's token (an
// interaction response) never waits, and a waiting one gives up with its
// context.
func TestGlobalLimitSkipsInteractions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	l := GlobalLimit(srv.Client().Transport, 1, 1)
	send := func(token bool, timeout time.Duration) error {
		req, err := http.NewRequest(http.MethodPost, srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		if token {
			req.Header.Set("Authorization", "Bot x")
		}
		if timeout > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			req = req.WithContext(ctx)
		}
		resp, err := l.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := send(true, 0); err != nil {
		t.Fatal(err)
	}
	// The bot's next turn is a second away: an interaction response goes
	// now, a bot request with 10 ms to spare gives up.
	for range 5 {
		if err := send(false, 50*time.Millisecond); err != nil {
			t.Fatalf("an interaction response waited: %v", err)
		}
	}
	if err := send(true, 10*time.Millisecond); err == nil {
		t.Fatal("a bot request went before its turn")
	}
}

// TestGlobal429OneState: one record of a global 429 on the bot's token,
// whichever job's request met it. Maze Arena's instance check (Poster.Get)
// is answered a global 429 (retry_after 0.4 s): its next check within the
// retry_after is not sent (429 at once, for the member's "try again"),
// and a channel post made meanwhile reaches Discord only after the
// retry_after. Before, the Arena had a client of its own, and the post
// went at once, into another 429.
func TestGlobal429OneState(t *testing.T) {
	const retryAfter = 400 * time.Millisecond
	var (
		mu       sync.Mutex
		limited  time.Time
		arrivals = map[string][]time.Time{}
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals[r.Method] = append(arrivals[r.Method], time.Now())
		first := limited.IsZero()
		if first {
			limited = time.Now()
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet && first {
			w.Header().Set("X-RateLimit-Global", "true")
			w.Header().Set("X-RateLimit-Scope", "global")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":%.3f,"global":true}`, retryAfter.Seconds())
			return
		}
		fmt.Fprint(w, `{"id":"1","channel_id":"2"}`)
	}))
	defer srv.Close()
	base, err := ParseAPIBase(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	session, err := NewSession("x", base)
	if err != nil {
		t.Fatal(err)
	}
	session.Client.Transport = GlobalLimit(session.Client.Transport, GlobalRate, GlobalBurst)
	p := NewPoster(session)
	ctx := context.Background()
	const route = "GET /applications/{app}/activity-instances/{id}"
	if status, _, err := p.Get(ctx, "/applications/1/activity-instances/i-1", route); status != http.StatusTooManyRequests || err != nil {
		t.Fatalf("the instance check: %d %v, want 429", status, err)
	}
	if status, _, err := p.Get(ctx, "/applications/1/activity-instances/i-1", route); status != http.StatusTooManyRequests || err != nil {
		t.Fatalf("the check again: %d %v, want 429 unsent", status, err)
	}
	if _, err := p.Post(ctx, "2", "", bot.Reply{Content: "a post"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := len(arrivals[http.MethodGet]); n != 1 {
		t.Fatalf("%d checks reached Discord, want 1: the second was sent within the retry_after", n)
	}
	if posts := arrivals[http.MethodPost]; len(posts) != 1 || posts[0].Sub(limited) < retryAfter-10*time.Millisecond {
		t.Fatalf("the post reached Discord %v after the global 429, want after its retry_after %v", posts[0].Sub(limited), retryAfter)
	}
}
