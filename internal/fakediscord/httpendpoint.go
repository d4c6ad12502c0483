package fakediscord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// UseHTTPEndpoint makes the fake deliver interactions the way Discord does to
// an application's Interactions Endpoint URL instead of over the gateway: a
// POST of the interaction JSON with X-Signature-Ed25519 (hex) and
// X-Signature-Timestamp headers, signed with key over timestamp+body. Give
// the bot key.Public().(ed25519.PublicKey) to verify with.
//
// A 200 answer's body (JSON, or multipart with payload_json and files[N]) is
// taken as the interaction's callback, under the same rules as
// POST /interactions/{id}/{token}/callback; a 202 or 204 answer with no body
// leaves the bot to use that route. Other statuses and transport errors are
// recorded in RESTErrors and the interaction's Rejections with Method
// "DELIVER".
//
// An empty url switches back to the gateway; Reset does too.
func (s *Server) UseHTTPEndpoint(url string, key ed25519.PrivateKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.httpURL, s.httpKey = url, key
	s.broadcastLocked()
}

// PingEndpoint POSTs a correctly signed PING (type 1) to the endpoint set by
// UseHTTPEndpoint, as Discord does when the URL is saved, and returns the
// HTTP status and body (a correct endpoint answers 200 {"type":1}).
func (s *Server) PingEndpoint(ctx context.Context) (int, []byte, error) {
	return s.ping(ctx, false)
}

// ProbeEndpoint POSTs a PING with an invalid signature, as Discord does to
// check that the endpoint verifies signatures, and returns the HTTP status
// (a correct endpoint answers 401).
func (s *Server) ProbeEndpoint(ctx context.Context) (int, error) {
	status, _, err := s.ping(ctx, true)
	return status, err
}

func (s *Server) ping(ctx context.Context, badSignature bool) (int, []byte, error) {
	s.mu.Lock()
	url, key := s.httpURL, s.httpKey
	id := s.newIDLocked()
	s.mu.Unlock()
	body, _ := json.Marshal(map[string]any{
		"id": id, "application_id": s.cfg.AppID, "type": 1, "token": "fake-" + randomHex(32), "version": 1,
	})
	if badSignature {
		_, key, _ = ed25519.GenerateKey(nil)
	}
	res, err := s.postSigned(ctx, url, key, body)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, b, err
}

func (s *Server) postSigned(ctx context.Context, url string, key ed25519.PrivateKey, body []byte) (*http.Response, error) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(ts), body...))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", ts)
	return http.DefaultClient.Do(req)
}

// deliverHTTP posts ix to the interactions endpoint and applies an inline
// response.
func (s *Server) deliverHTTP(ix *Interaction, url string, key ed25519.PrivateKey, deadline time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline+time.Second)
	defer cancel()
	res, err := s.postSigned(ctx, url, key, ix.Payload)
	if err != nil {
		s.mu.Lock()
		s.recordErrLocked("DELIVER", url, &apiError{Message: "interactions endpoint failed", Detail: err.Error()}, ix)
		s.mu.Unlock()
		return
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusAccepted, http.StatusNoContent:
		return
	default:
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		s.mu.Lock()
		s.recordErrLocked("DELIVER", url, &apiError{Status: res.StatusCode, Message: "interactions endpoint answered " + res.Status, Detail: string(b)}, ix)
		s.mu.Unlock()
		return
	}
	obj, files, perr := parsePayload(res.Header.Get("Content-Type"), io.LimitReader(res.Body, MaxRequestSize+1<<20))
	s.mu.Lock()
	defer s.mu.Unlock()
	if perr == nil && obj == nil {
		return
	}
	if e := s.callbackLocked(ix, obj, files, perr); e != nil {
		s.recordErrLocked("DELIVER", url, e, ix)
		return
	}
	s.logf("interaction %s: inline response type %d after %v", ix.ID, ix.resp.Type, ix.resp.Elapsed)
	s.broadcastLocked()
}
