package fakediscord

import (
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

// Gateway close codes (discord-api-docs, topics/opcodes-and-status-codes).
const (
	closeUnknownOpcode    = 4001
	closeDecodeError      = 4002
	closeNotAuthenticated = 4003
	closeAuthFailed       = 4004
	closeAlreadyAuthed    = 4005
	closeRateLimited      = 4008
	closeInvalidShard     = 4010
	closeShardingRequired = 4011
)

// backlogSize is how many dispatches a session keeps for RESUME replays.
const backlogSize = 1000

// Discord's gateway send limit: 120 events per connection every 60 s, then
// the connection is closed with 4008 (discord-api-docs, events/gateway,
// "Rate Limiting"). The fake does not count heartbeats: tests run with
// heartbeat intervals far below Discord's 41.25 s, which would hit the limit
// on their own.
const (
	sendLimit       = 120
	sendLimitWindow = 60 * time.Second
)

type dispatchFrame struct {
	seq  int64
	data []byte
}

// gateway is Discord's gateway: the websocket connections, the sessions
// they serve, sharding and the identify rate limit. Its lock, g.mu, may be
// taken while an Interaction's is held (to dispatch it), never the other
// way round; it holds only leaf locks.
type gateway struct {
	s *Server

	mu           sync.Mutex
	conns        map[*gwConn]struct{}
	sessions     map[string]*gwSession // live (resumable) sessions by id
	identifies   int
	resumes      int
	shardResumes map[int]int
	identifyLog  []IdentifyRecord
	lastIdentify map[int]time.Time // the last accepted IDENTIFY by rate-limit bucket
	sharding     Sharding
	started      time.Time
}

func newGateway(s *Server) *gateway {
	return &gateway{
		s:            s,
		conns:        make(map[*gwConn]struct{}),
		sessions:     make(map[string]*gwSession),
		shardResumes: make(map[int]int),
		lastIdentify: make(map[int]time.Time),
		sharding:     s.cfg.Sharding,
		started:      time.Now(),
	}
}

// changedLocked tells waiters the gateway changed. g.mu must be held.
func (g *gateway) changedLocked() { g.s.changes.fire(topicGateway) }

// closeAll drops every connection (Close).
func (g *gateway) closeAll() {
	g.mu.Lock()
	conns := make([]*gwConn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
	}
	g.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
}

// gwSession is one gateway session: IDENTIFY starts it, RESUME moves it to
// a new connection, INVALID_SESSION or a clean close by the client ends it.
// All fields are guarded by gateway.mu.
type gwSession struct {
	id           string
	shard, count int
	started      time.Time
	seq          int64
	backlog      []dispatchFrame
	conn         *gwConn // receives dispatches; nil while disconnected or after op 7
	resumes      int
}

// dispatchLocked sends an op 0 dispatch on the session's connection and
// keeps it for RESUME replays; without a connection it only goes to the
// backlog. gateway.mu must be held.
func (g *gwSession) dispatchLocked(t string, d any) int64 {
	g.seq++
	b, err := json.Marshal(map[string]any{"op": opDispatch, "s": g.seq, "t": t, "d": d})
	if err != nil {
		panic("fakediscord: marshal dispatch: " + err.Error())
	}
	g.backlog = append(g.backlog, dispatchFrame{seq: g.seq, data: b})
	if len(g.backlog) > backlogSize {
		g.backlog = append([]dispatchFrame(nil), g.backlog[len(g.backlog)-backlogSize:]...)
	}
	if g.conn != nil {
		g.conn.enqueue(outFrame{data: b})
	}
	return g.seq
}

// readyLocked reports whether the session has a connection that received
// READY or RESUMED (and, with beat, sent a heartbeat since).
func (g *gwSession) readyLocked(beat bool) bool {
	return g.conn != nil && g.conn.ready && (!beat || g.conn.beat)
}

// gwConn is one gateway websocket. Frames are queued and written by one
// goroutine, so dispatches leave in sequence order without holding
// gateway.mu during network writes.
type gwConn struct {
	g      *gateway
	ws     *websocket.Conn
	remote string

	// guarded by gateway.mu
	sess    *gwSession // the session it serves, once identified or resumed
	authed  bool       // identified or resumed
	ready   bool       // READY or RESUMED sent
	beat    bool       // a heartbeat arrived after READY/RESUMED
	closing bool       // a close frame is queued: payloads are ignored
	sends   []time.Time

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

func (g *gateway) serve(w http.ResponseWriter, r *http.Request) {
	s := g.s
	if !websocket.IsWebSocketUpgrade(r) {
		writeAPIError(w, &apiError{Status: http.StatusBadRequest, Message: "websocket upgrade required"})
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader already answered
	}
	c := &gwConn{g: g, ws: ws, remote: r.RemoteAddr, wake: make(chan struct{}, 1), done: make(chan struct{})}
	g.mu.Lock()
	if s.closed() {
		g.mu.Unlock()
		ws.Close()
		return
	}
	g.conns[c] = struct{}{}
	interval := s.cfg.HeartbeatInterval.Milliseconds()
	if interval < 1 {
		interval = 1
	}
	c.sendJSON(map[string]any{
		"op": opHello, "s": nil, "t": nil,
		"d": map[string]any{"heartbeat_interval": interval, "_trace": []string{"fakediscord"}},
	})
	g.mu.Unlock()
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

// closeLocked sends a close frame with code and hangs up shortly after;
// later payloads from the client are ignored. gateway.mu must be held.
func (c *gwConn) closeLocked(code int, text string) {
	if c.closing {
		return
	}
	c.closing = true
	c.g.s.logf("gateway: closing %s with %d %s", c.remote, code, text)
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
	gw := c.g
	defer func() {
		c.kill()
		gw.mu.Lock()
		delete(gw.conns, c)
		if g := c.sess; g != nil && g.conn == c {
			g.conn = nil
		}
		gw.changedLocked()
		gw.mu.Unlock()
		gw.s.logf("gateway: connection %s closed", c.remote)
	}()
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			// Like Discord, a client closing with 1000 or 1001 ends its
			// session: a later RESUME gets INVALID_SESSION.
			if websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) {
				gw.mu.Lock()
				if g := c.sess; g != nil && g.conn == c {
					delete(gw.sessions, g.id)
					gw.s.logf("gateway: client closed with %v; session %s invalidated", err, g.id)
				}
				gw.mu.Unlock()
			}
			return
		}
		var p gatewayPayload
		gw.mu.Lock()
		if err := json.Unmarshal(data, &p); err != nil {
			c.closeLocked(closeDecodeError, "Error while decoding payload.")
		} else {
			c.handleLocked(p)
		}
		gw.mu.Unlock()
	}
}

