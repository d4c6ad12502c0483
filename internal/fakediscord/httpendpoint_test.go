package fakediscord_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// seenRequest is what the test endpoint received.
type seenRequest struct {
	header        http.Header
	body          []byte
	contentLength int64
	readErr       error
}

// recordingEndpoint starts an interactions endpoint that answers every
// interaction with a deferral after checking its signature, and records
// what it received; srv delivers there, signing with the returned key.
func recordingEndpoint(t *testing.T, srv *discord, path string) (ed25519.PrivateKey, func() []seenRequest) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []seenRequest
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, seenRequest{header: r.Header.Clone(), body: body, contentLength: r.ContentLength, readErr: err})
		mu.Unlock()
		switch {
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		case !discordgo.VerifyInteraction(&http.Request{Header: r.Header, Body: io.NopCloser(bytes.NewReader(body))}, pub):
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"type":5}`)
		}
	}))
	t.Cleanup(ts.Close)
	srv.UseHTTPEndpoint(ts.URL+path, priv)
	return priv, func() []seenRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]seenRequest(nil), seen...)
	}
}

func TestHTTPEndpointReplay(t *testing.T) {
	t.Parallel()
	srv, ctx := testServer(t, fakediscord.Sharding{})
	priv, seen := recordingEndpoint(t, srv, "/interactions")
	if url, key := srv.HTTPEndpoint(); !strings.HasSuffix(url, "/interactions") || !key.Equal(priv) {
		t.Errorf("HTTPEndpoint()=%q, %v", url, key)
	}
	ix := srv.slash(t, ctx, member.SlashSpec{Name: "maze"})
	if resp, err := ix.Wait(ctx); err != nil || resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("delivery: %v %+v", err, resp)
	}
	if ix.Shard != -1 {
		t.Errorf("Shard=%d for an HTTP delivery, want -1", ix.Shard)
	}

	t.Run("OKOriginalSignature", func(t *testing.T) {
		status, _, err := srv.ReplayHTTP(ctx, ix.Interaction, false)
		if err != nil || status != 200 {
			t.Fatalf("replay: %d %v", status, err)
		}
		all := seen()
		first, replay := all[0], all[len(all)-1]
		for _, h := range []string{"X-Signature-Ed25519", "X-Signature-Timestamp"} {
			if replay.header.Get(h) != first.header.Get(h) {
				t.Errorf("%s %q, want the original %q", h, replay.header.Get(h), first.header.Get(h))
			}
		}
		if !bytes.Equal(replay.body, ix.Payload) || !bytes.Equal(first.body, ix.Payload) {
			t.Error("the replay's body differs from the delivery's")
		}
	})

	t.Run("OKFreshSignature", func(t *testing.T) {
		before := time.Now().Unix()
		if status, _, err := srv.ReplayHTTP(ctx, ix.Interaction, true); err != nil || status != 200 {
			t.Fatalf("replay: %d %v", status, err)
		}
		all := seen()
		replay := all[len(all)-1]
		ts, err := strconv.ParseInt(replay.header.Get("X-Signature-Timestamp"), 10, 64)
		if err != nil || ts < before {
			t.Errorf("timestamp %q, want a fresh one", replay.header.Get("X-Signature-Timestamp"))
		}
		if !bytes.Equal(replay.body, ix.Payload) {
			t.Error("the replay's body differs from the delivery's")
		}
	})

	t.Run("OKRepliesAreNotCallbacks", func(t *testing.T) {
		if got := srv.RESTErrors(); len(got) != 0 {
			t.Errorf("RESTErrors=%+v: a replay's answer was taken as a second acknowledgement", got)
		}
	})

	t.Run("ErrNotDeliveredOverHTTP", func(t *testing.T) {
		gw := &fakediscord.Interaction{ID: "1"}
		if _, _, err := srv.ReplayHTTP(ctx, gw, false); err == nil {
			t.Error("replayed an interaction that never went over HTTP")
		}
	})
}

func TestPostEndpointRaw(t *testing.T) {
	t.Parallel()
	srv, ctx := testServer(t, fakediscord.Sharding{})
	priv, seen := recordingEndpoint(t, srv, "/interactions")
	body := []byte(`{"type":1}`)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	valid := hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), body...)))
	tests := []struct {
		name   string
		header http.Header
		status int
	}{
		{"OKValid", http.Header{"X-Signature-Ed25519": {valid}, "X-Signature-Timestamp": {ts}}, 200},
		{"ErrNoSignature", http.Header{"X-Signature-Timestamp": {ts}}, 401},
		{"ErrNotHex", http.Header{"X-Signature-Ed25519": {"zz" + valid[2:]}, "X-Signature-Timestamp": {ts}}, 401},
		{"ErrShort", http.Header{"X-Signature-Ed25519": {valid[:64]}, "X-Signature-Timestamp": {ts}}, 401},
		{"ErrTimestampNotANumber", http.Header{"X-Signature-Ed25519": {valid}, "X-Signature-Timestamp": {"soon"}}, 401},
		{"ErrHugeContentLength", http.Header{"X-Signature-Ed25519": {valid}, "X-Signature-Timestamp": {ts}, "Content-Length": {"1099511627776"}}, 400},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, err := srv.PostEndpoint(ctx, tt.header, body)
			if err != nil || status != tt.status {
				t.Fatalf("status %d (%v), want %d", status, err, tt.status)
			}
			got := seen()[i]
			for k := range tt.header {
				if k != "Content-Length" && got.header.Get(k) != tt.header.Get(k) {
					t.Errorf("%s arrived as %q, want %q", k, got.header.Get(k), tt.header.Get(k))
				}
			}
			if want := tt.header.Get("Content-Length"); want != "" && strconv.FormatInt(got.contentLength, 10) != want {
				t.Errorf("Content-Length %d, want %s", got.contentLength, want)
			}
		})
	}
	gateway, _ := testServer(t, fakediscord.Sharding{})
	if _, _, err := gateway.PostEndpoint(ctx, nil, nil); err == nil {
		t.Error("PostEndpoint without an endpoint succeeded")
	}
}
