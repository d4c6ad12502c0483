package arena

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"mazebot/mazecore"
)

// The WebSocket's limits.
const (
	// maxFrame is the largest message a client may send: the protocol's
	// messages are tiny; a bigger one closes the connection (1009).
	maxFrame = 4 << 10
	// helloWithin is how long a connection may take to say who it is.
	helloWithin = 10 * time.Second
	// maxAwaitingHello is how many connections may wait for their hello
	// at once (see awaitHello).
	maxAwaitingHello = 256
	// pingEvery and pongWithin keep an idle connection alive and find a
	// dead one.
	pingEvery  = 20 * time.Second
	pongWithin = 60 * time.Second
	// sendQueue is how many messages may wait for a slow client; a client
	// that falls further behind is dropped.
	sendQueue = 256
	// maxConnsPerMember is how many connections a member may hold to a
	// room on one process: a phone and a computer, and a reconnect or two
	// while the old connection is not yet known to be dead. One more is
	// closed (4429), and the client tries again a few seconds later.
	maxConnsPerMember = 4
	// checkRate and checkBurst bound how often a member's sign-ins check
	// their instance with Discord: each check asks with the bot's token,
	// whose rate limit the bot's own posts share, so a member signing in
	// in a loop must not spend it.
	checkRate  = 0.5
	checkBurst = 10
	// abuseLimit is how many refused messages (every one the protocol
	// refuses: not in it, over the rate, a wall, a Start during the race
	// …) a connection may send at once before it is dropped (close 1008);
	// abuseForgiven of them a second are forgiven, so that a member
	// bumping into walls for an hour is not dropped, while a flood is
	// within a fraction of a second.
	abuseLimit    = 200
	abuseForgiven = 2
	// pingRate and pingBurst bound a connection's pings: a client takes
	// its clock offset from a few at the start and one now and then.
	pingRate  = 1
	pingBurst = 8
)

// Close codes of the room's WebSocket, beyond RFC 6455's.
const (
	closeUnauthorized = 4401 // no valid token, or not in the instance
	closeBadHello     = 4400 // the first message was not a hello
	closeTooMany      = 4429 // too many connections, or too fast: try again later
	closeReload       = 4426 // the client speaks another protocol: reload the page
	// closeRejoin: the replica here left the room (this process was taken
	// for dead, or the bus lost messages): the client reconnects, as after
	// any close it has no words for.
	closeRejoin = websocket.CloseServiceRestart
)

// conn is one client's WebSocket.
type conn struct {
	ws    *websocket.Conn
	nonce string
	out   chan []byte
	once  sync.Once
	gone  chan struct{}
	left  sync.Once // its bye is published once
	user  string    // who, once admitted
	name  string    // their name, as their hello was announced
	// locale is the member's language, as their hello said (for the
	// picker's names).
	locale string
	// flushed is closed once closeAfterQueue's close frame is written.
	flushed  chan struct{}
	lastCode int
	lastText string
}

// send queues msg; a client too slow to take it is dropped.
func (c *conn) send(msg []byte) {
	select {
	case c.out <- msg:
	case <-c.gone:
	default:
		c.close()
	}
}

func (c *conn) sendJSON(v any) {
	if b, err := json.Marshal(v); err == nil {
		c.send(b)
	}
}

func (c *conn) close() { c.once.Do(func() { close(c.gone) }) }

// writeLoop writes the queue and the pings, until the connection goes.
func (c *conn) writeLoop() {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	defer c.ws.Close()
	for {
		select {
		case msg := <-c.out:
			if msg == nil { // closeAfterQueue's mark: all before it is sent
				_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(c.lastCode, c.lastText), time.Now().Add(time.Second))
				close(c.flushed)
				return
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.ws.WriteMessage(websocket.TextMessage, msg); err != nil {
				c.close()
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second)); err != nil {
				c.close()
				return
			}
		case <-c.gone:
			return
		}
	}
}

// closeWith ends the connection with a close frame.
func (c *conn) closeWith(code int, text string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	c.close()
}

