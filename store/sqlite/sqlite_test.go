package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store/sqlite"
	"mazebot/store/storetest"
)

// testMaze is a valid maze ID for the records these tests write.
var testMaze = mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1}

// TestContract runs the behaviour every store adapter shares on a file
// database, each handle with its own pool on the same file, as two bot
// processes have.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) (storetest.Store, func(t *testing.T) storetest.Store) {
		path := filepath.Join(t.TempDir(), "mazebot.db")
		return MustOpenFile(t, path), func(t *testing.T) storetest.Store { return MustOpenFile(t, path) }
	})
}

// TestContractMemory runs it on the in-memory database the bot runs on
// without a file. Such a database lives in one connection and has no
// second handle, so another returns the same one: the races run between
// goroutines sharing that connection.
func TestContractMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) (storetest.Store, func(t *testing.T) storetest.Store) {
		db := MustOpen(t)
		return db, func(*testing.T) storetest.Store { return db }
	})
}

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
		post := contest.Post{MazeID: testMaze, ChannelID: "c1", MessageID: "msg1", PostedAt: time.UnixMilli(1).UTC()}
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

	// 0006 drops posts.author_id from a database made before it, keeping
	// the posts.
	t.Run("OK/PostsAuthorDropped", func(t *testing.T) {
		ctx := context.Background()
		path, raw := migratedBefore(t, files, "0006")
		if _, err := raw.Exec(`INSERT INTO posts (maze_id, guild_id, channel_id, message_id, author_id, posted_at)
			VALUES (?, 'g1', 'c1', 'msg1', 'u1', 1)`, testMaze.String()); err != nil {
			t.Fatal(err)
		}
		if err := raw.Close(); err != nil {
			t.Fatal(err)
		}

		db := MustOpenFile(t, path)
		if got := columns(t, db, "posts"); slices.Contains(got, "author_id") || !slices.Contains(got, "message_id") {
			t.Fatalf("posts columns=%v, want message_id and no author_id", got)
		}
		want := contest.Post{MazeID: testMaze, GuildID: "g1", ChannelID: "c1", MessageID: "msg1", PostedAt: time.UnixMilli(1).UTC()}
		if got, err := db.LastPost(ctx, "c1"); err != nil {
			t.Fatal(err)
		} else if got != want {
			t.Fatalf("LastPost=%+v, want the post made before the migration, %+v", got, want)
		}
	})

	// 0008 counts the events ended before it as closed; 0009 keeps the
	// mazes of the days claimed before it.
	t.Run("OK/PostsOnceBackfill", func(t *testing.T) {
		ctx := context.Background()
		path := migratedWith(t, files, "0008",
			`INSERT INTO daily_posts (guild_id, date, channel_id, maze_id, message_id, status, attempts, claimed_at)
				VALUES ('g1', '2026-11-30', 'c1', '`+testMaze.String()+`', 'm1', 'posted', 1, 1)`,
			`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
				VALUES ('g1', 'c1', 'old', '`+testMaze.String()+`', 'u', 1, 2, 'ended')`,
			`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
				VALUES ('g1', 'c2', 'on', '`+testMaze.String()+`', 'u', 1, 2, 'running')`,
		)
		db := MustOpenFile(t, path)
		closing, err := db.ClosingEvents(ctx)
		if err != nil || len(closing) != 0 {
			t.Fatalf("ClosingEvents=%+v (%v), want none: the old ended event is closed", closing, err)
		}
		running, err := db.RunningEvent(ctx, "c2")
		if err != nil || running.Closing != (contest.Closing{}) {
			t.Fatalf("RunningEvent=%+v (%v), want a running event with no closing", running, err)
		}
		if got, err := db.DailyMaze(ctx, "g1", contest.MakeDate(2026, 11, 30)); err != nil || got != testMaze {
			t.Fatalf("DailyMaze=%v (%v), want the claimed day's %v", got, err, testMaze)
		}
	})

	// 0012 gives the rows from before it no language: their posts stay
	// in English.
	t.Run("OK/LanguageDefault", func(t *testing.T) {
		ctx := context.Background()
		path := migratedWith(t, files, "0012",
			`INSERT INTO daily_configs (guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at)
				VALUES ('g1', 'c1', '09:00', 'Asia/Seoul', 'sidewinder', 31, 1, 1000)`,
			`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
				VALUES ('g1', 'c2', 'on', '`+testMaze.String()+`', 'u', 1, 2, 'running')`,
		)
		db := MustOpenFile(t, path)
		if s, err := db.DailySettings(ctx, "g1"); err != nil || s.Language != "" || s.Size != 31 {
			t.Fatalf("DailySettings=%+v (%v), want the old settings with no language", s, err)
		}
		if e, err := db.RunningEvent(ctx, "c2"); err != nil || e.Language != "" || e.Name != "on" {
			t.Fatalf("RunningEvent=%+v (%v), want the old event with no language", e, err)
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

// migratedBefore makes a database file with the migrations named before
// prefix applied, as a release without the later ones left it, and returns
// its path and a raw handle to fill it (close it before opening the store).
func migratedBefore(t *testing.T, files []string, prefix string) (string, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mazebot.db")
	raw, err := sql.Open("sqlite", path) // the driver store/sqlite registers
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	if _, err := raw.Exec(`CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT`); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f) >= prefix {
			break
		}
		buf, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(buf)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := raw.Exec(`INSERT INTO migrations (name, applied_at) VALUES (?, 0)`, filepath.Base(f)); err != nil {
			t.Fatal(err)
		}
	}
	return path, raw
}

// migratedWith is migratedBefore with the rows that queries insert: a
// database an older release filled, closed and ready to open.
func migratedWith(t *testing.T, files []string, prefix string, queries ...string) string {
	t.Helper()
	path, raw := migratedBefore(t, files, prefix)
	for _, q := range queries {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// migrations lists the migrations table as "name@applied_at", in name order.
func migrations(tb testing.TB, db *sqlite.DB) []string {
	tb.Helper()
	return texts(tb, db, `SELECT name || '@' || applied_at FROM migrations ORDER BY name`)
}

// columns lists a table's columns.
func columns(tb testing.TB, db *sqlite.DB, table string) []string {
	tb.Helper()
	return texts(tb, db, `SELECT name FROM pragma_table_info(?)`, table)
}

// texts returns the one text column of a query's rows.
func texts(tb testing.TB, db *sqlite.DB, query string, args ...any) []string {
	tb.Helper()
	rows, err := sqlite.SQLDB(db).Query(query, args...)
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

// TestQueryPlans checks each lookup reads its table through an index (a
// search, or for RunningEvents a scan of a partial index) rather than the
// whole table; those that read rows in index order also need no sort.
func TestQueryPlans(t *testing.T) {
	db := MustOpen(t)
	for _, tt := range []struct {
		name, query string
		args        []any
		use         string // "<verb> <table> USING [COVERING ]INDEX <index><cond>", without the brackets
		noSort      bool
	}{
		{"LastPost", sqlite.LastPostSQL, []any{"c"}, "SEARCH posts USING INDEX posts_channel_posted (channel_id=?)", true},
		{"DailiesOnMaze", sqlite.DailiesOnMazeSQL, []any{"m"}, "SEARCH daily_mazes USING INDEX daily_mazes_maze (maze_id=?)", false},
		{"BestRuns", sqlite.BestRunsSQL, []any{"daily:g1:2026-11-30", 0}, "SEARCH finishes USING INDEX finishes_context (context=?)", false},
		{"DailyTotals", sqlite.DailyTotalsSQL, []any{"daily:g1:2026-11-01", "daily:g1:2026-11-30"}, "SEARCH finishes USING INDEX finishes_context (context>? AND context<?)", false},
		{"SolvedDates", sqlite.SolvedDatesSQL, []any{"daily:g1:0001-01-01", "daily:g1:2026-11-30", "u"}, "SEARCH finishes USING INDEX finishes_context (context>? AND context<?)", true},
		{"RunningEvents", sqlite.RunningEventsSQL, nil, "SCAN events USING INDEX events_running_end", true},
		{"ForgetSeen", sqlite.ForgetSeenSQL, []any{0}, "SEARCH seen_interactions USING INDEX seen_interactions_seen_at (seen_at<?)", false},
		{"ClosingEvents", sqlite.ClosingEventsSQL, nil, "SCAN events USING INDEX events_closing", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := queryPlan(t, db, tt.query, tt.args...)
			uses := slices.ContainsFunc(plan, func(line string) bool {
				return strings.Replace(line, " USING COVERING INDEX ", " USING INDEX ", 1) == tt.use
			})
			if got := strings.Join(plan, "; "); !uses || (tt.noSort && strings.Contains(got, "TEMP B-TREE")) {
				t.Fatalf("plan=%q, want %q (no sort: %v)", got, tt.use, tt.noSort)
			}
		})
	}
}

// TestGameSurvivesReopen is the store's half of "a game survives a
// restart": what was saved is in the file, not only in a connection.
func TestGameSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mazebot.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g := play.Record{
		UserID: "u1", GuildID: "g1", ChannelID: "c1", MazeID: testMaze, Pos: mazecore.Point{X: 1, Y: 1},
		Trail: []byte{0x02, 0, 0, 0x80}, Status: play.Playing, StartedAt: time.UnixMilli(1).UTC(), UpdatedAt: time.UnixMilli(1).UTC(),
	}
	if g.ID, err = db.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Pos.X, g.Clicks, g.Tiles, g.Seq, g.UpdatedAt = 7, 2, 3, 1, time.UnixMilli(9).UTC()
	if err := db.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := MustOpenFile(t, path).Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g) {
		t.Fatalf("Game=%+v after reopen, want %+v", got, g)
	}
}

// TestRunningEventIndex: one running event a channel holds even for a
// writer that skips CreateEvent's check.
func TestRunningEventIndex(t *testing.T) {
	db := MustOpen(t)
	insert := `INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
		VALUES ('g1', 'ch1', 'x', 'm', 'u', 0, 1, ?)`
	for _, status := range []string{"ended", "running", "ended"} {
		if _, err := sqlite.SQLDB(db).Exec(insert, status); err != nil {
			t.Fatalf("insert %s event: %v", status, err)
		}
	}
	_, err := sqlite.SQLDB(db).Exec(insert, "running")
	if err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Fatalf("err=%v, want a UNIQUE constraint failure", err)
	}
}

func TestPing(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		if err := MustOpenFile(t, filepath.Join(t.TempDir(), "mazebot.db")).Ping(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrClosed", func(t *testing.T) {
		db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "mazebot.db"))
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if err := db.Ping(ctx); err == nil {
			t.Fatal("Ping on a closed database succeeded")
		}
	})
	t.Run("ErrCancelled", func(t *testing.T) {
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if err := MustOpen(t).Ping(cancelled); err == nil {
			t.Fatal("Ping with a cancelled context succeeded")
		}
	})
}
