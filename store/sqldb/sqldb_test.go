package sqldb_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"mazebot/internal/pgtest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store"
	"mazebot/store/sqldb"
	"mazebot/store/sqlite"
)

// TestEveryMethodPassesTheCallHelper calls every method of the contract
// on a closed database: each must fail, and be reported under its own
// name, so it went through the one helper that bounds and counts calls.
func TestEveryMethodPassesTheCallHelper(t *testing.T) {
	log := &sqldb.ErrorLog{}
	db, err := sqlite.Open(context.Background(), sqlite.Memory, sqldb.WithMetrics(log))
	ok(t, err)
	ok(t, db.Close())
	s := reflect.ValueOf(db)
	iface := reflect.TypeFor[store.DB]()
	for i := range iface.NumMethod() {
		m := iface.Method(i)
		if m.Name == "Close" {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			before := len(log.List())
			args := []reflect.Value{reflect.ValueOf(context.Background())}
			for j := 1; j < m.Type.NumIn(); j++ {
				args = append(args, reflect.Zero(m.Type.In(j)))
			}
			out := s.MethodByName(m.Name).Call(args)
			if out[len(out)-1].IsNil() {
				t.Fatalf("%s on a closed database succeeded", m.Name)
			}
			if got := log.List(); len(got) != before+1 || got[before] != m.Name {
				t.Fatalf("reported %v after %s, want it under its name", got[before:], m.Name)
			}
		})
	}
}

// openFile opens (or reopens) the SQLite file at path, closed when the
// test ends.
func openFile(t *testing.T, path string) *sqldb.Store {
	t.Helper()
	return dialects[0].mustOpen(t, path)
}

func pragma(t *testing.T, s *sqldb.Store, name string) string {
	t.Helper()
	var v string
	ok(t, sqldb.DB(s).QueryRow("PRAGMA "+name).Scan(&v))
	return v
}

func TestSQLitePragmas(t *testing.T) {
	t.Run("OKMemory", func(t *testing.T) {
		s := openFile(t, sqlite.Memory)
		if got, want := pragma(t, s, "foreign_keys"), "1"; got != want {
			t.Fatalf("foreign_keys=%v, want %v", got, want)
		}
		// Each :memory: connection is its own database; a second
		// connection would see no schema.
		if got, want := sqldb.DB(s).Stats().MaxOpenConnections, 1; got != want {
			t.Fatalf("MaxOpenConnections=%v, want %v", got, want)
		}
	})
	t.Run("OKFile", func(t *testing.T) {
		s := openFile(t, filepath.Join(t.TempDir(), "mazebot.db"))
		for _, tt := range []struct{ pragma, want string }{
			{"journal_mode", "wal"},
			{"foreign_keys", "1"},
			{"busy_timeout", "5000"},
			{"synchronous", "1"}, // NORMAL
		} {
			if got := pragma(t, s, tt.pragma); got != tt.want {
				t.Errorf("%s=%v, want %v", tt.pragma, got, tt.want)
			}
		}
	})
	// Every pooled connection must be configured, not only the first.
	t.Run("OKEveryConnection", func(t *testing.T) {
		s := openFile(t, filepath.Join(t.TempDir(), "mazebot.db"))
		ctx := context.Background()
		for i := range 4 {
			conn, err := sqldb.DB(s).Conn(ctx)
			ok(t, err)
			defer conn.Close()
			var fk int
			ok(t, conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk))
			if got, want := fk, 1; got != want {
				t.Fatalf("conn %d: foreign_keys=%v, want %v", i, got, want)
			}
		}
	})
}

