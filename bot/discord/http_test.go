package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// stubRouter dispatches every interaction to one handler.
type stubRouter bot.Handler

func (f stubRouter) Dispatch(ctx context.Context, ix *discordgo.Interaction, respond bot.Responder) error {
	return f(ctx, &bot.Interaction{Interaction: ix, Respond: respond})
}
func (stubRouter) Definitions() []*discordgo.ApplicationCommand { return nil }

// testAutoDefer is the tests' automatic deferral: soon, so they run fast.
const testAutoDefer = 100 * time.Millisecond

// editREST also records the files of edits.
type editREST struct {
	*fakeREST
	failEdits int // the first n edits fail as Discord does before it has the deferral
}

func (f *editREST) EditOriginal(ctx context.Context, ix *discordgo.Interaction, m *message) error {
	for _, file := range m.files {
		f.record("edit file %s=%s", file.Name, file.Data)
	}
	f.mu.Lock()
	fail := f.failEdits > 0
	f.failEdits--
	f.mu.Unlock()
	if fail {
		f.record("edit rejected")
		return &restError{route: routeEdit, status: http.StatusNotFound, code: discordgo.ErrCodeUnknownWebhook, msg: "Unknown Webhook"}
	}
	return f.fakeREST.EditOriginal(ctx, ix, m)
}

type endpoint struct {
	bot  *Bot
	rest *editREST
	h    http.Handler
	priv ed25519.PrivateKey
}

// newEndpoint serves handle behind the middleware given, or, when none
// is, the automatic deferral after testAutoDefer.
func newEndpoint(t *testing.T, handle bot.Handler, mw ...bot.Middleware) *endpoint {
	t.Helper()
	session, err := NewSession("test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(mw) == 0 {
		mw = []bot.Middleware{bot.AutoDefer(testAutoDefer, slog.New(slog.DiscardHandler))}
	}
	b, err := New(Config{}, session, stubRouter(bot.Stack(handle, mw...)), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	rest := &editREST{fakeREST: &fakeREST{}}
	b.rest = rest
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := b.InteractionsHandler(pub)
	if err != nil {
		t.Fatal(err)
	}
	return &endpoint{bot: b, rest: rest, h: h, priv: priv}
}

// post sends body signed by key at ts (or as is when key is nil) and waits
// for the work the interaction started.
func (e *endpoint) post(body string, key ed25519.PrivateKey, ts time.Time) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(body))
	stamp := strconv.FormatInt(ts.Unix(), 10)
	if key != nil {
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, []byte(stamp+body))))
	}
	req.Header.Set("X-Signature-Timestamp", stamp)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	// begin's Add (under mu) precedes the response; taking mu orders it
	// before Wait for the race detector, as close does.
	e.bot.mu.Lock()
	//lint:ignore SA2001 the empty critical section is the ordering wanted
	e.bot.mu.Unlock()
	e.bot.inflight.Wait()
	return rec
}

func (e *endpoint) calls() string {
	e.rest.mu.Lock()
	defer e.rest.mu.Unlock()
	return strings.Join(e.rest.calls, "\n")
}

const (
	pingJSON    = `{"id":"1","application_id":"2","type":1,"token":"t","version":1}`
	commandJSON = `{"id":"1","application_id":"2","type":2,"token":"t","version":1,"member":{"user":{"id":"9"}},"data":{"id":"3","name":"maze","type":1}}`
	buttonJSON  = `{"id":"1","application_id":"2","type":3,"token":"t","version":1,"member":{"user":{"id":"9"}},"data":{"custom_id":"solve:x","component_type":2}}`
)

func replyWith(reply bot.Reply) bot.Handler {
	return func(ctx context.Context, in *bot.Interaction) error {
		if err := in.Respond.Reply(ctx, reply); err != nil {
			panic(err)
		}
		return nil
	}
}

