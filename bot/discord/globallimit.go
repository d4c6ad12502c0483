package discord

import (
	"net/http"
	"sync"
	"time"
)

// GlobalRate and GlobalBurst keep one process's requests inside Discord's
// global limit, 50 requests a second for the bot's token: at most
// GlobalBurst at once, then GlobalRate a second, so that no second holds
// more than GlobalRate+GlobalBurst, with room for the jitter between
// leaving here and reaching Discord. Each scheduled job paces itself too
// (the daily posts, the reminders); this bounds them all together, with
// what they ask besides their posts (a server's locale, a DM channel, a
// role). It is per process: processes sharing one bot must share the
// limit out (docs/scaling.md).
const (
	GlobalRate  = 40
	GlobalBurst = 2
)

// GlobalLimit spaces the requests through next that carry the bot's
// token (an Authorization header) at perSecond, burst at once; the
// interaction routes, which are authorised by the interaction's token
// and exempt from the global limit, pass at once, so that a backlog of
// scheduled posts never holds up a member's reply. A request waits its
// turn within its context.
func GlobalLimit(next http.RoundTripper, perSecond, burst int) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &globalLimit{next: next, interval: time.Second / time.Duration(perSecond), burst: burst}
}

type globalLimit struct {
	next     http.RoundTripper
	interval time.Duration
	burst    int

	mu sync.Mutex
	// due is when the next request would be due at the steady rate
	// (a generic cell rate algorithm's theoretical arrival time).
	due time.Time
}

func (l *globalLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") == "" {
		return l.next.RoundTrip(req)
	}
	if wait := l.reserve(time.Now()); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-req.Context().Done():
			t.Stop()
			return nil, req.Context().Err()
		}
	}
	return l.next.RoundTrip(req)
}

// reserve takes the next turn and says how long to wait for it.
func (l *globalLimit) reserve(now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.due.Before(now) {
		l.due = now
	}
	wait := l.due.Sub(now) - time.Duration(l.burst-1)*l.interval
	l.due = l.due.Add(l.interval)
	return max(wait, 0)
}
