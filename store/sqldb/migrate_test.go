package sqldb_test

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for databases made the old way

	"mazebot/contest"
	"mazebot/internal/pgtest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store/postgres"
	"mazebot/store/sqldb"
	"mazebot/store/sqlite"
)

// A dialect under test: how to get a fresh database, open the store on
// it, and reach it raw, as a release before the store was would have.
type dialect struct {
	name  string
	fresh func(t *testing.T) string
	open  func(ctx context.Context, dsn string, opts ...sqldb.Option) (*sqldb.Store, error)
	raw   func(t *testing.T, dsn string) *sql.DB
	// legacy is how many migrations the last release before the
	// renumbering had recorded.
	legacy int
	// blob spells a byte string, in hex, as a literal.
	blob    func(hex string) string
	dialect sqldb.Dialect
}

var dialects = []dialect{
	{"SQLite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "mazebot.db") }, sqlite.Open, rawSQLite, 13,
		func(hex string) string { return "X'" + hex + "'" }, sqlite.Dialect{}},
	{"Postgres", func(t *testing.T) string { return pgtest.Schema(t) }, postgres.Open, rawPostgres, 7,
		func(hex string) string { return `'\x` + hex + `'::bytea` }, postgres.Dialect{}},
}

func rawSQLite(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=foreign_keys(1)")
	ok(t, err)
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func rawPostgres(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	ok(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// storeName is the dialect's name as sqldb knows it.
func (d dialect) storeName() string { return strings.ToLower(d.name) }

// mustOpen opens the store on dsn, closed when the test ends.
func (d dialect) mustOpen(t *testing.T, dsn string, opts ...sqldb.Option) *sqldb.Store {
	t.Helper()
	s, err := d.open(t.Context(), dsn, opts...)
	ok(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// legacyFiles are the names of the dialect's migrations from before the
// renumbering, in order.
func (d dialect) legacyFiles(t *testing.T) []string {
	t.Helper()
	names := d.files(t, "legacy")
	if len(names) != d.legacy {
		t.Fatalf("%d legacy migrations, want %d", len(names), d.legacy)
	}
	return names
}

// currentFiles are the names of the dialect's migrations, in order.
func (d dialect) currentFiles(t *testing.T) []string { return d.files(t, ".") }

// files are the names of the files in a directory of the dialect's
// migrations, in order.
func (d dialect) files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := fs.ReadDir(sqldb.Migrations(d.storeName()), dir)
	ok(t, err)
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// madeTheOldWay makes a database at dsn as a release before the
// renumbering did: the migrations table, then each legacy migration
// before the one named before ("" for all of them) with its row, at
// applied_at 1000, 1001, …; then it runs queries, rows that release
// wrote.
func (d dialect) madeTheOldWay(t *testing.T, dsn, before string, queries ...string) {
	t.Helper()
	raw := d.raw(t, dsn)
	ctx := t.Context()
	ddl := d.dialect
	_, err := raw.ExecContext(ctx, ddl.MigrationsTable())
	ok(t, err)
	files := sqldb.Migrations(d.storeName())
	for i, name := range d.legacyFiles(t) {
		if before != "" && name >= before {
			break
		}
		buf, err := fs.ReadFile(files, "legacy/"+name)
		ok(t, err)
		if _, err := raw.ExecContext(ctx, string(buf)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = raw.ExecContext(ctx, ddl.Rebind(`INSERT INTO migrations (name, applied_at) VALUES (?, ?)`), name, 1000+i)
		ok(t, err)
	}
	for _, q := range queries {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	ok(t, raw.Close())
}

// migrations lists the migrations table as "name@applied_at", in name
// order.
func migrations(t *testing.T, s *sqldb.Store) []string {
	t.Helper()
	return texts(t, sqldb.DB(s), `SELECT name || '@' || applied_at FROM migrations ORDER BY name`)
}

// texts returns the one text column of a query's rows.
func texts(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), query, args...)
	ok(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		ok(t, rows.Scan(&s))
		out = append(out, s)
	}
	ok(t, rows.Err())
	return out
}

var testMaze = mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1}

func at(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// TestOldDatabase: a database that the last release before the
// renumbering made, rows in every table, opens with nothing applied
// again, no row lost or changed, the baseline recorded and the later
// migrations applied.
func TestOldDatabase(t *testing.T) {
	m := testMaze.String()
	day := contest.MakeDate(2026, 11, 30)
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			ctx := t.Context()
			dsn := d.fresh(t)
			d.madeTheOldWay(t, dsn, "",
				`INSERT INTO posts (maze_id, guild_id, channel_id, message_id, posted_at) VALUES ('`+m+`', 'g1', 'c1', 'm1', 5)`,
				`INSERT INTO games (user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail, seq, status, started_at, updated_at, finished_at)
					VALUES ('ann', 'g1', 'c1', '`+m+`', 'daily:g1:2026-11-30', 3, 5, 2, 6, `+d.blob("01")+`, 2, 'playing', 10, 20, 0)`,
				`INSERT INTO finishes (user_id, guild_id, maze_id, clicks, tiles, elapsed_ms, finished_at, context)
					VALUES ('bob', 'g1', '`+m+`', 9, 40, 61000, 30, 'daily:g1:2026-11-30')`,
				`INSERT INTO daily_configs (guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at, difficulty, loops, language)
					VALUES ('g1', 'c1', '09:00', 'Asia/Seoul', 'sidewinder', 31, TRUE, 1000, 'hard', 30, 'ko')`,
				`INSERT INTO daily_posts (guild_id, date, channel_id, maze_id, message_id, status, attempts, claimed_at, refused)
					VALUES ('g1', '2026-11-30', 'c1', '`+m+`', 'm2', 'posted', 2, 40, 1)`,
				`INSERT INTO daily_mazes (guild_id, date, maze_id) VALUES ('g1', '2026-11-30', '`+m+`')`,
				`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status, language, closing_attempts, closing_claimed_at)
					VALUES ('g1', 'e1', 'race', '`+m+`', 'mod', 50, 60, 'ended', 'ko', 1, 60)`,
				`INSERT INTO seen_interactions (id, seen_at) VALUES ('1001', 70)`,
				`INSERT INTO identify_turns (bucket, identified_at) VALUES (0, 80)`,
				`INSERT INTO settings (key, value) VALUES ('play-hmac', `+d.blob("0102")+`)`,
			)
			s := d.mustOpen(t, dsn)

			got := migrations(t, s)
			var want []string
			for i, name := range d.legacyFiles(t) {
				want = append(want, fmt.Sprintf("%s@%d", name, 1000+i))
			}
			if !slices.Equal(got[:len(want)], want) {
				t.Fatalf("migrations=%v, want the old ones as they were, %v", got, want)
			}
			var added []string
			for _, m := range got[len(want):] {
				added = append(added, strings.Split(m, "@")[0])
			}
			if !slices.Equal(added, d.currentFiles(t)) {
				t.Fatalf("migrations added %v, want every current one recorded once: %v", added, d.currentFiles(t))
			}

			if p, err := s.LastPost(ctx, "c1"); err != nil || p != (contest.Post{MazeID: testMaze, GuildID: "g1", ChannelID: "c1", MessageID: "m1", PostedAt: at(5)}) {
				t.Fatalf("LastPost=%+v (%v), want the old post", p, err)
			}
			g, err := s.Game(ctx, 1)
			if err != nil || g.UserID != "ann" || g.Pos != (mazecore.Point{X: 3, Y: 5}) || g.Seq != 2 || g.Status != play.Playing || g.UpdatedAt != at(20) || len(g.Trail) != 1 {
				t.Fatalf("Game=%+v (%v), want the old game", g, err)
			}
			if runs, err := s.DayRuns(ctx, "g1", day); err != nil || len(runs) != 1 || runs[0].UserID != "bob" || runs[0].Elapsed != 61*time.Second {
				t.Fatalf("DayRuns=%+v (%v), want bob's old run", runs, err)
			}
			ds, err := s.DailySettings(ctx, "g1")
			if err != nil || ds.Zone.String() != "Asia/Seoul" || ds.Difficulty != mazecore.Hard || ds.Loops != 30 || ds.Language != "ko" || !ds.Enabled {
				t.Fatalf("DailySettings=%+v (%v), want the old settings", ds, err)
			}
			if p, err := s.DailyPost(ctx, "g1", day); err != nil || p.State != contest.Posted || p.Attempts != 2 || p.Refused != 1 || p.MessageID != "m2" {
				t.Fatalf("DailyPost=%+v (%v), want the old post", p, err)
			}
			if id, err := s.DailyMaze(ctx, "g1", day); err != nil || id != testMaze {
				t.Fatalf("DailyMaze=%v (%v), want %v", id, err, testMaze)
			}
			closing, err := s.ClosingEvents(ctx)
			if err != nil || len(closing) != 1 || closing[0].Name != "race" || closing[0].Language != "ko" || closing[0].Closing.Attempts != 1 {
				t.Fatalf("ClosingEvents=%+v (%v), want the old event, ended and closing", closing, err)
			}
			if first, err := s.FirstSeen(ctx, "1001", at(90)); err != nil || first {
				t.Fatalf("FirstSeen(1001)=%v (%v), want it seen before", first, err)
			}
			if free, turn, err := s.ClaimIdentify(ctx, 0, at(81), time.Second); err != nil || turn || free != at(1080) {
				t.Fatalf("ClaimIdentify=%v, %v (%v), want the old turn's window", free, turn, err)
			}
			if v, err := s.Secret(ctx, "play-hmac", nil); err != nil || string(v) != "\x01\x02" {
				t.Fatalf("Secret=%x (%v), want the old key", v, err)
			}
			// Opened again: nothing more applied.
			ok(t, s.Close())
			if again := migrations(t, d.mustOpen(t, dsn)); !slices.Equal(again, got) {
				t.Fatalf("migrations after a reopen=%v, want %v", again, got)
			}
		})
	}
}

// TestOldSchemaIsTheBaseline: a database made by every legacy migration
// and then opened has the schema of one made now, table by table, column
// by column, constraint by constraint, index by index: the baseline is
// what the legacy migrations built.
func TestOldSchemaIsTheBaseline(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			old := d.fresh(t)
			d.madeTheOldWay(t, old, "")
			oldSchema := schema(t, d, d.mustOpen(t, old))
			newSchema := schema(t, d, d.mustOpen(t, d.fresh(t)))
			if len(newSchema) < 20 {
				t.Fatalf("schema %q: looked at nothing", newSchema)
			}
			if !slices.Equal(oldSchema, newSchema) {
				t.Fatalf("schema of an old database:\n%s\nwant a new one's:\n%s\ndiffering: %q", strings.Join(oldSchema, "\n"), strings.Join(newSchema, "\n"), diff(oldSchema, newSchema))
			}
		})
	}
}

