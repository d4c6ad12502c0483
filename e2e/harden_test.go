package e2e

// End-to-end tests of the bot under abuse and faults (issue 9): replayed
// interactions, requests refused from their headers, rate-limited first
// responses, timeouts that must not leak tokens into logs, and malformed
// gateway payloads.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

const callbackRoute = "POST /interactions/{id}/{token}/callback"

// callbacksOf lists the fake's requests to ix's callback route.
func (d *discord) callbacksOf(ix *member.Interaction) []fakediscord.Request {
	return d.Requests("POST /interactions/" + ix.ID + "/{token}/callback")
}

// signedPost POSTs body to url signed with key now, as Discord (or someone
// who captured a request) would.
func signedPost(ctx context.Context, t *testing.T, url string, key ed25519.PrivateKey, body []byte) int {
	t.Helper()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), body...))))
	req.Header.Set("X-Signature-Timestamp", ts)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestE2EReplayHTTP (issue 9, row 1): a validly signed interaction POSTed
// again, with its original or a fresh signature, to the same process or
// another sharing the database, runs nothing and is refused.
func TestE2EReplayHTTP(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startHTTPApp(t)
	ctx := testContext(t)
	ix := fake.slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 201), opt("render", "png"))
	final(t, ix)
	edits := len(fake.Requests("PATCH /webhooks/{app}/{token}/messages/@original"))
	for _, fresh := range []bool{false, true} {
		status, body, err := fake.ReplayHTTP(ctx, ix.Interaction, fresh)
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusConflict {
			t.Fatalf("replay (fresh signature %v) answered %d %q, want 409", fresh, status, body)
		}
	}
	// A second process on the same database knows it too.
	cfg := fake.config(app.dbPath)
	cfg.HTTPAddr, cfg.PublicKey = "127.0.0.1:0", fake.httpKey(t).Public().(ed25519.PublicKey)
	other := fake.launch(t, cfg)
	if status := signedPost(ctx, t, "http://"+other.HTTPAddr()+"/interactions", fake.httpKey(t), ix.Payload); status != http.StatusConflict {
		t.Fatalf("replay to another process answered %d, want 409", status)
	}
	if got := len(fake.Requests("PATCH /webhooks/{app}/{token}/messages/@original")); got != edits {
		t.Fatalf("the replays edited the reply again: %d edits, want %d", got, edits)
	}
	waitLog(t, app, 2, "dropped a replayed interaction", "interaction="+ix.ID)
	// Something new still runs.
	checkSidewinder21(t, fake.slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 21), opt("render", "emoji")))
}

// httpKey is the key the fake signs HTTP deliveries with.
func (d *discord) httpKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, key := d.HTTPEndpoint()
	if key == nil {
		t.Fatal("the fake has no HTTP endpoint")
	}
	return key
}

// TestE2EReplayGateway (row 1): an INTERACTION_CREATE dispatched again is
// dropped with a log line; the bot does not answer it twice.
func TestE2EReplayGateway(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startApp(t)
	ix := fake.slash(t, "maze", opt("size", 11))
	final(t, ix)
	if _, err := fake.SendDispatch(0, "INTERACTION_CREATE", ix.Payload); err != nil {
		t.Fatal(err)
	}
	waitLog(t, app, 1, "dropped a replayed interaction", "interaction="+ix.ID)
	if n := len(fake.callbacksOf(ix)); n != 1 {
		t.Fatalf("%d callbacks for the interaction, want 1", n)
	}
	if errs := fake.RESTErrors(); len(errs) > 0 {
		t.Fatalf("the fake rejected requests: %+v", errs)
	}
}

// rawProbe sends head (request line and headers, no body) on a new
// connection and keeps the connection open, as a client trickling its body
// would, and reads the answer, failing if it takes longer than within.
func rawProbe(t *testing.T, addr, head string, within time.Duration) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(within)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer within %v: %v", within, err)
	}
	res.Body.Close()
	return res
}

