package fakediscord

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault is what the fake does to a REST request instead of answering it
// normally. Set at most one of Status, RateLimit and Drop; Hold alone only
// delays.
//
// Without After the fault strikes before the request is processed, so
// nothing is created or edited. With After the request is processed first
// (a message is posted, an interaction acknowledged) and only the answer is
// lost, late or replaced: that is how "discordgo retried a 502 and posted
// twice" happens, since discordgo v0.29.0 retries every 502 (and only 502)
// up to Session.MaxRestRetries times.
type Fault struct {
	// After applies the fault once the request has been processed.
	After bool
	// Hold delays the request before it is processed, or (with After) the
	// answer after it was processed. A held request ends early when the
	// client hangs up or the Server closes.
	Hold time.Duration
	// Status answers with this 5xx status and Discord's JSON error body
	// ({"message": "502: Bad Gateway", "code": 0}) instead of the real answer.
	Status int
	// RateLimit answers 429 with Discord's rate-limit headers and body. A
	// rate-limited request is never processed, so After must be false.
	RateLimit *RateLimit
	// Drop closes the connection without an answer, like a network failure:
	// the client sees a transport error. net/http retries a dropped GET on a
	// reused connection by itself; it does not retry POST or PATCH.
	Drop bool
}

// Rate-limit scopes, the values of X-RateLimit-Scope.
const (
	ScopeUser   = "user"   // the bot's own per-route limit
	ScopeGlobal = "global" // the bot's global limit (50 requests/s)
	ScopeShared = "shared" // a per-resource limit shared with others
)

// RateLimit describes a 429 answer. Zero fields take Discord-like defaults.
//
// The headers follow Discord's rate-limit documentation
// (discord-api-docs, topics/rate-limits): Retry-After (whole seconds,
// rounded up), X-RateLimit-Scope; for the user and shared scopes also
// X-RateLimit-Limit, X-RateLimit-Remaining (0 for user; for shared the
// bucket is not exhausted, so Limit-1), X-RateLimit-Reset (epoch seconds),
// X-RateLimit-Reset-After (seconds with decimals) and X-RateLimit-Bucket;
// for the global scope X-RateLimit-Global: true instead, as in Discord's
// example. The body is {"message", "retry_after" (seconds, float),
// "global"}.
//
// discordgo v0.29.0 reads retry_after from the body and sleeps that long
// before retrying (ShouldRetryOnRateLimit), or returns a
// *discordgo.RateLimitError; it locks the route's bucket until
// X-RateLimit-Reset-After when X-RateLimit-Remaining is 0, and locks every
// bucket only when X-RateLimit-Global comes with X-RateLimit-Reset-After,
// which Discord's global 429 does not carry.
type RateLimit struct {
	RetryAfter time.Duration // default 1 s
	Scope      string        // ScopeUser (default), ScopeGlobal or ScopeShared
	Bucket     string        // X-RateLimit-Bucket; default: derived from the route
	Limit      int           // X-RateLimit-Limit; default 5
}

// Request is one REST request the fake received.
type Request struct {
	Method string
	Path   string // as requested, e.g. "/api/v9/channels/1/messages"
	// Route is the fake's route it matched, e.g.
	// "POST /channels/{channel}/messages" ("" when none did).
	Route string
	Time  time.Time // arrival
	Done  time.Time // when it was answered or dropped; zero while in flight
	// Status is the status answered; 0 when the connection was dropped or
	// the request was abandoned during a Hold.
	Status int
	// Fault describes the injected fault that applied, e.g. "502 after" or
	// "429 user"; "" for none.
	Fault string
	// Body is the request's JSON (a multipart request's payload_json),
	// nil when it sent none: what checks against Discord's schemas read.
	Body json.RawMessage
}

// faultRule applies fault to the next left requests matching pattern.
type faultRule struct {
	pattern routePattern
	left    int
	fault   Fault
}

// routePattern is "METHOD /path/{placeholder}/..." relative to /api/vN.
type routePattern struct {
	method string // "*" matches any
	parts  []string
}

