package fakediscord

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11
	opSoundboard     = 31
)

// Gateway close codes.
const (
	closeUnknownOpcode    = 4001
	closeDecodeError      = 4002
	closeNotAuthenticated = 4003
	closeAuthFailed       = 4004
	closeAlreadyAuthed    = 4005
)

// backlogSize is how many dispatches are kept for RESUME replays.
const backlogSize = 1000

type dispatchFrame struct {
	seq  int64
	data []byte
}

// gwConn is one gateway websocket. Frames are queued and written by one
// goroutine, so dispatches leave in sequence order without holding s.mu
// during network writes.
type gwConn struct {
	s  *Server
	ws *websocket.Conn

	// guarded by s.mu
	authed bool // identified or resumed
	ready  bool // READY or RESUMED sent
	beat   bool // a heartbeat arrived after READY/RESUMED

	qmu   sync.Mutex
	queue []outFrame
	wake  chan struct{}
	done  chan struct{}
	once  sync.Once
}

type outFrame struct {
	data      []byte
	closeCode int // non-zero: send a close frame and hang up
	closeText string
}

var upgrader = websocket.Upgrader{
	CheckOrigin: func(*http.Request) bool { return true },
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	if !websocket.IsWebSocketUpgrade(r) {
		writeAPIError(w, &apiError{Status: http.StatusBadRequest, Message: "websocket upgrade required"})
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader already answered
	}
	c := &gwConn{s: s, ws: ws, wake: make(chan struct{}, 1), done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.conns[c] = struct{}{}
	interval := s.cfg.HeartbeatInterval.Milliseconds()
	if interval < 1 {
		interval = 1
	}
	c.sendJSON(map[string]any{
		"op": opHello, "s": nil, "t": nil,
		"d": map[string]any{"heartbeat_interval": interval, "_trace": []string{"fakediscord"}},
	})
	s.mu.Unlock()
	s.logf("gateway: connection from %s", r.RemoteAddr)
	go c.writeLoop()
	c.readLoop()
}

func (c *gwConn) enqueue(f outFrame) {
	c.qmu.Lock()
	c.queue = append(c.queue, f)
	c.qmu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *gwConn) sendJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("fakediscord: marshal gateway payload: " + err.Error())
	}
	c.enqueue(outFrame{data: b})
}

// closeWith sends a close frame with code and hangs up shortly after.
func (c *gwConn) closeWith(code int, text string) {
	c.enqueue(outFrame{closeCode: code, closeText: text})
}

// kill drops the connection without a close frame, like a network failure.
func (c *gwConn) kill() {
	c.once.Do(func() { close(c.done) })
	c.ws.Close()
}

func (c *gwConn) writeLoop() {
	for {
		c.qmu.Lock()
		frames := c.queue
		c.queue = nil
		c.qmu.Unlock()
		for _, f := range frames {
			if f.closeCode != 0 {
				msg := websocket.FormatCloseMessage(f.closeCode, f.closeText)
				_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
				// Give the client a moment to read the close frame before
				// the socket goes away.
				time.AfterFunc(500*time.Millisecond, c.kill)
				return
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.ws.WriteMessage(websocket.TextMessage, f.data); err != nil {
				c.kill()
				return
			}
		}
		select {
		case <-c.wake:
		case <-c.done:
			return
		}
	}
}

type gatewayPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
}

func (c *gwConn) readLoop() {
	s := c.s
	defer func() {
		c.kill()
		s.mu.Lock()
		delete(s.conns, c)
		if s.current == c {
			s.current = nil
		}
		s.broadcastLocked()
		s.mu.Unlock()
		s.logf("gateway: connection closed")
	}()
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			// Like Discord, a client closing with 1000 or 1001 ends its
			// session: a later RESUME gets INVALID_SESSION.
			if websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) {
				s.mu.Lock()
				if s.current == c {
					s.sessionID = ""
					s.backlog = nil
					s.logf("gateway: client closed with %v; session invalidated", err)
				}
				s.mu.Unlock()
			}
			return
		}
		var p gatewayPayload
		if err := json.Unmarshal(data, &p); err != nil {
			c.closeWith(closeDecodeError, "Error while decoding payload.")
			continue
		}
		s.mu.Lock()
		c.handleLocked(p)
		s.mu.Unlock()
	}
}

func (c *gwConn) handleLocked(p gatewayPayload) {
	s := c.s
	switch p.Op {
	case opHeartbeat:
		c.sendJSON(map[string]any{"op": opHeartbeatACK, "s": nil, "t": nil, "d": nil})
		if c.ready && !c.beat {
			c.beat = true
			s.broadcastLocked()
		}
	case opIdentify:
		c.identifyLocked(p.D)
	case opResume:
		c.resumeLocked(p.D)
	case opPresenceUpdate, opVoiceState, opRequestMembers, opSoundboard:
		if !c.authed {
			c.closeWith(closeNotAuthenticated, "Not authenticated.")
		}
	default:
		s.logf("gateway: unknown opcode %d", p.Op)
		c.closeWith(closeUnknownOpcode, "Unknown opcode.")
	}
}

