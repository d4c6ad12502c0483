package sqlite_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mazebot/store"
	"mazebot/store/sqlite"
)

// MustOpen returns a fresh in-memory database, closed when the test ends.
func MustOpen(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.OpenMemory(context.Background())
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

// MustOpenFile opens (or reopens) the file database at path, closed when the
// test ends.
func MustOpenFile(tb testing.TB, path string) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(context.Background(), path)
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

func pragma(tb testing.TB, db *sqlite.DB, name string) string {
	tb.Helper()
	var v string
	if err := sqlite.SQLDB(db).QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		tb.Fatalf("PRAGMA %s: %v", name, err)
	}
	return v
}

func TestOpen(t *testing.T) {
	t.Run("OK/Memory", func(t *testing.T) {
		db := MustOpen(t)
		if got, want := pragma(t, db, "foreign_keys"), "1"; got != want {
			t.Fatalf("foreign_keys=%v, want %v", got, want)
		}
	})

	t.Run("OK/File", func(t *testing.T) {
		db := MustOpenFile(t, filepath.Join(t.TempDir(), "mazebot.db"))
		for _, tt := range []struct{ pragma, want string }{
			{"journal_mode", "wal"},
			{"foreign_keys", "1"},
			{"busy_timeout", "5000"},
			{"synchronous", "1"}, // NORMAL
		} {
			if got := pragma(t, db, tt.pragma); got != tt.want {
				t.Errorf("%s=%v, want %v", tt.pragma, got, tt.want)
			}
		}
	})

	// Every pooled connection must be configured, not only the first.
	t.Run("OK/EveryConnection", func(t *testing.T) {
		db := MustOpenFile(t, filepath.Join(t.TempDir(), "mazebot.db"))
		ctx := context.Background()
		for i := range 4 {
			conn, err := sqlite.SQLDB(db).Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			var fk int
			if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
				t.Fatal(err)
			}
			if got, want := fk, 1; got != want {
				t.Fatalf("conn %d: foreign_keys=%v, want %v", i, got, want)
			}
		}
	})

	// Each :memory: connection is its own database; a second connection
	// would see no schema.
	t.Run("OK/MemoryIsOneDatabase", func(t *testing.T) {
		db := MustOpen(t)
		if got, want := sqlite.SQLDB(db).Stats().MaxOpenConnections, 1; got != want {
			t.Fatalf("MaxOpenConnections=%v, want %v", got, want)
		}
	})

	t.Run("ErrEmptyPath", func(t *testing.T) {
		if _, err := sqlite.Open(context.Background(), ""); err == nil {
			t.Fatal("expected error")
		}
	})

	t.Run("ErrQuestionMark", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "a?b.db")
		if _, err := sqlite.Open(context.Background(), path); err == nil {
			t.Fatal("expected error")
		}
	})

	t.Run("ErrNoDirectory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "missing", "mazebot.db")
		if _, err := sqlite.Open(context.Background(), path); err == nil {
			t.Fatal("expected error")
		}
	})
}

func TestMigrate(t *testing.T) {
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no migrations")
	}

	t.Run("OK/Reopen", func(t *testing.T) {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "mazebot.db")

		db, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		applied := migrations(t, db)
		if got, want := len(applied), len(files); got != want {
			t.Fatalf("len(migrations)=%v, want %v", got, want)
		}
		post := store.Post{MazeID: "m1", ChannelID: "c1", MessageID: "msg1", PostedAt: time.UnixMilli(1).UTC()}
		if err := db.AddPost(ctx, post); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}

		// Reopening must neither re-run a migration (CREATE TABLE would
		// fail) nor touch the data or the record of what ran when.
		db2 := MustOpenFile(t, path)
		if got, want := strings.Join(migrations(t, db2), ","), strings.Join(applied, ","); got != want {
			t.Fatalf("migrations=%v, want %v", got, want)
		}
		if got, err := db2.LastPost(ctx, "c1"); err != nil {
			t.Fatal(err)
		} else if got != post {
			t.Fatalf("LastPost=%+v, want %+v", got, post)
		}
	})

	t.Run("OK/NamesMatchFiles", func(t *testing.T) {
		db := MustOpen(t)
		var want []string
		for _, f := range files {
			want = append(want, filepath.Base(f))
		}
		var got []string
		for _, m := range migrations(t, db) {
			got = append(got, strings.SplitN(m, "@", 2)[0])
		}
		if g, w := strings.Join(got, ","), strings.Join(want, ","); g != w {
			t.Fatalf("migrations=%v, want %v", g, w)
		}
	})
}

// migrations lists the migrations table as "name@applied_at", in name order.
func migrations(tb testing.TB, db *sqlite.DB) []string {
	tb.Helper()
	rows, err := sqlite.SQLDB(db).Query(`SELECT name || '@' || applied_at FROM migrations ORDER BY name`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			tb.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// queryPlan returns the detail lines of SQLite's plan for query.
func queryPlan(tb testing.TB, db *sqlite.DB, query string, args ...any) []string {
	tb.Helper()
	rows, err := sqlite.SQLDB(db).Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			tb.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return plan
}

// TestQueryPlans checks each lookup is served by an index, with no table
// scan and no sort.
func TestQueryPlans(t *testing.T) {
	db := MustOpen(t)
	for _, tt := range []struct {
		name, query, index string
	}{
		{"LastPost", sqlite.LastPostSQL, "posts_channel_posted"},
		{"PostByMessage", sqlite.PostByMessageSQL, "posts_message"},
		{"Finishes", sqlite.FinishesSQL, "finishes_maze_rank"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(queryPlan(t, db, tt.query, "x"), "; ")
			if !strings.Contains(got, "USING INDEX "+tt.index) || strings.Contains(got, "TEMP B-TREE") {
				t.Fatalf("plan=%q, want a search using index %s and no sort", got, tt.index)
			}
		})
	}
}
