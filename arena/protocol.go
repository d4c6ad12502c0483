package arena

//go:generate go run ./internal/gents -out web/src/protocol.ts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ProtocolVersion is the version of the messages below. A client says
// which it speaks in its hello; Discord clients may run a cached bundle,
// so one that speaks another is told to reload (Reload, close 4426)
// rather than misread what it is sent. Bump it whenever a message
// changes in a way an older client would misread.
const ProtocolVersion = 4

// Every message of the room's WebSocket is a type in this file, and
// web/src/protocol.ts is generated from them (go generate ./arena; a test
// fails when it is stale). A message is a JSON object whose "t" names it.

// Phase is where a room is in its race.
type Phase string

// The phases of a room.
const (
	PhaseLobby     Phase = "lobby"     // gathering; the launcher may pick the maze
	PhaseCountdown Phase = "countdown" // someone pressed Start: the race begins at StartAt
	PhaseRace      Phase = "race"      // moves are played
	PhaseOver      Phase = "over"      // everyone racing has finished
)

// Phases lists every phase, for the generated TypeScript.
var Phases = []Phase{PhaseLobby, PhaseCountdown, PhaseRace, PhaseOver}

// Refusal is why a message was refused, as the client is told.
type Refusal string

// Why a move or a request is refused.
const (
	RefusedWall       Refusal = "wall"        // a wall is in the way
	RefusedNotStarted Refusal = "not_started" // the race has not begun
	RefusedFinished   Refusal = "finished"    // your race is over
	RefusedWatching   Refusal = "watching"    // you are not in the race
	RefusedRate       Refusal = "rate"        // too many moves, or Starts and picks
	RefusedBad        Refusal = "bad"         // not a message the protocol has
	RefusedNotYours   Refusal = "not_launcher"
	RefusedNotOver    Refusal = "not_over" // a rematch before the race is over
	RefusedError      Refusal = "error"    // the server's own failure
)

// Refusals maps every refusal a client is told to the catalog message
// (lang) that explains it; TestRefusalsHaveWords checks each is in both
// catalogs. A refusal missing here is a refusal the client cannot word.
var Refusals = map[Refusal]string{
	RefusedWall:       "arena.refused_wall",
	RefusedNotStarted: "arena.refused_not_started",
	RefusedFinished:   "arena.refused_finished",
	RefusedWatching:   "arena.refused_watching",
	RefusedRate:       "arena.refused_rate",
	RefusedBad:        "arena.refused_bad",
	RefusedNotYours:   "arena.refused_not_launcher",
	RefusedNotOver:    "arena.refused_not_over",
	RefusedError:      "arena.refused_error",
}

// Direction is a move's way, as the maze's grid has them (play.Ways):
// north, east, south and west on square cells; north, south and the four
// diagonals on hex cells (flat sides up); in, out, clockwise and
// anticlockwise on a polar grid, where a cell whose ring splits outward
// has two ways out: out to the anticlockwise one of its two outer cells,
// out_cw to the other.
type Direction string

// The directions.
const (
	North         Direction = "n"
	NorthEast     Direction = "ne"
	East          Direction = "e"
	SouthEast     Direction = "se"
	South         Direction = "s"
	SouthWest     Direction = "sw"
	West          Direction = "w"
	NorthWest     Direction = "nw"
	In            Direction = "in"
	Out           Direction = "out"
	OutClockwise  Direction = "out_cw"
	Clockwise     Direction = "cw"
	Anticlockwise Direction = "ccw"
)

// Directions lists every direction, for the generated TypeScript.
var Directions = []Direction{North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest, In, Out, OutClockwise, Clockwise, Anticlockwise}

// Layout is how a maze is sent to be drawn (MazeGrid).
type Layout string

// The layouts.
const (
	LayoutTiles  Layout = "tiles"  // the whole square grid: Rows, a string of tiles a row
	LayoutSquare Layout = "square" // square cells cut to a shape: Mask and Links
	LayoutHex    Layout = "hex"    // hex cells, flat sides up, odd columns half a cell lower: Links, maybe Mask
	LayoutPolar  Layout = "polar"  // rings round a centre cell: Rings and Links
)

