package sqlite

import (
	"database/sql"

	"mazebot/store/internal/codec"
)

// Hooks for the external tests: the raw handle for PRAGMA checks, and the
// query texts for plan checks.

func SQLDB(db *DB) *sql.DB { return db.db }

const (
	LastPostSQL      = lastPostSQL
	DailiesOnMazeSQL = dailiesOnMazeSQL
	ClosingEventsSQL = closingEventsSQL
	BestRunsSQL      = codec.BestRunsSQL
	DailyTotalsSQL   = codec.DailyTotalsSQL
	SolvedDatesSQL   = codec.SolvedDatesSQL
	RunningEventsSQL = runningEventsSQL
	ForgetSeenSQL    = codec.ForgetSeenSQL
)
