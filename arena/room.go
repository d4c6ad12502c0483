package arena

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// The phases of a room.
const (
	phaseLobby     = "lobby"     // gathering; the launcher may pick the maze
	phaseCountdown = "countdown" // someone pressed Start: the race begins at StartAt
	phaseRace      = "race"      // moves are played
	phaseOver      = "over"      // everyone racing has finished
)

// MaxRacers is how many members race in one room; more watch. It keeps a
// room's state within one Bus message.
const MaxRacers = 24

// roomState is a room as every process holding it agrees: what the
// events, applied in the bus's order, made of it.
type roomState struct {
	Instance string    `json:"instance"`
	Guild    string    `json:"guild,omitempty"`
	Channel  string    `json:"channel"`
	Maze     string    `json:"maze"`
	Launcher string    `json:"launcher,omitempty"` // who may pick the maze; "" anyone
	Phase    string    `json:"phase"`
	StartAt  int64     `json:"start_at,omitempty"` // Unix ms
	Contest  bool      `json:"contest,omitempty"`  // the games count for a daily or an event
	Players  []*player `json:"players"`
}

// player is one member of a room.
type player struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Locale string `json:"locale,omitempty"`
	Game   int64  `json:"game,omitempty"` // their game, once the race began for them
	pos
	Done  bool  `json:"done,omitempty"`
	Ms    int64 `json:"ms,omitempty"` // their time, once done
	Place int   `json:"place,omitempty"`
	// Conns counts their connections by process.
	Conns map[string]int `json:"conns,omitempty"`
}

// pos is where a player stands in their game.
type pos struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Seq    int `json:"seq"`
	Tiles  int `json:"tiles"`
	Clicks int `json:"clicks"`
}

func posOf(g *play.Game) pos {
	return pos{X: g.Pos.X, Y: g.Pos.Y, Seq: g.Seq, Tiles: g.Tiles, Clicks: g.Clicks}
}

func (p *player) online() bool { return len(p.Conns) > 0 }

// event is one message on the Bus.
type event struct {
	Kind     string     `json:"k"`
	Instance string     `json:"i,omitempty"`
	Origin   string     `json:"o"`            // the process that published it
	Nonce    string     `json:"n,omitempty"`  // hello: the connection; sync, state: the request
	At       int64      `json:"at,omitempty"` // the origin's clock, Unix ms
	User     string     `json:"u,omitempty"`
	Name     string     `json:"name,omitempty"`
	Locale   string     `json:"loc,omitempty"`
	Maze     string     `json:"maze,omitempty"`
	Guild    string     `json:"g,omitempty"`
	Channel  string     `json:"c,omitempty"`
	Game     int64      `json:"game,omitempty"`
	Contest  bool       `json:"contest,omitempty"`
	Pos      *pos       `json:"p,omitempty"`
	Ms       int64      `json:"ms,omitempty"`
	State    *roomState `json:"state,omitempty"`
}

// The kinds of event.
const (
	evPend  = "pend"  // a launch in a channel, with its maze
	evHello = "hello" // a member connected
	evBye   = "bye"   // a member's connection closed
	evPick  = "pick"  // the launcher picked another maze
	evStart = "start" // Start pressed: the countdown runs
	evGame  = "game"  // a member's game began
	evPos   = "pos"   // a member moved
	evDone  = "done"  // a member finished
	evSync  = "sync"  // a process asks for a room's state
	evState = "state" // the state, answering a sync
)

