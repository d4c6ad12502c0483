package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"mazebot/metrics"
	"mazebot/play"
)

// DefaultTimeout bounds one store call unless WithTimeout says otherwise.
// A handler stops at its first failing call, so even a database that
// hangs leaves an interaction time for its apology; a healthy one answers
// in milliseconds.
const DefaultTimeout = 5 * time.Second

// Store is a mazebot database over database/sql, in one dialect. It is
// safe for concurrent use.
type Store struct {
	db      *sql.DB
	dialect Dialect
	metrics metrics.Store
	timeout time.Duration
	// writer holds the process's one write turn when the dialect takes
	// one writer at a time: writes wait here, in order, rather than
	// polling the database's lock (see Dialect.OneWriter).
	writer chan struct{}
	// scheduled lets one write of scheduled work at a time wait for the
	// write turn (Scheduled).
	scheduled chan struct{}
	stmts     sync.Map // query text → its statement, prepared in the dialect's spelling
}

// Scheduled marks ctx as scheduled work's (the daily posts, reminders,
// crownings), which no member waits for. Where the dialect takes one
// writer at a time, such writes queue for the write turn one at a time,
// so that a member's write (the maze /maze records for /solve) waits
// behind at most one of them, not behind every worker of a backlog of
// posts.
func Scheduled(ctx context.Context) context.Context {
	return context.WithValue(ctx, scheduledKey{}, true)
}

type scheduledKey struct{}

func isScheduled(ctx context.Context) bool {
	v, _ := ctx.Value(scheduledKey{}).(bool)
	return v
}

// Option configures New.
type Option func(*config)

type config struct {
	metrics    metrics.Store
	timeout    time.Duration
	migrations fs.FS // the dialect's migrations directory unless set (tests)
}

// WithMetrics reports each failed call to m, by method name: not the
// contract's answers (ErrNotFound, ErrConflict), nor a call whose caller
// gave up.
func WithMetrics(m metrics.Store) Option {
	return func(c *config) {
		if m != nil {
			c.metrics = m
		}
	}
}