// parseRoute is the pattern of a route: method and a path below /api/vN.
func parseRoute(method, path string) routePattern {
	return routePattern{method: method, parts: strings.Split(strings.Trim(path, "/"), "/")}
}

// parsePattern parses and checks a pattern against the fake's routes. It
// panics on a malformed pattern or one that matches no route: patterns are
// constants in tests, and a typo would otherwise silently match nothing
// (httptest.NewRequest panics on bad input for the same reason).
func (s *Server) parsePattern(text string) routePattern {
	method, path, ok := strings.Cut(strings.TrimSpace(text), " ")
	path = strings.TrimSpace(path)
	if !ok || method == "" || !strings.HasPrefix(path, "/") {
		panic(fmt.Sprintf("fakediscord: route pattern %q is not \"METHOD /path\"", text))
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) >= 2 && parts[0] == "api" && strings.HasPrefix(parts[1], "v") {
		parts = parts[2:]
	}
	p := routePattern{method: strings.ToUpper(method), parts: parts}
	for _, rt := range s.routes {
		if (p.method == "*" || p.method == rt.method) && patternsOverlap(p.parts, rt.parts) {
			return p
		}
	}
	panic(fmt.Sprintf("fakediscord: route pattern %q matches none of the fake's routes", text))
}

func isPlaceholder(seg string) bool {
	return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}")
}

// patternsOverlap reports whether some path matches both patterns.
func patternsOverlap(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !isPlaceholder(a[i]) && !isPlaceholder(b[i]) && a[i] != b[i] {
			return false
		}
	}
	return true
}

// matches reports whether a request (path parts below /api/vN) matches.
func (p routePattern) matches(method string, parts []string) bool {
	return (p.method == "*" || p.method == method) && p.matchesPath(parts)
}

// matchesPath reports whether the path parts match, whatever the method.
// A placeholder matches one segment, not an empty one.
func (p routePattern) matchesPath(parts []string) bool {
	if len(p.parts) != len(parts) {
		return false
	}
	for i, seg := range p.parts {
		if isPlaceholder(seg) && parts[i] == "" || !isPlaceholder(seg) && seg != parts[i] {
			return false
		}
	}
	return true
}

// InjectFault makes the next n REST requests that match route suffer f.
// route is "METHOD /path" below /api/v9 with {placeholders} for any one
// segment, e.g. "POST /channels/{id}/messages",
// "POST /interactions/{id}/{token}/callback" or
// "PATCH /webhooks/{app}/{token}/messages/@original"; a literal segment
// (a channel id) narrows it, and METHOD may be "*". Rules apply in the order
// they were injected; a request consumes one count of the first rule that
// matches. Injected faults show in Requests, not in RESTErrors (they are
// not the client's mistakes). InjectFault panics on a malformed route, one
// that matches none of the fake's routes, n < 1 or an inconsistent f.
func (s *Server) InjectFault(route string, n int, f Fault) {
	p := s.parsePattern(route)
	if n < 1 {
		panic(fmt.Sprintf("fakediscord: InjectFault %q: n=%d, want at least 1", route, n))
	}
	if err := f.check(); err != nil {
		panic(fmt.Sprintf("fakediscord: InjectFault %q: %v", route, err))
	}
	s.rest.mu.Lock()
	defer s.rest.mu.Unlock()
	s.rest.faults = append(s.rest.faults, &faultRule{pattern: p, left: n, fault: f})
}

// ClearFaults removes every injected fault not yet used up (Reset does too).
func (s *Server) ClearFaults() {
	s.rest.mu.Lock()
	defer s.rest.mu.Unlock()
	s.rest.faults = nil
}