// closeAfterQueue ends the connection with a close frame once what is
// queued is written (two seconds at most): a message that says why, then
// the close.
func (c *conn) closeAfterQueue(code int, text string) {
	c.lastCode, c.lastText = code, text
	c.send(nil)
	select {
	case <-c.flushed:
	case <-c.gone:
	case <-time.After(2 * time.Second):
	}
	c.close()
}

// closeFromReader is closeWith for the connection's reader, which may
// still read: it waits (a second at most) for the client's close frame,
// discarding what the client sent before it. Closing at once, with the
// client's messages unread, would reset the connection, and the client
// could lose the close frame that says why.
func (c *conn) closeFromReader(code int, text string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	_ = c.ws.SetReadDeadline(time.Now().Add(time.Second))
	for {
		if _, _, err := c.ws.NextReader(); err != nil {
			break
		}
	}
	c.close()
}

var upgrader = websocket.Upgrader{
	ReadBufferSize: 1024, WriteBufferSize: 4096,
	// The Activity is served through Discord's proxy, from its own origin;
	// a connection proves who it is with its token, not with cookies, so
	// another origin gains nothing.
	CheckOrigin: func(*http.Request) bool { return true },
}

// serveRoom is GET /api/room: the room's WebSocket. The first message is
// {"t":"hello","token":…,"instance":…}; then moves, Start and picks.
func (s *Server) serveRoom(w http.ResponseWriter, r *http.Request) {
	// An upgraded connection leaves the listener's cap (MaxConnections):
	// this one bounds the sockets.
	if s.sockets.Add(1) > int32(s.cfg.MaxSockets) {
		s.sockets.Add(-1)
		w.Header().Set("Retry-After", "5")
		http.Error(w, "too many connections just now: try again in a moment", http.StatusServiceUnavailable)
		return
	}
	defer s.sockets.Add(-1)
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	ws.SetReadLimit(maxFrame)
	c := &conn{ws: ws, nonce: newNonce(), out: make(chan []byte, sendQueue), gone: make(chan struct{}), flushed: make(chan struct{})}
	go c.writeLoop()
	defer c.close()
	_ = ws.SetReadDeadline(time.Now().Add(helloWithin))
	s.awaitHello(c)
	_, b, err := ws.ReadMessage()
	s.heard(c)
	if err != nil {
		return
	}
	msg, err := decodeClient(b)
	hello, ok := msg.(*HelloMsg)
	if err != nil || !ok {
		c.closeWith(closeBadHello, "say hello first")
		return
	}
	if hello.V != ProtocolVersion {
		refuseVersion(c, hello.V)
		return
	}
	if hello.Session == "" {
		c.closeWith(closeBadHello, "say hello first")
		return
	}
	// The session token was signed at sign-in: it is checked here, and a
	// made-up or expired one costs Discord nothing.
	se, err := verify(s.sessionKey, hello.Session, s.cfg.Now())
	if err != nil {
		c.closeWith(closeUnauthorized, "not signed in: sign in again")
		return
	}
	u := user{ID: se.User, GlobalName: se.Name}
	var in instance
	in.ID, in.Location.GuildID, in.Location.ChannelID = se.Instance, se.Guild, se.Channel
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	room, err := s.hub.open(ctx, in)
	cancel()
	if err != nil {
		s.refuseOpen(c, in, err)
		return
	}
	c.user = u.ID
	if len(hello.Locale) <= 16 {
		c.locale = hello.Locale
	}
	joined := s.join(room, c, u, hello.Locale)
	for tries := 0; joined == errRoomLeft && tries < 3; tries++ {
		// This process's replica left the room just now (dropIdle): a
		// new one asks the others for it.
		ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
		room, err = s.hub.open(ctx, in)
		cancel()
		if err != nil {
			s.refuseOpen(c, in, err)
			return
		}
		joined = s.join(room, c, u, hello.Locale)
	}
	switch joined {
	case errConnsHeld:
		c.closeWith(closeTooMany, "too many connections to this race")
		return
	case errRoomLeft:
		c.closeWith(closeTooMany, "try again in a moment")
		return
	}
	defer s.leave(room, c, u)
	s.readLoop(room, c, u)
}