// WithTimeout bounds every call by d (DefaultTimeout when d is not
// positive).
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// New is the store on db, in dialect d, with the schema migrated: the
// dialect packages' Open calls it with the pool they opened. On error db
// is left open, for the caller to close.
func New(ctx context.Context, db *sql.DB, d Dialect, opts ...Option) (*Store, error) {
	cfg := config{metrics: metrics.Nop{}, timeout: DefaultTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	s := &Store{db: db, dialect: d, metrics: cfg.metrics, timeout: cfg.timeout}
	if d.OneWriter() {
		s.writer, s.scheduled = make(chan struct{}, 1), make(chan struct{}, 1)
	}
	files := cfg.migrations
	if files == nil {
		var err error
		if files, err = fs.Sub(migrationFS, "migrations/"+d.Name()); err != nil {
			return nil, err
		}
	}
	if err := s.migrate(ctx, files); err != nil {
		return nil, err
	}
	return s, nil
}

// Close closes the pool, waiting for the calls in flight (each bounded).
// For a SQLite file the last connection to close checkpoints the WAL back
// into the main file.
func (s *Store) Close() error {
	s.stmts.Range(func(_, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
	return s.db.Close()
}

// Ping tells whether the database answers: it reads the migrations table,
// so a file that cannot be read fails, not only a closed pool.
func (s *Store) Ping(ctx context.Context) error {
	return do(s, ctx, "Ping", "ping", reads, func(q q) error {
		var n int
		return q.row(`SELECT count(*) FROM migrations`).Scan(&n)
	})
}

// access is what a call does to the database.
type access uint8

const (
	reads       access = iota
	writes             // statements each complete in itself
	transaction        // statements all applied or none
)

// call runs fn as the store method op, bounded by the store's deadline,
// and counts its failure; its errors are wrapped with what. A call that
// writes first takes the write turn when the dialect has one.
func call[T any](s *Store, ctx context.Context, op, what string, a access, fn func(q) (T, error)) (T, error) {
	bounded, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	v, err := run(bounded, s, a, fn)
	if err != nil {
		if failed(ctx, err) {
			s.metrics.StoreError(op)
		}
		var zero T
		return zero, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// do is call for a method that returns only an error.
func do(s *Store, ctx context.Context, op, what string, a access, fn func(q) error) error {
	_, err := call(s, ctx, op, what, a, func(q q) (struct{}, error) { return struct{}{}, fn(q) })
	return err
}

func run[T any](ctx context.Context, s *Store, a access, fn func(q) (T, error)) (T, error) {
	var zero T
	if a != reads && s.scheduled != nil && isScheduled(ctx) {
		select {
		case s.scheduled <- struct{}{}:
			defer func() { <-s.scheduled }()
		case <-ctx.Done():
			return zero, fmt.Errorf("wait for the turn to write: %w", context.Cause(ctx))
		}
	}
	if a != reads && s.writer != nil {
		select {
		case s.writer <- struct{}{}:
			defer func() { <-s.writer }()
		case <-ctx.Done():
			return zero, fmt.Errorf("wait for the turn to write: %w", context.Cause(ctx))
		}
	}
	if a != transaction {
		return fn(q{ctx: ctx, s: s})
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return zero, err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	v, err := fn(q{ctx: ctx, s: s, tx: tx})
	if err != nil {
		return zero, err
	}
	return v, tx.Commit()
}

// failed tells a store failure from the contract's answers, and from a
// caller that gave up (shutdown, its own deadline): only the first is the
// database's fault. The store's own deadline passing is.
func failed(caller context.Context, err error) bool {
	return err != nil && !errors.Is(err, play.ErrNotFound) && !errors.Is(err, play.ErrConflict) && caller.Err() == nil
}

// q runs the statements of one call, on the pool or in its transaction
// (tx), with the ? placeholders spelled the dialect's way.
type q struct {
	ctx context.Context
	s   *Store
	tx  *sql.Tx
}

// stmt is query's statement, prepared once per text (and by
// database/sql once per connection): a write then spends its turn
// writing, not parsing SQL. In a transaction, whose connection is taken,
// a statement not prepared yet is prepared on the transaction alone: on
// the pool it would wait for a second connection, which a pool of one
// (SQLite in memory) or one whose connections are all in transactions
// never frees.
func (q q) stmt(query string) (*sql.Stmt, error) {
	v, ok := q.s.stmts.Load(query)
	if q.tx != nil {
		if ok {
			return q.tx.StmtContext(q.ctx, v.(*sql.Stmt)), nil // closed with the transaction
		}
		return q.tx.PrepareContext(q.ctx, q.s.dialect.Rebind(query))
	}
	if ok {
		return v.(*sql.Stmt), nil
	}
	st, err := q.s.db.PrepareContext(q.ctx, q.s.dialect.Rebind(query))
	if err != nil {
		return nil, err
	}
	if v, ok = q.s.stmts.LoadOrStore(query, st); ok {
		st.Close() // another call prepared it first
		return v.(*sql.Stmt), nil
	}
	return st, nil
}

func (q q) exec(query string, args ...any) (sql.Result, error) {
	st, err := q.stmt(query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(q.ctx, args...)
}

func (q q) row(query string, args ...any) oneRow {
	st, err := q.stmt(query)
	if err != nil {
		return oneRow{err: err}
	}
	return oneRow{row: st.QueryRowContext(q.ctx, args...)}
}

// oneRow is a query's one row, or the error that kept it from running.
type oneRow struct {
	row *sql.Row
	err error
}

func (r oneRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.row.Scan(dest...)
}

func (q q) rows(query string, args ...any) (*sql.Rows, error) {
	st, err := q.stmt(query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(q.ctx, args...)
}

// changed runs a write and reports how many rows it changed.
func (q q) changed(query string, args ...any) (int64, error) {
	res, err := q.exec(query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// claim runs a conditional write: one that matched no row is
// play.ErrConflict (contest's too).
func (q q) claim(query string, args ...any) error {
	n, err := q.changed(query, args...)
	if err != nil {
		return err
	}
	if n != 1 {
		return play.ErrConflict
	}
	return nil
}