// TestSQLiteQueryPlans checks each lookup reads its table through an
// index (a search, or for RunningEvents and ClosingEvents a scan of a
// partial index) rather than the whole table; those that read rows in
// index order also need no sort.
func TestSQLiteQueryPlans(t *testing.T) {
	db := sqldb.DB(openFile(t, sqlite.Memory))
	for _, tt := range []struct {
		name, query string
		args        []any
		use         string // "<verb> <table> USING [COVERING ]INDEX <index><cond>", without the brackets
		noSort      bool
	}{
		{"LastPost", sqldb.LastPostSQL, []any{"c"}, "SEARCH posts USING INDEX posts_channel_posted (channel_id=?)", true},
		{"RecentPosts", sqldb.RecentPostsSQL, []any{"c", 25}, "SEARCH posts USING INDEX posts_channel_posted (channel_id=?)", true},
		{"PlayingGame", sqldb.PlayingGameSQL, []any{"u", "m", ""}, "SEARCH games USING INDEX games_playing (user_id=? AND maze_id=? AND context=?)", true},
		{"DailiesOnMaze", sqldb.DailiesOnMazeSQL, []any{"m"}, "SEARCH daily_mazes USING INDEX daily_mazes_maze (maze_id=?)", false},
		{"BestRuns", sqldb.BestRunsSQL, []any{"daily:g1:2026-11-30", 0}, "SEARCH finishes USING INDEX finishes_context (context=?)", false},
		{"DailyTotals", sqldb.DailyTotalsSQL, []any{"daily:g1:2026-11-01", "daily:g1:2026-11-30"}, "SEARCH finishes USING INDEX finishes_context (context>? AND context<?)", false},
		{"SolvedDates", sqldb.SolvedDatesSQL, []any{"daily:g1:0001-01-01", "daily:g1:2026-11-30", "u"}, "SEARCH finishes USING INDEX finishes_context (context>? AND context<?)", true},
		{"RunningEvents", sqldb.RunningEventsSQL, nil, "SCAN events USING INDEX events_running_end", true},
		{"ForgetSeen", sqldb.ForgetSeenSQL, []any{0}, "SEARCH seen_interactions USING INDEX seen_interactions_seen_at (seen_at<?)", false},
		{"ClosingEvents", sqldb.ClosingEventsSQL, nil, "SCAN events USING INDEX events_closing", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := db.Query("EXPLAIN QUERY PLAN "+tt.query, tt.args...)
			ok(t, err)
			defer rows.Close()
			var plan []string
			for rows.Next() {
				var id, parent, notused int
				var detail string
				ok(t, rows.Scan(&id, &parent, &notused, &detail))
				plan = append(plan, detail)
			}
			ok(t, rows.Err())
			uses := slices.ContainsFunc(plan, func(line string) bool {
				return strings.Replace(line, " USING COVERING INDEX ", " USING INDEX ", 1) == tt.use
			})
			if got := strings.Join(plan, "; "); !uses || (tt.noSort && strings.Contains(got, "TEMP B-TREE")) {
				t.Fatalf("plan=%q, want %q (no sort: %v)", got, tt.use, tt.noSort)
			}
		})
	}
}

// TestPostgresClosingIndex: PostgreSQL reads the closing events through
// their partial index too.
func TestPostgresClosingIndex(t *testing.T) {
	db := sqldb.DB(dialects[1].mustOpen(t, pgtest.Schema(t)))
	_, err := db.Exec(`SET enable_seqscan = off`)
	ok(t, err)
	plan := strings.Join(texts(t, db, "EXPLAIN "+sqldb.ClosingEventsSQL), "\n")
	if !strings.Contains(plan, "events_closing") {
		t.Fatalf("plan:\n%s\nwant it to read events_closing", plan)
	}
}

// TestGameSurvivesReopen is the store's half of "a game survives a
// restart": what was saved is in the file, not only in a connection.
func TestGameSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mazebot.db")
	s := openFile(t, path)
	g := play.Record{
		UserID: "u1", GuildID: "g1", ChannelID: "c1", MazeID: testMaze, Pos: mazecore.Point{X: 1, Y: 1},
		Trail: []byte{0x02, 0, 0, 0x80}, Status: play.Playing, StartedAt: at(1), UpdatedAt: at(1),
	}
	var err error
	g.ID, err = s.CreateGame(ctx, g)
	ok(t, err)
	g.Pos.X, g.Clicks, g.Tiles, g.Seq, g.UpdatedAt = 7, 2, 3, 1, at(9)
	ok(t, s.SaveGame(ctx, g))
	ok(t, s.Close())
	got, err := openFile(t, path).Game(ctx, g.ID)
	ok(t, err)
	if !reflect.DeepEqual(got, g) {
		t.Fatalf("Game=%+v after reopen, want %+v", got, g)
	}
}

// TestRunningEventIndex: one running event a channel holds even for a
// writer that skips CreateEvent's check.
func TestRunningEventIndex(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := sqldb.DB(d.mustOpen(t, d.fresh(t)))
			dl := d.dialect
			insert := dl.Rebind(`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
				VALUES ('g1', 'ch1', 'x', 'm', 'u', 0, 1, ?)`)
			for _, status := range []string{"ended", "running", "ended"} {
				if _, err := db.Exec(insert, status); err != nil {
					t.Fatalf("insert %s event: %v", status, err)
				}
			}
			if _, err := db.Exec(insert, "running"); !dl.IsUnique(err) {
				t.Fatalf("err=%v, want a unique violation", err)
			}
		})
	}
}