// refuseOpen closes c, whose room could not be opened: to try again in a
// moment while the bus hears nothing or no state came for the room (the
// client reconnects, with backoff, as after any close it has no words
// for).
func (s *Server) refuseOpen(c *conn, in instance, err error) {
	if errors.Is(err, errDeaf) || errors.Is(err, errNoState) {
		s.log.Warn("arena: a room not opened", "instance", in.ID, "why", err)
		c.closeWith(closeTooMany, "try again in a moment")
		return
	}
	s.log.Error("arena: open a room", "instance", in.ID, "err", err)
	c.closeWith(websocket.CloseInternalServerErr, "")
}

// refuseVersion turns away a client that speaks another protocol: a
// cached bundle. A versioned one is told to reload (ReloadMsg, 4426); a
// bundle from before versions (v 0) knows neither, and is closed with
// 4401, which it words as "close the Activity and launch it again".
func refuseVersion(c *conn, v int) {
	if v == 0 {
		c.closeWith(closeUnauthorized, "this page is out of date: launch the Activity again")
		return
	}
	c.sendJSON(ReloadMsg{T: "reload", V: ProtocolVersion})
	c.closeAfterQueue(closeReload, "this page is out of date: reload it")
}

// awaitHello counts c among the connections not yet heard from; past
// maxAwaitingHello, the one waiting longest is closed. An upgraded
// connection has left the listener's cap, which closes only idle ones:
// without this, connections that never say hello would hold its places
// for helloWithin each, over and over, and keep members out. A member's
// client says hello at once, so it is seldom the one waiting longest.
func (s *Server) awaitHello(c *conn) {
	now := time.Now()
	var oldest *conn
	s.mu.Lock()
	s.awaiting[c] = now
	if len(s.awaiting) > maxAwaitingHello {
		for other, since := range s.awaiting {
			if oldest == nil || since.Before(s.awaiting[oldest]) {
				oldest = other
			}
		}
		delete(s.awaiting, oldest)
	}
	s.mu.Unlock()
	if oldest != nil {
		_ = oldest.ws.Close() // its read fails: its serveRoom ends
		oldest.close()
	}
}

// heard is c's first message (or its end): it no longer waits.
func (s *Server) heard(c *conn) {
	s.mu.Lock()
	delete(s.awaiting, c)
	s.mu.Unlock()
}

// errTooFast refuses a sign-in that would ask Discord about a member's
// instance more often than allowed.
var errTooFast = errors.New("too many connections at once")

// allowCheck takes one of a member's checks with Discord from their
// bucket; buckets that have filled up again are forgotten.
func (s *Server) allowCheck(userID string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checks.forgetFull(now)
	return s.checks.take(userID, now)
}

// Why join did not register a connection.
var (
	errConnsHeld = errors.New("the member holds as many connections as may be")
	errRoomLeft  = errors.New("this process's replica left the room")
)

// join registers c with the room here and tells every process, unless its
// member holds maxConnsPerMember connections to the room here already, or
// the replica here left the room.
func (s *Server) join(r *room, c *conn, u user, locale string) error {
	name := []rune(u.Name())
	if len(name) > 32 {
		name = name[:32]
	}
	if len(locale) > 16 {
		locale = ""
	}
	c.name = string(name)
	r.mu.Lock()
	if r.dropped {
		r.mu.Unlock()
		return errRoomLeft
	}
	held := 0
	for other := range r.conns {
		if other.user == u.ID {
			held++
		}
	}
	if held >= maxConnsPerMember {
		r.mu.Unlock()
		return errConnsHeld
	}
	r.conns[c] = false
	r.mu.Unlock()
	r.put(event{Kind: evHello, User: u.ID, Name: c.name, Locale: locale, Nonce: c.nonce})
	return nil
}

// leave unregisters c and tells every process.
func (s *Server) leave(r *room, c *conn, u user) {
	r.mu.Lock()
	delete(r.conns, c)
	r.mu.Unlock()
	c.left.Do(func() { r.put(event{Kind: evBye, User: u.ID}) })
}