func (c *gwConn) handleLocked(p gatewayPayload) {
	if c.closing {
		return
	}
	if p.Op != opHeartbeat && !c.withinSendLimitLocked(time.Now()) {
		c.closeLocked(closeRateLimited, "You are being rate limited.")
		return
	}
	switch p.Op {
	case opHeartbeat:
		c.sendJSON(map[string]any{"op": opHeartbeatACK, "s": nil, "t": nil, "d": nil})
		if c.ready && !c.beat {
			c.beat = true
			c.g.changedLocked()
		}
	case opIdentify:
		c.identifyLocked(p.D)
	case opResume:
		c.resumeLocked(p.D)
	case opPresenceUpdate, opVoiceState, opRequestMembers, opSoundboard:
		if !c.authed {
			c.closeLocked(closeNotAuthenticated, "Not authenticated.")
		}
	default:
		c.g.s.logf("gateway: unknown opcode %d", p.Op)
		c.closeLocked(closeUnknownOpcode, "Unknown opcode.")
	}
}

// withinSendLimitLocked counts a payload against the send limit.
func (c *gwConn) withinSendLimitLocked(now time.Time) bool {
	keep := c.sends[:0]
	for _, t := range c.sends {
		if now.Sub(t) < sendLimitWindow {
			keep = append(keep, t)
		}
	}
	c.sends = append(keep, now)
	return len(c.sends) <= sendLimit
}

// checkStartLocked decodes an IDENTIFY or RESUME into d and checks what
// both need: a connection not yet authenticated, a payload that decodes,
// the bot's token. It returns the close code and text for the first that
// fails (0 when all hold).
func (c *gwConn) checkStartLocked(raw json.RawMessage, d any) (int, string) {
	var auth struct {
		Token string `json:"token"`
	}
	switch {
	case c.authed:
		return closeAlreadyAuthed, "Already authenticated."
	case json.Unmarshal(raw, &auth) != nil || json.Unmarshal(raw, d) != nil:
		return closeDecodeError, "Error while decoding payload."
	case auth.Token != c.g.s.cfg.Token:
		return closeAuthFailed, "Authentication failed."
	}
	return 0, ""
}

func (c *gwConn) resumeLocked(raw json.RawMessage) {
	gw, s := c.g, c.g.s
	var d struct {
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if code, text := c.checkStartLocked(raw, &d); code != 0 {
		c.closeLocked(code, text)
		return
	}
	g := gw.sessions[d.SessionID]
	if g == nil || d.Seq > g.seq || d.Seq+1 < g.oldestSeq() {
		s.logf("gateway: RESUME of an unknown session or sequence -> INVALID_SESSION")
		c.sendJSON(map[string]any{"op": opInvalidSession, "d": false, "s": nil, "t": nil})
		return
	}
	if old := g.conn; old != nil && old != c {
		old.kill()
	}
	c.authed, c.sess, g.conn = true, g, c
	replayed := 0
	for _, f := range g.backlog {
		if f.seq > d.Seq {
			c.enqueue(outFrame{data: f.data})
			replayed++
		}
	}
	g.resumes++
	gw.resumes++
	gw.shardResumes[g.shard]++
	g.dispatchLocked("RESUMED", map[string]any{"_trace": []string{"fakediscord"}})
	c.ready = true
	s.logf("gateway: shard %d RESUME from seq %d -> %d replayed, RESUMED", g.shard, d.Seq, replayed)
	gw.changedLocked()
}

// oldestSeq is the first sequence number a RESUME can replay from.
func (g *gwSession) oldestSeq() int64 {
	if len(g.backlog) > 0 {
		return g.backlog[0].seq
	}
	return g.seq + 1
}
