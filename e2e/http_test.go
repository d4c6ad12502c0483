package e2e

// End-to-end tests of the HTTP interactions endpoint: the fake Discord
// delivers interactions by signed POSTs to the App's endpoint and takes the
// response body as the callback.

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// answeredInline reports whether the bot logged writing a response of type
// typ to interaction id into the HTTP response (rather than over REST).
func answeredInline(app *testApp, id string, typ int) bool {
	for line := range strings.Lines(app.logs.String()) {
		if strings.Contains(line, `msg="interaction answered in the HTTP response"`) && strings.Contains(line, fmt.Sprintf("interaction=%s type=%d", id, typ)) {
			return true
		}
	}
	return false
}

func TestE2EHTTPEndpoint(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startHTTPApp(t)
	ctx := testContext(t)

	t.Run("OKPing", func(t *testing.T) {
		status, body, err := fake.PingEndpoint(ctx)
		if err != nil || status != 200 || strings.TrimSpace(string(body)) != `{"type":1}` {
			t.Fatalf("PING: %d %q %v, want 200 {\"type\":1}", status, body, err)
		}
	})

	t.Run("ErrBadSignature", func(t *testing.T) {
		if status, err := fake.ProbeEndpoint(ctx); err != nil || status != 401 {
			t.Fatalf("bad signature answered %d (%v), want 401", status, err)
		}
	})

	t.Run("OKEmojiInline", func(t *testing.T) {
		ix := fake.slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 21), opt("render", "emoji"))
		checkSidewinder21(t, ix)
		// It came in the HTTP response, not over the REST callback route.
		if !answeredInline(app, ix.ID, 4) {
			t.Fatal("the reply was not written into the HTTP response")
		}
	})

	t.Run("OKPNGDeferredThenEdited", func(t *testing.T) {
		ix := fake.slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 201), opt("render", "png"))
		resp, err := ix.Wait(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Type != 5 || resp.Elapsed > 2500*time.Millisecond {
			t.Fatalf("first response type %d after %v, want a deferral (5) inside 2.5 s", resp.Type, resp.Elapsed)
		}
		checkMazePNG(t, final(t, ix), 201)
		if !answeredInline(app, ix.ID, 5) {
			t.Fatal("the deferral was not written into the HTTP response")
		}
	})

	// The only rejections allowed are edits that raced the deferral the
	// bot wrote into the HTTP response: the bot retries those by design.
	for _, e := range fake.RESTErrors() {
		if e.Method != "PATCH" || !strings.HasSuffix(e.Path, "/messages/@original") || e.Code != 10015 {
			t.Fatalf("the fake rejected a request: %+v", e)
		}
	}
}
