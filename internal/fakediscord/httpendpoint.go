package fakediscord

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
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
	st := s.interactions
	st.mu.Lock()
	st.endpoint, st.key = url, key
	st.mu.Unlock()
	s.changes.fire(topicGateway) // where interactions go
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
	url, key := s.HTTPEndpoint()
	id := s.ids.next()
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
	ts, sig := sign(key, body)
	return postEndpoint(ctx, url, ts, sig, body)
}

// sign signs body as Discord does: Ed25519 over timestamp + body, with the
// timestamp in Unix seconds, the signature in hex.
func sign(key ed25519.PrivateKey, body []byte) (ts, sig string) {
	ts = strconv.FormatInt(time.Now().Unix(), 10)
	return ts, hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), body...)))
}

// postEndpoint POSTs body with the given signature headers, as Discord
// sends interactions.
func postEndpoint(ctx context.Context, url, ts, sig string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", ts)
	return http.DefaultClient.Do(req)
}

// deliverHTTP posts ix to the interactions endpoint and applies an inline
// response.
func (s *Server) deliverHTTP(ix *Interaction, url string, key ed25519.PrivateKey, deadline time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline+time.Second)
	defer cancel()
	ts, sig := sign(key, ix.Payload)
	ix.mu.Lock()
	ix.delivery = &httpDelivery{url: url, key: key, timestamp: ts, signature: sig}
	ix.mu.Unlock()
	res, err := postEndpoint(ctx, url, ts, sig, ix.Payload)
	if err != nil {
		s.reject("DELIVER", url, &apiError{Message: "interactions endpoint failed", Detail: err.Error()}, ix)
		return
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusAccepted, http.StatusNoContent:
		return
	default:
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		s.reject("DELIVER", url, &apiError{Status: res.StatusCode, Message: "interactions endpoint answered " + res.Status, Detail: string(b)}, ix)
		return
	}
	obj, files, perr := parsePayload(res.Header.Get("Content-Type"), io.LimitReader(res.Body, MaxRequestSize+1<<20))
	if perr == nil && obj == nil {
		return
	}
	resp, e := ix.callback(obj, files, perr)
	if e != nil {
		s.reject("DELIVER", url, e, ix)
		return
	}
	s.logf("interaction %s: inline response type %d after %v", ix.ID, resp.Type, resp.Elapsed)
}

// httpDelivery is how an interaction was POSTed to the endpoint.
type httpDelivery struct {
	url                  string
	key                  ed25519.PrivateKey
	timestamp, signature string
}

// HTTPEndpoint returns the endpoint set by UseHTTPEndpoint and the key the
// fake signs with, so a test can craft requests of its own ("" and nil when
// interactions go over the gateway).
func (s *Server) HTTPEndpoint() (url string, key ed25519.PrivateKey) {
	st := s.interactions
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.endpoint, st.key
}

// ReplayHTTP POSTs the exact body of an interaction the fake delivered to
// the HTTP endpoint again, as an attacker who captured it would: with the
// original timestamp and signature, or (fresh) with the current time and a
// new valid signature. It returns the endpoint's status and body; unlike a
// delivery, an answer is not taken as the interaction's callback (it goes
// to the attacker, not to Discord). A correct endpoint refuses a stale
// timestamp with 401 and does not act twice on one interaction id.
func (s *Server) ReplayHTTP(ctx context.Context, ix *Interaction, fresh bool) (int, []byte, error) {
	ix.mu.Lock()
	d := ix.delivery
	ix.mu.Unlock()
	if d == nil {
		return 0, nil, fmt.Errorf("fakediscord: interaction %s was not delivered over HTTP", ix.ID)
	}
	var res *http.Response
	var err error
	if fresh {
		res, err = s.postSigned(ctx, d.url, d.key, ix.Payload)
	} else {
		res, err = postEndpoint(ctx, d.url, d.timestamp, d.signature, ix.Payload)
	}
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, b, err
}

// PostEndpoint sends the HTTP endpoint a POST written byte by byte over a
// new TCP connection: header exactly as given (no signature is added, and a
// Content-Length in it is sent as is, even when it lies about the body),
// then body. It is for requests net/http will not send: a missing or
// malformed signature, a non-numeric timestamp, a huge declared length. The
// fake half-closes the connection after the body, so a server waiting for
// more sees end of file. It returns the endpoint's status and body.
func (s *Server) PostEndpoint(ctx context.Context, header http.Header, body []byte) (int, []byte, error) {
	endpoint, _ := s.HTTPEndpoint()
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return 0, nil, fmt.Errorf("fakediscord: no HTTP endpoint (UseHTTPEndpoint): %q", endpoint)
	}
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return 0, nil, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	var req bytes.Buffer
	fmt.Fprintf(&req, "POST %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", u.RequestURI(), u.Host)
	if header.Get("Content-Length") == "" {
		fmt.Fprintf(&req, "Content-Length: %d\r\n", len(body))
	}
	if err := header.Write(&req); err != nil {
		return 0, nil, err
	}
	req.WriteString("\r\n")
	req.Write(body)
	if _, err := conn.Write(req.Bytes()); err != nil {
		return 0, nil, err
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.CloseWrite()
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, b, err
}