func (f Fault) check() error {
	actions := 0
	for _, set := range []bool{f.Status != 0, f.RateLimit != nil, f.Drop} {
		if set {
			actions++
		}
	}
	switch {
	case actions > 1:
		return fmt.Errorf("set at most one of Status, RateLimit and Drop")
	case actions == 0 && f.Hold <= 0:
		return fmt.Errorf("the fault does nothing")
	case f.Hold < 0:
		return fmt.Errorf("negative Hold %v", f.Hold)
	case f.Status != 0 && (f.Status < 500 || f.Status > 599):
		return fmt.Errorf("status %d is not a 5xx (use RateLimit for 429)", f.Status)
	case f.RateLimit != nil && f.After:
		return fmt.Errorf("a rate-limited request is never processed: RateLimit cannot be After")
	case f.RateLimit != nil && !slices.Contains([]string{"", ScopeUser, ScopeGlobal, ScopeShared}, f.RateLimit.Scope):
		return fmt.Errorf("unknown rate-limit scope %q", f.RateLimit.Scope)
	}
	return nil
}

// String describes the fault for Request.Fault.
func (f Fault) String() string {
	var what string
	switch {
	case f.Status != 0:
		what = strconv.Itoa(f.Status)
	case f.RateLimit != nil:
		scope := f.RateLimit.Scope
		if scope == "" {
			scope = ScopeUser
		}
		what = "429 " + scope
	case f.Drop:
		what = "drop"
	default:
		what = "hold " + f.Hold.String()
	}
	if f.After {
		return what + " after"
	}
	return what + " before"
}

// restLog is the log of REST requests and of the errors the fake
// answered, and the faults still to inject. Its lock is a leaf: a request
// is recorded as answered while its handler may hold other locks.
type restLog struct {
	s        *Server
	mu       sync.Mutex
	requests []*Request
	errors   []RESTError
	faults   []*faultRule
}

func (l *restLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests, l.errors, l.faults = nil, nil, nil
}

// begin records a request's arrival and takes the fault that applies to
// it, if any.
func (l *restLog) begin(r *http.Request, route string, parts []string, body json.RawMessage) (*Request, *Fault) {
	l.mu.Lock()
	defer l.mu.Unlock()
	req := &Request{Method: r.Method, Path: r.URL.Path, Route: route, Time: time.Now(), Body: body}
	var fault *Fault
	for _, fr := range l.faults {
		if fr.left > 0 && fr.pattern.matches(r.Method, parts) {
			fr.left--
			f := fr.fault
			fault, req.Fault = &f, f.String()
			l.s.logf("REST %s %s: injected fault %s", r.Method, r.URL.Path, req.Fault)
			break
		}
	}
	l.requests = append(l.requests, req)
	return req, fault
}

// end records the answer to req, as it is written.
func (l *restLog) end(req *Request, status int) {
	l.mu.Lock()
	req.Status = status
	req.Done = time.Now()
	l.mu.Unlock()
	l.s.changes.fire(topicRequests)
}

func (l *restLog) recordError(e RESTError) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errors = append(l.errors, e)
}

// RESTError is a non-2xx answer the fake gave to a REST request.
type RESTError struct {
	Method, Path string
	Status       int
	Code         int    // Discord JSON error code (0 for plain HTTP errors)
	Message      string // Discord's message, e.g. "Unknown interaction"
	Detail       string // the fake's explanation (field errors etc.)
}

// RESTErrors lists the errors the fake returned since New or Reset, oldest
// first. An end-to-end test can assert the bot made no invalid request.
func (s *Server) RESTErrors() []RESTError {
	s.rest.mu.Lock()
	defer s.rest.mu.Unlock()
	return append([]RESTError(nil), s.rest.errors...)
}

// Requests lists the REST requests received since New or Reset, oldest
// first; with a route pattern (the syntax of InjectFault, and it panics on
// a bad one likewise) only those that match it, with "" all of them.
// Requests still in flight have a zero Done; a request is recorded as
// answered before its answer goes out.
func (s *Server) Requests(route string) []Request {
	return s.requests(route, false)
}

func (s *Server) requests(route string, answered bool) []Request {
	match := s.requestFilter(route)
	s.rest.mu.Lock()
	defer s.rest.mu.Unlock()
	var out []Request
	for _, r := range s.rest.requests {
		if match(r) && (!answered || !r.Done.IsZero()) {
			out = append(out, *r)
		}
	}
	return out
}

