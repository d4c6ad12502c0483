package fakediscord_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

const (
	routeMessages = "POST /channels/{id}/messages"
	routeCallback = "POST /interactions/{id}/{token}/callback"
)

func TestFaultServerErrors(t *testing.T) {
	t.Parallel()
	t.Run("ErrInternalServerErrorBefore", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{Status: http.StatusInternalServerError})
		_, err := sess.ChannelMessageSend("720", "x")
		var re *discordgo.RESTError
		if !errors.As(err, &re) || re.Response.StatusCode != 500 || re.Message == nil || re.Message.Message != "500: Internal Server Error" {
			t.Fatalf("err=%v, want discordgo's RESTError for Discord's 500 body", err)
		}
		if got := fake.MessagesCreated("720"); got != 0 {
			t.Errorf("MessagesCreated=%d, want 0: a fault before processing creates nothing", got)
		}
		if got := fake.Requests(routeMessages); len(got) != 1 {
			t.Errorf("%d requests, want 1: discordgo retries only 502", len(got))
		}
		if got := fake.RESTErrors(); len(got) != 0 {
			t.Errorf("RESTErrors=%+v, want none for an injected fault", got)
		}
	})

	t.Run("ErrBadGatewayUntilRetriesRunOut", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, sess.MaxRestRetries+1, fakediscord.Fault{Status: http.StatusBadGateway})
		if _, err := sess.ChannelMessageSend("720", "x"); err == nil || !strings.Contains(err.Error(), "Exceeded Max retries") {
			t.Fatalf("err=%v, want discordgo to give up", err)
		}
		if got, want := len(fake.Requests(routeMessages)), sess.MaxRestRetries+1; got != want {
			t.Errorf("%d requests, want %d", got, want)
		}
		if got := fake.MessagesCreated("720"); got != 0 {
			t.Errorf("MessagesCreated=%d, want 0", got)
		}
		// The rule is used up: the next request goes through.
		if _, err := sess.ChannelMessageSend("720", "x"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("ErrServiceUnavailableAfterEditKeepsTheEdit", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		m, err := sess.ChannelMessageSend("720", "before")
		if err != nil {
			t.Fatal(err)
		}
		fake.InjectFault("PATCH /channels/720/messages/{id}", 1, fakediscord.Fault{Status: http.StatusServiceUnavailable, After: true})
		if _, err := sess.ChannelMessageEdit("720", m.ID, "after"); err == nil {
			t.Fatal("the edit answered 503 but discordgo reported success")
		}
		if got := fake.Message(m.ID); got.Content != "after" || got.Edits != 1 {
			t.Errorf("message=%q edits=%d, want the edit applied once", got.Content, got.Edits)
		}
	})

	t.Run("OKLiteralSegmentNarrowsTheRule", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault("POST /channels/721/messages", 1, fakediscord.Fault{Status: http.StatusInternalServerError})
		if _, err := sess.ChannelMessageSend("720", "x"); err != nil {
			t.Errorf("another channel was hit: %v", err)
		}
		if _, err := sess.ChannelMessageSend("721", "x"); err == nil {
			t.Error("the channel of the rule was not hit")
		}
	})
}

func TestFaultHoldAndDrop(t *testing.T) {
	t.Parallel()
	const hold = 300 * time.Millisecond

	t.Run("OKHoldBeforeProcessing", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{Hold: hold})
		m, err := sess.ChannelMessageSend("730", "x")
		if err != nil {
			t.Fatal(err)
		}
		req := fake.Requests(routeMessages)[0]
		// Timestamps are in milliseconds.
		if created := fake.Message(m.ID).Timestamp; created.Before(req.Time.Add(hold - time.Millisecond)) {
			t.Errorf("created %v after arrival, want after the %v hold", created.Sub(req.Time), hold)
		}
		if req.Fault != "hold 300ms before" || req.Status != 200 {
			t.Errorf("request=%+v", req)
		}
	})

	t.Run("OKHoldAfterProcessing", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{Hold: hold, After: true})
		m, err := sess.ChannelMessageSend("730", "x")
		if err != nil {
			t.Fatal(err)
		}
		req := fake.Requests(routeMessages)[0]
		if created := fake.Message(m.ID).Timestamp; created.After(req.Time.Add(hold / 2)) {
			t.Errorf("created %v after arrival, want at once", created.Sub(req.Time))
		}
		if took := req.Done.Sub(req.Time); took < hold {
			t.Errorf("answered after %v, want at least %v", took, hold)
		}
	})

	t.Run("ErrDropBefore", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{Drop: true})
		_, err := sess.ChannelMessageSend("730", "x")
		var re *discordgo.RESTError
		if err == nil || errors.As(err, &re) {
			t.Fatalf("err=%v, want a transport error", err)
		}
		if got := fake.MessagesCreated("730"); got != 0 {
			t.Errorf("MessagesCreated=%d, want 0", got)
		}
		if req := fake.Requests(routeMessages)[0]; req.Status != 0 || req.Done.IsZero() {
			t.Errorf("request=%+v, want status 0, done", req)
		}
	})

	t.Run("ErrDropAfterTheMessageExists", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{Drop: true, After: true})
		if _, err := sess.ChannelMessageSend("730", "x"); err == nil {
			t.Fatal("a dropped connection was reported as success")
		}
		if got, want := fake.MessagesCreated("730"), 1; got != want {
			t.Errorf("MessagesCreated=%d, want %d", got, want)
		}
	})
}