// Layouts lists every layout, for the generated TypeScript.
var Layouts = []Layout{LayoutTiles, LayoutSquare, LayoutHex, LayoutPolar}

// GhostKind is whose run a ghost replays.
type GhostKind string

// The ghosts.
const (
	GhostBest GhostKind = "best" // the server's best run of the day so far, another member's
	GhostOwn  GhostKind = "own"  // the racer's own best run of the day (the day's best, if it is theirs)
)

// GhostKinds lists every ghost, for the generated TypeScript.
var GhostKinds = []GhostKind{GhostBest, GhostOwn}

// ---- from the client ----

// HelloMsg is a connection's first message: who it is, and the protocol
// it speaks.
type HelloMsg struct {
	T       string `json:"t"`
	V       int    `json:"v,omitempty"` // ProtocolVersion of the client; 0 before versions
	Session string `json:"session"`     // the session token POST /api/token made
	Locale  string `json:"locale,omitempty"`
	// Token and Instance are what a hello of version 1 carried: read, so
	// that such a client is told to reload rather than refused as a bad
	// hello.
	Token    string `json:"token,omitempty"`
	Instance string `json:"instance,omitempty"`
}

// MoveMsg moves the sender one step (or one corridor's run): only a
// direction, never a position.
type MoveMsg struct {
	T   string    `json:"t"`
	Dir Direction `json:"dir"`
}

// StartMsg asks for the countdown.
type StartMsg struct {
	T string `json:"t"`
}

// PickMsg asks, in the lobby, for another maze: one by ID, or a new random
// one of a grid, an algorithm and a side (tiles on the square grid, rings
// on the polar one, cells across on the hex one).
type PickMsg struct {
	T         string `json:"t"`
	Maze      string `json:"maze,omitempty"`
	Grid      string `json:"grid,omitempty"` // square (the default), polar or hex
	Algorithm string `json:"algorithm,omitempty"`
	Size      int    `json:"size,omitempty"`
}

// WatchMsg, in the lobby or the countdown, says whether the sender
// watches the race rather than racing it.
type WatchMsg struct {
	T  string `json:"t"`
	On bool   `json:"on"`
}

// RematchMsg, once the race is over, starts a new race for everyone still
// there, on a new maze of the same kind (grid, algorithm and size, a new
// seed). Anyone in the room may ask; the first to ask wins.
type RematchMsg struct {
	T string `json:"t"`
}

// PingMsg asks for the server's clock; Client is the client's, echoed
// back so it can take the round trip off.
type PingMsg struct {
	T      string  `json:"t"`
	Client float64 `json:"c"`
}

// ---- from the server ----

// WelcomeMsg admits a connection: who it is, the maze, the room.
type WelcomeMsg struct {
	T    string          `json:"t"`
	V    int             `json:"v"`
	You  string          `json:"you"`
	Maze json.RawMessage `json:"maze" ts:"MazeGrid"`
	Room RoomView        `json:"room"`
	Now  int64           `json:"now"` // the server's clock, Unix ms
	// Algorithms and Grids are what the picker offers, named in the
	// member's language.
	Algorithms []AlgorithmChoice `json:"algorithms"`
	Grids      []GridChoice      `json:"grids"`
}

// AlgorithmChoice is one algorithm of the picker, and the grids it runs
// on.
type AlgorithmChoice struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Grids []string `json:"grids"`
}

// GridChoice is one grid of the picker.
type GridChoice struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// MazeMsg is a new maze, picked in the lobby.
type MazeMsg struct {
	T    string          `json:"t"`
	Maze json.RawMessage `json:"maze" ts:"MazeGrid"`
}

// RoomMsg is the room after a change.
type RoomMsg struct {
	T    string   `json:"t"`
	Room RoomView `json:"room"`
	Now  int64    `json:"now"`
}

