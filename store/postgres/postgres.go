package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"mazebot/play"
	"mazebot/store/internal/codec"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// DB is a mazebot database on PostgreSQL, shared by any number of bot
// processes. It is safe for concurrent use.
type DB struct {
	pool *pgxpool.Pool
}

// Open connects to the database at url (postgres://user:password@host/db,
// with pgx's parameters such as pool_max_conns or search_path) and applies
// the migrations it has not seen. Its errors never hold the password.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	db := &DB{pool: pool}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	return db, nil
}

// Close closes every connection, waiting for those in use.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Ping tells whether the database answers: for readiness checks.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("ping postgres: %w", err)
	}
	return nil
}

// migrationLock is the first key of the advisory lock that migrations
// hold; the second is the schema's name, so databases in schemas of their
// own (tests) migrate without waiting for each other.
const migrationLock int32 = 0x6d7a6231 // "mzb1"

// migrate applies the embedded migrations that the migrations table does
// not list, in name order, in one transaction together with their rows.
//
// Processes starting at once take turns: the advisory lock is taken first
// and, being a transaction lock, held until COMMIT. A lock released
// earlier, inside the still open transaction, would let the next process
// look before the schema is committed and create it again, failing with
// "type … already exists" (the catalogs' unique indexes).
func (db *DB) migrate(ctx context.Context) error {
	entries, err := fs.ReadDir(migrationFS, "migrations") // sorted by name
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, migrationLock); err != nil {
			return fmt.Errorf("lock migrations: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS migrations (
			name       text COLLATE "C" PRIMARY KEY,
			applied_at bigint NOT NULL
		)`); err != nil {
			return fmt.Errorf("create migrations table: %w", err)
		}
		rows, _ := tx.Query(ctx, `SELECT name FROM migrations`)
		applied, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("read migrations table: %w", err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".sql") || slices.Contains(applied, name) {
				continue
			}
			buf, err := fs.ReadFile(migrationFS, "migrations/"+name)
			if err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
			// Without arguments pgx sends the text as one simple query, so
			// a file may hold many statements.
			if _, err := tx.Exec(ctx, string(buf)); err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO migrations (name, applied_at) VALUES ($1, $2)`, name, time.Now().UnixMilli()); err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
		}
		return nil
	})
}

// uniqueViolation is the SQLSTATE of a violated unique constraint.
const uniqueViolation = "23505"

// isUnique tells whether err is a violated unique constraint, by its
// SQLSTATE rather than its message text.
func isUnique(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == uniqueViolation
}

// expectOne turns a conditional write that matched no row into
// play.ErrConflict.
func expectOne(tag pgconn.CommandTag, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("%s: %w", what, play.ErrConflict)
	}
	return nil
}

// collect reads every row of a query into one of codec's row structs and
// converts it with conv, closing the rows. A failed Query's error comes
// out of the rows.
func collect[T, R any, PR codec.Row[R]](rows pgx.Rows, what string, conv func(R) (T, error)) ([]T, error) {
	defer rows.Close()
	out, err := codec.All[T, R, PR](rows, conv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// rebind numbers the ? placeholders of a query written for both
// databases ($1, $2, …). The shared queries hold no other '?'.
func rebind(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