// WaitRequests waits until at least n answered (or dropped) requests match
// route (as in Requests) and returns all the answered ones that match.
func (s *Server) WaitRequests(ctx context.Context, route string, n int) ([]Request, error) {
	s.requestFilter(route) // panics on a bad pattern, here rather than in the loop
	var out []Request
	err := s.await(ctx, topicRequests, func() (bool, error) {
		out = s.requests(route, true)
		return len(out) >= n, nil
	})
	return out, err
}

func (s *Server) requestFilter(route string) func(*Request) bool {
	if route == "" {
		return func(*Request) bool { return true }
	}
	p := s.parsePattern(route)
	return func(r *Request) bool { return p.matches(r.Method, apiParts(r.Path)) }
}

// serveFault answers r under f; serve processes the request normally.
func (s *Server) serveFault(w *statusWriter, r *http.Request, f *Fault, serve func(http.ResponseWriter)) {
	if !f.After {
		switch {
		case !s.hold(r, f.Hold) || f.Drop:
			w.hangUp()
		case f.RateLimit != nil:
			writeRateLimit(w, *f.RateLimit, r)
		case f.Status != 0:
			writeServerError(w, f.Status)
		default:
			serve(w)
		}
		return
	}
	// Keep the answer so it can be delayed, replaced or lost.
	rec := httptest.NewRecorder()
	serve(rec)
	switch {
	case !s.hold(r, f.Hold) || f.Drop:
		w.hangUp()
	case f.Status != 0:
		writeServerError(w, f.Status)
	default:
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}
}

// hold waits d; false if the client hung up or the Server closed first.
func (s *Server) hold(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.quit:
		return false
	}
}

func writeServerError(w http.ResponseWriter, status int) {
	writeJSON(w, status, map[string]any{"message": strconv.Itoa(status) + ": " + http.StatusText(status), "code": 0})
}

func writeRateLimit(w http.ResponseWriter, rl RateLimit, r *http.Request) {
	if rl.RetryAfter <= 0 {
		rl.RetryAfter = time.Second
	}
	if rl.Scope == "" {
		rl.Scope = ScopeUser
	}
	if rl.Limit <= 0 {
		rl.Limit = 5
	}
	if rl.Bucket == "" {
		h := fnv.New64a()
		_, _ = h.Write([]byte(r.Method + " " + r.URL.Path))
		rl.Bucket = strconv.FormatUint(h.Sum64(), 16)
	}
	secs := math.Round(rl.RetryAfter.Seconds()*1000) / 1000
	hd := w.Header()
	hd.Set("Retry-After", strconv.Itoa(int(math.Ceil(rl.RetryAfter.Seconds()))))
	hd.Set("X-RateLimit-Scope", rl.Scope)
	global := rl.Scope == ScopeGlobal
	message := "You are being rate limited."
	if global {
		hd.Set("X-RateLimit-Global", "true")
	} else {
		remaining := 0
		if rl.Scope == ScopeShared {
			remaining = rl.Limit - 1
			message = "The resource is being rate limited."
		}
		reset := float64(time.Now().Add(rl.RetryAfter).UnixMilli()) / 1000
		hd.Set("X-RateLimit-Limit", strconv.Itoa(rl.Limit))
		hd.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		hd.Set("X-RateLimit-Reset", strconv.FormatFloat(reset, 'f', 3, 64))
		hd.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
		hd.Set("X-RateLimit-Bucket", rl.Bucket)
	}
	writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": message, "retry_after": secs, "global": global})
}

// statusWriter reports the status of the answer before it goes out, so a
// client never sees an answer that Requests does not show yet.
type statusWriter struct {
	http.ResponseWriter
	answered func(status int)
	done     bool
}

// answer reports status once (0: no answer).
func (w *statusWriter) answer(status int) {
	if !w.done {
		w.done = true
		w.answered(status)
	}
}

func (w *statusWriter) WriteHeader(code int) {
	w.answer(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// hangUp closes the connection without an answer.
func (w *statusWriter) hangUp() {
	w.answer(0)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return // not hijackable (HTTP/2): the handler returns without writing instead
	}
	_ = conn.Close()
}