// PosMsg is where a racer moved: the mover's answer, sent to the
// connection the move came from as soon as it is played.
type PosMsg struct {
	T      string `json:"t"`
	ID     string `json:"id"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Tiles  int    `json:"tiles"`
	Clicks int    `json:"clicks"`
}

// MovesMsg is every racer who moved in the last tick (MoveTick), where
// they stand now: the room sends it once a tick, encoded once for all its
// connections, where a message a move to every member was a write a move
// a connection (2,000 racers over 200 rooms: 160,000 writes a second).
type MovesMsg struct {
	T     string `json:"t"`
	Moves []Dot  `json:"moves"`
}

// Dot is where one racer stands, in a MovesMsg.
type Dot struct {
	ID     string `json:"id"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Tiles  int    `json:"tiles"`
	Clicks int    `json:"clicks"`
}

// RefusedMsg says why a message was refused.
type RefusedMsg struct {
	T   string  `json:"t"`
	Why Refusal `json:"why"`
}

// PongMsg answers a ping: the client's clock as it sent it, and the
// server's as it answered.
type PongMsg struct {
	T      string  `json:"t"`
	Client float64 `json:"c"`
	Now    int64   `json:"now"`
}

// ReloadMsg tells a client that speaks another protocol to reload: the
// connection closes (4426) after it.
type ReloadMsg struct {
	T string `json:"t"`
	V int    `json:"v"` // the server's ProtocolVersion
}

// GhostsMsg is the runs a racer on today's daily races beside: sent to
// the racer alone when their game starts (and again on a reconnect), never
// part of the room. A ghost counts, ranks and refuses nothing.
type GhostsMsg struct {
	T      string  `json:"t"`
	Ghosts []Ghost `json:"ghosts"`
}

// Ghost is one run replayed from the race's start (RoomView.StartAt).
type Ghost struct {
	Kind GhostKind `json:"kind"`
	Name string    `json:"name"` // whose run
	Ms   int64     `json:"ms"`   // its time
	// Steps are where the run was after each move, the first the start
	// at 0: the ghost stands at the last step whose T has come.
	Steps []GhostStep `json:"steps"`
}

// GhostStep is a ghost's place (as PosMsg writes it) from T, ms after
// the start.
type GhostStep struct {
	T int64 `json:"t"`
	X int   `json:"x"`
	Y int   `json:"y"`
}

// MazeGrid is a maze as the client draws it: its ID, layout, size,
// start, goal and walls. A place (Start, Goal, a racer's X and Y) is a
// tile of the whole square grid, and on another grid cell (col, row) is
// (2·col+1, 2·row+1), a polar cell's col its index in its ring (clockwise
// from the top) and its row its ring (0 the centre).
type MazeGrid struct {
	ID     string `json:"id"`
	Layout Layout `json:"layout"`
	// W and H: tiles (tiles), cells across and down (square, hex), the
	// rings (polar).
	W int `json:"w"`
	H int `json:"h"`
	// Rows: tiles only, one string a row, '#' a wall and '.' a floor.
	Rows []string `json:"rows,omitempty"`
	// Rings: polar only, the cells of each ring, the centre's first.
	Rings []int `json:"rings,omitempty"`
	// Mask: square and hex cut to a shape, base64 of a bit a place of the
	// W×H rectangle, row by row, least significant bit first: set where
	// the place is a cell. Absent when every place is.
	Mask string `json:"mask,omitempty"`
	// Links: every grid but tiles, base64 of a few bits a cell, the cells
	// numbered in row (ring) order, the mask's only: set where a passage
	// opens its way (square: north, west; hex: north, north-east,
	// south-east; polar: in, clockwise), least significant bit first.
	Links string `json:"links,omitempty"`
	Start [2]int `json:"start"`
	Goal  [2]int `json:"goal"`
	Par   int    `json:"par"` // the clicks of the best run
}

// RoomView is the room as its clients see it.
type RoomView struct {
	Phase    Phase        `json:"phase"`
	StartAt  int64        `json:"start_at,omitempty"`
	Maze     string       `json:"maze"`
	Contest  bool         `json:"contest"`
	Launcher string       `json:"launcher,omitempty"`
	Players  []PlayerView `json:"players"`
	// Watchers is how many members online watch rather than race.
	Watchers int `json:"watchers"`
	// Rematch: a rematch may be asked (RematchMsg). The race is over, or
	// over for everyone still there: whoever races on has left.
	Rematch bool `json:"rematch,omitempty"`
}

