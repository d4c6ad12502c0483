package postgres_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"mazebot/internal/pgtest"
	"mazebot/store/postgres"
	"mazebot/store/storetest"
)

// TestContract runs the behaviour every store adapter shares, each
// database a fresh schema, each handle a pool of its own on it, as two bot
// processes have.
func TestContract(t *testing.T) {
	pgtest.URL(t) // skip (or fail under CI) once, not in every subtest
	storetest.Run(t, func(t *testing.T) (storetest.Store, func(t *testing.T) storetest.Store) {
		url := pgtest.Schema(t)
		return MustOpen(t, url), func(t *testing.T) storetest.Store { return MustOpen(t, url) }
	})
}

// MustOpen opens the database at url, closed when the test ends.
func MustOpen(tb testing.TB, url string) *postgres.DB {
	tb.Helper()
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db
}

// texts returns the one text column of a query's rows.
func texts(tb testing.TB, db *postgres.DB, query string, args ...any) []string {
	tb.Helper()
	rows, _ := postgres.Pool(db).Query(context.Background(), query, args...)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func migrationFiles(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Fatal("no migrations")
	}
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	return files
}

func TestMigrate(t *testing.T) {
	pgtest.URL(t)
	files := migrationFiles(t)

	// Processes started together on an empty database take turns: all
	// open, and each migration is applied once. Several rounds, since one
	// may happen not to overlap.
	t.Run("OKStartTogether", func(t *testing.T) {
		const rounds, processes = 4, 3
		for range rounds {
			url := pgtest.Schema(t)
			var (
				wg    sync.WaitGroup
				start = make(chan struct{})
				dbs   [processes]*postgres.DB
				errs  [processes]error
			)
			for i := range processes {
				wg.Go(func() {
					<-start
					dbs[i], errs[i] = postgres.Open(t.Context(), url)
				})
			}
			close(start)
			wg.Wait()
			for i, db := range dbs {
				if errs[i] != nil {
					t.Fatalf("open %d of %d at once: %v", i+1, processes, errs[i])
				}
				t.Cleanup(func() { db.Close() })
			}
			if got := texts(t, dbs[0], `SELECT name FROM migrations ORDER BY name`); !slices.Equal(got, files) {
				t.Fatalf("migrations=%v, want each of %v once", got, files)
			}
		}
	})

	// Reopening applies nothing again and keeps the record of when each
	// ran.
	t.Run("OKReopen", func(t *testing.T) {
		url := pgtest.Schema(t)
		const applied = `SELECT name || '@' || applied_at FROM migrations ORDER BY name`
		first := texts(t, MustOpen(t, url), applied)
		if got := texts(t, MustOpen(t, url), applied); !slices.Equal(got, first) || len(got) != len(files) {
			t.Fatalf("migrations after reopen=%v, want %v", got, first)
		}
	})

	// A search_path naming no schema leaves nowhere to create the tables:
	// Open fails rather than making them elsewhere.
	t.Run("ErrNoSchema", func(t *testing.T) {
		url := pgtest.WithParam(t, pgtest.Schema(t), "search_path", "no_such_schema")
		if _, err := postgres.Open(t.Context(), url); err == nil {
			t.Fatal("Open with no schema to create tables in: want an error")
		}
	})
}

// TestCollation: every text column compares byte by byte, as SQLite's do,
// whatever the database's collation (the tests' is ICU en-US). Ranges of
// daily keys and the orders of rankings depend on it.
func TestCollation(t *testing.T) {
	db := MustOpen(t, pgtest.Schema(t))
	bad := texts(t, db, `
		SELECT table_name || '.' || column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND data_type = 'text' AND coalesce(collation_name, '') <> 'C'
		ORDER BY 1`)
	if len(bad) > 0 {
		t.Fatalf("text columns without COLLATE \"C\": %v", bad)
	}
	if got := texts(t, db, `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND data_type = 'text'`); len(got) == 0 {
		t.Fatal("no text columns found: the check looked at nothing")
	}
}

// TestIsUnique: a unique violation is told by its SQLSTATE; other
// constraint failures are not it.
func TestIsUnique(t *testing.T) {
	db := MustOpen(t, pgtest.Schema(t))
	ctx := t.Context()
	pool := postgres.Pool(db)
	insert := `INSERT INTO settings (key, value) VALUES ($1, $2)`
	if _, err := pool.Exec(ctx, insert, "k", []byte{1}); err != nil {
		t.Fatal(err)
	}
	_, dup := pool.Exec(ctx, insert, "k", []byte{2})
	_, null := pool.Exec(ctx, insert, "k2", nil)
	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"Duplicate", dup, true},
		{"NotNull", null, false},
		{"Wrapped", errors.Join(errors.New("context"), dup), true},
		{"Nil", nil, false},
	} {
		if got := postgres.IsUnique(tt.err); got != tt.want {
			t.Errorf("%s: IsUnique(%v)=%v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

// TestOpenErrors: a URL pgx can't use, or a server that isn't there, is
// an error that never shows the password.
func TestOpenErrors(t *testing.T) {
	for _, tt := range []struct{ name, url string }{
		{"ErrBadPort", "postgres://bob:hunter2secret@127.0.0.1:notaport/db"},
		{"ErrNoServer", "postgres://bob:hunter2secret@127.0.0.1:1/db?connect_timeout=2"},
		{"ErrBadParam", "postgres://bob:hunter2secret@127.0.0.1/db?pool_max_conns=many"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, err := postgres.Open(t.Context(), tt.url)
			if err == nil {
				db.Close()
				t.Fatal("want an error")
			}
			if strings.Contains(err.Error(), "hunter2secret") {
				t.Fatalf("err=%q shows the password", err)
			}
		})
	}
}
