package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

const (
	// maxInteractionBody is the largest body read. Most interactions are a
	// few KiB; the largest Discord can send mazebot is its message command
	// on a big message, which carries that message whole: 4000 characters
	// of content and 6000 of embeds (up to 12 bytes each when JSON escapes
	// them), 10 attachments, and a user object per mention, about 200 KB in
	// all. This leaves more than twice that.
	maxInteractionBody = 512 << 10
	// smallBody: a body up to this size is always read. Nearly every
	// interaction is one (a command is 2 to 4 KiB, a click carries the
	// message it is on: about 12 KiB for a full emoji maze), and hundreds
	// of them at once hold only megabytes.
	smallBody = 32 << 10
	// bigBodyBudget bounds the bytes of larger bodies being read at once,
	// before their signatures can be checked: 16 at the largest size. A
	// request that does not fit is refused at once (503), not queued.
	bigBodyBudget = 8 << 20
	// MaxHeaderBytes bounds a request's headers (net/http allows 1 MiB).
	// Discord's are well under 2 KiB.
	MaxHeaderBytes = 16 << 10
	// MaxConnections caps the endpoint's open connections (see
	// LimitListener). An idle or refused one costs some 20 KiB (goroutine,
	// buffers), so the cap holds that to about 20 MiB; Discord needs far
	// fewer, as each interaction is one request answered within 3 s.
	MaxConnections = 1024
	// maxClockSkew: VerifyInteraction does not look at the timestamp, so a
	// captured request could be replayed forever without this bound.
	maxClockSkew = 5 * time.Minute
	// inlineWait is how long a request waits for the first callback; the
	// auto-defer (1.5 s by default) normally answers well before, and Discord
	// gives up after 3 s.
	inlineWait = 2500 * time.Millisecond
	// inlineGrace is the extra wait for the deferral forced at inlineWait.
	inlineGrace = 300 * time.Millisecond
)

// ParsePublicKey reads the application's public key as the Developer Portal
// shows it (General Information → Public Key: 64 hex digits). Errors do not
// repeat the value.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("DISCORD_PUBLIC_KEY is not set: the HTTP interactions endpoint needs the application's public key to verify requests")
	}
	k, err := hex.DecodeString(s)
	if err != nil || len(k) != ed25519.PublicKeySize {
		return nil, errors.New("DISCORD_PUBLIC_KEY is not a valid public key: want the 64 hex digits shown under General Information → Public Key")
	}
	return ed25519.PublicKey(k), nil
}

// InteractionsServer serves POST /interactions (InteractionsHandler) on
// ln, capped at MaxConnections (ConnLimit), with timeouts that keep slow
// clients from holding it. Any other path is answered 404 and its
// connection closed: it has no business being kept alive.
func (b *Bot) InteractionsServer(publicKey ed25519.PublicKey, ln net.Listener) (*http.Server, net.Listener, error) {
	handler, err := b.InteractionsHandler(publicKey)
	if err != nil {
		return nil, nil, err
	}
	limit := LimitListener(ln, MaxConnections)
	mux := http.NewServeMux()
	mux.Handle("/interactions", handler)
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Connection", "close")
		http.Error(w, "not found: Discord posts interactions to /interactions", http.StatusNotFound)
	})
	srv := &http.Server{
		Handler:           mux,
		ConnState:         limit.ConnState,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(b.log.Handler(), slog.LevelWarn),
	}
	return srv, limit, nil
}

// InteractionsHandler serves Discord's Interactions Endpoint URL: it checks
// the Ed25519 signature and its timestamp, answers PING, and runs other
// interactions through the same dispatch as the gateway, writing the first
// response into the HTTP response body. Later replies (edits, followups) go
// over REST as usual.
func (b *Bot) InteractionsHandler(publicKey ed25519.PublicKey) (http.Handler, error) {
	if len(publicKey) != ed25519.PublicKeySize {
		return nil, errors.New("interactions endpoint: the public key must be 32 bytes")
	}
	return &interactionsHandler{b: b, key: publicKey, now: time.Now, budget: &readBudget{left: bigBodyBudget}}, nil
}

type interactionsHandler struct {
	b      *Bot
	key    ed25519.PublicKey
	now    func() time.Time
	budget *readBudget
}

