package arena

import (
	"encoding/json"
	"slices"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// state is a room as its loop holds it: the agreed state (what every
// process holding the room makes of the bus's inputs), its maze, and the
// members' games, played in memory.
type state struct {
	roomState
	self string // this process, as events name their origin
	// maze is the room's maze on the whole square grid, or grid its maze
	// on any other (course.go): one of them is nil.
	maze *mazecore.Maze
	grid *mazecore.GridMaze
	// drawing is the maze as the client draws it, made once a maze (a
	// 100-ring polar maze's takes some 2 ms: every welcome sends it);
	// drawingOf is the maze's ID it was made for.
	drawing   json.RawMessage
	drawingOf string
	games     map[string]*play.Game // by member, once their race began
	// countdown is the time from Start to the race.
	countdown time.Duration
	// linger is how long a room left by all waits for a return (Config.Linger);
	// deadAfter is the silence after which a process's members are taken
	// offline (Config.DeadAfter).
	linger, deadAfter time.Duration
	// ended: the room is over here; no input changes it.
	ended bool
}

// effect is what applying an input asks of the world: the loop does it,
// so that apply stays pure and table-testable.
type effect struct {
	kind  effectKind
	msg   any    // effBroadcast, effMoved; effReply: the mover's PosMsg once played
	nonce string // effWelcome, effReply, effMoved: the connection or request
	why   string // effReply: why the move was refused, "" if played
	user  string // effStartGame, effReply
	game  *play.Game
	run   *play.Run // effRecord: the run to keep for ghosts, nil for none
	// rescue: effRecord of a finish a dead process may have recorded.
	rescue bool
	at     int64 // effSchedule, effLinger: when, Unix ms; effMoved: the move's time
	// race is the race a rematch ended, for its card (effCard); nil for
	// the room's last.
	race *endedRace
}

// endedRace is a race a rematch ended: the room as it was, and its maze.
type endedRace struct {
	room roomState
	maze *mazecore.Maze
	grid *mazecore.GridMaze
}

type effectKind uint8

const (
	effBroadcast    effectKind = iota + 1 // msg to every welcomed connection here
	effMoved                              // a dot moved (msg, a PosMsg): in the next tick's MovesMsg to every connection here
	effWelcome                            // welcome the connection nonce
	effReply                              // answer the move request nonce
	effStartGame                          // start user's game (through Games, here)
	effRecord                             // record game's finish (through Games, here)
	effSchedule                           // wake the loop at at: the countdown ends
	effLinger                             // nobody is online: end the room at at unless someone returns
	effSendState                          // answer a sync (nonce) with the state
	effEnd                                // the room ended here
	effCard                               // post the result card (from this process)
	effTakenForDead                       // this process was taken for dead: its replica leaves, its members reconnect
)

// defaultLinger is how long a room whose members all went waits for one
// to come back (Config.Linger): a dropped connection (a tunnel, a phone
// switching networks) reconnects within seconds, and must resume the race,
// not find a new lobby.
const defaultLinger = 5 * time.Second

// defaultBeatEvery is how often a process on a shared bus says it is
// alive, and defaultDeadAfter the silence after which the other processes
// take its members offline (Config.BeatEvery, Config.DeadAfter): a process
// killed says no goodbye. A process's last beat is at most BeatEvery
// before it died, and the others notice at their first input past
// DeadAfter, so its members are gone within DeadAfter plus two beats, 10 s.
const (
	defaultBeatEvery = 2 * time.Second
	defaultDeadAfter = 6 * time.Second
)

// maxHeld is how many moves of a member wait for their game to be stored.
const maxHeld = 16

// apply takes one input of the room, in the bus's order (or, for a tick,
// this process's clock), and returns the next state and what the world
// must do. It does no I/O and reads no clock: times come with the inputs,
// so that every process fed the same inputs holds the same room. st is
// consumed: its players and games are updated in place.
func apply(st state, ev event) (state, []effect) {
	if st.ended {
		return st, nil
	}
	var fx []effect
	if ev.Origin != "" {
		st.hold(ev)
		fx = append(fx, st.heard(ev)...)
	}
	// The race begins with the first input at or after StartAt: by the
	// inputs' times, alike everywhere, whichever process's timer fired.
	if st.Phase == phaseCountdown && ev.At >= st.StartAt {
		st.Phase = phaseRace
		fx = append(fx, st.startHere()...)
		fx = append(fx, st.roomMsg(ev.At))
	}
	switch ev.Kind {
	case evSync:
		if ev.Origin != st.self {
			fx = append(fx, effect{kind: effSendState, nonce: ev.Nonce})
		}
	case evHello:
		fx = append(fx, st.hello(ev)...)
	case evBye:
		fx = append(fx, st.bye(ev)...)
	case evExpire, evBeat:
		// A beat ends a room left by all as its expiry does: the beats of
		// the processes still holding it keep time for the room on a
		// shared bus, whatever became of the process whose timer expires it.
		if st.LeftAt != 0 && !slices.ContainsFunc(st.Players, (*player).online) && ev.At >= st.LeftAt+st.linger.Milliseconds() {
			st.ended = true
			fx = append(fx, effect{kind: effEnd})
			if ev.Origin == st.self {
				fx = append(fx, effect{kind: effCard})
			}
		}
	case evPick:
		if st.Phase != phaseLobby || (st.Launcher != "" && ev.User != st.Launcher) {
			return st, fx
		}
		id, err := mazecore.Parse(ev.Maze)
		if err != nil {
			return st, fx
		}
		m, g, err := buildMaze(id)
		if err != nil {
			return st, fx
		}
		st.maze, st.grid, st.Maze = m, g, id.String()
		fx = append(fx, effect{kind: effBroadcast, msg: MazeMsg{T: "maze", Maze: st.drawn()}}, st.roomMsg(ev.At))
	case evStart:
		if st.Phase != phaseLobby {
			return st, fx
		}
		st.Phase, st.StartAt = phaseCountdown, ev.At+st.countdown.Milliseconds()
		fx = append(fx, effect{kind: effSchedule, at: st.StartAt}, st.roomMsg(ev.At))
	case evGame:
		p := st.player(ev.User)
		if p == nil || p.Game != 0 {
			return st, fx
		}
		held := p.Held
		p.Held = nil
		var g *play.Game
		if ev.Game != 0 {
			g, _ = newGame(st.maze, st.grid, play.Record{ID: ev.Game, UserID: ev.User, GuildID: st.Guild, ChannelID: st.Channel, Contest: ev.Key},
				time.UnixMilli(ev.At))
		}
		if g == nil {
			// Its start failed: they watch, and the moves held for it are refused.
			p.Watching = true
			for _, m := range held {
				if m.Origin == st.self {
					fx = append(fx, effect{kind: effReply, nonce: m.Nonce, why: refusedError})
				}
			}
			return st, fx
		}
		p.Game, p.pos = ev.Game, posOf(g)
		p.Run, p.RunMoves, p.RunAt = nil, 0, 0 // a new game's run
		st.games[p.ID] = g
		st.Contest = st.Contest || ev.Key != ""
		fx = append(fx, st.roomMsg(ev.At))
		for _, m := range held {
			m.At = max(m.At, ev.At)
			fx = append(fx, st.move(m)...)
		}
	case evWatch:
		// Who races is settled when the race begins: a member may choose
		// until then.
		p := st.player(ev.User)
		if p == nil || (st.Phase != phaseLobby && st.Phase != phaseCountdown) {
			return st, fx
		}
		p.Watching, p.Chose = ev.On, ev.On
		fx = append(fx, st.roomMsg(ev.At))
	case evRematch:
		fx = append(fx, st.rematch(ev)...)
	case evTick:
		// Only the race's start, above.
	case evMove:
		fx = append(fx, st.move(ev)...)
	}
	return st, fx
}

// move plays a member's move on their game, in memory. A refusal is
// answered to the process the move came from, which tells the client.
func (st *state) move(ev event) []effect {
	refuse := func(why string) []effect {
		if ev.Origin != st.self {
			return nil
		}
		return []effect{{kind: effReply, nonce: ev.Nonce, why: why, user: ev.User}}
	}
	p := st.player(ev.User)
	g := st.games[ev.User]
	action, ok := moveAction(st.maze, st.grid, Direction(ev.Dir))
	switch {
	case !ok:
		return refuse(refusedBad)
	case st.Phase == phaseLobby || st.Phase == phaseCountdown:
		return refuse(refusedNotStarted)
	case p != nil && g == nil && !p.Done && !p.Watching && st.Phase == phaseRace && p.online() && len(p.Held) < maxHeld:
		// The race began before their game was stored (a store call away,
		// on the process they are connected to): the move waits for it.
		p.Held = append(p.Held, ev)
		return nil
	case p == nil || g == nil:
		return refuse(refusedWatching)
	case p.Done || st.Phase == phaseOver:
		return refuse(refusedFinished)
	}
	action.Seq = g.Seq
	out, err := g.Apply(action, time.UnixMilli(ev.At))
	switch {
	case err != nil:
		return refuse(refusedFinished) // expired
	case out == play.Blocked:
		return refuse(refusedWall)
	}
	p.pos = posOf(g)
	p.keep(Direction(ev.Dir), ev.At-g.StartedAt.UnixMilli())
	pos := PosMsg{T: "pos", ID: p.ID, X: p.X, Y: p.Y, Tiles: p.Tiles, Clicks: p.Clicks}
	fx := []effect{{kind: effMoved, msg: pos, nonce: ev.Nonce, at: ev.At}}
	if ev.Origin == st.self {
		fx = append(fx, effect{kind: effReply, nonce: ev.Nonce, msg: pos})
	}
	if out != play.Finished {
		return fx
	}
	place := 1
	for _, o := range st.Players {
		if o.Done {
			place++
		}
	}
	p.Done, p.Ms, p.Place, p.Recorder = true, g.FinishedAt.Sub(g.StartedAt).Milliseconds(), place, ev.Origin
	if ev.Origin == st.self {
		fx = append(fx, st.record(p))
	}
	if st.allDone() {
		st.Phase = phaseOver
	}
	return append(fx, st.roomMsg(ev.At))
}

// record is the effect that records p's finish, on their game.
func (st *state) record(p *player) effect {
	g := st.games[p.ID]
	done := *g
	return effect{kind: effRecord, game: &done, run: runOf(p, g)}
}

// rematch starts a new race, once the race is over, on the maze the input
// names, for the members still online: those away are dropped, and the
// others race, but for those who chose to watch. A rematch that comes
// second (two members pressed at once), or names a maze not of the room's
// kind, is no event.
func (st *state) rematch(ev event) []effect {
	if !st.rematchable() {
		return nil
	}
	next, err := mazecore.Parse(ev.Maze)
	if err != nil {
		return nil
	}
	cur, err := mazecore.Parse(st.Maze)
	if err != nil || !sameKind(cur, next) {
		return nil
	}
	m, g, err := st.mazeOfKind(next)
	if err != nil {
		return nil
	}
	var fx []effect
	if ev.Origin == st.self {
		// The race that ended gets its card now, from one process: the
		// room's card is its last race's.
		fx = append(fx, effect{kind: effCard, race: &endedRace{room: st.snapshot(), maze: st.maze, grid: st.grid}})
	}
	st.Round++
	st.maze, st.grid, st.Maze = m, g, next.String()
	st.games = map[string]*play.Game{}
	st.Contest, st.LeftAt = false, 0
	var still []*player
	for _, p := range st.Players {
		if !p.online() {
			continue
		}
		still = append(still, &player{ID: p.ID, Name: p.Name, Locale: p.Locale, Conns: p.Conns, Watching: p.Chose, Chose: p.Chose})
	}
	st.Players = still
	st.Phase, st.StartAt = phaseCountdown, ev.At+st.countdown.Milliseconds()
	return append(fx,
		effect{kind: effBroadcast, msg: MazeMsg{T: "maze", Maze: st.drawn()}},
		effect{kind: effSchedule, at: st.StartAt},
		st.roomMsg(ev.At))
}

// rematchable: the race is over for everyone still there. It is over
// once every racer finished; a racer who left mid-race (closed the
// Activity, gave up) holds it open, but not the members still there, who
// may rematch once none of them races on. A racer away is dropped by the
// rematch, and one who was only cut off comes back to watch it.
func (st *state) rematchable() bool {
	if st.Phase == phaseOver {
		return true
	}
	if st.Phase != phaseRace {
		return false
	}
	for _, p := range st.Players {
		if p.online() && !p.Watching && !p.Done {
			return false
		}
	}
	return true
}

// mazeOfKind makes the maze id names, of the room's maze's kind: an image's
// on the room's grid, whose mask already holds the picture the store
// keeps (apply reads no store); any other as buildMaze does.
func (st *state) mazeOfKind(id mazecore.ID) (*mazecore.Maze, *mazecore.GridMaze, error) {
	if id.Shape.Kind == mazecore.ImageShape {
		g, err := mazecore.GenerateGridOn(id, st.grid)
		return nil, g, err
	}
	return buildMaze(id)
}

// sameKind: b is a maze of a's kind, whatever its seed: a rematch's.
func sameKind(a, b mazecore.ID) bool {
	a.Seed = b.Seed
	return a.String() == b.String()
}

// startHere asks for the games of the members connected here who have
// none: the process a member is connected to starts their game.
func (st *state) startHere() []effect {
	var fx []effect
	for _, p := range st.Players {
		if p.Game == 0 && !p.Watching && p.Conns[st.self] > 0 {
			fx = append(fx, effect{kind: effStartGame, user: p.ID})
		}
	}
	return fx
}

func (st *state) hello(ev event) []effect {
	p := st.player(ev.User)
	if p == nil && len(st.Players) < MaxRacers {
		// A member who comes once the race began watches it (and races
		// the rematch); one who was there before and comes back races on.
		p = &player{ID: ev.User, Watching: st.Phase == phaseRace || st.Phase == phaseOver}
		st.Players = append(st.Players, p)
	}
	var fx []effect
	if p != nil {
		p.Name, p.Locale = ev.Name, ev.Locale
		if p.Conns == nil {
			p.Conns = map[string]int{}
		}
		p.Conns[ev.Origin]++
		if ev.Origin == st.self && p.Game == 0 && st.Phase == phaseRace && !p.Watching {
			fx = append(fx, effect{kind: effStartGame, user: p.ID}) // there before the start, back after it
		}
	}
	if ev.Origin == st.self {
		fx = append(fx, effect{kind: effWelcome, nonce: ev.Nonce, user: ev.User})
	}
	return append(fx, st.roomMsg(ev.At))
}

func (st *state) bye(ev event) []effect {
	p := st.player(ev.User)
	if p != nil && p.Conns[ev.Origin] > 0 {
		p.Conns[ev.Origin]--
		if p.Conns[ev.Origin] == 0 {
			delete(p.Conns, ev.Origin)
		}
	}
	fx := []effect{st.roomMsg(ev.At)}
	if !slices.ContainsFunc(st.Players, (*player).online) {
		// The last member left: the room ends unless one comes back.
		st.LeftAt = ev.At
		if ev.Origin == st.self {
			fx = append(fx, effect{kind: effLinger, at: ev.At + st.linger.Milliseconds()})
		}
	}
	return fx
}

// heard notes that ev's process is alive at ev.At, and takes offline the
// members of every process not heard from in deadAfter: a process killed
// says no goodbye, and its members stayed online in the other replicas for
// good, so the room never ended. Every replica decides it alike, on the
// inputs' times (each process beats every BeatEvery while it holds a
// room). The process no longer holds a replica either, so that the others
// may play the room without the bus (a killed process's rooms went through
// it until they ended). A process taken for dead that is alive after all
// (its bus was away) hears of it at the same input: from there on the
// others may play without it, so its replica leaves, and its members
// reconnect to a new one, which asks the others for the room.
func (st *state) heard(ev event) []effect {
	if st.Seen == nil {
		st.Seen = map[string]int64{}
	}
	st.Seen[ev.Origin] = max(st.Seen[ev.Origin], ev.At)
	var fx []effect
	var dead []string
	for origin, at := range st.Seen {
		if ev.At-at > st.deadAfter.Milliseconds() {
			dead = append(dead, origin)
		}
	}
	slices.Sort(dead) // the same effects in the same order on every replica
	for _, origin := range dead {
		delete(st.Seen, origin)
		delete(st.Holders, origin)
		if origin == st.self {
			fx = append(fx, effect{kind: effTakenForDead})
		}
		gone := false
		for _, p := range st.Players {
			if p.Conns[origin] > 0 {
				delete(p.Conns, origin)
				gone = true
			}
			if p.Done && p.Recorder == origin && st.games[p.ID] != nil {
				// The dead process may have died before its own replica
				// played the finish, which every other replica shows: the
				// process whose input found it dead records it (a second
				// record of a game is refused, so it counts once).
				p.Recorder = ev.Origin
				if ev.Origin == st.self {
					f := st.record(p)
					f.rescue = true
					fx = append(fx, f)
				}
			}
		}
		if !gone {
			continue
		}
		if !slices.ContainsFunc(st.Players, (*player).online) {
			st.LeftAt = ev.At
			if ev.Origin == st.self {
				fx = append(fx, effect{kind: effLinger, at: ev.At + st.linger.Milliseconds()})
			}
		}
		fx = append(fx, st.roomMsg(ev.At))
	}
	return fx
}

// hold notes the room's replicas from ev: a sync names its process's
// replica, a drop ends the one it names, and a process any other input
// of the room comes from holds one, named or not (an unnamed one ends
// only with the room). A beat comes to every room its process holds, a
// tick from this process's timer, and a goodbye says a connection closed
// (a replica that leaves says one for each of its own, after the others
// may have let it go): none says anything.
func (st *state) hold(ev event) {
	if ev.Origin == "" || ev.Kind == evBeat || ev.Kind == evTick || ev.Kind == evBye {
		return
	}
	if st.Holders == nil {
		st.Holders = map[string]string{}
	}
	switch ev.Kind {
	case evSync:
		st.Holders[ev.Origin] = ev.Nonce
	case evDrop:
		if nonce, ok := st.Holders[ev.Origin]; ok && ev.Nonce != "" && nonce == ev.Nonce {
			delete(st.Holders, ev.Origin)
		}
	default:
		if _, ok := st.Holders[ev.Origin]; !ok {
			st.Holders[ev.Origin] = ""
		}
	}
}

// alone: no other process holds a replica of the room.
func (st *state) alone() bool {
	for origin := range st.Holders {
		if origin != st.self {
			return false
		}
	}
	return true
}

// onlineVia: some member is connected to the room through this process
// (here), or through another (elsewhere).
func (st *state) onlineVia() (here, elsewhere bool) {
	for _, p := range st.Players {
		for origin, n := range p.Conns {
			if n > 0 && origin == st.self {
				here = true
			} else if n > 0 {
				elsewhere = true
			}
		}
	}
	return here, elsewhere
}

func (st *state) player(id string) *player {
	for _, p := range st.Players {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// allDone: everyone who began the race has finished.
func (st *state) allDone() bool {
	racing := 0
	for _, p := range st.Players {
		if p.Game != 0 {
			racing++
			if !p.Done {
				return false
			}
		}
	}
	return racing > 0
}

// roomMsg is the room's view, for every client here.
func (st *state) roomMsg(now int64) effect {
	return effect{kind: effBroadcast, msg: RoomMsg{T: "room", Room: st.view(), Now: now}}
}

// view is what the clients are sent of the state.
func (st *state) view() RoomView {
	v := RoomView{Phase: Phase(st.Phase), StartAt: st.StartAt, Maze: st.Maze, Contest: st.Contest, Launcher: st.Launcher,
		Rematch: st.rematchable()}
	sx, sy := startPos(st.maze, st.grid)
	for _, p := range st.Players {
		pv := PlayerView{ID: p.ID, Name: p.Name, X: p.X, Y: p.Y, Tiles: p.Tiles, Clicks: p.Clicks,
			Online: p.online(), Racing: p.Game != 0, Watching: p.Watching, Done: p.Done, Ms: p.Ms, Place: p.Place}
		if p.Watching && pv.Online {
			v.Watchers++
		}
		if p.Game == 0 {
			pv.X, pv.Y = sx, sy
		}
		v.Players = append(v.Players, pv)
	}
	return v
}