// TestFaultCallback shows what a lost answer to an interaction callback
// does with discordgo: it retries the 502, and Discord, which took the
// first callback, refuses the retry as a second acknowledgement.
func TestFaultCallback(t *testing.T) {
	t.Parallel()
	t.Run("ErrBadGatewayAfterAckRetriedAs40060", func(t *testing.T) {
		t.Parallel()
		ctx, fake, sess := setup(t)
		fake.InjectFault(routeCallback, 1, fakediscord.Fault{Status: http.StatusBadGateway, After: true})
		sess.on(t, "lost", func(s *discordgo.Session, i *discordgo.Interaction) error {
			return reply(s, i, &discordgo.InteractionResponseData{Content: "once"})
		})
		ix := fake.slash(t, ctx, member.SlashSpec{Name: "lost"})
		if got, want := restCode(sess.result(t, ix)), 40060; got != want {
			t.Errorf("handler: code %d, want %d", got, want)
		}
		reqs, err := fake.WaitRequests(ctx, routeCallback, 2)
		if err != nil {
			t.Fatal(err)
		}
		if reqs[0].Status != 502 || reqs[1].Status != 400 {
			t.Errorf("statuses %d %d, want 502 400", reqs[0].Status, reqs[1].Status)
		}
		if gap := reqs[1].Time.Sub(ix.Dispatched); gap > fakediscord.DefaultResponseDeadline {
			t.Errorf("the retry came %v after the dispatch, want within %v", gap, fakediscord.DefaultResponseDeadline)
		}
		if m, err := ix.WaitFinal(ctx, nil); err != nil || m.Content != "once" {
			t.Errorf("reply: %v %+v", err, m)
		}
	})

	t.Run("ErrHeldPastTheDeadline", func(t *testing.T) {
		t.Parallel()
		ctx, fake, sess := setup(t)
		fake.SetResponseDeadline(200 * time.Millisecond)
		fake.InjectFault(routeCallback, 1, fakediscord.Fault{Hold: 300 * time.Millisecond})
		sess.on(t, "slowlink", func(s *discordgo.Session, i *discordgo.Interaction) error {
			return reply(s, i, &discordgo.InteractionResponseData{Content: "late"})
		})
		ix := fake.slash(t, ctx, member.SlashSpec{Name: "slowlink"})
		if got, want := restCode(sess.result(t, ix)), 10062; got != want {
			t.Errorf("handler: code %d, want %d", got, want)
		}
	})
}