// room is one Activity instance's race, as this process holds it: the
// agreed state, the maze, and this process's connections to it.
type room struct {
	h *hub

	mu    sync.Mutex
	st    roomState
	maze  *mazecore.Maze
	grid  json.RawMessage // the maze as clients get it
	conns map[*conn]bool  // this process's, true once welcomed
	timer *time.Timer     // the countdown's end here
	ended bool
	// creating marks the members whose game this process is starting;
	// gameSettled is closed, and replaced, when one of those games is set
	// or fails to start: a move that came before its game waits on it.
	creating    map[string]bool
	gameSettled chan struct{}
	// seq is the last Seq this process's moves gave each member's game:
	// ahead of the state while a move's event is on its way.
	seq map[string]int

	// sync: a new replica on a shared bus asks for the state and, until it
	// has it, buffers what follows its request.
	syncing   bool
	syncNonce string
	sawSync   bool
	buffer    []event
	ready     chan struct{} // closed once the room is usable here

	moving sync.Map // user → *sync.Mutex: one move at a time per member here
	// moves and requests are the members' buckets here for moves, and for
	// Start and picks: one of each for all of a member's connections, so
	// that more connections bring no more moves.
	moves, requests memberBuckets
}

// Requests (Start, a pick) a member may send: a burst, then a few a
// second. Each pick sends every member a new maze, and each request is
// an event for every process on the bus, so a flood of them costs the
// whole room.
const (
	requestRate  = 2
	requestBurst = 5
)

// allow takes one of a member's moves from their bucket.
func (r *room) allow(userID string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.moves.take(userID, now)
}

// allowRequest takes one of a member's requests from their bucket.
func (r *room) allowRequest(userID string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests.take(userID, now)
}

func newRoom(h *hub, st roomState, m *mazecore.Maze) *room {
	r := &room{h: h, st: st, conns: map[*conn]bool{}, creating: map[string]bool{}, gameSettled: make(chan struct{}), seq: map[string]int{}, ready: make(chan struct{}),
		moves: newMemberBuckets(h.cfg.MoveRate, h.cfg.MoveBurst), requests: newMemberBuckets(requestRate, requestBurst)}
	r.setMaze(m)
	return r
}

// setMaze makes m the room's maze. r.mu is held (or r is new).
func (r *room) setMaze(m *mazecore.Maze) {
	r.maze, r.st.Maze = m, m.ID().String()
	r.grid = mazeJSON(m)
}

