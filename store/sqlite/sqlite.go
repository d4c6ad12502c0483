package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"mazebot/store/sqldb"
)

// Memory is the path that opens a private in-memory database.
const Memory = ":memory:"

// DB is the store on a SQLite database, as Open returns it.
type DB = sqldb.Store

// fileParams configure every pooled connection to a file database. The
// driver runs busy_timeout before the other _pragma values (it sorts them),
// so the journal_mode switch itself waits instead of failing when another
// connection holds the lock.
//
//   - journal_mode(WAL): readers don't block the writer or each other.
//   - foreign_keys(1): SQLite leaves it off by default, per connection.
//   - busy_timeout(5000): a writer of another process holding the lock is
//     waited for, up to 5 s. (Writers of this process queue in the store,
//     in order: see Dialect.OneWriter.)
//   - synchronous(NORMAL): safe with WAL; only the last commits can be lost
//     on power failure, never corrupt the file.
//   - _txlock=immediate: transactions take the write lock at BEGIN, where
//     busy_timeout applies, rather than failing on a read-to-write upgrade.
//     Read-only transactions still begin deferred.
const fileParams = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"

// memoryParams: WAL, busy_timeout and synchronous mean nothing for a
// database that lives in one connection.
const memoryParams = "_pragma=foreign_keys(1)&_txlock=immediate"

// Open opens the database at path, creating it if needed, and applies any
// migrations it has not seen. path is a file name or Memory (":memory:").
// Its errors name the path; one whose directory is missing or not
// writable says so, and what to do.
func Open(ctx context.Context, path string, opts ...sqldb.Option) (*DB, error) {
	if path == "" {
		return nil, errors.New("open sqlite: empty path")
	}
	// The driver cuts the DSN at the first '?', so a '?' in the path would
	// silently open a different file.
	if strings.Contains(path, "?") {
		return nil, fmt.Errorf("open sqlite %q: path must not contain '?'", path)
	}
	if path == Memory {
		s, _, err := openMemory(ctx, nil, opts)
		return s, err
	}
	db, err := sql.Open("sqlite", path+"?"+fileParams)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %q: %w", path, err)
	}
	// database/sql keeps two idle connections by default and closes the
	// rest as they come back, so a burst of reads opened new ones, each
	// reading the whole schema again: twelve goroutines' 200 reads each
	// opened 21 to 24 connections. Idle ones cost a file handle and their
	// page cache.
	db.SetMaxIdleConns(maxIdleConns)
	s, err := newRetryingBusy(ctx, db, opts)
	if err != nil {
		db.Close()
		if why := checkDir(path); why != nil {
			return nil, fmt.Errorf("open sqlite %q: %w (%w)", path, why, err)
		}
		return nil, fmt.Errorf("open sqlite %q: %w", path, err)
	}
	return s, nil
}

// OpenImage opens a private in-memory database that starts as a copy of
// image (as Image returns it) and applies any migrations it has not seen.
func OpenImage(ctx context.Context, image []byte, opts ...sqldb.Option) (*DB, error) {
	if len(image) == 0 {
		return nil, errors.New("open sqlite image: empty image")
	}
	s, _, err := openMemory(ctx, image, opts)
	return s, err
}

// Image returns the bytes of a new database with every migration applied
// and no row: a database file, and what OpenImage starts from. Tests open
// copies of it rather than migrate each database they make: the
// migrations' SQL takes some 8 ms, and 200 ms under the race detector,
// which instruments the driver's every pointer.
func Image(ctx context.Context) ([]byte, error) {
	s, db, err := openMemory(ctx, nil, nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var image []byte
	err = onConn(ctx, db, func(c serializer) error {
		image, err = c.Serialize()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite image: %w", err)
	}
	return image, nil
}

// serializer is the driver's connection, as far as images go.
type serializer interface {
	Serialize() ([]byte, error)
	Deserialize([]byte) error
}

// onConn runs f on one of db's connections, as the driver made it.
func onConn(ctx context.Context, db *sql.DB, f func(serializer) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(serializer)
		if !ok {
			return fmt.Errorf("the driver's connection %T cannot copy a database", driverConn)
		}
		return f(c)
	})
}

// openMemory opens a private in-memory database, empty or a copy of
// image: its store, and the pool beneath.
func openMemory(ctx context.Context, image []byte, opts []sqldb.Option) (*DB, *sql.DB, error) {
	db, err := sql.Open("sqlite", Memory+"?"+memoryParams)
	if err != nil {
		return nil, nil, fmt.Errorf("open sqlite %q: %w", Memory, err)
	}
	// Each connection to ":memory:" is its own empty database, so the
	// pool must hold exactly one, and keep it for the life of the DB.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if image != nil {
		if err := onConn(ctx, db, func(c serializer) error { return c.Deserialize(image) }); err != nil {
			db.Close()
			return nil, nil, fmt.Errorf("open sqlite image: %w", err)
		}
	}
	s, err := sqldb.New(ctx, db, Dialect{}, opts...)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("open sqlite %q: %w", Memory, err)
	}
	return s, db, nil
}

// maxIdleConns is how many connections to a file a pool keeps between
// uses: more than the bot's reads in flight at once, as a rule.
const maxIdleConns = 16

