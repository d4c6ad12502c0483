package sqlite

import "database/sql"

// Hooks for the external tests: the raw handle for PRAGMA checks, and the
// query texts for plan checks.

func SQLDB(db *DB) *sql.DB { return db.db }

const (
	LastPostSQL      = lastPostSQL
	DailiesOnMazeSQL = dailiesOnMazeSQL
	ClosingEventsSQL = closingEventsSQL
	BestRunsSQL      = bestRunsSQL
	DailyTotalsSQL   = dailyTotalsSQL
	SolvedDatesSQL   = solvedDatesSQL
	RunningEventsSQL = runningEventsSQL
)
