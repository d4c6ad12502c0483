package sqldb

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
)

// migrationFS holds each dialect's migrations, migrations/<dialect>:
// NNNN_name.sql, the same numbers and names in both dialects.
//
//go:embed migrations
var migrationFS embed.FS

// baseline is the first migration of both dialects: the schema as it
// stood when the two were numbered alike. Its number follows the last of
// either dialect's migrations before then, which are legacy/ now
// (0001-0013 on SQLite, 0001-0007 on PostgreSQL): whatever the database,
// its migrations table lists them in the order they ran.
//
// A database made before then records the legacy migrations, named as
// they were, and not the baseline. It is recognised by that, given the
// legacy steps it lacks (none, if the release that made it was the last
// before the renumbering), and recorded as having the baseline, which
// those steps built: nothing runs twice and no row is touched. The later
// migrations follow, as for any database.
const baseline = "0014_schema.sql"

// migrate applies the migrations the migrations table does not list, in
// name order, in one transaction together with their rows: a failed
// migration leaves no trace. The dialect's lock makes processes that open
// one database at once take turns; it is held until COMMIT, since a
// process looking before the schema is committed would create it again.
func (s *Store) migrate(ctx context.Context, files fs.FS) error {
	current, err := sqlFiles(files, ".")
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	legacy, err := sqlFiles(files, "legacy")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read migrations: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if err := s.dialect.LockMigrations(ctx, tx); err != nil {
		return fmt.Errorf("lock migrations: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.dialect.MigrationsTable()); err != nil {
		return fmt.Errorf("create migrations table: %w", err)
	}
	applied, err := appliedMigrations(ctx, tx)
	if err != nil {
		return fmt.Errorf("read migrations table: %w", err)
	}

	type step struct{ name, file string } // file "" records name without running it
	var steps []step
	if !applied[baseline] && len(applied) > 0 {
		for _, name := range legacy {
			if !applied[name] {
				steps = append(steps, step{name, path.Join("legacy", name)})
			}
		}
		steps = append(steps, step{baseline, ""})
		applied[baseline] = true
	}
	for _, name := range current {
		if !applied[name] {
			steps = append(steps, step{name, name})
		}
	}
	record := s.dialect.Rebind(`INSERT INTO migrations (name, applied_at) VALUES (?, ?)`)
	for _, st := range steps {
		if st.file != "" {
			buf, err := fs.ReadFile(files, st.file)
			if err != nil {
				return fmt.Errorf("migration %s: %w", st.name, err)
			}
			// Without arguments both drivers run the text as it is, so a
			// file may hold many statements.
			if _, err := tx.ExecContext(ctx, string(buf)); err != nil {
				return fmt.Errorf("migration %s: %w", st.name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, record, st.name, time.Now().UnixMilli()); err != nil {
			return fmt.Errorf("migration %s: %w", st.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// sqlFiles lists the .sql files of a directory of files, in name order.
func sqlFiles(files fs.FS, dir string) ([]string, error) {
	entries, err := fs.ReadDir(files, dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

func appliedMigrations(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	applied := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		applied[name] = true
	}
	return applied, rows.Err()
}