func TestPing(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Run("OK", func(t *testing.T) {
				ok(t, d.mustOpen(t, d.fresh(t)).Ping(ctx))
			})
			t.Run("ErrClosed", func(t *testing.T) {
				s := d.mustOpen(t, d.fresh(t))
				ok(t, s.Close())
				if err := s.Ping(ctx); err == nil {
					t.Fatal("Ping on a closed database succeeded")
				}
			})
			t.Run("ErrCancelled", func(t *testing.T) {
				cancelled, cancel := context.WithCancel(ctx)
				cancel()
				if err := d.mustOpen(t, d.fresh(t)).Ping(cancelled); err == nil {
					t.Fatal("Ping with a cancelled context succeeded")
				}
			})
		})
	}
}

// TestDeadline: a call that waits on a lock another process holds gives
// up at the store's deadline, well before SQLite's busy timeout.
func TestDeadline(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			dsn := d.fresh(t)
			s := d.mustOpen(t, dsn, sqldb.WithTimeout(100*time.Millisecond))
			g, err := s.CreateGame(ctx, play.Record{UserID: "u1", MazeID: testMaze, Pos: mazecore.Point{X: 1, Y: 1}, Status: play.Playing, StartedAt: at(1), UpdatedAt: at(1)})
			ok(t, err)
			// Another process's transaction holds the game's row (SQLite:
			// the whole database) until the test ends.
			tx, err := sqldb.DB(d.mustOpen(t, dsn)).BeginTx(ctx, nil)
			ok(t, err)
			defer tx.Rollback()
			_, err = tx.Exec(d.dialect.Rebind(`UPDATE games SET clicks = 1 WHERE id = ?`), g)
			ok(t, err)
			start := time.Now()
			err = s.SaveGame(ctx, play.Record{ID: g, UserID: "u1", MazeID: testMaze, Pos: mazecore.Point{X: 3, Y: 1}, Seq: 1, Status: play.Playing, UpdatedAt: at(2)})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("SaveGame under another's lock: %v, want the deadline", err)
			}
			// Generous: the point is that it ends well before SQLite's
			// busy timeout, not how precisely.
			if took := time.Since(start); took > 3*time.Second {
				t.Fatalf("a call under a 100 ms deadline took %v", took)
			}
		})
	}
}

// TestCollation: every text column compares byte by byte, as SQLite's do,
// whatever the database's collation (the tests' is ICU en-US). Ranges of
// daily keys and the orders of rankings depend on it.
func TestCollation(t *testing.T) {
	db := sqldb.DB(dialects[1].mustOpen(t, pgtest.Schema(t)))
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

// TestPostgresPoolSize: pool_max_conns, the parameter of pgxpool that
// opened the pool before, still sizes it; without it the pool is
// pgxpool's default, max(4, CPUs).
func TestPostgresPoolSize(t *testing.T) {
	url := pgtest.Schema(t)
	if got, want := sqldb.DB(dialects[1].mustOpen(t, pgtest.WithParam(t, url, "pool_max_conns", "3"))).Stats().MaxOpenConnections, 3; got != want {
		t.Fatalf("MaxOpenConnections=%d with pool_max_conns=3, want %d", got, want)
	}
	if got, want := sqldb.DB(dialects[1].mustOpen(t, url)).Stats().MaxOpenConnections, max(4, runtime.NumCPU()); got != want {
		t.Fatalf("MaxOpenConnections=%d, want %d", got, want)
	}
}

// TestIsUnique: a unique violation is told by the driver's code (SQLite's
// result code, PostgreSQL's SQLSTATE); other constraint failures are not
// it.
func TestIsUnique(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := d.raw(t, d.fresh(t))
			_, err := db.Exec(`CREATE TABLE t (k text UNIQUE, v text NOT NULL)`)
			ok(t, err)
			insert := d.dialect.Rebind(`INSERT INTO t (k, v) VALUES (?, ?)`)
			_, err = db.Exec(insert, "k", "v")
			ok(t, err)
			_, dup := db.Exec(insert, "k", "w")
			_, null := db.Exec(insert, "k2", nil)
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
				if got := d.dialect.IsUnique(tt.err); got != tt.want {
					t.Errorf("%s: IsUnique(%v)=%v, want %v", tt.name, tt.err, got, tt.want)
				}
			}
		})
	}
}
