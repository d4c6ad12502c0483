package play

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"mazebot/mazecore"
)

// Errors a Store returns (wrapped); check them with errors.Is. Package
// contest's stores return the same ones.
var (
	// ErrNotFound: a lookup matched nothing.
	ErrNotFound = errors.New("not found")
	// ErrConflict: a write expected a record in a state it is no longer
	// in, because another click or another process changed it first.
	ErrConflict = errors.New("conflict")
)

// Store keeps games. Every bot process sharing a Store sees the same
// games, so any of them can take a game's next click. Times come back in
// UTC to the millisecond; a record the store could not read back is
// refused when written.
type Store interface {
	// CreateGame stores a new game and returns its ID.
	CreateGame(ctx context.Context, rec Record) (int64, error)
	// Game returns a game, or ErrNotFound.
	Game(ctx context.Context, id int64) (Record, error)
	// SaveGame writes rec over the stored game if that is still playing
	// at rec.Seq−1, else changes nothing and returns ErrConflict. A won
	// game's Result is recorded in the same write: both or neither.
	SaveGame(ctx context.Context, rec Record) error
	// PlayingGame returns the member's newest game still being played on
	// maze for contest, or ErrNotFound.
	PlayingGame(ctx context.Context, userID string, maze mazecore.ID, contest string) (Record, error)
	// DeleteGamesBefore removes the games started before t, finished or
	// not, and reports how many; results stay.
	DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error)
}

const (
	// Retention is how long a game is kept: well past TTL, so a late
	// click still finds its game and hears that it expired.
	Retention = 7 * 24 * time.Hour
	// cleanupEvery spaces the deletions: old games need not go at every
	// tick of the scheduler.
	cleanupEvery = time.Hour
)

// Service runs games against a Store.
type Service struct {
	store   Store
	now     func() time.Time
	closing Closing
	grids   Grids
	runs    RunCleaner // nil: Cleanup leaves the runs

	mu          sync.Mutex
	lastCleanup time.Time
}

// Closing tells when a contest stops taking finishes: a game that counts
// for it and finishes at that time or later counts for none (the zero
// Time: it takes them as long as its games last). Package contest knows.
type Closing func(ctx context.Context, contest string) (time.Time, error)

// Grids makes the maze on any grid that a version 3 ID names, for a game
// on it to be resumed: one in an uploaded picture's shape needs the
// picture, which the caller keeps.
type Grids func(ctx context.Context, id mazecore.ID) (*mazecore.GridMaze, error)

// WithGrids makes the mazes of games on other grids than the whole square
// one with grids; without it they are made by mazecore.GenerateGrid.
func WithGrids(grids Grids) Option { return func(s *Service) { s.grids = grids } }

// Option sets up a Service.
type Option func(*Service)

// WithClosing makes the service drop the contest of a game that finishes
// after the contest closed (Game.Lapsed then names it).
func WithClosing(c Closing) Option { return func(s *Service) { s.closing = c } }

// WithRuns has Cleanup delete the runs past RunRetention too.
func WithRuns(r RunCleaner) Option { return func(s *Service) { s.runs = r } }

// NewService plays games kept in s, on the clock now.
func NewService(s Store, now func() time.Time, opts ...Option) *Service {
	svc := &Service{store: s, now: now, grids: func(_ context.Context, id mazecore.ID) (*mazecore.GridMaze, error) {
		return mazecore.GenerateGrid(id)
	}}
	for _, o := range opts {
		o(svc)
	}
	return svc
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Start begins a game on m for the member and place in who (UserID,
// GuildID, ChannelID, Contest) and stores it.
func (s *Service) Start(ctx context.Context, m *mazecore.Maze, who Record) (*Game, error) {
	g, err := New(m, who, s.now())
	if err != nil {
		return nil, err
	}
	return s.create(ctx, g)
}

// StartOnGrid is Start on a maze on any grid.
func (s *Service) StartOnGrid(ctx context.Context, m *mazecore.GridMaze, who Record) (*Game, error) {
	g, err := NewOnGrid(m, who, s.now())
	if err != nil {
		return nil, err
	}
	return s.create(ctx, g)
}

func (s *Service) create(ctx context.Context, g *Game) (*Game, error) {
	var err error
	if g.ID, err = s.store.CreateGame(ctx, g.Record); err != nil {
		return nil, fmt.Errorf("start game: %w", err)
	}
	return g, nil
}

// Resume returns the member's game on m for who's contest that still
// takes moves, or starts one: pressing Play again on a maze goes on with
// the game, whose private message a reloaded client loses. resumed tells
// which it did.
func (s *Service) Resume(ctx context.Context, m *mazecore.Maze, who Record) (g *Game, resumed bool, err error) {
	return s.resumeOrStart(ctx, m.ID(), who,
		func(rec Record) (*Game, error) { return Resume(m, rec) },
		func() (*Game, error) { return s.Start(ctx, m, who) })
}

// ResumeOnGrid is Resume on a maze on any grid.
func (s *Service) ResumeOnGrid(ctx context.Context, m *mazecore.GridMaze, who Record) (g *Game, resumed bool, err error) {
	return s.resumeOrStart(ctx, m.ID(), who,
		func(rec Record) (*Game, error) { return ResumeOnGrid(m, rec) },
		func() (*Game, error) { return s.StartOnGrid(ctx, m, who) })
}

// resumeOrStart resumes the member's game on maze with resume, or
// starts one with start.
func (s *Service) resumeOrStart(ctx context.Context, maze mazecore.ID, who Record, resume func(Record) (*Game, error), start func() (*Game, error)) (*Game, bool, error) {
	rec, err := s.store.PlayingGame(ctx, who.UserID, maze, who.Contest)
	switch {
	case err == nil:
		if g, err := resume(rec); err == nil && g.Check(s.now()) == nil {
			return g, true, nil
		}
		// Expired, or unreadable: a new game, as if there were none.
	case !errors.Is(err, ErrNotFound):
		return nil, false, fmt.Errorf("find the game to resume: %w", err)
	}
	g, err := start()
	return g, false, err
}

// Load returns a game that still takes moves from userID, with its maze.
// A game that is gone or finished is ErrOver; another member's is
// ErrNotYours; an old one ErrExpired.
func (s *Service) Load(ctx context.Context, id int64, userID string) (*Game, error) {
	rec, err := s.store.Game(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, ErrOver
	}
	if err != nil {
		return nil, fmt.Errorf("load game: %w", err)
	}
	if rec.UserID != userID {
		return nil, ErrNotYours
	}
	g, err := s.resume(ctx, rec)
	if err != nil {
		return nil, err
	}
	if err := g.Check(s.now()); err != nil {
		return nil, err
	}
	return g, nil
}

// Ended returns a finished game of userID's (won or given up), with its
// maze: what its final message's buttons ask about. ErrNotFound when it is
// gone, ErrNotYours for another member's, ErrBadState while it plays.
func (s *Service) Ended(ctx context.Context, id int64, userID string) (*Game, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load game: %w", err)
	}
	if rec.UserID != userID {
		return nil, ErrNotYours
	}
	if rec.Status == Playing {
		return nil, fmt.Errorf("game %d: %w: still playing", id, ErrBadState)
	}
	return s.resume(ctx, rec)
}

func (s *Service) resume(ctx context.Context, rec Record) (*Game, error) {
	if !rec.MazeID.Plain() {
		m, err := s.grids(ctx, rec.MazeID)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", rec.ID, err)
		}
		return ResumeOnGrid(m, rec)
	}
	m, err := mazecore.Generate(rec.MazeID)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	return Resume(m, rec)
}

