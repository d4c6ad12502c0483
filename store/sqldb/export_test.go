package sqldb

import (
	"database/sql"
	"io/fs"
	"sync"
)

// Hooks for the external tests: the pool for PRAGMA and catalog checks,
// the query texts for plan checks, and the migrations to run.

func DB(s *Store) *sql.DB { return s.db }

const (
	Baseline         = baseline
	LastPostSQL      = lastPostSQL
	RecentPostsSQL   = recentPostsSQL
	PlayingGameSQL   = playingGameSQL
	DailiesOnMazeSQL = dailiesOnMazeSQL
	ClosingEventsSQL = closingEventsSQL
	BestRunsSQL      = bestRunsSQL
	DailyTotalsSQL   = dailyTotalsSQL
	SolvedDatesSQL   = solvedDatesSQL
	RunningEventsSQL = runningEventsSQL
	ForgetSeenSQL    = forgetSeenSQL
)

// Migrations is a dialect's migrations directory.
func Migrations(dialect string) fs.FS {
	files, err := fs.Sub(migrationFS, "migrations/"+dialect)
	if err != nil {
		panic(err)
	}
	return files
}

// WithMigrations runs files in place of the dialect's migrations.
func WithMigrations(files fs.FS) Option { return func(c *config) { c.migrations = files } }

// ErrorLog records the ops reported as failed: a metrics.Store.
type ErrorLog struct {
	mu  sync.Mutex
	ops []string
}

func (l *ErrorLog) StoreError(op string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ops = append(l.ops, op)
}

// List is the ops reported, in order.
func (l *ErrorLog) List() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ops...)
}
