package arena

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/internal/testkit"
	"mazebot/play"
)

// oauthStub is Discord's side of the code exchange: it answers
// /oauth2/token with status (held until release is closed, if set) and
// counts what it was sent, and how many at once at most.
type oauthStub struct {
	mu                       sync.Mutex
	status                   int
	appStatus                int // of /applications/@me
	sent, appCalls, at, most int
	members                  int // the members /users/@me named
	release                  chan struct{}
}

func (o *oauthStub) RoundTrip(r *http.Request) (*http.Response, error) {
	o.mu.Lock()
	if r.URL.Path == "/api/v9/applications/@me" {
		o.appCalls++
		status := o.appStatus
		o.mu.Unlock()
		return stubResponse(status, `{"id":"1234"}`), nil
	}
	// The sign-in's questions after the exchange: who (a member of their
	// own each time, whose instance checks are not rate limited), and the
	// instance, which has them all.
	switch {
	case r.URL.Path == "/api/v9/users/@me":
		o.members++
		n := o.members
		o.mu.Unlock()
		return stubResponse(http.StatusOK, fmt.Sprintf(`{"id":"u%d","username":"ada"}`, n)), nil
	case strings.Contains(r.URL.Path, "/activity-instances/"):
		n := o.members
		o.mu.Unlock()
		users := make([]string, n)
		for i := range users {
			users[i] = fmt.Sprintf(`"u%d"`, i+1)
		}
		return stubResponse(http.StatusOK, `{"instance_id":"i-1","location":{"kind":"gc","channel_id":"c1","guild_id":"g1"},"users":[`+strings.Join(users, ",")+`]}`), nil
	}
	o.sent++
	o.at++
	o.most = max(o.most, o.at)
	status, release := o.status, o.release
	o.mu.Unlock()
	if release != nil {
		<-release
	}
	o.mu.Lock()
	o.at--
	o.mu.Unlock()
	body := `{"access_token":"tok"}`
	switch status {
	case http.StatusUnauthorized:
		body = `{"error":"invalid_client"}`
	case http.StatusBadRequest:
		body = `{"error":"invalid_grant"}`
	}
	return stubResponse(status, body), nil
}

func (o *oauthStub) count() (sent, at, most int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sent, o.at, o.most
}

func stubResponse(status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body))}
}