// diff lists the lines only one of a and b holds.
func diff(a, b []string) []string {
	var out []string
	for _, l := range a {
		if !slices.Contains(b, l) {
			out = append(out, "old: "+l)
		}
	}
	for _, l := range b {
		if !slices.Contains(a, l) {
			out = append(out, "new: "+l)
		}
	}
	return out
}

// schema describes a database's tables, columns, constraints and indexes,
// a line each, sorted.
func schema(t *testing.T, d dialect, s *sqldb.Store) []string {
	t.Helper()
	db := sqldb.DB(s)
	var lines []string
	if d.name == "SQLite" {
		lines = texts(t, db, `
			SELECT m.name || '.' || p.cid || ' ' || p.name || ' ' || p.type || ' notnull=' || p."notnull" || ' default=' || coalesce(p.dflt_value, '-') || ' pk=' || p.pk
			FROM sqlite_schema AS m, pragma_table_xinfo(m.name) AS p WHERE m.type = 'table'`)
		lines = append(lines, texts(t, db, `SELECT type || ' ' || name || ' on ' || tbl_name || ': ' || coalesce(sql, '') FROM sqlite_schema`)...)
		// The CREATE text holds the CHECKs; ALTER TABLE writes columns into
		// it its own way, so only the constraints are compared, as a set.
		for i, l := range lines {
			if strings.HasPrefix(l, "table ") {
				lines[i] = strings.SplitN(l, ":", 2)[0] + ": " + strings.Join(checks(l), " ")
			} else {
				lines[i] = normalize(l)
			}
		}
	} else {
		lines = texts(t, db, `
			SELECT table_name || '.' || ordinal_position || ' ' || column_name || ' ' || data_type || ' nullable=' || is_nullable
				|| ' default=' || coalesce(column_default, '-') || ' collate=' || coalesce(collation_name, '-') || ' identity=' || is_identity
			FROM information_schema.columns WHERE table_schema = current_schema()`)
		lines = append(lines, texts(t, db, `
			SELECT conrelid::regclass::text || ' ' || conname || ' ' || contype::text || ': ' || pg_get_constraintdef(oid)
			FROM pg_constraint WHERE connamespace = current_schema()::regnamespace`)...)
		lines = append(lines, texts(t, db, `
			SELECT indexname || ': ' || replace(indexdef, current_schema() || '.', '')
			FROM pg_indexes WHERE schemaname = current_schema()`)...)
		lines = append(lines, texts(t, db, `SELECT sequence_name || ' ' || data_type FROM information_schema.sequences WHERE sequence_schema = current_schema()`)...)
	}
	slices.Sort(lines)
	return lines
}