// Press plays a member's click on game id and returns the game as it now
// stands and what the click did. A click that lost a race to another
// (ErrConflict from the store) is Stale, with the game reloaded.
func (s *Service) Press(ctx context.Context, id int64, userID string, a Action) (*Game, Outcome, error) {
	g, err := s.Load(ctx, id, userID)
	if err != nil {
		return nil, 0, err
	}
	out, err := g.Apply(a, s.now())
	if err != nil || out == Stale || out == Blocked {
		return g, out, err
	}
	if out == Finished && g.Contest != "" && s.closing != nil {
		closes, err := s.closing(ctx, g.Contest)
		if err != nil {
			return nil, 0, fmt.Errorf("game %d: when %s closes: %w", id, g.Contest, err)
		}
		if !closes.IsZero() && !g.FinishedAt.Before(closes) {
			g.Lapsed, g.Contest = g.Contest, ""
		}
	}
	if err := s.store.SaveGame(ctx, g.Record); err != nil {
		if !errors.Is(err, ErrConflict) {
			return nil, 0, fmt.Errorf("save game %d: %w", id, err)
		}
		if g, err = s.Load(ctx, id, userID); err != nil {
			return nil, 0, err
		}
		return g, Stale, nil
	}
	return g, out, nil
}

// Record saves a won game whose moves were played in memory (Game.Apply,
// as a live race does) over its stored start: the whole run is one write,
// made under the same closing rule as Press. The store holds the game as
// Start left it (Seq 0), so the run is saved as its first change; a second
// Record of the same game is ErrConflict, so a finish counts once.
func (s *Service) Record(ctx context.Context, g *Game) (*Game, error) {
	if g.Status != Won {
		return nil, fmt.Errorf("record game %d: %w: not won", g.ID, ErrBadState)
	}
	rec := *g
	rec.Seq = 1
	if rec.Contest != "" && s.closing != nil {
		closes, err := s.closing(ctx, rec.Contest)
		if err != nil {
			return nil, fmt.Errorf("game %d: when %s closes: %w", rec.ID, rec.Contest, err)
		}
		if !closes.IsZero() && !rec.FinishedAt.Before(closes) {
			rec.Lapsed, rec.Contest = rec.Contest, ""
		}
	}
	if err := s.store.SaveGame(ctx, rec.Record); err != nil {
		return nil, fmt.Errorf("record game %d: %w", rec.ID, err)
	}
	return &rec, nil
}

// Cleaned is what a Cleanup deleted.
type Cleaned struct {
	Games, Runs int64
}

// Cleanup deletes the games past Retention, and the runs past
// RunRetention (WithRuns), at most once an hour per process; it is the
// scheduler's to call. (Runs went only when a run was saved, so a
// server's runs outlived their retention once its members stopped
// racing its dailies.)
func (s *Service) Cleanup(ctx context.Context) (Cleaned, error) {
	now := s.now()
	s.mu.Lock()
	due := s.lastCleanup.IsZero() || now.Sub(s.lastCleanup) >= cleanupEvery
	if due {
		s.lastCleanup = now
	}
	s.mu.Unlock()
	var done Cleaned
	if !due {
		return done, nil
	}
	var err error
	if done.Games, err = s.store.DeleteGamesBefore(ctx, now.Add(-Retention)); err != nil {
		return done, err
	}
	if s.runs != nil {
		done.Runs, err = s.runs.DeleteRunsBefore(ctx, now.Add(-RunRetention))
	}
	return done, err
}
