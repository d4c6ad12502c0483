package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"mazebot/store/sqldb"
)

// Open connects to the database dsn names, a postgres:// URL or a
// keyword/value string ("host=db user=mazebot dbname=mazebot"), with pgx's
// parameters such as search_path and its pool's, pool_max_conns above all
// (a pool of max(4, CPUs) connections otherwise), and applies the
// migrations it has not seen. Its errors never hold the password.
func Open(ctx context.Context, dsn string, opts ...sqldb.Option) (*sqldb.Store, error) {
	// pgxpool's parser, for the pool_ parameters that its pool took before
	// database/sql's did; the connections are pgx's all the same.
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	db := stdlib.OpenDB(*cfg.ConnConfig)
	db.SetMaxOpenConns(int(cfg.MaxConns))
	db.SetMaxIdleConns(int(cfg.MaxConns))
	db.SetConnMaxLifetime(cfg.MaxConnLifetime)
	db.SetConnMaxIdleTime(cfg.MaxConnIdleTime)
	s, err := sqldb.New(ctx, db, Dialect{}, opts...)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	return s, nil
}

// Dialect is PostgreSQL's, for sqldb: numbered placeholders, SQLSTATEs,
// an advisory lock for migrations, COPY for whole tables.
type Dialect struct{}

var _ sqldb.Dialect = Dialect{}

// Name names the migrations: sqldb's migrations/postgres.
func (Dialect) Name() string { return "postgres" }

// Rebind numbers the ? placeholders: $1, $2, …
func (Dialect) Rebind(query string) string {
	var b strings.Builder
	n := 0
	for {
		before, after, found := strings.Cut(query, "?")
		b.WriteString(before)
		if !found {
			return b.String()
		}
		n++
		b.WriteString("$" + strconv.Itoa(n))
		query = after
	}
}

// uniqueViolation is the SQLSTATE of a violated unique constraint.
const uniqueViolation = "23505"

// IsUnique tells whether err is a violated unique constraint, by its
// SQLSTATE rather than its message text.
func (Dialect) IsUnique(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == uniqueViolation
}

// OneWriter is false: rows are locked one by one, and a conditional
// update that waited for another re-checks its WHERE.
func (Dialect) OneWriter() bool { return false }

// MigrationsTable is the bookkeeping as every release has made it.
func (Dialect) MigrationsTable() string {
	return `CREATE TABLE IF NOT EXISTS migrations (
		name       text COLLATE "C" PRIMARY KEY,
		applied_at bigint NOT NULL
	)`
}

// migrationLock is the first key of the advisory lock that migrations
// hold; the second is the schema's name, so databases in schemas of their
// own (tests) migrate without waiting for each other.
const migrationLock int32 = 0x6d7a6231 // "mzb1"

// LockMigrations takes the advisory lock, a transaction lock: held until
// COMMIT.
func (Dialect) LockMigrations(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, migrationLock)
	return err
}

// Columns lists the columns of the schema's tables from the catalog.
func (Dialect) Columns(ctx context.Context, q sqldb.Querier) ([]sqldb.Column, error) {
	return sqldb.ListColumns(ctx, q, `
		SELECT c.table_name, c.column_name, c.data_type = 'boolean', c.is_identity = 'YES'
		FROM information_schema.columns AS c
		JOIN information_schema.tables AS t USING (table_schema, table_name)
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'migrations'
		ORDER BY c.table_name, c.ordinal_position`)
}

// LockTables locks the tables against writes (readers go on).
func (Dialect) LockTables(ctx context.Context, tx *sql.Tx, tables []string) error {
	if len(tables) == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `LOCK TABLE `+sqldb.QuoteAll(tables)+` IN EXCLUSIVE MODE`)
	return err
}

// Insert copies rows in through COPY, on tx's connection (so inside tx).
// SQLite's 0 and 1 go into boolean columns as booleans. Keys come as they
// are, so afterwards each identity column's sequence is moved past the
// largest: the next row made gets a key of its own.
func (Dialect) Insert(ctx context.Context, conn *sql.Conn, tx *sql.Tx, table string, columns []sqldb.Column, rows iter.Seq2[[]any, error]) (int64, error) {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.Name
	}
	next, stop := iter.Pull2(rows)
	defer stop()
	var n int64
	err := conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("a %T, not pgx's connection", driverConn)
		}
		var err error
		n, err = c.Conn().CopyFrom(ctx, pgx.Identifier{table}, names, pgx.CopyFromFunc(func() ([]any, error) {
			values, err, ok := next()
			if !ok || err != nil {
				return nil, err
			}
			for i, v := range values {
				if b, isInt := v.(int64); isInt && columns[i].Bool {
					values[i] = b != 0
				}
			}
			return values, nil
		}))
		return err
	})
	if err != nil {
		return n, err
	}
	for _, c := range columns {
		if !c.Identity {
			continue
		}
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(`+sqldb.Quote(c.Name)+`), 0) + 1, false) FROM `+sqldb.Quote(table),
			sqldb.Quote(table), c.Name); err != nil {
			return n, fmt.Errorf("reset the sequence of %s.%s: %w", table, c.Name, err)
		}
	}
	return n, nil
}
