package play

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"mazebot/mazecore"
)

// Status is where a game stands.
type Status uint8

// The statuses. Stores keep their own spelling of them.
const (
	Playing Status = iota + 1
	Won
	GaveUp
)

func (s Status) String() string {
	switch s {
	case Playing:
		return "playing"
	case Won:
		return "won"
	case GaveUp:
		return "gave up"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

const (
	// MaxSide is the largest maze side a game accepts: a game's trail
	// (one bit a tile) is rewritten on every move, and a bigger maze would
	// take hundreds of clicks even with corridor runs.
	MaxSide = 201
	// TTL is how long after its start a game takes moves.
	TTL = 24 * time.Hour
)

// Errors of a game that no longer takes moves, and of a stored game that
// cannot be its maze's.
var (
	ErrOver     = errors.New("game is over")
	ErrExpired  = errors.New("game has expired")
	ErrNotYours = errors.New("game belongs to another member")
	ErrBadState = errors.New("game state does not fit its maze")
	ErrTooBig   = errors.New("maze too big to play")
)

// Record is a game as a Store keeps it.
type Record struct {
	ID        int64
	UserID    string
	GuildID   string
	ChannelID string
	MazeID    mazecore.ID
	// Contest names the competition the game counts for, "" for none.
	// Package contest gives it meaning; here it is only carried.
	Contest string
	Pos     mazecore.Point // the player's tile
	Clicks  int
	Tiles   int    // tiles walked, a step from one tile to the next counting 1
	Trail   []byte // one bit per tile walked, row-major, LSB first
	// Seq counts the saved changes: a Store writes a record only over the
	// one before it (Seq−1), so two clicks can never both apply.
	Seq        int
	Status     Status
	StartedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt time.Time // zero while playing
}

// Result is a won game's score: what rankings read.
type Result struct {
	UserID     string
	GuildID    string
	MazeID     mazecore.ID
	Contest    string
	Clicks     int
	Tiles      int
	Elapsed    time.Duration
	FinishedAt time.Time
}

// Result is the score of a won game.
func (r Record) Result() Result {
	return Result{
		UserID: r.UserID, GuildID: r.GuildID, MazeID: r.MazeID, Contest: r.Contest, Clicks: r.Clicks, Tiles: r.Tiles,
		Elapsed: r.FinishedAt.Sub(r.StartedAt), FinishedAt: r.FinishedAt,
	}
}

// Game is a game with its maze: what moves are played on.
type Game struct {
	Record
	// Lapsed names the contest a game counted for until it finished,
	// too late to count (see Closing); "" otherwise. Only the press that
	// finished the game sets it.
	Lapsed string
	maze   *mazecore.Maze
	grid   *mazecore.GridMaze // a game on any other grid (grid.go); maze is then nil
	trail  trail
}

// New puts a player on the start of m. The record's ID is the store's to
// assign; the caller fills in who plays where.
func New(m *mazecore.Maze, rec Record, now time.Time) (*Game, error) {
	if m.Width() > MaxSide || m.Height() > MaxSide {
		return nil, fmt.Errorf("%d×%d: %w", m.Width(), m.Height(), ErrTooBig)
	}
	g := &Game{Record: rec, maze: m, trail: newTrail(m)}
	g.MazeID, g.Pos, g.Clicks, g.Tiles, g.Seq, g.Status = m.ID(), m.Start(), 0, 0, 0, Playing
	g.StartedAt, g.UpdatedAt, g.FinishedAt = now, now, time.Time{}
	g.trail.mark(g.Pos)
	g.Trail = g.trail.bits
	return g, nil
}

// Resume rebuilds a stored game on its maze, checking that they fit.
func Resume(m *mazecore.Maze, rec Record) (*Game, error) {
	p := rec.Pos
	if m.ID() != rec.MazeID || p.X%2 != 1 || p.Y%2 != 1 || p.X >= m.Width() || p.Y >= m.Height() || rec.Clicks < 0 || rec.Tiles < 0 {
		return nil, fmt.Errorf("game %d: player at %v with %d clicks, %d tiles: %w", rec.ID, p, rec.Clicks, rec.Tiles, ErrBadState)
	}
	t, err := trailFrom(m, rec.Trail)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w: %w", rec.ID, ErrBadState, err)
	}
	return &Game{Record: rec, maze: m, trail: t}, nil
}

// Clone is a copy of the game that plays on apart from it: the Arena
// answers its members' moves on one while the bus orders them for the
// game every process agrees on.
func (g *Game) Clone() *Game {
	c := *g
	c.trail.bits = slices.Clone(g.trail.bits)
	c.Trail = c.trail.bits
	return &c
}

// Maze is the maze the game is played on, nil for a game on another
// grid than the whole square one (Grid).
func (g *Game) Maze() *mazecore.Maze { return g.maze }

// CanGo reports whether the player's cell has a passage in direction d.
// False in a game on another grid (CanGoWay).
func (g *Game) CanGo(d mazecore.Dir) bool {
	return g.maze != nil && g.maze.Open(g.Pos.X/2, g.Pos.Y/2, d)
}

// Walked lists the tiles walked, in row-major order (WalkedCells in a
// game on another grid).
func (g *Game) Walked() []mazecore.Point { return g.trail.points() }

// Check tells whether the game still takes moves at now: ErrOver or
// ErrExpired when it does not.
func (g *Game) Check(now time.Time) error {
	if g.Status != Playing {
		return ErrOver
	}
	if now.Sub(g.StartedAt) > TTL {
		return ErrExpired
	}
	return nil
}

// Kind is what an action does.
type Kind uint8

// The kinds of action.
const (
	Move Kind = iota + 1
	GiveUp
)

// Action is a member's click, made on the game as it was at Seq.
type Action struct {
	Kind Kind
	Dir  mazecore.Dir // for Move on the whole square grid
	Way  Way          // for Move on any other grid
	Seq  int
}

// Outcome is what an action did.
type Outcome uint8

// The outcomes.
const (
	// Stale: the action was made on an older state (a double click, or
	// another process moved first); nothing changed.
	Stale Outcome = iota + 1
	// Blocked: a wall is in the way; nothing changed.
	Blocked
	// Moved: the player ran along a corridor.
	Moved
	// Finished: the player reached the goal.
	Finished
	// Abandoned: the player gave up.
	Abandoned
)

// Apply plays a on the game at now. It fails with ErrOver or ErrExpired
// when the game takes no moves. Stale and Blocked change nothing; the
// others advance Seq, so the record is ready to save over the old one.
func (g *Game) Apply(a Action, now time.Time) (Outcome, error) {
	if err := g.Check(now); err != nil {
		return 0, err
	}
	if a.Seq != g.Seq {
		return Stale, nil
	}
	switch a.Kind {
	case GiveUp:
		g.Status, g.UpdatedAt, g.FinishedAt = GaveUp, now, now
		g.Seq++
		return Abandoned, nil
	case Move:
	default:
		return 0, fmt.Errorf("action kind %d", a.Kind)
	}
	walked, goal := 0, mazecore.Point{}
	if g.grid != nil {
		walked, goal = len(g.moveOnGrid(a.Way)), cellPos(g.grid.Grid(), g.grid.Goal())
	} else {
		steps := corridorRun(g.maze, g.Pos, a.Dir)
		for _, s := range steps {
			g.trail.mark(s)
		}
		if len(steps) > 0 {
			g.Pos = steps[len(steps)-1]
		}
		walked, goal = len(steps), g.maze.Goal()
	}
	if walked == 0 {
		return Blocked, nil
	}
	g.Clicks++
	g.Tiles += walked
	g.UpdatedAt = now
	g.Seq++
	if g.Pos != goal {
		return Moved, nil
	}
	g.Status, g.FinishedAt = Won, now
	return Finished, nil
}
