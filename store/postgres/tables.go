package postgres

import (
	"context"
	"fmt"
	"iter"

	"github.com/jackc/pgx/v5"

	"mazebot/store/internal/codec"
)

// tablesSQL lists the columns of the schema's tables but the migrations
// bookkeeping, in order.
const tablesSQL = `
	SELECT c.table_name, c.column_name, c.data_type, c.is_identity = 'YES'
	FROM information_schema.columns AS c
	JOIN information_schema.tables AS t USING (table_schema, table_name)
	WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'migrations'
	ORDER BY c.table_name, c.ordinal_position`

// column is a table's column as tablesSQL describes it.
type column struct {
	table, name, dataType string
	identity              bool
}

func columns(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}) ([]column, error) {
	rows, _ := q.Query(ctx, tablesSQL)
	cols, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (c column, err error) {
		return c, r.Scan(&c.table, &c.name, &c.dataType, &c.identity)
	})
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	return cols, nil
}

// Tables lists every table but the migrations bookkeeping, each with its
// columns in order: what `mazebot store copy` moves.
func (db *DB) Tables(ctx context.Context) (map[string][]string, error) {
	cols, err := columns(ctx, db.pool)
	if err != nil {
		return nil, err
	}
	tables := map[string][]string{}
	for _, c := range cols {
		tables[c.table] = append(tables[c.table], c.name)
	}
	return tables, nil
}

// ReadTables calls fn with a reader of the tables, all in one read-only
// repeatable-read transaction: a snapshot, however the database changes
// meanwhile.
func (db *DB) ReadTables(ctx context.Context, fn func(codec.TableReader) error) error {
	tx, err := db.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("read tables: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read-only: nothing to keep
	return fn(&tableTx{ctx: ctx, tx: tx})
}

// WriteTables calls fn with a writer of the tables, all in one
// transaction, committed if fn returns nil. It first locks every table
// against writes (readers go on), so no bot process comes between a Count
// and a Replace, and two copies take turns.
func (db *DB) WriteTables(ctx context.Context, fn func(codec.TableWriter) error) error {
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		cols, err := columns(ctx, tx)
		if err != nil {
			return err
		}
		var names []string
		for _, c := range cols {
			if len(names) == 0 || names[len(names)-1] != c.table {
				names = append(names, c.table)
			}
		}
		if len(names) > 0 {
			if _, err := tx.Exec(ctx, `LOCK TABLE `+quoteAll(names)+` IN EXCLUSIVE MODE`); err != nil {
				return fmt.Errorf("lock tables: %w", err)
			}
		}
		return fn(&tableTx{ctx: ctx, tx: tx, columns: cols})
	})
}

// tableTx reads and writes whole tables in a transaction.
type tableTx struct {
	ctx     context.Context
	tx      pgx.Tx
	columns []column // for writes
}

func (t *tableTx) Rows(table string, columns []string) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		rows, _ := t.tx.Query(t.ctx, `SELECT `+quoteAll(columns)+` FROM `+quote(table))
		defer rows.Close()
		for rows.Next() {
			values, err := rows.Values()
			if err != nil {
				yield(nil, fmt.Errorf("read %s: %w", table, err))
				return
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

func (t *tableTx) Count(table string) (int64, error) {
	var n int64
	if err := t.tx.QueryRow(t.ctx, `SELECT count(*) FROM `+quote(table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count %s: %w", table, err)
	}
	return n, nil
}

// Replace inserts through COPY. Keys come as they are, so afterwards each
// identity column's sequence is moved past the largest: the next row made
// gets a key of its own.
func (t *tableTx) Replace(table string, columns []string, rows iter.Seq2[[]any, error]) (int64, error) {
	if _, err := t.tx.Exec(t.ctx, `DELETE FROM `+quote(table)); err != nil {
		return 0, fmt.Errorf("clear %s: %w", table, err)
	}
	types := map[string]string{}
	var identities []string
	for _, c := range t.columns {
		if c.table == table {
			types[c.name] = c.dataType
			if c.identity {
				identities = append(identities, c.name)
			}
		}
	}
	next, stop := iter.Pull2(rows)
	defer stop()
	n, err := t.tx.CopyFrom(t.ctx, pgx.Identifier{table}, columns, pgx.CopyFromFunc(func() ([]any, error) {
		values, err, ok := next()
		if !ok || err != nil {
			return nil, err
		}
		for i, v := range values {
			if n, isInt := v.(int64); isInt && types[columns[i]] == "boolean" { // SQLite's 0 and 1
				values[i] = n != 0
			}
		}
		return values, nil
	}))
	if err != nil {
		return n, fmt.Errorf("write %s: %w", table, err)
	}
	for _, col := range identities {
		if _, err := t.tx.Exec(t.ctx, `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(`+quote(col)+`), 0) + 1, false) FROM `+quote(table),
			quote(table), col); err != nil {
			return n, fmt.Errorf("reset the sequence of %s.%s: %w", table, col, err)
		}
	}
	return n, nil
}

// quote makes a name a quoted identifier.
func quote(name string) string { return pgx.Identifier{name}.Sanitize() }

// quoteAll quotes names and joins them with commas.
func quoteAll(names []string) string {
	var s string
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += quote(n)
	}
	return s
}