// readLoop plays what the client sends until it goes: moves at the rate
// allowed, Start, and the launcher's picks.
func (s *Server) readLoop(r *room, c *conn, u user) {
	abuse := newBucket(abuseForgiven, abuseLimit)
	pings := newBucket(pingRate, pingBurst)
	var lastRefusal time.Time
	// refuse tells the client why; every refusal but the server's own
	// error counts toward abuseLimit, and past it the connection is
	// dropped (1008). A flood of them gets no flood back: past 20, at most
	// four refusals a second are sent. It says whether it dropped it.
	refuse := func(why string, now time.Time) (dropped bool) {
		s.cfg.Metrics.ArenaRefused(why)
		if why != refusedError {
			if !abuse.take(now) {
				c.closeFromReader(websocket.ClosePolicyViolation, "too many refused messages")
				return true
			}
			if why == refusedQuietly || abuse.tokens < abuseLimit-20 && now.Sub(lastRefusal) <= 250*time.Millisecond {
				return false
			}
		}
		lastRefusal = now
		c.sendJSON(RefusedMsg{T: "refused", Why: Refusal(why)})
		return false
	}
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(pongWithin)) })
	// A move's wait is bounded under this connection's own context: each
	// context derived from the server's directly is registered with it
	// under its one lock, which every move of every room took twice.
	connCtx, stop := context.WithCancel(s.hub.ctx)
	defer stop()
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(pongWithin))
		_, b, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		received := time.Now()
		why := ""
		msg, err := decodeClient(b)
		if err != nil {
			msg = nil
		}
		switch m := msg.(type) {
		case *MoveMsg:
			_, ok := ways[m.Dir]
			switch {
			case !ok:
				why = refusedBad
			case !r.allow(u.ID, received):
				why = refusedRate
			default:
				ctx, cancel := context.WithTimeout(connCtx, 10*time.Second)
				why = r.move(ctx, c, u.ID, string(m.Dir))
				cancel()
				if why == "" && s.cfg.ObserveMove != nil {
					s.cfg.ObserveMove(time.Since(received))
				}
			}
		case *StartMsg:
			why = s.start(r, u, received)
		case *PickMsg:
			why = s.pick(r, u, m, received)
		case *WatchMsg:
			why = s.request(r, u, received, event{Kind: evWatch, On: m.On}, phaseLobby, phaseCountdown)
		case *RematchMsg:
			why = s.rematch(r, u, received)
		case *PingMsg:
			if !pings.take(received) {
				why = refusedRate
				break
			}
			c.sendJSON(PongMsg{T: "pong", Client: m.Client, Now: s.hub.now().UnixMilli()})
		default:
			why = refusedBad
		}
		if why != "" && refuse(why, received) {
			return
		}
	}
}

// refusedQuietly refuses a message without telling the client why: it
// counts toward abuseLimit all the same.
const refusedQuietly = "quietly"

// start asks for the countdown, if the room is still in the lobby here: a
// second press (two members at once) is no event, and is refused quietly
// (a Start flood during a race is dropped as any other). It returns why
// it was refused, "" if not.
func (s *Server) start(r *room, u user, at time.Time) string {
	if phase, _ := r.info(); phase != phaseLobby {
		return refusedQuietly
	}
	if !r.allowRequest(u.ID, at) {
		return refusedRate
	}
	if r.put(event{Kind: evStart, User: u.ID}) != nil {
		return refusedError
	}
	return ""
}

// request publishes a member's request ev (a watch), if the room is in one
// of the phases here; refused as bad otherwise.
func (s *Server) request(r *room, u user, at time.Time, ev event, phases ...string) string {
	if phase, _ := r.info(); !slices.Contains(phases, phase) {
		return refusedBad
	}
	if !r.allowRequest(u.ID, at) {
		return refusedRate
	}
	ev.User = u.ID
	if r.put(ev) != nil {
		return refusedError
	}
	return ""
}