// TestE2EHTTPEndpointRefusesEarly (row 2): a request whose signature
// headers are missing, malformed or stale, or whose body is announced too
// large, is refused within a second without the body being read, and the
// connection closed; signed interactions go on being answered.
func TestE2EHTTPEndpointRefusesEarly(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startHTTPApp(t)
	endpoint, _ := fake.HTTPEndpoint()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	now := strconv.FormatInt(time.Now().Unix(), 10)
	goodSig := strings.Repeat("ab", ed25519.SignatureSize) // well-formed, wrong
	for _, tc := range []struct {
		name    string
		headers string
		length  int
		want    int
	}{
		{"ErrNoSignature", "X-Signature-Timestamp: " + now + "\r\n", 100000, 401},
		{"ErrNoTimestamp", "X-Signature-Ed25519: " + goodSig + "\r\n", 100000, 401},
		{"ErrSignatureNotHex", "X-Signature-Ed25519: " + strings.Repeat("zz", ed25519.SignatureSize) + "\r\nX-Signature-Timestamp: " + now + "\r\n", 100000, 401},
		{"ErrSignatureShort", "X-Signature-Ed25519: " + goodSig[:126] + "\r\nX-Signature-Timestamp: " + now + "\r\n", 100000, 401},
		{"ErrTimestampNotNumber", "X-Signature-Ed25519: " + goodSig + "\r\nX-Signature-Timestamp: soon\r\n", 100000, 401},
		{"ErrTimestampStale", "X-Signature-Ed25519: " + goodSig + "\r\nX-Signature-Timestamp: " + strconv.FormatInt(time.Now().Add(-10*time.Minute).Unix(), 10) + "\r\n", 100000, 401},
		{"ErrBodyTooLarge", "X-Signature-Ed25519: " + goodSig + "\r\nX-Signature-Timestamp: " + now + "\r\n", 10 << 20, 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n", u.RequestURI(), u.Host, tc.length, tc.headers)
			res := rawProbe(t, u.Host, head, time.Second)
			if res.StatusCode != tc.want || !res.Close {
				t.Fatalf("answered %d (Connection: close %v), want %d and the connection closed", res.StatusCode, res.Close, tc.want)
			}
		})
	}
	t.Run("ErrSignedButMalformed", func(t *testing.T) {
		body := []byte(`{"id":"1300000000000000001","application_id":"` + fakediscord.DefaultAppID + `","type":2,"token":"x","version":1}`)
		if status := signedPost(testContext(t), t, endpoint, fake.httpKey(t), body); status != http.StatusBadRequest {
			t.Fatalf("a signed interaction without data or user answered %d, want 400", status)
		}
		waitLog(t, app, 1, "dropped a malformed interaction")
	})
	checkSidewinder21(t, fake.slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 21), opt("render", "emoji")))
}

// TestE2ERateLimitedFirstResponse (row 8): first responses are never slept
// on past their deadline.
func TestE2ERateLimitedFirstResponse(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startApp(t)
	// Interaction routes are exempt from the global limit: a global 429
	// there is retried at once, and every member is answered in time.
	t.Run("OKGlobal429", func(t *testing.T) {
		fake.InjectFault(callbackRoute, 3, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 6 * time.Second, Scope: fakediscord.ScopeGlobal}})
		var wg sync.WaitGroup
		for i, user := range []string{"1300000000000000101", "1300000000000000102", "1300000000000000103"} {
			wg.Go(func() {
				ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", UserID: user, Options: []member.Option{opt("size", 9+2*i)}})
				if err != nil {
					t.Error(err)
					return
				}
				resp, err := ix.Wait(testContext(t))
				if err != nil || resp.Type != 4 {
					t.Errorf("member %d: %+v, %v (rejections %v), want an answer in time", i, resp, err, ix.Rejections())
				}
			})
		}
		wg.Wait()
	})
	// A retry_after that ends in time is waited out, not through
	// discordgo's bucket.
	t.Run("OKShortRouteLimit", func(t *testing.T) {
		fake.InjectFault(callbackRoute, 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 500 * time.Millisecond}})
		ix := fake.slash(t, "maze", opt("size", 13))
		if resp, err := ix.Wait(testContext(t)); err != nil || resp.Type != 4 {
			t.Fatalf("%+v, %v (rejections %v), want an answer in time", resp, err, ix.Rejections())
		}
		reqs := fake.callbacksOf(ix)
		if len(reqs) != 2 || reqs[0].Status != 429 || reqs[1].Time.Sub(reqs[0].Time) < 500*time.Millisecond {
			t.Fatalf("callbacks %+v, want a 429 and a retry at least 500 ms later", reqs)
		}
	})
	// A longer one cannot end in time: give up at once, say so in the log,
	// and ask Discord no more.
	t.Run("ErrLongRouteLimit", func(t *testing.T) {
		fake.InjectFault(callbackRoute, 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 10 * time.Second}})
		ix := fake.slash(t, "maze", opt("size", 15))
		waitLog(t, app, 1, "the first response cannot be sent before the deadline", "interaction="+ix.ID)
		if reqs := fake.callbacksOf(ix); len(reqs) != 1 || reqs[0].Status != 429 {
			t.Fatalf("callbacks %+v, want only the rate-limited one", reqs)
		}
		if reqs := fake.callbacksOf(ix)[0]; time.Since(reqs.Time) > 3*time.Second {
			t.Fatalf("gave up %v after the 429, want within the response window", time.Since(reqs.Time))
		}
		// The bot is not held up: the member's next command is answered.
		if msg := final(t, fake.slash(t, "maze", opt("size", 17))); !strings.Contains(msg.Text(), "17×17") {
			t.Fatalf("the next /maze gave %q", msg.Text())
		}
	})
}