func TestFaultRateLimit(t *testing.T) {
	t.Parallel()
	const retry = 400 * time.Millisecond

	t.Run("OKDiscordgoWaitsAndRetries", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		events := make(chan *discordgo.RateLimit, 1)
		remove := sess.AddHandler(func(_ *discordgo.Session, e *discordgo.RateLimit) {
			select {
			case events <- e:
			default:
			}
		})
		defer remove()
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: retry}})
		if _, err := sess.ChannelMessageSend("740", "x"); err != nil {
			t.Fatal(err)
		}
		reqs := fake.Requests(routeMessages)
		if len(reqs) != 2 || reqs[0].Status != 429 || reqs[1].Status != 200 {
			t.Fatalf("requests=%+v, want a 429 then a 200", reqs)
		}
		if gap := reqs[1].Time.Sub(reqs[0].Time); gap < retry {
			t.Errorf("retried after %v, want at least retry_after %v", gap, retry)
		}
		select {
		case e := <-events:
			if e.RetryAfter != retry {
				t.Errorf("RateLimit event RetryAfter=%v, want %v", e.RetryAfter, retry)
			}
		case <-time.After(5 * time.Second):
			t.Error("no RateLimit event")
		}
		if got, want := fake.MessagesCreated("740"), 1; got != want {
			t.Errorf("MessagesCreated=%d, want %d", got, want)
		}
	})

	// Without retries discordgo returns the limit, and its bucket stays
	// locked until X-RateLimit-Reset-After: the next request waits.
	t.Run("OKUserScopeLocksTheBucket", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault("POST /channels/741/messages", 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: retry}})
		_, err := sess.ChannelMessageSend("741", "x", discordgo.WithRetryOnRatelimit(false))
		var rle *discordgo.RateLimitError
		if !errors.As(err, &rle) || rle.RetryAfter != retry {
			t.Fatalf("err=%v, want a RateLimitError with RetryAfter %v", err, retry)
		}
		if _, err := sess.ChannelMessageSend("741", "x"); err != nil {
			t.Fatal(err)
		}
		reqs := fake.Requests(routeMessages)
		if gap := reqs[1].Time.Sub(reqs[0].Time); gap < retry-50*time.Millisecond {
			t.Errorf("the next request came %v later, want discordgo to wait out the bucket (%v)", gap, retry)
		}
	})

	// A shared (per-resource) limit leaves the bucket's remaining count, so
	// discordgo does not hold back the next request.
	t.Run("OKSharedScopeLeavesTheBucketOpen", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault("POST /channels/742/messages", 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 5 * time.Second, Scope: fakediscord.ScopeShared}})
		if _, err := sess.ChannelMessageSend("742", "x", discordgo.WithRetryOnRatelimit(false)); err == nil {
			t.Fatal("no error for a 429")
		}
		start := time.Now()
		if _, err := sess.ChannelMessageSend("742", "x"); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("the next request took %v, want no wait on the bucket", took)
		}
	})

	t.Run("OKHeaders", func(t *testing.T) {
		t.Parallel()
		_, fake, _ := setup(t)
		for _, tt := range []struct {
			scope          string
			global         bool
			remaining      string
			limitHeaders   bool
			wantRetryAfter string
		}{
			{fakediscord.ScopeUser, false, "0", true, "1"},
			{fakediscord.ScopeShared, false, "4", true, "1"},
			{fakediscord.ScopeGlobal, true, "", false, "1"},
		} {
			fake.InjectFault(routeMessages, 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 250 * time.Millisecond, Scope: tt.scope, Bucket: "abcd1234"}})
			req, _ := http.NewRequest("POST", fake.URL()+"/api/v9/channels/743/messages", strings.NewReader(`{"content":"x"}`))
			req.Header.Set("Authorization", testToken)
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				Message    string  `json:"message"`
				RetryAfter float64 `json:"retry_after"`
				Global     bool    `json:"global"`
			}
			err = json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
			h := res.Header
			if err != nil || res.StatusCode != 429 || body.RetryAfter != 0.25 || body.Global != tt.global || body.Message == "" {
				t.Errorf("%s: %d %+v %v", tt.scope, res.StatusCode, body, err)
			}
			if h.Get("Retry-After") != tt.wantRetryAfter || h.Get("X-RateLimit-Scope") != tt.scope || (h.Get("X-RateLimit-Global") == "true") != tt.global {
				t.Errorf("%s: headers %v", tt.scope, h)
			}
			if tt.limitHeaders {
				if h.Get("X-RateLimit-Remaining") != tt.remaining || h.Get("X-RateLimit-Limit") != "5" ||
					h.Get("X-RateLimit-Reset-After") != "0.250" || h.Get("X-RateLimit-Bucket") != "abcd1234" || h.Get("X-RateLimit-Reset") == "" {
					t.Errorf("%s: headers %v", tt.scope, h)
				}
			} else if h.Get("X-RateLimit-Reset-After") != "" || h.Get("X-RateLimit-Remaining") != "" {
				t.Errorf("%s: headers %v, want only those of Discord's global example", tt.scope, h)
			}
		}
		if got := fake.MessagesCreated("743"); got != 0 {
			t.Errorf("MessagesCreated=%d, want 0", got)
		}
	})
}

func TestFaultPatterns(t *testing.T) {
	t.Parallel()
	_, fake, sess := setup(t)
	for _, bad := range []string{"/channels/{id}/messages", "POST channels", "POST /channels/{id}/messagez", "GET /interactions/{id}/{token}/callback"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("pattern %q was accepted", bad)
				}
			}()
			fake.InjectFault(bad, 1, fakediscord.Fault{Status: 500})
		}()
	}
	for _, f := range []fakediscord.Fault{{}, {Status: 404}, {Status: 500, Drop: true}, {RateLimit: &fakediscord.RateLimit{}, After: true}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("fault %+v was accepted", f)
				}
			}()
			fake.InjectFault(routeMessages, 1, f)
		}()
	}
	// The /api/v9 prefix and "*" are accepted; rules apply in order.
	fake.InjectFault("* /api/v9/channels/{id}/messages", 1, fakediscord.Fault{Status: 500})
	fake.InjectFault(routeMessages, 1, fakediscord.Fault{Status: 503})
	for _, want := range []int{500, 503} {
		_, err := sess.ChannelMessageSend("750", "x")
		var re *discordgo.RESTError
		if !errors.As(err, &re) || re.Response.StatusCode != want {
			t.Errorf("err=%v, want %d", err, want)
		}
	}
	fake.ClearFaults()
	fake.InjectFault(routeMessages, 5, fakediscord.Fault{Status: 500})
	fake.ClearFaults()
	if _, err := sess.ChannelMessageSend("750", "x"); err != nil {
		t.Errorf("after ClearFaults: %v", err)
	}
}