func (r *room) player(id string) *player {
	for _, p := range r.st.Players {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// apply takes one event of the room, in the bus's order.
func (r *room) apply(ev event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return
	}
	if r.syncing {
		r.applySyncing(ev)
		return
	}
	r.applyLocked(ev)
}

// applySyncing takes an event while the room waits for its state: its own
// request marks where the state will stand; the first state answering it
// replaces the room's, and what came after the request is applied on it.
func (r *room) applySyncing(ev event) {
	switch {
	case ev.Kind == evSync && ev.Nonce == r.syncNonce:
		r.sawSync = true
	case ev.Kind == evState && ev.Nonce == r.syncNonce && r.sawSync && ev.State != nil:
		r.adopt(*ev.State)
	case r.sawSync:
		r.buffer = append(r.buffer, ev)
	}
}

// adopt takes a state another process sent, then the events buffered
// since. r.mu is held.
func (r *room) adopt(st roomState) {
	if id, err := mazecore.Parse(st.Maze); err == nil {
		if m, err := mazecore.Generate(id); err == nil {
			r.st = st
			r.setMaze(m)
		}
	}
	r.finishSync()
}

// finishSync makes the room usable: the buffered events are applied.
// r.mu is held.
func (r *room) finishSync() {
	if !r.syncing {
		return
	}
	r.syncing = false
	buffered := r.buffer
	r.buffer = nil
	for _, ev := range buffered {
		r.applyLocked(ev)
	}
	if r.st.Phase == phaseCountdown {
		r.scheduleStart()
	}
	close(r.ready)
}

func (r *room) applyLocked(ev event) {
	h := r.h
	switch ev.Kind {
	case evSync:
		if ev.Origin != h.proc {
			st := r.snapshot()
			go h.publish(event{Kind: evState, Instance: r.st.Instance, Nonce: ev.Nonce, State: &st})
		}
	case evHello:
		r.hello(ev)
	case evBye:
		r.bye(ev)
	case evPick:
		if r.st.Phase != phaseLobby || (r.st.Launcher != "" && ev.User != r.st.Launcher) {
			return
		}
		id, err := mazecore.Parse(ev.Maze)
		if err != nil {
			return
		}
		m, err := mazecore.Generate(id)
		if err != nil {
			return
		}
		r.setMaze(m)
		r.broadcastLocked(map[string]any{"t": "maze", "maze": r.grid})
		r.broadcastRoom()
	case evStart:
		if r.st.Phase != phaseLobby {
			return
		}
		r.st.Phase, r.st.StartAt = phaseCountdown, ev.At+h.cfg.Countdown.Milliseconds()
		r.scheduleStart()
		r.broadcastRoom()
	case evGame:
		p := r.player(ev.User)
		if p == nil || p.Game != 0 || ev.Pos == nil {
			return
		}
		p.Game, p.pos = ev.Game, *ev.Pos
		r.st.Contest = r.st.Contest || ev.Contest
		r.settleGames()
		r.broadcastRoom()
	case evPos:
		p := r.player(ev.User)
		if p == nil || p.Game != ev.Game || ev.Pos == nil || ev.Pos.Seq < p.Seq {
			return
		}
		p.pos = *ev.Pos
		r.broadcastLocked(map[string]any{"t": "pos", "id": p.ID, "x": p.X, "y": p.Y, "tiles": p.Tiles, "clicks": p.Clicks})
	case evDone:
		p := r.player(ev.User)
		if p == nil || p.Game != ev.Game || p.Done {
			return
		}
		place := 1
		for _, o := range r.st.Players {
			if o.Done {
				place++
			}
		}
		p.Done, p.Ms, p.Place = true, ev.Ms, place
		if ev.Pos != nil {
			p.pos = *ev.Pos
		}
		if r.allDone() {
			r.st.Phase = phaseOver
		}
		r.broadcastRoom()
	}
}

// allDone: everyone who began the race has finished. r.mu is held.
func (r *room) allDone() bool {
	racing := 0
	for _, p := range r.st.Players {
		if p.Game != 0 {
			racing++
			if !p.Done {
				return false
			}
		}
	}
	return racing > 0
}

func (r *room) hello(ev event) {
	h := r.h
	p := r.player(ev.User)
	if p == nil && len(r.st.Players) < MaxRacers {
		p = &player{ID: ev.User}
		r.st.Players = append(r.st.Players, p)
	}
	if p != nil {
		p.Name, p.Locale = ev.Name, ev.Locale
		if p.Conns == nil {
			p.Conns = map[string]int{}
		}
		p.Conns[ev.Origin]++
	}
	if ev.Origin == h.proc {
		for c := range r.conns {
			if c.nonce == ev.Nonce && !r.conns[c] {
				r.conns[c] = true
				c.sendJSON(map[string]any{"t": "welcome", "you": ev.User, "maze": r.grid, "room": r.view(), "now": h.now().UnixMilli()})
			}
		}
		if p != nil && r.st.Phase == phaseRace {
			r.startGames() // a late joiner joins the race
		}
	}
	r.broadcastRoom()
}

func (r *room) bye(ev event) {
	p := r.player(ev.User)
	if p != nil && p.Conns[ev.Origin] > 0 {
		p.Conns[ev.Origin]--
		if p.Conns[ev.Origin] == 0 {
			delete(p.Conns, ev.Origin)
		}
	}
	if slices.ContainsFunc(r.st.Players, (*player).online) {
		r.broadcastRoom()
		return
	}
	// The last member left: the room ends, everywhere.
	r.ended = true
	r.settleGames()
	if r.timer != nil {
		r.timer.Stop()
	}
	r.h.drop(r)
	if ev.Origin == r.h.proc {
		st := r.snapshot()
		go r.h.protect("the result card", func() error { r.h.card(st); return nil })
	}
}

// scheduleStart sets this process's timer for the countdown's end. r.mu
// is held.
func (r *room) scheduleStart() {
	if r.timer != nil {
		r.timer.Stop()
	}
	wait := time.Until(time.UnixMilli(r.st.StartAt))
	r.timer = time.AfterFunc(max(wait, 0), r.begin)
}

// begin starts the race here: the phase, and the games of the members
// connected to this process.
func (r *room) begin() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended || r.st.Phase != phaseCountdown {
		return
	}
	r.st.Phase = phaseRace
	r.startGames()
	r.broadcastRoom()
}