func (c *gwConn) identifyLocked(raw json.RawMessage) {
	s := c.s
	if c.authed {
		c.closeWith(closeAlreadyAuthed, "Already authenticated.")
		return
	}
	var d struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		c.closeWith(closeDecodeError, "Error while decoding payload.")
		return
	}
	if d.Token != s.cfg.Token {
		s.logf("gateway: IDENTIFY with a wrong token")
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return
	}
	s.identifies++
	s.sessionID = randomHex(16)
	s.seq = 0
	s.backlog = nil
	c.authed = true
	s.current = c
	s.dispatchLocked("READY", map[string]any{
		"v":                  9,
		"user":               s.botUserLocked(),
		"guilds":             []any{},
		"session_id":         s.sessionID,
		"session_type":       "normal",
		"resume_gateway_url": s.GatewayURL(),
		"shard":              []int{0, 1},
		"application":        map[string]any{"id": s.cfg.AppID, "flags": 1 << 23},
		"private_channels":   []any{},
		"presences":          []any{},
		"relationships":      []any{},
		"user_settings":      map[string]any{},
		"_trace":             []string{"fakediscord"},
	})
	c.ready = true
	s.logf("gateway: IDENTIFY -> READY (session %s)", s.sessionID)
	s.broadcastLocked()
}

func (c *gwConn) resumeLocked(raw json.RawMessage) {
	s := c.s
	if c.authed {
		c.closeWith(closeAlreadyAuthed, "Already authenticated.")
		return
	}
	var d struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		c.closeWith(closeDecodeError, "Error while decoding payload.")
		return
	}
	if d.Token != s.cfg.Token {
		s.logf("gateway: RESUME with a wrong token")
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return
	}
	oldest := s.seq + 1
	if len(s.backlog) > 0 {
		oldest = s.backlog[0].seq
	}
	if s.sessionID == "" || d.SessionID != s.sessionID || d.Seq > s.seq || d.Seq+1 < oldest {
		s.logf("gateway: RESUME of an unknown session or sequence -> INVALID_SESSION")
		c.sendJSON(map[string]any{"op": opInvalidSession, "d": false, "s": nil, "t": nil})
		return
	}
	if old := s.current; old != nil && old != c {
		old.kill()
	}
	c.authed = true
	s.current = c
	replayed := 0
	for _, f := range s.backlog {
		if f.seq > d.Seq {
			c.enqueue(outFrame{data: f.data})
			replayed++
		}
	}
	s.resumes++
	s.dispatchLocked("RESUMED", map[string]any{"_trace": []string{"fakediscord"}})
	c.ready = true
	s.logf("gateway: RESUME from seq %d -> %d replayed, RESUMED", d.Seq, replayed)
	s.broadcastLocked()
}

// dispatchLocked sends an op 0 dispatch to the current connection and keeps
// it for RESUME replays. Without a connection the dispatch only goes to the
// backlog. s.mu must be held.
func (s *Server) dispatchLocked(t string, d any) int64 {
	s.seq++
	b, err := json.Marshal(map[string]any{"op": opDispatch, "s": s.seq, "t": t, "d": d})
	if err != nil {
		panic("fakediscord: marshal dispatch: " + err.Error())
	}
	s.backlog = append(s.backlog, dispatchFrame{seq: s.seq, data: b})
	if len(s.backlog) > backlogSize {
		s.backlog = append([]dispatchFrame(nil), s.backlog[len(s.backlog)-backlogSize:]...)
	}
	if s.current != nil {
		s.current.enqueue(outFrame{data: b})
	}
	return s.seq
}

// WaitReady waits until a client has IDENTIFYed or RESUMEd, received READY
// or RESUMED on the current connection, and sent a heartbeat after it.
// discordgo sends its first heartbeat as soon as Open has processed
// READY/RESUMED, so the session is then settled: dropping the connection
// earlier can make discordgo v0.29.0 reconnect twice (its heartbeat
// goroutine fails on the closing socket and reconnects as well).
func (s *Server) WaitReady(ctx context.Context) error {
	return s.waitFor(ctx, func() (bool, error) {
		return s.current != nil && s.current.ready && s.current.beat, nil
	})
}

func (s *Server) readyLocked() (bool, error) {
	return s.current != nil && s.current.ready, nil
}

// Identifies counts accepted IDENTIFYs (new sessions).
func (s *Server) Identifies() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identifies
}

// Resumes counts accepted RESUMEs.
func (s *Server) Resumes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resumes
}

// SessionID is the current gateway session id ("" before the first READY).
func (s *Server) SessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionID
}

// Connected reports whether a client is connected and ready.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok, _ := s.readyLocked()
	return ok
}

// DropGateway closes the current websocket abruptly, without a close frame,
// like a network drop. discordgo then reconnects and RESUMEs; WaitReady
// waits for that.
func (s *Server) DropGateway() {
	s.mu.Lock()
	c := s.current
	s.current = nil
	s.broadcastLocked()
	s.mu.Unlock()
	if c != nil {
		s.logf("gateway: dropping the connection")
		c.kill()
	}
}

// RequestReconnect sends op 7 RECONNECT on the current connection; the client
// should close it and RESUME on a new one. Until it does, WaitReady waits and
// dispatches only go to the RESUME backlog.
func (s *Server) RequestReconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.current; c != nil {
		c.sendJSON(map[string]any{"op": opReconnect, "d": nil, "s": nil, "t": nil})
		s.current = nil
		s.broadcastLocked()
	}
}

// InvalidateSession forgets the gateway session and drops the connection, so
// the client's RESUME gets op 9 INVALID_SESSION and it must IDENTIFY again.
func (s *Server) InvalidateSession() {
	s.mu.Lock()
	s.sessionID = ""
	s.backlog = nil
	s.mu.Unlock()
	s.DropGateway()
}

func (s *Server) botUserLocked() map[string]any {
	return map[string]any{
		"id":            s.cfg.AppID,
		"username":      s.cfg.BotUsername,
		"global_name":   nil,
		"discriminator": "0",
		"avatar":        nil,
		"bot":           true,
		"verified":      true,
		"mfa_enabled":   false,
		"flags":         0,
		"public_flags":  0,
	}
}
