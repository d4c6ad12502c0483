package play

import (
	"context"
	"time"

	"mazebot/mazecore"
)

// Run is a finished game's moves, each with when it was made: what Maze
// Arena replays beside a later racer as a ghost. Moves is its player's
// encoding (the arena's: a varint a move, its direction and the time
// since the one before); play keeps it, never reads it.
type Run struct {
	Contest    string // the contest the run counted for: a daily's key
	UserID     string
	Name       string // the member's name as the race showed it
	MazeID     mazecore.ID
	Ms         int64 // its time, start to finish
	Moves      []byte
	FinishedAt time.Time
}

// MaxRunBytes bounds a run's encoded moves: the store refuses more.
const MaxRunBytes = 16 << 10

// RunRetention is how long a run is kept: a ghost races on its day's
// daily only, so a saved run drops the runs finished this long before it.
const RunRetention = 48 * time.Hour

// RunStore keeps each member's best run in each contest.
type RunStore interface {
	// SaveRun keeps r if it is its member's first or fastest in its
	// contest (a tie keeps the earlier), reporting whether it did, and
	// deletes the runs finished RunRetention or more before it.
	SaveRun(ctx context.Context, r Run) (bool, error)
	// BestRun returns the fastest run in contest (a tie: the earlier
	// finished), or only userID's when userID is not "", false when
	// there is none.
	BestRun(ctx context.Context, contest, userID string) (Run, bool, error)
}

// RunCleaner deletes old runs (Service.Cleanup, WithRuns).
type RunCleaner interface {
	// DeleteRunsBefore removes the runs finished before t (at t too),
	// and reports how many.
	DeleteRunsBefore(ctx context.Context, t time.Time) (int64, error)
}