// startGames starts the game of each member connected here who has none.
// r.mu is held.
func (r *room) startGames() {
	for _, p := range r.st.Players {
		if p.Game != 0 || p.Conns[r.h.proc] == 0 || r.creating[p.ID] {
			continue
		}
		r.creating[p.ID] = true
		go r.startGame(p.ID)
	}
}

// startGame starts a member's game through Games, which counts it for the
// daily or event running on the maze in the channel, and tells the room.
func (r *room) startGame(userID string) {
	h := r.h
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.mu.Lock()
	m, guild, channel := r.maze, r.st.Guild, r.st.Channel
	r.mu.Unlock()
	var g *play.Game
	err := h.protect("start a game", func() (err error) {
		g, err = h.cfg.Games.Start(ctx, m, play.Record{UserID: userID, GuildID: guild, ChannelID: channel})
		return err
	})
	if err != nil {
		h.log.Error("arena: start a game", "instance", r.st.Instance, "user", userID, "err", err)
		r.mu.Lock()
		delete(r.creating, userID)
		r.settleGames()
		r.mu.Unlock()
		return
	}
	p := posOf(g)
	h.publish(event{Kind: evGame, Instance: r.st.Instance, User: userID, Game: g.ID, Contest: g.Contest != "", Pos: &p})
}

// Why a move or a request is refused, as the client is told.
const (
	refusedWall       = "wall"        // a wall is in the way
	refusedNotStarted = "not_started" // the race has not begun
	refusedFinished   = "finished"    // your race is over
	refusedWatching   = "watching"    // you are not in the race
	refusedRate       = "rate"        // too many moves, or Starts and picks
	refusedBad        = "bad"         // not a message the protocol has
	refusedNotYours   = "not_launcher"
	refusedError      = "error"
)

// move plays one move of a member in direction d, through Games, and tells
// the room where it took them. It returns why it was refused, "" if not.
func (r *room) move(ctx context.Context, userID string, d mazecore.Dir) string {
	mu, _ := r.moving.LoadOrStore(userID, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	r.mu.Lock()
	p, err := r.awaitGame(ctx, userID)
	if err != nil {
		r.mu.Unlock()
		return refusedError
	}
	var why string
	switch {
	case r.st.Phase == phaseLobby || r.st.Phase == phaseCountdown:
		why = refusedNotStarted
	case p == nil || p.Game == 0:
		why = refusedWatching
	case p.Done || r.st.Phase == phaseOver:
		why = refusedFinished
	}
	var game int64
	var seq int
	if why == "" {
		game, seq = p.Game, max(p.Seq, r.seq[userID])
	}
	instance := r.st.Instance
	r.mu.Unlock()
	if why != "" {
		return why
	}
	turn, err := r.h.press(ctx, game, userID, play.Action{Kind: play.Move, Dir: d, Seq: seq})
	switch {
	case errors.Is(err, play.ErrOver), errors.Is(err, play.ErrExpired), errors.Is(err, play.ErrNotYours):
		return refusedFinished
	case err != nil:
		r.h.log.Error("arena: move", "instance", instance, "user", userID, "err", err)
		return refusedError
	case turn.Outcome == play.Blocked:
		return refusedWall
	}
	at := posOf(turn.Game)
	r.mu.Lock()
	r.seq[userID] = max(r.seq[userID], at.Seq)
	r.mu.Unlock()
	r.h.publish(event{Kind: evPos, Instance: instance, User: userID, Game: game, Pos: &at})
	if turn.Outcome == play.Finished {
		ms := turn.Game.Result().Elapsed.Milliseconds()
		r.h.publish(event{Kind: evDone, Instance: instance, User: userID, Game: game, Pos: &at, Ms: ms})
	}
	return ""
}

// awaitGame returns the member, once their game is set if this process
// is starting it. The race begins (and every client sees it begin) before
// the games exist, each a store call away: a member pressing a key at
// "Go!" would otherwise be told they are not in the race. r.mu is held,
// and released while waiting.
func (r *room) awaitGame(ctx context.Context, userID string) (*player, error) {
	for {
		p := r.player(userID)
		if r.ended || r.st.Phase != phaseRace || p == nil || p.Game != 0 || !r.creating[userID] {
			return p, nil
		}
		settled := r.gameSettled
		r.mu.Unlock()
		select {
		case <-settled:
		case <-ctx.Done():
			r.mu.Lock()
			return nil, ctx.Err()
		}
		r.mu.Lock()
	}
}

// settleGames wakes the moves waiting for a game. r.mu is held.
func (r *room) settleGames() {
	close(r.gameSettled)
	r.gameSettled = make(chan struct{})
}

// snapshot copies the state. r.mu is held.
func (r *room) snapshot() roomState {
	st := r.st
	st.Players = make([]*player, len(r.st.Players))
	for i, p := range r.st.Players {
		cp := *p
		cp.Conns = make(map[string]int, len(p.Conns))
		for k, v := range p.Conns {
			cp.Conns[k] = v
		}
		st.Players[i] = &cp
	}
	return st
}

// view is the room as its clients see it.
type roomView struct {
	Phase    string       `json:"phase"`
	StartAt  int64        `json:"start_at,omitempty"`
	Maze     string       `json:"maze"`
	Contest  bool         `json:"contest"`
	Launcher string       `json:"launcher,omitempty"`
	Players  []playerView `json:"players"`
}

type playerView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Tiles  int    `json:"tiles"`
	Clicks int    `json:"clicks"`
	Online bool   `json:"online"`
	Racing bool   `json:"racing"`
	Done   bool   `json:"done"`
	Ms     int64  `json:"ms,omitempty"`
	Place  int    `json:"place,omitempty"`
}

