package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// scriptedDiscord answers each request with the next of its answers and
// records what it got.
type scriptedDiscord struct {
	mu      sync.Mutex
	answers []func(w http.ResponseWriter)
	got     []string // "METHOD path auth=… body"
	times   []time.Time
}

func (d *scriptedDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	d.mu.Lock()
	d.got = append(d.got, fmt.Sprintf("%s %s auth=%q %s", r.Method, r.URL.Path, r.Header.Get("Authorization"), body))
	d.times = append(d.times, time.Now())
	answer := func(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }
	if len(d.answers) > 0 {
		answer, d.answers = d.answers[0], d.answers[1:]
	}
	d.mu.Unlock()
	answer(w)
}

func (d *scriptedDiscord) requests() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.got...)
}

func status(code int, body string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

func tooMany(retryAfter float64, global bool) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if global {
			w.Header().Set("X-RateLimit-Global", "true")
			w.Header().Set("X-RateLimit-Scope", "global")
		}
		status(429, fmt.Sprintf(`{"message":"You are being rate limited.","retry_after":%g,"global":%v}`, retryAfter, global))(w)
	}
}

// hangUp drops the connection without an answer.
func hangUp(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}

const secretToken = "aW50ZXJhY3Rpb24tdG9rZW4tc2VjcmV0"

// withDiscord sends the test's Discord calls to d.
func withDiscord(t *testing.T, d *scriptedDiscord) *interactionREST {
	t.Helper()
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	base, err := ParseAPIBase(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &interactionREST{client: &http.Client{Transport: Rebase(base, srv.Client().Transport)}, userAgent: "test"}
}

var restIx = &discordgo.Interaction{ID: "11", AppID: "22", Token: secretToken, Type: discordgo.InteractionApplicationCommand}

func TestInteractionREST(t *testing.T) {
	reply := &callback{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: newMessage(bot.Reply{Content: "hi"}, creating)}
	msg := status(200, `{"id":"33","content":"edited"}`)
	for _, tc := range []struct {
		name     string
		answers  []func(http.ResponseWriter)
		window   time.Duration // the context's deadline from now
		call     func(ctx context.Context, c *interactionREST) error
		requests int
		wantErr  string // "" for success; else part of the error
		pastDL   bool   // the error wraps errPastDeadline
		maybe    bool   // the error is ErrMaybeDelivered
	}{
		{name: "OKRespond", call: respond(reply), requests: 1},
		{name: "OKGlobal429RetriedAtOnce", answers: []func(http.ResponseWriter){tooMany(6, true)}, window: time.Second,
			call: respond(reply), requests: 2},
		{name: "OKShort429WaitedOut", answers: []func(http.ResponseWriter){tooMany(0.2, false)}, window: time.Second,
			call: respond(reply), requests: 2},
		{name: "ErrLong429PastDeadline", answers: []func(http.ResponseWriter){tooMany(10, false)}, window: 2 * time.Second,
			call: respond(reply), requests: 1, wantErr: "rate-limited (route) for 10s", pastDL: true},
		// A callback answered 502 may have been carried out: the retry
		// meeting "already acknowledged" means it was.
		{name: "OKRespond502ThenAlreadyAcknowledged", answers: []func(http.ResponseWriter){status(502, `{"message":"502: Bad Gateway","code":0}`), status(400, `{"message":"Interaction has already been acknowledged.","code":40060}`)},
			call: respond(reply), requests: 2},
		{name: "ErrRespondAlreadyAcknowledged", answers: []func(http.ResponseWriter){status(400, `{"message":"Interaction has already been acknowledged.","code":40060}`)},
			call: respond(reply), requests: 1, wantErr: "HTTP 400 code 40060"},
		{name: "OKRespondAfterDrop", answers: []func(http.ResponseWriter){hangUp}, call: respond(reply), requests: 2},
		{name: "OKEditRetried502", answers: []func(http.ResponseWriter){status(502, `{}`), msg},
			call: func(ctx context.Context, c *interactionREST) error {
				return c.EditOriginal(ctx, restIx, newMessage(bot.Reply{Content: "edited"}, replaceAll))
			}, requests: 2},
		// A followup answered 502 is not sent again: it may be posted.
		{name: "ErrFollowup502NotRepeated", answers: []func(http.ResponseWriter){status(502, `{"message":"502: Bad Gateway","code":0}`)},
			call: func(ctx context.Context, c *interactionREST) error {
				return c.Followup(ctx, restIx, newMessage(bot.Reply{Content: "more"}, creating))
			}, requests: 1, wantErr: "POST /webhooks/{application}/{token}: HTTP 502", maybe: true},
		{name: "ErrFollowupDropNotRepeated", answers: []func(http.ResponseWriter){hangUp},
			call: func(ctx context.Context, c *interactionREST) error {
				return c.Followup(ctx, restIx, newMessage(bot.Reply{Content: "more"}, creating))
			}, requests: 1, wantErr: "no answer", maybe: true},
		{name: "ErrDeleteNotFound", answers: []func(http.ResponseWriter){status(404, `{"message":"Unknown Message","code":10008}`)},
			call:     func(ctx context.Context, c *interactionREST) error { return c.DeleteOriginal(ctx, restIx) },
			requests: 1, wantErr: "DELETE /webhooks/{application}/{token}/messages/@original: HTTP 404 code 10008, Unknown Message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &scriptedDiscord{answers: tc.answers}
			c := withDiscord(t, d)
			window := tc.window
			if window == 0 {
				window = 5 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), window)
			defer cancel()
			start := time.Now()
			err := tc.call(ctx, c)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("err=%v, want success", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("err=%v, want one saying %q", err, tc.wantErr)
			case errors.Is(err, errPastDeadline) != tc.pastDL:
				t.Fatalf("err=%v wraps errPastDeadline: %v, want %v", err, errors.Is(err, errPastDeadline), tc.pastDL)
			case errors.Is(err, bot.ErrMaybeDelivered) != tc.maybe:
				t.Fatalf("err=%v is ErrMaybeDelivered: %v, want %v", err, errors.Is(err, bot.ErrMaybeDelivered), tc.maybe)
			}
			if err != nil && strings.Contains(err.Error(), secretToken) {
				t.Fatalf("the error shows the token: %v", err)
			}
			if tc.pastDL && time.Since(start) > 500*time.Millisecond {
				t.Fatalf("gave up after %v, want at once", time.Since(start))
			}
			reqs := d.requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d:\n%s", len(reqs), tc.requests, strings.Join(reqs, "\n"))
			}
			for _, r := range reqs {
				if !strings.Contains(r, `auth=""`) {
					t.Fatalf("request %s carries an Authorization header: interaction routes need no bot token", r)
				}
			}
		})
	}
}

