package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"strings"

	"mazebot/store/internal/codec"
)

// Tables lists every table but the migrations bookkeeping, each with its
// columns in order: what `mazebot store copy` moves.
func (db *DB) Tables(ctx context.Context) (map[string][]string, error) {
	rows, err := db.db.QueryContext(ctx, `
		SELECT m.name, p.name FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' AND m.name <> 'migrations'
		ORDER BY m.name, p.cid`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	tables := map[string][]string{}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			return nil, fmt.Errorf("list tables: %w", err)
		}
		tables[table] = append(tables[table], column)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	return tables, nil
}

// ReadTables calls fn with a reader of the tables, all in one read-only
// transaction: a snapshot, however the database changes meanwhile (WAL).
func (db *DB) ReadTables(ctx context.Context, fn func(codec.TableReader) error) error {
	tx, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("read tables: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep
	return fn(tableTx{ctx, tx})
}

// WriteTables calls fn with a writer of the tables, all in one
// transaction, committed if fn returns nil. The transaction takes the
// write lock at BEGIN (_txlock=immediate) and holds it to the end, so no
// other writer comes between a Count and a Replace.
func (db *DB) WriteTables(ctx context.Context, fn func(codec.TableWriter) error) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	if err := fn(tableTx{ctx, tx}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	return nil
}

// tableTx reads and writes whole tables in a transaction.
type tableTx struct {
	ctx context.Context
	tx  *sql.Tx
}

func (t tableTx) Rows(table string, columns []string) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		rows, err := t.tx.QueryContext(t.ctx, `SELECT `+quoteAll(columns)+` FROM `+quote(table))
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
					values[i] = codec.Blob(b) // an empty BLOB may scan as nil: NULL elsewhere
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

func (t tableTx) Count(table string) (int64, error) {
	var n int64
	if err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM `+quote(table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count %s: %w", table, err)
	}
	return n, nil
}

// Replace keeps the keys it is given: an INTEGER PRIMARY KEY makes its
// next key past the largest there, so nothing else needs resetting.
func (t tableTx) Replace(table string, columns []string, rows iter.Seq2[[]any, error]) (int64, error) {
	if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM `+quote(table)); err != nil {
		return 0, fmt.Errorf("clear %s: %w", table, err)
	}
	insert, err := t.tx.PrepareContext(t.ctx, `INSERT INTO `+quote(table)+` (`+quoteAll(columns)+`)
		VALUES (`+strings.TrimSuffix(strings.Repeat("?, ", len(columns)), ", ")+`)`)
	if err != nil {
		return 0, fmt.Errorf("write %s: %w", table, err)
	}
	defer insert.Close()
	var n int64
	for values, err := range rows {
		if err != nil {
			return n, err
		}
		for i, v := range values {
			if b, ok := v.(bool); ok && b { // PostgreSQL's booleans are SQLite's 0 and 1
				values[i] = 1
			} else if ok {
				values[i] = 0
			}
		}
		if _, err := insert.ExecContext(t.ctx, values...); err != nil {
			return n, fmt.Errorf("write %s: %w", table, err)
		}
		n++
	}
	return n, nil
}

// quote makes a name a quoted identifier.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

func quoteAll(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = quote(n)
	}
	return strings.Join(quoted, ", ")
}