// rematch asks for a new race on a new maze of the room's kind, once the
// race is over: the seed is drawn here, and the maze's ID goes in the
// input, so that every replica builds the same maze. Anyone in the room
// may ask; a second ask while the first is on its way is no event.
func (s *Server) rematch(r *room, u user, at time.Time) string {
	r.mu.Lock()
	may, maze := r.rematch, r.maze
	r.mu.Unlock()
	if !may {
		return refusedNotOver
	}
	id, err := mazecore.Parse(maze)
	if err != nil {
		return refusedBad
	}
	id.Seed = s.cfg.Seed() & (1<<32 - 1)
	return s.request(r, u, at, event{Kind: evRematch, Maze: id.String()}, phaseRace, phaseOver)
}

// Sides a pick may ask for.
const (
	MinSide = 5
	MaxSide = 101
)

// pick asks for another maze in the lobby: one by ID, or a new random
// one of an algorithm and side. It returns why it was refused, "" if not.
func (s *Server) pick(r *room, u user, m *PickMsg, at time.Time) string {
	phase, launcher := r.info()
	if launcher != "" && launcher != u.ID {
		return refusedNotYours
	}
	if phase != phaseLobby {
		return refusedBad
	}
	var id mazecore.ID
	switch {
	case m.Maze != "":
		parsed, err := mazecore.Parse(m.Maze)
		if err != nil {
			return refusedBad
		}
		id = parsed
	default:
		algo, err := mazecore.ParseAlgorithm(m.Algorithm)
		kind := mazecore.Square
		if err == nil && m.Grid != "" {
			kind, err = mazecore.ParseGrid(m.Grid)
		}
		// An even side is a square grid's only fault (its tiles).
		if err != nil || kind == mazecore.Square && m.Size%2 == 0 {
			return refusedBad
		}
		id = mazecore.ID{Algorithm: algo, GridKind: kind, Width: m.Size, Height: m.Size, Seed: s.cfg.Seed() & (1<<32 - 1)}
		if id.Validate() != nil { // an algorithm that does not fit the grid, a polar maze of 101 rings
			return refusedBad
		}
	}
	// An image's shape is in the store, which every replica's apply would
	// have to read: such a maze is raced from its Race button only.
	if id.Width < MinSide || id.Width > MaxSide || id.Height < MinSide || id.Height > MaxSide || id.Shape.Kind == mazecore.ImageShape {
		return refusedBad
	}
	if !r.allowRequest(u.ID, at) {
		return refusedRate
	}
	if r.put(event{Kind: evPick, User: u.ID, Maze: id.String()}) != nil {
		return refusedError
	}
	return ""
}

// bucket is a token bucket: rate a second, burst at most.
type bucket struct {
	rate, tokens, burst float64
	last                time.Time
}

func newBucket(rate float64, burst int) *bucket {
	return &bucket{rate: rate, tokens: float64(burst), burst: float64(burst)}
}

func (b *bucket) take(now time.Time) bool {
	if !b.has(now) {
		return false
	}
	b.tokens--
	return true
}

// spend takes a token for what has happened already, into debt if there
// is none: what was spent is counted whatever the rate.
func (b *bucket) spend(now time.Time) {
	b.has(now)
	b.tokens--
}

// has says whether a token is there to take.
func (b *bucket) has(now time.Time) bool {
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	return b.tokens >= 1
}

// memberBuckets are a bucket for each member, made full on first use. Its
// user holds the lock that guards it.
type memberBuckets struct {
	rate  float64
	burst int
	of    map[string]*bucket
}

func newMemberBuckets(rate float64, burst int) memberBuckets {
	return memberBuckets{rate: rate, burst: burst, of: map[string]*bucket{}}
}

// take takes one of userID's tokens.
func (m memberBuckets) take(userID string, now time.Time) bool {
	b := m.of[userID]
	if b == nil {
		b = newBucket(m.rate, m.burst)
		m.of[userID] = b
	}
	return b.take(now)
}

// forgetFull forgets the buckets that have filled up again: a new one is
// the same.
func (m memberBuckets) forgetFull(now time.Time) {
	for id, b := range m.of {
		if now.Sub(b.last).Seconds()*m.rate >= float64(m.burst) {
			delete(m.of, id)
		}
	}
}
