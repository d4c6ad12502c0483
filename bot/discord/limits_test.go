package discord

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mazebot/bot"
)

// noRead is a body that fails the test if it is read.
type noRead struct{ t *testing.T }

func (b noRead) Read([]byte) (int, error) {
	b.t.Error("the body was read")
	return 0, io.EOF
}

func TestInteractionsEndpointRefusesBeforeReading(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *bot.Interaction) error { t.Error("dispatched"); return nil })
	now := strconv.FormatInt(time.Now().Unix(), 10)
	sig := strings.Repeat("ab", ed25519.SignatureSize)
	for name, tc := range map[string]struct {
		sig, ts string
		length  int64
		want    int
	}{
		"ErrNoSignature":        {"", now, 100000, 401},
		"ErrNoTimestamp":        {sig, "", 100000, 401},
		"ErrSignatureNotHex":    {strings.Repeat("zz", ed25519.SignatureSize), now, 100000, 401},
		"ErrSignatureLong":      {sig + "ab", now, 100000, 401},
		"ErrTimestampNotNumber": {sig, "1e9", 100000, 401},
		"ErrTimestampStale":     {sig, strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10), 100000, 401},
		"ErrTooLarge":           {sig, now, maxInteractionBody + 1, 413},
	} {
		t.Run(name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/interactions", io.NopCloser(noRead{t}))
			req.ContentLength = tc.length
			if tc.sig != "" {
				req.Header.Set("X-Signature-Ed25519", tc.sig)
			}
			if tc.ts != "" {
				req.Header.Set("X-Signature-Timestamp", tc.ts)
			}
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, req)
			if rec.Code != tc.want || rec.Header().Get("Connection") != "close" {
				t.Fatalf("answered %d, Connection %q; want %d, close", rec.Code, rec.Header().Get("Connection"), tc.want)
			}
		})
	}
}

// Larger bodies share a budget; small ones are read whatever it holds.
func TestInteractionsEndpointReadBudget(t *testing.T) {
	e := newEndpoint(t, replyWith(bot.Reply{Content: "ok"}))
	h := e.h.(*interactionsHandler)
	if !h.budget.take(bigBodyBudget) {
		t.Fatal("the budget is not whole")
	}
	big := `{"pad":"` + strings.Repeat("x", smallBody) + `"}`
	if rec := e.post(big, e.priv, time.Now()); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Connection") != "close" {
		t.Fatalf("a large body with the budget taken answered %d, want 503 and close", rec.Code)
	}
	if typ, _ := decode(t, e.post(commandJSON, e.priv, time.Now())); typ != 4 {
		t.Fatalf("a small signed interaction answered type %d, want 4", typ)
	}
	h.budget.give(bigBodyBudget)
	// A large body is read when it fits, and signed, it is answered.
	var ix map[string]any
	if err := json.Unmarshal([]byte(commandJSON), &ix); err != nil {
		t.Fatal(err)
	}
	ix["pad"] = strings.Repeat("x", smallBody)
	body, _ := json.Marshal(ix)
	if typ, _ := decode(t, e.post(string(body), e.priv, time.Now())); typ != 4 {
		t.Fatalf("a large signed interaction answered type %d, want 4", typ)
	}
	if h.budget.left != bigBodyBudget {
		t.Fatalf("budget left %d after the reads, want all %d back", h.budget.left, bigBodyBudget)
	}
}

func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := LimitListener(inner, 2)
	release := make(chan struct{})
	var served atomic.Int32
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			served.Add(1)
			if r.URL.Path == "/hold" {
				<-release
			}
			fmt.Fprint(w, "ok")
		}),
		ConnState:         l.ConnState,
		ReadHeaderTimeout: time.Minute, // long: the limit must not rely on it
		IdleTimeout:       time.Minute,
	}
	go srv.Serve(l) //nolint:errcheck // ends with the test
	defer srv.Close()
	addr := "http://" + inner.Addr().String()
	client := func() *http.Client { return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}} }

	// Two requests in progress hold both places: a third client waits.
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if resp, err := client().Get(addr + "/hold"); err == nil {
				resp.Body.Close()
			}
		})
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor("two requests in progress", func() bool { return served.Load() == 2 })
	third := make(chan error, 1)
	go func() {
		resp, err := client().Get(addr + "/")
		if err == nil {
			resp.Body.Close()
		}
		third <- err
	}()
	select {
	case err := <-third:
		t.Fatalf("a third client was answered (%v) while two requests held both places", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	wg.Wait()
	if err := <-third; err != nil {
		t.Fatal(err)
	}

	// Idle keep-alives and silent connections hold places doing nothing:
	// a new client takes the place of one, at once.
	idle := client()
	for range 2 {
		resp, err := idle.Get(addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	silent, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	for range 3 {
		start := time.Now()
		resp, err := client().Get(addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("a client waited %v behind connections doing nothing", d)
		}
	}
	l.Close()
	if _, err := l.Accept(); err == nil {
		t.Fatal("Accept went on after Close")
	}
}

// TestLimitListenerHijacked: a hijacked connection (a WebSocket) frees its
// place at once, and its close frees none twice: two connections taken
// over by their handlers, on a cap of 1, leave room for plain requests
// (before, the second waited for the first to close, and Maze Arena's
// members' WebSockets filled the cap at 1,024).
func TestLimitListenerHijacked(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := LimitListener(inner, 1)
	var (
		mu    sync.Mutex
		taken []net.Conn
	)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/take" {
				fmt.Fprint(w, "ok")
				return
			}
			c, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			taken = append(taken, c)
			mu.Unlock()
		}),
		ConnState:         l.ConnState,
		ReadHeaderTimeout: time.Minute,
	}
	go srv.Serve(l) //nolint:errcheck // ends with the test
	defer srv.Close()
	get := func(path string) {
		t.Helper()
		c, err := net.DialTimeout("tcp", inner.Addr().String(), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		mu.Lock()
		before := len(taken)
		mu.Unlock()
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
		if path == "/take" {
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
				mu.Lock()
				n := len(taken)
				mu.Unlock()
				if n > before {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("the handler did not take the connection (%d taken, %d places held)", n, len(l.slots))
				}
			}
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("a plain request behind hijacked connections: %v", err)
		}
		resp.Body.Close()
	}
	get("/take")
	get("/take")
	get("/")
	mu.Lock()
	for _, c := range taken {
		c.Close() // a second release would make the cap 3
	}
	mu.Unlock()
	if n := len(l.slots); n > 1 {
		t.Fatalf("%d places held after the hijacked connections closed, cap 1", n)
	}
}