var (
	comments = regexp.MustCompile(`--[^\n]*`)
	spaces   = regexp.MustCompile(`\s+`)
	check    = regexp.MustCompile(`CHECK \(`)
)

// normalize drops a statement's comments and the width of its spaces.
func normalize(sql string) string {
	sql = spaces.ReplaceAllString(comments.ReplaceAllString(sql, ""), " ")
	return strings.NewReplacer("( ", "(", " )", ")").Replace(strings.TrimSpace(sql))
}

// checks lists a CREATE TABLE's CHECK constraints, each as written, in
// sorted order.
func checks(createTable string) []string {
	sql := normalize(createTable)
	var out []string
	for _, loc := range check.FindAllStringIndex(sql, -1) {
		depth, i := 1, loc[1]
		for ; i < len(sql) && depth > 0; i++ {
			switch sql[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		out = append(out, sql[loc[0]:i])
	}
	slices.Sort(out)
	return out
}

// TestLegacyUpgrades: databases of older releases still, made before one
// of the legacy migrations, are brought up to date with the rows they
// hold.
func TestLegacyUpgrades(t *testing.T) {
	d := dialects[0] // the legacy migrations that reshape rows are SQLite's
	m := testMaze.String()
	t.Run("OKPostsAuthorDropped", func(t *testing.T) {
		path := d.fresh(t)
		d.madeTheOldWay(t, path, "0006", `INSERT INTO posts (maze_id, guild_id, channel_id, message_id, author_id, posted_at)
			VALUES ('`+m+`', 'g1', 'c1', 'msg1', 'u1', 1)`)
		s := d.mustOpen(t, path)
		if got := texts(t, sqldb.DB(s), `SELECT name FROM pragma_table_info('posts')`); slices.Contains(got, "author_id") || !slices.Contains(got, "message_id") {
			t.Fatalf("posts columns=%v, want message_id and no author_id", got)
		}
		want := contest.Post{MazeID: testMaze, GuildID: "g1", ChannelID: "c1", MessageID: "msg1", PostedAt: at(1)}
		if got, err := s.LastPost(t.Context(), "c1"); err != nil || got != want {
			t.Fatalf("LastPost=%+v (%v), want the post made before the migration, %+v", got, err, want)
		}
	})
	// A server set up before dailies had a difficulty and loops reads back
	// as any and 0, so its dailies stay the mazes they were.
	t.Run("OKDailyDifficulty", func(t *testing.T) {
		path := d.fresh(t)
		d.madeTheOldWay(t, path, "0007", `INSERT INTO daily_configs (guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at)
			VALUES ('g1', 'ch1', '09:00', 'Asia/Seoul', 'sidewinder', 31, 1, 1000)`)
		s := d.mustOpen(t, path)
		old, err := s.DailySettings(t.Context(), "g1")
		if err != nil || old.Difficulty != mazecore.AnyLevel || old.Loops != 0 || old.Algorithm != mazecore.Sidewinder || old.Size != 31 || !old.Enabled {
			t.Fatalf("upgraded settings %+v (%v), want sidewinder 31, any, loops 0, enabled", old, err)
		}
	})
	// 0010 counts the events ended before it as closed; 0011 keeps the
	// mazes of the days claimed before it.
	t.Run("OKPostsOnceBackfill", func(t *testing.T) {
		path := d.fresh(t)
		d.madeTheOldWay(t, path, "0010",
			`INSERT INTO daily_posts (guild_id, date, channel_id, maze_id, message_id, status, attempts, claimed_at)
				VALUES ('g1', '2026-11-30', 'c1', '`+m+`', 'm1', 'posted', 1, 1)`,
			`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
				VALUES ('g1', 'c1', 'old', '`+m+`', 'u', 1, 2, 'ended')`,
			`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
				VALUES ('g1', 'c2', 'on', '`+m+`', 'u', 1, 2, 'running')`,
		)
		s := d.mustOpen(t, path)
		ctx := t.Context()
		if closing, err := s.ClosingEvents(ctx); err != nil || len(closing) != 0 {
			t.Fatalf("ClosingEvents=%+v (%v), want none: the old ended event is closed", closing, err)
		}
		if running, err := s.RunningEvent(ctx, "c2"); err != nil || running.Closing != (contest.Closing{}) {
			t.Fatalf("RunningEvent=%+v (%v), want a running event with no closing", running, err)
		}
		if got, err := s.DailyMaze(ctx, "g1", contest.MakeDate(2026, 11, 30)); err != nil || got != testMaze {
			t.Fatalf("DailyMaze=%v (%v), want the claimed day's %v", got, err, testMaze)
		}
	})
	// 0012 gives the rows from before it no language: their posts stay
	// in English.
	t.Run("OKLanguageDefault", func(t *testing.T) {
		path := d.fresh(t)
		d.madeTheOldWay(t, path, "0012",
			`INSERT INTO daily_configs (guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at)
				VALUES ('g1', 'c1', '09:00', 'Asia/Seoul', 'sidewinder', 31, 1, 1000)`,
			`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
				VALUES ('g1', 'c2', 'on', '`+m+`', 'u', 1, 2, 'running')`,
		)
		s := d.mustOpen(t, path)
		if ds, err := s.DailySettings(t.Context(), "g1"); err != nil || ds.Language != "" || ds.Size != 31 {
			t.Fatalf("DailySettings=%+v (%v), want the old settings with no language", ds, err)
		}
		if e, err := s.RunningEvent(t.Context(), "c2"); err != nil || e.Language != "" || e.Name != "on" {
			t.Fatalf("RunningEvent=%+v (%v), want the old event with no language", e, err)
		}
	})
}

func TestMigrate(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			files := d.currentFiles(t)
			if len(files) == 0 || files[0] != sqldb.Baseline {
				t.Fatalf("migrations %v, want the baseline first", files)
			}
			// Reopening applies nothing again and keeps the record of when
			// each ran.
			t.Run("OKReopen", func(t *testing.T) {
				dsn := d.fresh(t)
				first := migrations(t, d.mustOpen(t, dsn))
				if got := migrations(t, d.mustOpen(t, dsn)); !slices.Equal(got, first) || len(got) != len(files) {
					t.Fatalf("migrations after reopen=%v, want %v", got, first)
				}
				for i, m := range first {
					if name := strings.Split(m, "@")[0]; name != files[i] {
						t.Fatalf("migration %d is %s, want %s", i, name, files[i])
					}
				}
			})
			// A migration added later is applied to a database that has the
			// earlier ones, old or new, once.
			t.Run("OKLaterMigration", func(t *testing.T) {
				later := fstest.MapFS{"9999_later.sql": {Data: []byte(`CREATE TABLE later (id integer PRIMARY KEY)`)}}
				files := overlay{sqldb.Migrations(d.storeName()), later}
				for name, dsn := range map[string]string{"New": d.fresh(t), "Old": d.fresh(t)} {
					if name == "Old" {
						d.madeTheOldWay(t, dsn, "")
					} else {
						d.mustOpen(t, dsn).Close()
					}
					s := d.mustOpen(t, dsn, sqldb.WithMigrations(files))
					got := migrations(t, s)
					if last := got[len(got)-1]; !strings.HasPrefix(last, "9999_later.sql@") {
						t.Fatalf("%s: migrations=%v, want 9999_later.sql last", name, got)
					}
					tables, err := s.Tables(t.Context())
					ok(t, err)
					if _, there := tables["later"]; !there {
						t.Fatalf("%s: tables %v, want the later one", name, tables)
					}
					if again := migrations(t, d.mustOpen(t, dsn, sqldb.WithMigrations(files))); !slices.Equal(again, got) {
						t.Fatalf("%s: migrations after reopen=%v, want %v", name, again, got)
					}
				}
			})
			// Processes started together on an empty database take turns:
			// all open, and each migration is applied once. Several rounds,
			// since one may happen not to overlap.
			t.Run("OKStartTogether", func(t *testing.T) {
				const rounds, processes = 4, 3
				for range rounds {
					dsn := d.fresh(t)
					var (
						wg    sync.WaitGroup
						start = make(chan struct{})
						dbs   [processes]*sqldb.Store
						errs  [processes]error
					)
					for i := range processes {
						wg.Go(func() {
							<-start
							dbs[i], errs[i] = d.open(t.Context(), dsn)
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
					var names []string
					for _, m := range migrations(t, dbs[0]) {
						names = append(names, strings.Split(m, "@")[0])
					}
					if !slices.Equal(names, files) {
						t.Fatalf("migrations=%v, want each of %v once", names, files)
					}
				}
			})
		})
	}
	// A search_path naming no schema leaves nowhere to create the tables:
	// Open fails rather than making them elsewhere.
	t.Run("Postgres/ErrNoSchema", func(t *testing.T) {
		url := pgtest.WithParam(t, pgtest.Schema(t), "search_path", "no_such_schema")
		if _, err := postgres.Open(t.Context(), url); err == nil {
			t.Fatal("Open with no schema to create tables in: want an error")
		}
	})
}

// overlay is fs.FS a with b's files added on top.
type overlay [2]fs.FS

func (o overlay) Open(name string) (fs.File, error) {
	if f, err := o[1].Open(name); err == nil && name != "." {
		return f, nil
	}
	return o[0].Open(name)
}

func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	a, err := fs.ReadDir(o[0], name)
	if err != nil {
		return nil, err
	}
	if name == "." {
		b, err := fs.ReadDir(o[1], name)
		if err != nil {
			return nil, err
		}
		a = append(a, b...)
		slices.SortFunc(a, func(x, y fs.DirEntry) int { return strings.Compare(x.Name(), y.Name()) })
	}
	return a, nil
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
