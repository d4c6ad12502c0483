package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
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
//
// It is also the bot token's one record of a global 429: whichever job's
// request Discord answered with one (a post, a role, Maze Arena's
// instance check), every request with the token waits out its
// retry_after here, since each would only be refused again and count
// toward the invalid requests for which Discord bans an IP. discordgo's
// rate limiter keeps the routes' buckets, but locks them all only on a
// global 429 with X-RateLimit-Reset-After, which Discord's does not carry.
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
	// held is when a global 429's retry_after ends.
	held time.Time
}

// ErrHeld matches a request that an impatient caller (Impatient) did not
// send because a 429 on the bot's token is still in force: a *HeldError.
var ErrHeld = errors.New("discord: the bot token is rate limited")

// HeldError is a request not sent because a 429 holds the bot's token, or
// its route, for Wait more.
type HeldError struct{ Wait time.Duration }

func (e *HeldError) Error() string        { return fmt.Sprintf("%v for %v more", ErrHeld, e.Wait) }
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

type impatientKey struct{}

// Impatient marks a request's context: a request that a 429 holds fails
// at once with a *HeldError rather than wait, for a caller that answers
// its own caller "try again later" (a member's sign-in) instead.
func Impatient(ctx context.Context) context.Context {
	return context.WithValue(ctx, impatientKey{}, true)
}

func (l *globalLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	auth := req.Header.Get("Authorization")
	if auth == "" {
		return l.next.RoundTrip(req)
	}
	if held := l.heldFor(time.Now()); held > 0 && req.Context().Value(impatientKey{}) != nil {
		return nil, &HeldError{Wait: held}
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
	res, err := l.next.RoundTrip(req)
	if err == nil && res.StatusCode == http.StatusTooManyRequests && strings.HasPrefix(auth, "Bot ") {
		// Read, and put back for the caller, the 429's body.
		body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		_ = res.Body.Close()
		res.Body = io.NopCloser(bytes.NewReader(body))
		if lim := rateLimit(res.Header, body); lim.global {
			l.hold(time.Now().Add(lim.after))
		}
	}
	return res, err
}

// heldFor is how long a global 429 still holds the token (0: not held).
func (l *globalLimit) heldFor(now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return max(l.held.Sub(now), 0)
}

// hold keeps every request with the token until until: the turns start
// again from there.
func (l *globalLimit) hold(until time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if until.After(l.held) {
		l.held = until
	}
	if l.due.Before(until) {
		l.due = until
	}
}

// reserve takes the next turn and says how long to wait for it.
func (l *globalLimit) reserve(now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.due.Before(now) {
		l.due = now
	}
	wait := l.due.Sub(now) - time.Duration(l.burst-1)*l.interval
	if now.Before(l.held) {
		wait = max(wait, l.held.Sub(now))
	}
	l.due = l.due.Add(l.interval)
	return max(wait, 0)
}

// limit is a 429 answer.
type limit struct {
	after  time.Duration
	global bool
	scope  string
}

func (l limit) String() string {
	scope := l.scope
	if scope == "" {
		scope = "route"
	}
	return fmt.Sprintf("rate-limited (%s) for %v", scope, l.after)
}

// rateLimit reads a 429: retry_after (seconds, fractional) from the body,
// else the Retry-After header; global from the body or X-RateLimit-Global.
func rateLimit(h http.Header, body []byte) limit {
	var m struct {
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	_ = json.Unmarshal(body, &m) // a 429 without a JSON body still has headers
	l := limit{after: time.Duration(m.RetryAfter * float64(time.Second)), global: m.Global, scope: h.Get("X-RateLimit-Scope")}
	if l.after <= 0 {
		if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && s > 0 {
			l.after = time.Duration(s * float64(time.Second))
		}
	}
	if l.after <= 0 {
		l.after = time.Second // Discord always says; guess if it did not
	}
	if h.Get("X-RateLimit-Global") != "" || l.scope == "global" {
		l.global = true
	}
	return l
}