// decode reads a 200 JSON answer.
func decode(t *testing.T, rec *httptest.ResponseRecorder) (typ int, data map[string]any) {
	t.Helper()
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d (%s) body %q, want 200 JSON", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var resp struct {
		Type int            `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	return resp.Type, resp.Data
}

func TestInteractionsEndpointRejects(t *testing.T) {
	called := false
	e := newEndpoint(t, func(context.Context, *bot.Interaction) error { called = true; return nil })
	_, other, _ := ed25519.GenerateKey(nil)
	now := time.Now()
	for _, tc := range []struct {
		name string
		send func() *httptest.ResponseRecorder
		want int
	}{
		{"ErrBadSignature", func() *httptest.ResponseRecorder { return e.post(pingJSON, other, now) }, http.StatusUnauthorized},
		{"ErrNoSignature", func() *httptest.ResponseRecorder { return e.post(pingJSON, nil, now) }, http.StatusUnauthorized},
		{"ErrStaleTimestamp", func() *httptest.ResponseRecorder { return e.post(pingJSON, e.priv, now.Add(-6*time.Minute)) }, http.StatusUnauthorized},
		{"ErrFutureTimestamp", func() *httptest.ResponseRecorder { return e.post(pingJSON, e.priv, now.Add(6*time.Minute)) }, http.StatusUnauthorized},
		{"ErrTamperedBody", func() *httptest.ResponseRecorder {
			stamp := strconv.FormatInt(now.Unix(), 10)
			req := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(commandJSON))
			req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(e.priv, []byte(stamp+pingJSON))))
			req.Header.Set("X-Signature-Timestamp", stamp)
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, req)
			return rec
		}, http.StatusUnauthorized},
		{"ErrBadJSON", func() *httptest.ResponseRecorder { return e.post(`{"type":`, e.priv, now) }, http.StatusBadRequest},
		{"ErrTooBig", func() *httptest.ResponseRecorder {
			return e.post(`{"type":2,"pad":"`+strings.Repeat("x", maxInteractionBody)+`"}`, e.priv, now)
		}, http.StatusRequestEntityTooLarge},
		{"ErrGet", func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/interactions", nil))
			return rec
		}, http.StatusMethodNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rec := tc.send(); rec.Code != tc.want {
				t.Fatalf("status %d body %q, want %d", rec.Code, rec.Body, tc.want)
			}
		})
	}
	if called || e.calls() != "" {
		t.Fatalf("a rejected request reached the router (%v) or REST (%q)", called, e.calls())
	}
}

func TestInteractionsEndpointPing(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *bot.Interaction) error { panic("PING dispatched") })
	rec := e.post(pingJSON, e.priv, time.Now())
	if typ, _ := decode(t, rec); typ != 1 || strings.TrimSpace(rec.Body.String()) != `{"type":1}` {
		t.Fatalf("PING answered %q, want {\"type\":1}", rec.Body)
	}
}

func TestInteractionsEndpointAnswers(t *testing.T) {
	png := bot.Reply{Content: "maze", Files: []bot.File{{Name: "maze.png", Data: []byte("PNG")}}}
	for _, tc := range []struct {
		name      string
		body      string
		handle    bot.Handler
		stopping  bool
		wantType  int
		wantFlags float64
		wantData  string // content in the HTTP body
		wantREST  string
	}{
		{name: "OKReplyInline", body: commandJSON, handle: replyWith(bot.Reply{Content: "hello"}),
			wantType: 4, wantData: "hello"},
		{name: "OKEphemeralInline", body: commandJSON, handle: replyWith(bot.Reply{Content: "psst", Ephemeral: true}),
			wantType: 4, wantFlags: 64, wantData: "psst"},
		{name: "OKUpdateInline", body: buttonJSON, handle: func(ctx context.Context, in *bot.Interaction) error {
			return in.Respond.Update(ctx, bot.Reply{Content: "updated"})
		}, wantType: 7, wantData: "updated"},
		{name: "OKFilesDeferThenEdit", body: commandJSON, handle: replyWith(png),
			wantType: 5, wantREST: "edit file maze.png=PNG\nedit content=\"maze\" attachments=[maze.png]"},
		{name: "OKPrivateFilesDeferPrivately", body: commandJSON, handle: replyWith(bot.Reply{Content: "s", Ephemeral: true, Files: png.Files}),
			wantType: 5, wantFlags: 64, wantREST: "edit file maze.png=PNG\nedit content=\"s\" attachments=[maze.png]"},
		{name: "OKButtonFilesDeferUpdate", body: buttonJSON, handle: func(ctx context.Context, in *bot.Interaction) error {
			return in.Respond.Update(ctx, png)
		}, wantType: 6, wantREST: "edit file maze.png=PNG\nedit content=\"maze\" attachments=[maze.png]"},
		{name: "OKSlowHandlerAutoDeferred", body: commandJSON, handle: func(ctx context.Context, in *bot.Interaction) error {
			time.Sleep(300 * time.Millisecond)
			return in.Respond.Reply(ctx, bot.Reply{Content: "late"})
		}, wantType: 5, wantREST: `edit content="late" attachments=[]`},
		{name: "OKFollowupOverREST", body: commandJSON, handle: func(ctx context.Context, in *bot.Interaction) error {
			_ = in.Respond.Reply(ctx, bot.Reply{Content: "first"})
			return in.Respond.Followup(ctx, bot.Reply{Content: "second"})
		}, wantType: 4, wantData: "first", wantREST: `followup flags=0 content="second"`},
		{name: "OKRefusedWhileStopping", body: commandJSON, handle: replyWith(bot.Reply{Content: "not reached"}), stopping: true,
			wantType: 4, wantFlags: 64, wantData: "⏳ mazebot is restarting. Please try again in a few seconds."},
		{name: "OKPanicGuarded", body: commandJSON, handle: func(ctx context.Context, in *bot.Interaction) error {
			_ = in.Respond.Reply(ctx, bot.Reply{Content: "before"})
			panic("after the reply")
		}, wantType: 4, wantData: "before"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEndpoint(t, tc.handle)
			e.bot.stopping = tc.stopping
			typ, data := decode(t, e.post(tc.body, e.priv, time.Now()))
			flags, _ := data["flags"].(float64)
			content, _ := data["content"].(string)
			if typ != tc.wantType || flags != tc.wantFlags || content != tc.wantData {
				t.Fatalf("answered type %d flags %v content %q, want type %d flags %v content %q", typ, flags, content, tc.wantType, tc.wantFlags, tc.wantData)
			}
			if got := e.calls(); got != tc.wantREST {
				t.Fatalf("REST requests:\n%s\nwant:\n%s", got, tc.wantREST)
			}
		})
	}
}

func TestInteractionsEndpointEditRetriesUntilAcknowledged(t *testing.T) {
	e := newEndpoint(t, replyWith(bot.Reply{Content: "m", Files: []bot.File{{Name: "a.png", Data: []byte("P")}}}))
	e.rest.failEdits = 2
	if typ, _ := decode(t, e.post(commandJSON, e.priv, time.Now())); typ != 5 {
		t.Fatalf("type %d, want a deferral", typ)
	}
	want := "edit file a.png=P\nedit rejected\nedit file a.png=P\nedit rejected\nedit file a.png=P\nedit content=\"m\" attachments=[a.png]"
	if got := e.calls(); got != want {
		t.Fatalf("REST requests:\n%s\nwant:\n%s", got, want)
	}
}

// TestInteractionsEndpointEditAfterDeferRetries: a handler that defers
// (the deferral goes back in the HTTP body) and then answers at once has
// its edit refused while Discord has yet to apply the deferral; the edit
// is retried until it lands, not left "thinking…" (issue 16 row 23).
func TestInteractionsEndpointEditAfterDeferRetries(t *testing.T) {
	e := newEndpoint(t, func(ctx context.Context, in *bot.Interaction) error {
		if err := in.Respond.Defer(ctx, true); err != nil {
			return err
		}
		return in.Respond.Reply(ctx, bot.Reply{Content: "started", Ephemeral: true})
	})
	e.rest.failEdits = 2
	if typ, data := decode(t, e.post(commandJSON, e.priv, time.Now())); typ != 5 || data["flags"] != float64(64) {
		t.Fatalf("type %d %v, want a private deferral", typ, data)
	}
	want := "edit rejected\nedit rejected\nedit content=\"started\" attachments=[]"
	if got := e.calls(); got != want {
		t.Fatalf("REST requests:\n%s\nwant:\n%s", got, want)
	}
}

func TestInteractionsEndpointNoAnswer(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *bot.Interaction) error { return nil })
	rec := e.post(commandJSON, e.priv, time.Now())
	if rec.Code != http.StatusAccepted || rec.Body.Len() != 0 {
		t.Fatalf("status %d body %q, want an empty 202 when the router answered nothing", rec.Code, rec.Body)
	}
}

func TestParsePublicKey(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(nil)
	good := hex.EncodeToString(pub)
	if k, err := ParsePublicKey(" " + good + "\n"); err != nil || !bytes.Equal(k, pub) {
		t.Fatalf("ParsePublicKey(good) = %x, %v", k, err)
	}
	for _, bad := range []string{"", "zz" + good[2:], good[:62], good + "00"} {
		_, err := ParsePublicKey(bad)
		if err == nil {
			t.Fatalf("ParsePublicKey(%q) succeeded", bad)
		}
		if bad != "" && strings.Contains(err.Error(), bad) {
			t.Fatalf("the error repeats the key: %v", err)
		}
	}
	if _, err := (&Bot{}).InteractionsHandler(ed25519.PublicKey{1, 2}); err == nil {
		t.Fatal("a 2-byte key was accepted")
	}
}

func TestInteractionsEndpointBackstopDefers(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 2.5 s")
	}
	e := newEndpoint(t, func(ctx context.Context, in *bot.Interaction) error {
		time.Sleep(inlineWait + 200*time.Millisecond)
		return in.Respond.Reply(ctx, bot.Reply{Content: "slow"})
	}, bot.AutoDefer(time.Minute, slog.New(slog.DiscardHandler))) // as if the auto-defer never fired
	start := time.Now()
	typ, _ := decode(t, e.post(buttonJSON, e.priv, time.Now()))
	if typ != 6 {
		t.Fatalf("type %d, want the forced deferral of a button (6)", typ)
	}
	if got, want := e.calls(), `followup flags=0 content="slow"`; got != want {
		t.Fatalf("REST requests:\n%s\nwant:\n%s", got, want)
	}
	if elapsed := time.Since(start); elapsed < inlineWait {
		t.Fatalf("answered after %v, before the backstop", elapsed)
	}
}
