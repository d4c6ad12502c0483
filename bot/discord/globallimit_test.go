package discord

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
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