// ServeHTTP refuses what it can from the headers alone before reading a
// byte of the body (a missing, malformed or stale signature, a body larger
// than allowed), then reads the body within a memory budget, verifies the
// signature, and dispatches.
func (h *interactionsHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		refuse(w, http.StatusMethodNotAllowed, "use POST")
		return
	}
	sig, ts, why := h.signatureHeaders(req)
	if why != "" {
		// Discord probes with bad signatures on purpose: routine, so debug.
		h.b.log.Debug("interactions endpoint: refused from the headers", "reason", why, "remote", req.RemoteAddr)
		refuse(w, http.StatusUnauthorized, "invalid request signature")
		return
	}
	body, status := h.readBody(w, req)
	if status != 0 {
		h.b.log.Debug("interactions endpoint: refused the body", "status", status, "length", req.ContentLength, "remote", req.RemoteAddr)
		refuse(w, status, http.StatusText(status))
		return
	}
	msg := make([]byte, 0, len(ts)+len(body))
	if !ed25519.Verify(h.key, append(append(msg, ts...), body...), sig) {
		h.b.log.Debug("interactions endpoint: rejected an unverified request", "remote", req.RemoteAddr)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var head struct {
		Type discordgo.InteractionType `json:"type"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		http.Error(w, "invalid JSON", http.StatusBadRequest)
		return
	}
	if head.Type == discordgo.InteractionPing {
		writeResponse(w, &callback{Type: discordgo.InteractionResponsePong})
		return
	}
	ix, unknown, err := decodeInteraction(body)
	h.b.unknown.report(unknown)
	if err != nil || ix == nil {
		h.b.log.Warn("dropped a malformed interaction", "reason", "undecodable", "err", err)
		http.Error(w, "invalid interaction", http.StatusBadRequest)
		return
	}
	h.b.answerInline(w, req, ix)
}

// signatureHeaders reads X-Signature-Ed25519 (64 bytes in hex) and
// X-Signature-Timestamp (Unix seconds within maxClockSkew of now), or says
// what is wrong with them.
func (h *interactionsHandler) signatureHeaders(req *http.Request) (sig []byte, ts, why string) {
	hexSig, ts := req.Header.Get("X-Signature-Ed25519"), req.Header.Get("X-Signature-Timestamp")
	if hexSig == "" || ts == "" {
		return nil, "", "no signature or timestamp"
	}
	if len(hexSig) != 2*ed25519.SignatureSize {
		return nil, "", "signature of the wrong length"
	}
	sig, err := hex.DecodeString(hexSig)
	if err != nil {
		return nil, "", "signature not hex"
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return nil, "", "timestamp not a number"
	}
	// VerifyInteraction does not look at the timestamp, so a captured
	// request could be replayed forever without this bound.
	if age := h.now().Sub(time.Unix(secs, 0)); age > maxClockSkew || age < -maxClockSkew {
		return nil, "", "timestamp out of the window"
	}
	return sig, ts, ""
}

// readBody reads a body whose signature headers looked right, or returns
// the status to refuse it with: 413 when it says it is too large (nothing
// is read), 503 when larger bodies already being read hold the budget, 400
// when it does not arrive whole.
func (h *interactionsHandler) readBody(w http.ResponseWriter, req *http.Request) ([]byte, int) {
	n := req.ContentLength
	if n > maxInteractionBody {
		return nil, http.StatusRequestEntityTooLarge
	}
	reserve := n
	if n < 0 {
		reserve = maxInteractionBody // chunked: the length is unknown
	}
	if reserve > smallBody {
		if !h.budget.take(reserve) {
			return nil, http.StatusServiceUnavailable
		}
		defer h.budget.give(reserve)
	}
	if n < 0 {
		body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxInteractionBody))
		if err != nil {
			if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
				return nil, http.StatusRequestEntityTooLarge
			}
			return nil, http.StatusBadRequest
		}
		return body, 0
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(req.Body, body); err != nil {
		return nil, http.StatusBadRequest
	}
	return body, 0
}

// refuse answers status without reading the body and closes the
// connection: with the connection kept, net/http would first read and
// discard up to 256 KiB of the unread body, at the client's pace.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// readBudget is the bytes that larger bodies being read may hold at once.
type readBudget struct {
	mu   sync.Mutex
	left int64
}

func (b *readBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		return false
	}
	b.left -= n
	return true
}

func (b *readBudget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.left += n
}

// answerInline dispatches ix and writes its first callback as the HTTP
// response. An interaction handled before is refused 409, a malformed one
// 400. Nothing by the deadline: 202, which leaves the callback to the REST
// route (where a late one then goes).
func (b *Bot) answerInline(w http.ResponseWriter, req *http.Request, ix *discordgo.Interaction) {
	sink := &inlineSink{ch: make(chan *callback, 1), written: make(chan struct{})}
	// Also on the error paths: a responder waiting to edit must not hang.
	defer close(sink.written)
	r := newResponder(b.rest, ix, sink, b.log)
	done := make(chan struct{})
	var out outcome // written before done closes
	go func() {
		defer close(done)
		out = b.dispatch(r)
	}()
	backstop := time.NewTimer(inlineWait)
	defer backstop.Stop()
	var resp *callback
	select {
	case resp = <-sink.ch:
	case <-done:
	case <-req.Context().Done():
	case <-backstop.C:
		// The auto-defer should have answered already; force it once more.
		go func() {
			ctx, cancel := context.WithTimeout(b.work, 3*time.Second)
			defer cancel()
			if err := r.Acknowledge(ctx); err != nil {
				b.log.Warn("auto-defer", "interaction", ix.ID, "err", err)
			}
		}()
		select {
		case resp = <-sink.ch:
		case <-done:
		case <-req.Context().Done():
		case <-time.After(inlineGrace):
		}
	}
	if resp == nil {
		// Stop waiting; a callback offered meanwhile is still taken.
		resp = sink.close()
	}
	if resp == nil {
		select {
		case <-done:
			switch out {
			case replayed:
				refuse(w, http.StatusConflict, "interaction already received")
				return
			case malformed:
				refuse(w, http.StatusBadRequest, "invalid interaction")
				return
			}
		default:
		}
	}
	if req.Context().Err() != nil {
		b.log.Warn("interactions endpoint: the request ended before the response", "interaction", ix.ID)
		return
	}
	if resp == nil {
		b.log.Warn("interactions endpoint: no response in time; answering 202", "interaction", ix.ID)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	b.log.Debug("interaction answered in the HTTP response", "interaction", ix.ID, "type", int(resp.Type))
	writeResponse(w, resp)
}

func writeResponse(w http.ResponseWriter, resp *callback) {
	body, err := json.Marshal(resp)
	if err != nil {
		http.Error(w, "cannot encode the response", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	// On the wire now, before a responder edits the original over REST.
	_ = http.NewResponseController(w).Flush()
}