// PlayerView is one member of a room as the clients see them.
type PlayerView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Tiles  int    `json:"tiles"`
	Clicks int    `json:"clicks"`
	Online bool   `json:"online"`
	Racing bool   `json:"racing"`
	// Watching: they watch this race (they chose to, or came after its
	// start) rather than race it.
	Watching bool  `json:"watching,omitempty"`
	Done     bool  `json:"done"`
	Ms       int64 `json:"ms,omitempty"`
	Place    int   `json:"place,omitempty"`
}

// Message names one message type by its "t".
type Message struct {
	T     string
	Value any // the zero value of its Go type
}

// ClientMessages are the messages a client may send, and ServerMessages
// those it is sent: the generator's and the decoder's one list.
var (
	ClientMessages = []Message{
		{"hello", HelloMsg{}}, {"move", MoveMsg{}}, {"start", StartMsg{}}, {"pick", PickMsg{}}, {"ping", PingMsg{}},
		{"watch", WatchMsg{}}, {"rematch", RematchMsg{}},
	}
	ServerMessages = []Message{
		{"welcome", WelcomeMsg{}}, {"maze", MazeMsg{}}, {"room", RoomMsg{}}, {"pos", PosMsg{}}, {"moves", MovesMsg{}},
		{"refused", RefusedMsg{}}, {"pong", PongMsg{}}, {"reload", ReloadMsg{}}, {"ghosts", GhostsMsg{}},
	}
)

// Enums are the named string types of the protocol and their values, for
// the generated TypeScript.
var Enums = map[string][]string{
	"Phase":     strs(Phases),
	"Refusal":   refusalNames(),
	"Direction": strs(Directions),
	"Layout":    strs(Layouts),
	"GhostKind": strs(GhostKinds),
}

func strs[S ~string](xs []S) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

func refusalNames() []string {
	// In the order of the constants, for a stable file.
	return strs([]Refusal{RefusedWall, RefusedNotStarted, RefusedFinished, RefusedWatching, RefusedRate, RefusedBad, RefusedNotYours, RefusedNotOver, RefusedError})
}

// plainMove reads a move as the client writes it, {"t":"move","dir":…}
// with a direction of letters and '_' only, without encoding/json: a
// move is nearly every message a racer sends, and decodeClient's two
// passes of the decoder were some 5% of the server's CPU under
// BenchmarkArena's 2,000 racers. Any other form goes through the decoder.
func plainMove(b []byte) (Direction, bool) {
	const head, tail = `{"t":"move","dir":"`, `"}`
	if len(b) <= len(head)+len(tail) || len(b) > len(head)+len(tail)+8 || string(b[:len(head)]) != head || string(b[len(b)-len(tail):]) != tail {
		return "", false
	}
	dir := b[len(head) : len(b)-len(tail)]
	for _, c := range dir {
		if (c < 'a' || c > 'z') && c != '_' {
			return "", false
		}
	}
	return Direction(dir), true
}

// decodeClient decodes one message from a client into its type (a
// HelloMsg, a MoveMsg …): a "t" the protocol lacks, a field its type
// lacks (a position, another player's id), or trailing data is an error.
func decodeClient(b []byte) (any, error) {
	if dir, ok := plainMove(b); ok {
		return &MoveMsg{T: "move", Dir: dir}, nil
	}
	var head struct {
		T string `json:"t"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, err
	}
	var v any
	switch head.T {
	case "hello":
		v = &HelloMsg{}
	case "move":
		v = &MoveMsg{}
	case "start":
		v = &StartMsg{}
	case "pick":
		v = &PickMsg{}
	case "ping":
		v = &PingMsg{}
	case "watch":
		v = &WatchMsg{}
	case "rematch":
		v = &RematchMsg{}
	default:
		return nil, fmt.Errorf("no message %q", head.T)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data")
	}
	return v, nil
}