// TestE2ETimeoutsLeaveNoTokens (row 6): REST calls that time out while the
// fake holds them are logged without the URL, which carries the
// interaction's token; the logs hold no token or secret at all.
func TestE2ETimeoutsLeaveNoTokens(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	const short = 300 * time.Millisecond
	app := fake.startApp(t, hastyCallback("hastycallback", short), hastyEdit("hastyedit", short))
	// One at a time, so each fault strikes the request it is meant for.
	// The member is told something went wrong, in a second try: in the
	// first response, or privately after the public deferral.
	hold := fakediscord.Fault{Hold: 2 * time.Second}
	fake.InjectFault(callbackRoute, 1, hold)
	a := fake.slash(t, "hastycallback")
	if msg := final(t, a); !strings.Contains(msg.Text(), "Sorry") {
		t.Fatalf("/%s ended with %q, want the apology", a.CommandName, msg.Text())
	}
	fake.InjectFault("PATCH /webhooks/{app}/{token}/messages/@original", 1, hold)
	b := fake.slash(t, "hastyedit")
	if msg, err := b.WaitFollowup(testContext(t), 0); err != nil || !strings.Contains(msg.Text(), "Sorry") {
		t.Fatalf("/%s followup %+v, %v, want the apology", b.CommandName, msg, err)
	}
	waitLog(t, app, 2, "handler failed", "context deadline exceeded")
	app.stop()
	if leaked := fake.leakedSecrets(app.logs.String(), e2eSecret); len(leaked) > 0 {
		t.Fatalf("secrets in the logs: %v", leaked)
	}
}

// TestE2EMalformedInteractions (row 7): INTERACTION_CREATE dispatches that
// are null, blank, half-filled or wrong-typed are dropped with a log line,
// also while the bot is shutting down, and never crash it.
func TestE2EMalformedInteractions(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	app := fake.startApp(t, heldCommand("hold", started, release, "released"))
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	user := `"member":{"user":{"id":"1300000000000000200","username":"x"}}`
	payloads := []string{
		`null`,
		`{}`,
		`{"id":123,"type":"command","token":7}`,
		`{"id":"1300000000000000201","application_id":"` + fakediscord.DefaultAppID + `","type":2,"token":"t",` + user + `}`,
		`{"id":"1300000000000000202","application_id":"` + fakediscord.DefaultAppID + `","type":2,"token":"t",` + user + `,"data":"maze"}`,
		`{"id":"1300000000000000203","application_id":"` + fakediscord.DefaultAppID + `","type":3,"token":"t",` + user + `,"data":{"component_type":2}}`,
		`{"id":"1300000000000000204","application_id":"` + fakediscord.DefaultAppID + `","type":99,"token":"t",` + user + `,"data":{}}`,
		`{"id":"1300000000000000205","application_id":"` + fakediscord.DefaultAppID + `","type":2,"token":"t","data":{"name":"maze","type":1}}`,
	}
	for _, p := range payloads {
		if _, err := fake.SendDispatch(0, "INTERACTION_CREATE", json.RawMessage(p)); err != nil {
			t.Fatal(err)
		}
	}
	// All but type 99: an interaction of a type newer than the bot, with
	// what a reply needs, is answered privately (issue 36), not dropped.
	waitLog(t, app, len(payloads)-1, "dropped a malformed interaction")
	if msg := final(t, fake.slash(t, "maze", opt("size", 9))); !strings.Contains(msg.Text(), "9×9") {
		t.Fatalf("after the malformed dispatches /maze gave %q", msg.Text())
	}

	// While it shuts down, waiting for a reply in flight.
	held := fake.slash(t, "hold")
	<-started
	app.cancel()
	waitLog(t, app, 1, "stopping: no new interactions")
	for _, p := range payloads[:2] {
		if _, err := fake.SendDispatch(0, "INTERACTION_CREATE", json.RawMessage(p)); err != nil {
			t.Fatal(err)
		}
	}
	waitLog(t, app, len(payloads)-1+2, "dropped a malformed interaction")
	late := fake.slash(t, "maze", opt("size", 11))
	if msg := final(t, late); !msg.Ephemeral() || !strings.Contains(msg.Text(), "restarting") {
		t.Fatalf("during shutdown /maze gave %q (ephemeral %v), want the restarting notice", msg.Text(), msg.Ephemeral())
	}
	close(release)
	if msg := final(t, held); msg.Text() != "released" {
		t.Fatalf("the held reply is %q", msg.Text())
	}
}
