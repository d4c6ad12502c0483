package store

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"mazebot/contest"
	"mazebot/metrics"
	"mazebot/play"
	"mazebot/store/postgres"
	"mazebot/store/sqldb"
	"mazebot/store/sqlite"
)

// DB is an open mazebot database, whichever kind holds it: the domain's
// stores, and what a bot process needs besides. store/sqldb implements it
// over SQLite and PostgreSQL, store/memstore in memory; store/storetest
// holds both to it.
type DB interface {
	play.Store
	contest.DailyStore
	contest.EventStore
	contest.Posts
	// Secret returns the value kept under key, storing generate's result
	// the first time; processes racing to create it all get the same one.
	Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error)
	// FirstSeen records that an interaction arrived at at and reports
	// whether its id is new: true for exactly one caller per id, whichever
	// process asks, until ForgetSeen removes it. An empty id is refused.
	// (The bot's ReplayGuard.)
	FirstSeen(ctx context.Context, interactionID string, at time.Time) (bool, error)
	// ForgetSeen deletes the ids seen strictly before before and returns
	// how many it deleted.
	ForgetSeen(ctx context.Context, before time.Time) (int64, error)
	// ClaimIdentify gives bucket's turn to identify, at at, to the caller
	// when the bucket's last turn was window or more before, reporting ok
	// and when the turn's window ends; otherwise it reports when the last
	// turn's window ends. Of racing callers exactly one gets a turn. (The
	// bot's IdentifyTurns.)
	ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (free time.Time, ok bool, err error)
	// Ping tells whether the database answers: for readiness checks.
	Ping(ctx context.Context) error
	Close() error
}

var _ DB = (*sqldb.Store)(nil)

// Option configures Open.
type Option = sqldb.Option

// DefaultTimeout bounds every store call unless WithTimeout says
// otherwise.
const DefaultTimeout = sqldb.DefaultTimeout

// WithMetrics reports every failed store call to m, by method name: not
// the contract's answers (ErrNotFound, ErrConflict), nor a call whose
// caller gave up.
func WithMetrics(m metrics.Store) Option { return sqldb.WithMetrics(m) }

// WithTimeout bounds every store call by d (DefaultTimeout when d is not
// positive).
func WithTimeout(d time.Duration) Option { return sqldb.WithTimeout(d) }

// Kinds of database, as Kind names them.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Kind tells which database dsn selects: Postgres for a URL that starts
// with postgres:// or postgresql://, SQLite for anything else (a file
// path, or ":memory:").
func Kind(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return Postgres
	}
	return SQLite
}

// Open opens the database dsn names (see Kind) and applies its
// migrations. Its errors show dsn only redacted.
func Open(ctx context.Context, dsn string, opts ...Option) (DB, error) {
	return open(ctx, dsn, opts...)
}

func open(ctx context.Context, dsn string, opts ...Option) (*sqldb.Store, error) {
	if Kind(dsn) == Postgres {
		db, err := postgres.Open(ctx, dsn, opts...)
		if err != nil {
			// pgx's errors name the user and database, never the URL.
			return nil, fmt.Errorf("open %s: %w", Redact(dsn), err)
		}
		return db, nil
	}
	if scheme, _, isURL := strings.Cut(dsn, "://"); isURL {
		// Not a path anyone means: a typo of the scheme, or another
		// database's URL. SQLite would make a file of it.
		return nil, fmt.Errorf("open %s: unknown database URL scheme %q: use a postgres:// URL or a SQLite file path", Redact(dsn), scheme)
	}
	return sqlite.Open(ctx, dsn, opts...) // its errors name the path
}

// redacted stands for a password in Redact's output.
const redacted = "xxxxx"

// Redact returns dsn fit for a log line or an error: a URL's password,
// whether in its user info or in a password parameter, replaced by xxxxx.
// A file path comes back as it is.
func Redact(dsn string) string {
	scheme, _, isURL := strings.Cut(dsn, "://")
	if !isURL {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		// Unparseable, so nobody can tell where a password would be.
		return scheme + "://" + redacted
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), redacted)
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", redacted)
		u.RawQuery = q.Encode()
	}
	return u.String()
}
