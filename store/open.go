package store

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"mazebot/contest"
	"mazebot/play"
	"mazebot/store/postgres"
	"mazebot/store/sqlite"
)

// DB is an open mazebot database, whichever adapter holds it: the
// domain's stores, and what a bot process needs besides.
type DB interface {
	play.Store
	contest.DailyStore
	contest.EventStore
	contest.Posts
	// Secret returns the value kept under key, storing generate's result
	// the first time; processes racing to create it all get the same one.
	Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error)
	// FirstSeen and ForgetSeen keep the interactions handled: the bot's
	// ReplayGuard.
	FirstSeen(ctx context.Context, interactionID string, at time.Time) (bool, error)
	ForgetSeen(ctx context.Context, before time.Time) (int64, error)
	// ClaimIdentify takes turns at identifying between the processes: the
	// bot's IdentifyTurns.
	ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (free time.Time, ok bool, err error)
	// Ping tells whether the database answers: for readiness checks.
	Ping(ctx context.Context) error
	Close() error
}

var (
	_ adapter = (*sqlite.DB)(nil)
	_ adapter = (*postgres.DB)(nil)
)

// Kinds of database, as Kind names them.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Kind tells which adapter dsn selects: Postgres for a URL that starts
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
func Open(ctx context.Context, dsn string) (DB, error) {
	return open(ctx, dsn)
}

// adapter is what every adapter implements: DB, and the table access that
// Copy moves rows through.
type adapter interface {
	DB
	tables
}

func open(ctx context.Context, dsn string) (adapter, error) {
	if Kind(dsn) == Postgres {
		db, err := postgres.Open(ctx, dsn)
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
	db, err := sqlite.Open(ctx, dsn) // its errors name the path
	if err != nil {
		return nil, err
	}
	return db, nil
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
