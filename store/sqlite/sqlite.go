package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Memory is the path that opens a private in-memory database.
const Memory = ":memory:"

// fileParams configure every pooled connection to a file database. The
// driver runs busy_timeout before the other _pragma values (it sorts them),
// so the journal_mode switch itself waits instead of failing when another
// connection holds the lock.
//
//   - journal_mode(WAL): readers don't block the writer or each other.
//   - foreign_keys(1): SQLite leaves it off by default, per connection.
//   - busy_timeout(5000): writers queue for up to 5s instead of failing with
//     "database is locked".
//   - synchronous(NORMAL): safe with WAL; only the last commits can be lost
//     on power failure, never corrupt the file.
//   - _txlock=immediate: transactions take the write lock at BEGIN, where
//     busy_timeout applies, rather than failing on a read-to-write upgrade.
//     Read-only transactions still begin deferred.
const fileParams = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"

// memoryParams: WAL, busy_timeout and synchronous mean nothing for a
// database that lives in one connection.
const memoryParams = "_pragma=foreign_keys(1)&_txlock=immediate"

// DB is a mazebot database on SQLite. It is safe for concurrent use.
type DB struct {
	db *sql.DB
}

// Open opens the database at path, creating it if needed, and applies any
// migrations it has not seen. path is a file name or Memory (":memory:").
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("open sqlite: empty path")
	}
	// The driver cuts the DSN at the first '?', so a '?' in the path would
	// silently open a different file.
	if strings.Contains(path, "?") {
		return nil, fmt.Errorf("open sqlite %q: path must not contain '?'", path)
	}

	memory := path == Memory
	params := fileParams
	if memory {
		params = memoryParams
	}
	sqldb, err := sql.Open("sqlite", path+"?"+params)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %q: %w", path, err)
	}
	if memory {
		// Each connection to ":memory:" is its own empty database, so the
		// pool must hold exactly one, and keep it for the life of the DB.
		sqldb.SetMaxOpenConns(1)
		sqldb.SetMaxIdleConns(1)
		sqldb.SetConnMaxLifetime(0)
		sqldb.SetConnMaxIdleTime(0)
	}

	db := &DB{db: sqldb}
	if err := db.migrate(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open sqlite %q: %w", path, err)
	}
	return db, nil
}

// OpenMemory opens a fresh, private in-memory database with the schema
// applied: for tests, and for trying the bot without a file.
func OpenMemory(ctx context.Context) (*DB, error) {
	return Open(ctx, Memory)
}

// Close closes the database. For a file database the last connection to
// close checkpoints the WAL back into the main file.
func (db *DB) Close() error {
	return db.db.Close()
}

// Ping tells whether the database answers: it reads the migrations
// table, so a file that cannot be read fails, not only a closed handle.
func (db *DB) Ping(ctx context.Context) error {
	var n int
	if err := db.db.QueryRowContext(ctx, `SELECT count(*) FROM migrations`).Scan(&n); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	return nil
}

// migrate applies the embedded migrations in name order, each in its own
// transaction together with its row in the migrations table, so a failed
// migration leaves no trace and a reopen doesn't apply one twice.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
		name       TEXT    PRIMARY KEY,
		applied_at INTEGER NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("create migrations table: %w", err)
	}

	// fs.ReadDir returns entries sorted by name.
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		if err := db.migrateFile(ctx, e.Name()); err != nil {
			return fmt.Errorf("migration %s: %w", e.Name(), err)
		}
	}
	return nil
}

func (db *DB) migrateFile(ctx context.Context, name string) error {
	// The check runs inside the (immediate) transaction, so two processes
	// opening the same file at once can't both apply it.
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit

	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}

	buf, err := fs.ReadFile(migrationFS, "migrations/"+name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(buf)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES (?, ?)`,
		name, time.Now().UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}

// isUnique tells whether err is a violated UNIQUE constraint, by the
// driver's result code rather than its message text.
func isUnique(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}