// view is what the clients are sent of the state. r.mu is held.
func (r *room) view() roomView {
	v := roomView{Phase: r.st.Phase, StartAt: r.st.StartAt, Maze: r.st.Maze, Contest: r.st.Contest, Launcher: r.st.Launcher}
	start := r.maze.Start()
	for _, p := range r.st.Players {
		pv := playerView{ID: p.ID, Name: p.Name, X: p.X, Y: p.Y, Tiles: p.Tiles, Clicks: p.Clicks,
			Online: p.online(), Racing: p.Game != 0, Done: p.Done, Ms: p.Ms, Place: p.Place}
		if p.Game == 0 {
			pv.X, pv.Y = start.X, start.Y
		}
		v.Players = append(v.Players, pv)
	}
	return v
}

// broadcastRoom sends the room's view to its clients here. r.mu is held.
func (r *room) broadcastRoom() {
	r.broadcastLocked(map[string]any{"t": "room", "room": r.view(), "now": r.h.now().UnixMilli()})
}

// broadcastLocked sends msg to every welcomed connection here. r.mu is
// held.
func (r *room) broadcastLocked(msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		r.h.log.Error("arena: encode", "err", err)
		return
	}
	for c, welcomed := range r.conns {
		if welcomed {
			c.send(b)
		}
	}
}

// mazeJSON is a maze as the client draws it: its ID, size, start, goal,
// and one string a row, '#' a wall and '.' a floor.
func mazeJSON(m *mazecore.Maze) json.RawMessage {
	rows := make([]string, m.Height())
	var b strings.Builder
	for y := range m.Height() {
		b.Reset()
		for x := range m.Width() {
			if m.Wall(x, y) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		rows[y] = b.String()
	}
	s, g := m.Start(), m.Goal()
	raw, _ := json.Marshal(map[string]any{
		"id": m.ID().String(), "w": m.Width(), "h": m.Height(), "rows": rows,
		"start": [2]int{s.X, s.Y}, "goal": [2]int{g.X, g.Y},
	})
	return raw
}
