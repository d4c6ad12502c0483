package arena

import (
	"mazebot/play"
)

// The phases of a room (protocol.go's, as the state's strings).
const (
	phaseLobby     = string(PhaseLobby)
	phaseCountdown = string(PhaseCountdown)
	phaseRace      = string(PhaseRace)
	phaseOver      = string(PhaseOver)
)

// MaxRacers is how many members race in one room; more watch. The bus
// carries a room's inputs, not its state, so no message bounds it: it
// bounds what one room's loop broadcasts to each move (every racer's
// clients get every move).
const MaxRacers = 100

// roomState is a room as every process holding it agrees: what the
// inputs, applied in the bus's order, made of it.
type roomState struct {
	Instance string `json:"instance"`
	Guild    string `json:"guild,omitempty"`
	Channel  string `json:"channel"`
	Maze     string `json:"maze"`
	Launcher string `json:"launcher,omitempty"` // who may pick the maze; "" anyone
	Phase    string `json:"phase"`
	StartAt  int64  `json:"start_at,omitempty"` // Unix ms
	Contest  bool   `json:"contest,omitempty"`  // the games count for a daily or an event
	// NoCard: the bot may not post in the channel (a group DM, or a server
	// that only the launcher's own install of the app reaches): no card.
	NoCard bool `json:"no_card,omitempty"`
	// Followup, in a room with NoCard, is the launch's interaction token:
	// Discord takes the interaction's followups, which a group DM's
	// members see, until FollowupBy (Unix ms), and the card follows the
	// launch there. A credential, sealed (sealer): it goes to no client and
	// no log, and crosses the bus unreadable.
	Followup   string    `json:"followup,omitempty"`
	FollowupBy int64     `json:"followup_by,omitempty"`
	LeftAt     int64     `json:"left_at,omitempty"` // when the last member online left, Unix ms
	Round      int       `json:"round,omitempty"`   // the rematches so far: each race's card is its own
	Players    []*player `json:"players"`
	// Seen is when each process holding members was last heard from, by
	// its inputs' times (Unix ms): see state.heard.
	Seen map[string]int64 `json:"seen,omitempty"`
	// Holders are the processes holding a replica of the room, each with
	// its replica's nonce (its sync's; "" when only an input of it was
	// seen): a process with no other plays the room without the bus
	// (state.alone).
	Holders map[string]string `json:"holders,omitempty"`
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
	// Recorder is the process that records their finish: their finishing
	// move's, or the one that took that process for dead (state.heard).
	Recorder string `json:"recorder,omitempty"`
	// Conns counts their connections by process.
	Conns map[string]int `json:"conns,omitempty"`
	// Watching: they watch this race: they chose to (Chose), came after
	// its start, or their game could not start.
	Watching bool `json:"watching,omitempty"`
	// Chose: they asked to watch (in the lobby), and go on watching the
	// rematches; the others who watch race the next one.
	Chose bool `json:"chose,omitempty"`
	// Held are their moves made before their game was stored.
	Held []event `json:"held,omitempty"`
	// Rec is their game as a sync carries it to a new replica.
	Rec *play.Record `json:"rec,omitempty"`
	// Run is their moves so far as a ghost replays them (ghost.go):
	// RunMoves of them, the last RunAt ms after their game's start.
	Run      []byte `json:"run,omitempty"`
	RunMoves int    `json:"run_moves,omitempty"`
	RunAt    int64  `json:"run_at,omitempty"`
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

// event is one input of a room, as the Bus carries it: what a member did
// (a move names only its direction), never the state it leads to.
type event struct {
	Kind     string     `json:"k"`
	Instance string     `json:"i,omitempty"`
	Origin   string     `json:"o"`            // the process that published it
	Nonce    string     `json:"n,omitempty"`  // hello: the connection; move: the request; sync, state: the request
	At       int64      `json:"at,omitempty"` // the origin's clock, Unix ms
	User     string     `json:"u,omitempty"`
	Name     string     `json:"name,omitempty"`
	Locale   string     `json:"loc,omitempty"`
	Maze     string     `json:"maze,omitempty"`
	Channel  string     `json:"c,omitempty"`
	NoCard   bool       `json:"nc,omitempty"`   // pend: no result card may be posted in the channel
	Followup string     `json:"fu,omitempty"`   // pend: the launch's interaction token, sealed (see roomState)
	Dir      string     `json:"d,omitempty"`    // move
	Game     int64      `json:"game,omitempty"` // game: its store id
	Key      string     `json:"key,omitempty"`  // game: the contest it counts for
	On       bool       `json:"on,omitempty"`   // watch: whether they watch
	State    *roomState `json:"state,omitempty"`
	// local: it came to the loop from this process, not the bus (put).
	local bool
}

// The kinds of input.
const (
	evPend   = "pend"   // a launch in a channel, with its maze
	evHello  = "hello"  // a member connected
	evBye    = "bye"    // a member's connection closed
	evExpire = "expire" // the room, left by all, may end
	evPick   = "pick"   // the launcher picked another maze
	evStart  = "start"  // Start pressed: the countdown runs
	evGame   = "game"   // a member's game began (stored: its id)
	evMove   = "move"   // a member moved
	evSync   = "sync"   // a process asks for a room's state
	evState  = "state"  // the state, answering a sync
	evTick   = "tick"   // this process's timer (never on the bus)
	evBeat   = "beat"   // a process is alive (to every room it holds)
	evWatch  = "watch"  // a member chose to watch, or to race
	evDrop   = "drop"   // a replica leaves: none of its members is connected to it
	evGap    = "gap"    // the bus lost messages: this replica leaves (never on the bus)
	// evRematch starts a new race once the race is over, on the maze its
	// publisher made: a new seed of the same kind, the same on every
	// replica (apply draws no random numbers).
	evRematch = "rematch"
)

// viaPut: a process puts inputs of kind on the bus through room.put or
// room.move, and counts them until they come back (room.inflight).
func viaPut(kind string) bool {
	switch kind {
	case evPend, evSync, evState, evTick, evBeat, evDrop, evGap:
		return false
	}
	return true
}

// Why a move or a request is refused, as the client is told: protocol.go's
// Refusal codes, as strings.
const (
	refusedWall       = string(RefusedWall)
	refusedNotStarted = string(RefusedNotStarted)
	refusedFinished   = string(RefusedFinished)
	refusedWatching   = string(RefusedWatching)
	refusedRate       = string(RefusedRate)
	refusedBad        = string(RefusedBad)
	refusedNotYours   = string(RefusedNotYours)
	refusedNotOver    = string(RefusedNotOver)
	refusedError      = string(RefusedError)
)