// openBusyWait bounds how long Open retries a database that another
// process is opening: the busy timeout's 5 s.
const openBusyWait = 5 * time.Second

// newRetryingBusy is sqldb.New, tried again while SQLite answers busy.
// Processes starting together on a new file race to set it up (its WAL
// mode needs the file to itself), and SQLite refuses the loser at once,
// without its busy handler, where waiting could deadlock: the loser opens
// again once the winner is through.
func newRetryingBusy(ctx context.Context, db *sql.DB, opts []sqldb.Option) (*sqldb.Store, error) {
	deadline := time.Now().Add(openBusyWait)
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, 250*time.Millisecond) {
		s, err := sqldb.New(ctx, db, Dialect{}, opts...)
		if err == nil || !isBusy(err) || time.Now().Add(wait).After(deadline) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(wait):
		}
	}
}

// isBusy tells whether err is SQLite's SQLITE_BUSY (any extended code).
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// checkDir tells why SQLite may not have opened path: its directory is
// missing, is no directory, or is not writable by the user the process
// runs as (a bind mount owned by root, say). SQLite makes the file there,
// and beside it the -wal and -shm files, so it must be writable. nil is
// "none of those".
func checkDir(path string) error {
	dir := filepath.Dir(path)
	who := runningAs()
	fail := func(problem, remedy string) error {
		return fmt.Errorf("%s: %s, or set MAZEBOT_DB to a file in a directory that %s can write", problem, remedy, who)
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail("the directory "+dir+" does not exist", "create it, writable by "+who)
	case err != nil:
		return fail(fmt.Sprintf("the directory %s can't be reached (%v)", dir, err), "make it a directory writable by "+who)
	case !info.IsDir():
		return fail(dir+" is not a directory", "make it a directory writable by "+who)
	}
	// Permission bits don't say it all (root, read-only mounts): try.
	probe, err := os.CreateTemp(dir, ".mazebot-write-check-*")
	if err != nil {
		return fail(fmt.Sprintf("the directory %s is not writable by %s, whom the bot runs as (%v)", dir, who, err),
			"make it writable by that user (for a bind mount, on the host)")
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// runningAs names the user the process runs as, with its uid.
func runningAs() string {
	if u, err := user.Current(); err == nil {
		return fmt.Sprintf("user %s (uid %s)", u.Username, u.Uid)
	}
	return fmt.Sprintf("uid %d", os.Getuid())
}

// Dialect is SQLite's, for sqldb: ? placeholders as they are, one writer
// at a time, the write lock taken at BEGIN.
type Dialect struct{}

var _ sqldb.Dialect = Dialect{}

// Name names the migrations: sqldb's migrations/sqlite.
func (Dialect) Name() string { return "sqlite" }

// Rebind returns query: SQLite reads ? placeholders.
func (Dialect) Rebind(query string) string { return query }

// IsUnique tells whether err is a violated UNIQUE constraint, by the
// driver's result code rather than its message text.
func (Dialect) IsUnique(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

// OneWriter is true: SQLite lets one writer in at a time.
func (Dialect) OneWriter() bool { return true }

// MigrationsTable is the bookkeeping as every release has made it.
func (Dialect) MigrationsTable() string {
	return `CREATE TABLE IF NOT EXISTS migrations (
		name       TEXT    PRIMARY KEY,
		applied_at INTEGER NOT NULL
	) STRICT`
}

// LockMigrations does nothing: the migration transaction took the write
// lock at BEGIN (_txlock=immediate), so processes opening one file at once
// migrate in turn.
func (Dialect) LockMigrations(context.Context, *sql.Tx) error { return nil }

// Columns lists the tables' columns from the schema table, none of them
// Bool or Identity: SQLite keeps booleans as 0 and 1, and its Insert
// resets no sequence.
func (Dialect) Columns(ctx context.Context, q sqldb.Querier) ([]sqldb.Column, error) {
	return sqldb.ListColumns(ctx, q, `
		SELECT m.name, p.name, FALSE, FALSE FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' AND m.name <> 'migrations'
		ORDER BY m.name, p.cid`)
}

// LockTables does nothing: the transaction took the write lock at BEGIN
// and holds it to the end.
func (Dialect) LockTables(context.Context, *sql.Tx, []string) error { return nil }

// Insert inserts row by row through one prepared statement. It keeps the
// keys it is given: an INTEGER PRIMARY KEY makes its next key past the
// largest there, so nothing else needs resetting. PostgreSQL's booleans
// go in as 0 and 1 (the driver binds them so).
func (Dialect) Insert(ctx context.Context, _ *sql.Conn, tx *sql.Tx, table string, columns []sqldb.Column, rows iter.Seq2[[]any, error]) (int64, error) {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.Name
	}
	insert, err := tx.PrepareContext(ctx, `INSERT INTO `+sqldb.Quote(table)+` (`+sqldb.QuoteAll(names)+`)
		VALUES (`+strings.TrimSuffix(strings.Repeat("?, ", len(columns)), ", ")+`)`)
	if err != nil {
		return 0, err
	}
	defer insert.Close()
	var n int64
	for values, err := range rows {
		if err != nil {
			return n, err
		}
		if _, err := insert.ExecContext(ctx, values...); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