// doorServer is a Server whose Discord is stub, on clock, logging to logs.
func doorServer(t *testing.T, stub *oauthStub, clock *testkit.Clock, appID string) (*Server, *testkit.LogBuffer) {
	t.Helper()
	logs := &testkit.LogBuffer{}
	s, err := New(Config{AppID: appID, ClientSecret: "secret", BotToken: "Bot x", Bot: stubBot{transport: stub}, Games: &memGames{games: map[int64]*play.Game{}},
		Transport: stub, Now: clock.Now, Log: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s, logs
}

// exchangeFrom posts a made-up code to s from client (an IP address).
func exchangeFrom(s *Server, client string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/api/token", strings.NewReader(`{"code":"made-up","instance":"i-1"}`))
	req.RemoteAddr = client + ":40000"
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return rec
}

// TestExchangePlaces: 32 clients at once have at most 8 exchanges at
// Discord; the others wait for a place and are answered once one frees.
func TestExchangePlaces(t *testing.T) {
	stub := &oauthStub{status: http.StatusOK, release: make(chan struct{})}
	s, _ := doorServer(t, stub, testkit.NewClock(time.Unix(0, 0)), "1234")
	var wg sync.WaitGroup
	statuses := make(chan int, 32)
	for c := range 32 {
		wg.Go(func() { statuses <- exchangeFrom(s, fmt.Sprintf("10.0.0.%d", c+1)).Code })
	}
	waitFor(t, "8 exchanges at Discord", func() bool { _, at, _ := stub.count(); return at == exchangesAtOnce })
	close(stub.release)
	wg.Wait()
	close(statuses)
	for status := range statuses {
		if status != http.StatusOK {
			t.Errorf("an exchange answered %d, want 200", status)
		}
	}
	if sent, _, most := stub.count(); sent != 32 || most != exchangesAtOnce {
		t.Fatalf("%d exchanges sent, %d at once at most; want 32 and %d", sent, most, exchangesAtOnce)
	}
}

// TestExchangePerClient: one client has at most 4 requests in the
// exchange; a fifth is answered 503 at once, with a Retry-After, while
// another client's goes on.
func TestExchangePerClient(t *testing.T) {
	stub := &oauthStub{status: http.StatusOK, release: make(chan struct{})}
	s, _ := doorServer(t, stub, testkit.NewClock(time.Unix(0, 0)), "1234")
	var wg sync.WaitGroup
	for range exchangesPerClient {
		wg.Go(func() { exchangeFrom(s, "10.0.0.1") })
	}
	waitFor(t, "the client's exchanges at Discord", func() bool { _, at, _ := stub.count(); return at == exchangesPerClient })
	rec := exchangeFrom(s, "10.0.0.1")
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("a fifth request of one client: %d, Retry-After %q; want 503 with one", rec.Code, rec.Header().Get("Retry-After"))
	}
	other := make(chan int)
	go func() { other <- exchangeFrom(s, "10.0.0.2").Code }()
	waitFor(t, "another client's exchange at Discord", func() bool { _, at, _ := stub.count(); return at == exchangesPerClient+1 })
	close(stub.release)
	if code := <-other; code != http.StatusOK {
		t.Fatalf("another client's exchange: %d, want 200", code)
	}
	wg.Wait()
}

// TestExchangeSecretRefused: once Discord answers 401 for the client
// credentials, no exchange is sent but one probe a minute on the server's
// clock, the log says so once a minute, and a probe that passes lets the
// sign-ins through again.
func TestExchangeSecretRefused(t *testing.T) {
	stub := &oauthStub{status: http.StatusUnauthorized}
	clock := testkit.NewClock(time.Unix(0, 0))
	s, logs := doorServer(t, stub, clock, "1234")
	lines := func() int { return strings.Count(logs.String(), "check DISCORD_CLIENT_SECRET") }
	flood := func() {
		for c := range 100 {
			if code := exchangeFrom(s, fmt.Sprintf("10.0.1.%d", c%50)).Code; code != http.StatusBadGateway {
				t.Fatalf("a sign-in while the secret is refused: %d, want 502", code)
			}
		}
	}
	flood()
	if sent, _, _ := stub.count(); sent != 1 || lines() != 1 {
		t.Fatalf("100 sign-ins: %d sent to Discord, %d log lines; want 1 and 1", sent, lines())
	}
	clock.Advance(59 * time.Second)
	flood()
	if sent, _, _ := stub.count(); sent != 1 || lines() != 1 {
		t.Fatalf("59 s on: %d sent, %d log lines; want still 1 and 1", sent, lines())
	}
	clock.Advance(2 * time.Second)
	flood()
	if sent, _, _ := stub.count(); sent != 2 || lines() != 2 {
		t.Fatalf("61 s on: %d sent, %d log lines; want one probe and one line more", sent, lines())
	}
	stub.mu.Lock()
	stub.status = http.StatusOK
	stub.mu.Unlock()
	clock.Advance(time.Minute)
	for i := range 3 {
		if code := exchangeFrom(s, "10.0.2.1").Code; code != http.StatusOK {
			t.Fatalf("sign-in %d once Discord accepts the secret: %d, want 200", i, code)
		}
	}
	if !strings.Contains(logs.String(), "accepts the client id and secret again") {
		t.Fatal("the recovery was not logged")
	}
}

// TestExchangeFailures: past 20 failed exchanges, one a second goes on
// (on the server's clock), and the failures are logged once a minute.
func TestExchangeFailures(t *testing.T) {
	stub := &oauthStub{status: http.StatusInternalServerError}
	clock := testkit.NewClock(time.Unix(0, 0))
	s, logs := doorServer(t, stub, clock, "1234")
	busy := 0
	for c := range 100 {
		rec := exchangeFrom(s, fmt.Sprintf("10.0.3.%d", c%50))
		if rec.Code == http.StatusServiceUnavailable && rec.Header().Get("Retry-After") != "" {
			busy++
		}
	}
	lines := strings.Count(logs.String(), "arena: code exchange")
	if sent, _, _ := stub.count(); sent != failedExchangeBurst || busy != 100-failedExchangeBurst || lines != 1 {
		t.Fatalf("100 failing exchanges: %d sent, %d answered busy, %d log lines; want %d, %d and 1",
			sent, busy, lines, failedExchangeBurst, 100-failedExchangeBurst)
	}
	clock.Advance(61 * time.Second)
	for c := range 100 {
		exchangeFrom(s, fmt.Sprintf("10.0.3.%d", c%50))
	}
	if sent, _, _ := stub.count(); sent > failedExchangeBurst+int(61*failedExchangeRate) {
		t.Fatalf("%d sent after 61 s, want at most %d", sent, failedExchangeBurst+61)
	}
	if !strings.Contains(logs.String(), "failed_since_last_line=19") {
		t.Fatalf("the second line does not count the 19 held back:\n%s", logs.String())
	}
}

// TestApplicationIDFailure: while Discord fails to say the application's
// id, a flood of page loads asks it once, not once a load.
func TestApplicationIDFailure(t *testing.T) {
	stub := &oauthStub{appStatus: http.StatusInternalServerError}
	s, _ := doorServer(t, stub, testkit.NewClock(time.Unix(0, 0)), "")
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			if rec.Code != http.StatusServiceUnavailable {
				t.Errorf("the page without the application's id: %d, want 503", rec.Code)
			}
		})
	}
	wg.Wait()
	stub.mu.Lock()
	defer stub.mu.Unlock()
	if stub.appCalls != 1 {
		t.Fatalf("50 page loads asked Discord %d times, want once", stub.appCalls)
	}
}
