package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"strings"
)

// Whole tables, for `mazebot store copy` (store.Copy): not store methods,
// so not bounded by the per-call deadline.

// TableReader reads a database's tables, all in one snapshot: what a copy
// copies from.
type TableReader interface {
	// Rows yields the rows of table, each with its values in the order
	// of columns: int64, string, []byte or bool.
	Rows(table string, columns []string) iter.Seq2[[]any, error]
}

// TableWriter changes a database's tables, all in one transaction that
// keeps other writers out: what a copy copies into.
type TableWriter interface {
	// Count counts the rows of table.
	Count(table string) (int64, error)
	// Replace deletes every row of table and inserts those of rows, each
	// with its values in the order of columns, and reports how many it
	// inserted. Keys are kept as they come; the next key made after is
	// past them all.
	Replace(table string, columns []string, rows iter.Seq2[[]any, error]) (int64, error)
}

// Querier is a pool or a transaction, to list columns in.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Tables lists every table but the migrations bookkeeping, each with its
// columns in order: what a copy moves.
func (s *Store) Tables(ctx context.Context) (map[string][]string, error) {
	cols, err := s.dialect.Columns(ctx, s.db)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	tables := map[string][]string{}
	for _, c := range cols {
		tables[c.Table] = append(tables[c.Table], c.Name)
	}
	return tables, nil
}

// ReadTables calls fn with a reader of the tables, all in one read-only
// transaction: a snapshot (repeatable read; SQLite's WAL gives one to
// every read transaction), however the database changes meanwhile.
func (s *Store) ReadTables(ctx context.Context, fn func(TableReader) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("read tables: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep
	return fn(tableReader{ctx, tx})
}

// WriteTables calls fn with a writer of the tables, all in one
// transaction, committed if fn returns nil. The transaction first locks
// every table against other writers (readers go on), so no bot process
// comes between a Count and a Replace, and two copies take turns.
func (s *Store) WriteTables(ctx context.Context, fn func(TableWriter) error) error {
	if s.writer != nil {
		select {
		case s.writer <- struct{}{}:
			defer func() { <-s.writer }()
		case <-ctx.Done():
			return fmt.Errorf("write tables: %w", context.Cause(ctx))
		}
	}
	conn, err := s.db.Conn(ctx) // a driver's bulk copy runs on the transaction's connection
	if err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	cols, err := s.dialect.Columns(ctx, tx)
	if err != nil {
		return fmt.Errorf("list tables: %w", err)
	}
	var names []string
	for _, c := range cols {
		if len(names) == 0 || names[len(names)-1] != c.Table {
			names = append(names, c.Table)
		}
	}
	if err := s.dialect.LockTables(ctx, tx, names); err != nil {
		return fmt.Errorf("lock tables: %w", err)
	}
	if err := fn(tableWriter{ctx: ctx, s: s, conn: conn, tx: tx, columns: cols}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	return nil
}

type tableReader struct {
	ctx context.Context
	tx  *sql.Tx
}

func (t tableReader) Rows(table string, columns []string) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		rows, err := t.tx.QueryContext(t.ctx, `SELECT `+QuoteAll(columns)+` FROM `+Quote(table))
		if err != nil {
			yield(nil, fmt.Errorf("read %s: %w", table, err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			values := make([]any, len(columns))
			dest := make([]any, len(columns))
			for i := range values {
				dest[i] = &values[i]
			}
			if err := rows.Scan(dest...); err != nil {
				yield(nil, fmt.Errorf("read %s: %w", table, err))
				return
			}
			for i, v := range values {
				if b, ok := v.([]byte); ok {
					values[i] = blob(b) // an empty BLOB may scan as nil: NULL elsewhere
				}
			}
			if !yield(values, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nil, fmt.Errorf("read %s: %w", table, err))
		}
	}
}

type tableWriter struct {
	ctx     context.Context
	s       *Store
	conn    *sql.Conn
	tx      *sql.Tx
	columns []Column
}

func (t tableWriter) Count(table string) (int64, error) {
	var n int64
	if err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM `+Quote(table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count %s: %w", table, err)
	}
	return n, nil
}

func (t tableWriter) Replace(table string, columns []string, rows iter.Seq2[[]any, error]) (int64, error) {
	if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM `+Quote(table)); err != nil {
		return 0, fmt.Errorf("clear %s: %w", table, err)
	}
	cols := make([]Column, len(columns))
	for i, name := range columns {
		cols[i] = Column{Table: table, Name: name}
		for _, c := range t.columns {
			if c.Table == table && c.Name == name {
				cols[i] = c
			}
		}
	}
	n, err := t.s.dialect.Insert(t.ctx, t.conn, t.tx, table, cols, rows)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", table, err)
	}
	return n, nil
}

// Quote makes a name a quoted identifier, as both databases read it.
func Quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// QuoteAll quotes names and joins them with commas.
func QuoteAll(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = Quote(n)
	}
	return strings.Join(quoted, ", ")
}
