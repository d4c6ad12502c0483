package sqldb

import (
	"context"
	"database/sql"
	"iter"
)

// Dialect is what differs between the databases a Store runs on: the
// SQL of the methods is written once, with ? placeholders and TRUE and
// FALSE for booleans, which both databases read.
type Dialect interface {
	// Name names the dialect ("sqlite", "postgres"), and so its
	// migrations: migrations/<Name>.
	Name() string
	// Rebind spells the ? placeholders of a query the dialect's way.
	// The queries hold no other '?'.
	Rebind(query string) string
	// IsUnique tells whether err is a violated unique constraint.
	IsUnique(err error) bool
	// OneWriter tells whether the database lets one writer in at a time
	// (SQLite). The store's writes then take turns in the process, in the
	// order they came: a writer left to the database's busy handler polls
	// for the lock and can lose to newer ones until its deadline passes.
	OneWriter() bool

	// MigrationsTable creates the migrations bookkeeping, unless it is
	// there.
	MigrationsTable() string
	// LockMigrations keeps every other process from migrating until tx
	// ends: processes starting together take turns.
	LockMigrations(ctx context.Context, tx *sql.Tx) error

	// Columns lists the columns of every table but the migrations
	// bookkeeping, table by table in name order, each table's in order:
	// what `mazebot store copy` moves. ListColumns reads them.
	Columns(ctx context.Context, q Querier) ([]Column, error)
	// LockTables keeps other writers out of tables until tx ends.
	LockTables(ctx context.Context, tx *sql.Tx, tables []string) error
	// Insert writes rows into table in tx (on conn, for a driver's bulk
	// copy), each with its values in the order of columns, converted to
	// the column's type; keys are kept, and the next key made is past
	// them. It reports how many rows it wrote.
	Insert(ctx context.Context, conn *sql.Conn, tx *sql.Tx, table string, columns []Column, rows iter.Seq2[[]any, error]) (int64, error)
}

// Column is a table's column, as a dialect's Columns lists it.
type Column struct {
	Table, Name string
	// Bool is a boolean column (PostgreSQL's; SQLite keeps 0 and 1).
	Bool bool
	// Identity is a key the database makes.
	Identity bool
}

// ListColumns runs query, whose rows are a column's table, name, Bool and
// Identity, and returns those columns: a dialect's Columns, once it knows
// where its database lists them. query is the dialect's own SQL, so it
// runs as written, not rebound.
func ListColumns(ctx context.Context, q Querier, query string) ([]Column, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return readAll(rows, func(c Column) (Column, error) { return c, nil })
}

func (c *Column) dest() []any { return []any{&c.Table, &c.Name, &c.Bool, &c.Identity} }