func respond(resp *callback) func(context.Context, *interactionREST) error {
	return func(ctx context.Context, c *interactionREST) error { return c.Respond(ctx, restIx, resp) }
}

// A context that ends mid-request gives an error without the URL.
func TestInteractionRESTTimeoutHidesURL(t *testing.T) {
	d := &scriptedDiscord{answers: []func(http.ResponseWriter){func(w http.ResponseWriter) { time.Sleep(300 * time.Millisecond) }}}
	c := withDiscord(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	content := "x"
	err := c.EditOriginal(ctx, restIx, newMessage(bot.Reply{Content: content}, replaceAll))
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err=%v, want a deadline error", err)
	}
	if strings.Contains(err.Error(), secretToken) || strings.Contains(err.Error(), "http://") {
		t.Fatalf("the error shows the URL: %v", err)
	}
}

func TestRedactTokens(t *testing.T) {
	for in, want := range map[string]string{
		`Post "http://127.0.0.1:1/api/v9/interactions/123/` + secretToken + `/callback": context deadline exceeded`: `Post "http://127.0.0.1:1/api/v9/interactions/123/{token}/callback": context deadline exceeded`,
		`Patch "https://discord.com/api/v9/webhooks/456/` + secretToken + `/messages/@original": EOF`:               `Patch "https://discord.com/api/v9/webhooks/456/{token}/messages/@original": EOF`,
		`Rate limit exceeded on https://discord.com/api/v9/webhooks/456/` + secretToken + `?wait=true`:              `Rate limit exceeded on https://discord.com/api/v9/webhooks/456/{token}?wait=true`,
		`post to channel 789: HTTP 403`: `post to channel 789: HTTP 403`,
	} {
		if got := RedactTokens(in); got != want {
			t.Errorf("RedactTokens(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// The responder gives up on a first response rate-limited past its
// deadline once, and does not ask Discord again.
func TestResponderGivesUpPastDeadline(t *testing.T) {
	d := &scriptedDiscord{answers: []func(http.ResponseWriter){tooMany(10, false)}}
	c := withDiscord(t, d)
	r := newResponder(c, restIx, nil, nil)
	for range 3 {
		if err := r.Reply(context.Background(), bot.Reply{Content: "hi"}); !errors.Is(err, errPastDeadline) {
			t.Fatalf("err=%v, want errPastDeadline", err)
		}
	}
	if err := r.Acknowledge(context.Background()); !errors.Is(err, errPastDeadline) {
		t.Fatalf("auto-defer err=%v, want errPastDeadline", err)
	}
	if n := len(d.requests()); n != 1 {
		t.Fatalf("%d requests, want the one that was rate-limited", n)
	}
}
