package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/pgtest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store/sqldb"
)

// targets are the databases a copy goes into, each fresh and empty.
var targets = []struct {
	name string
	dsn  func(t *testing.T) string
}{
	{"SQLite", sqliteFile},
	{"Postgres", func(t *testing.T) string { return pgtest.Schema(t) }},
}

func sqliteFile(t *testing.T) string { return filepath.Join(t.TempDir(), "mazebot.db") }

func TestCopy(t *testing.T) {
	for _, target := range targets {
		t.Run(target.name, func(t *testing.T) {
			from := sqliteFile(t)
			seed(t, from)
			want := dumpOf(t, from)
			for table, rows := range want {
				if len(rows) == 0 {
					t.Fatalf("the seed leaves %s empty: its copy would go untested", table)
				}
			}

			// Every table is copied, row for row, keys kept; the
			// rankings and the button key read the same afterwards.
			t.Run("OK", func(t *testing.T) {
				to := target.dsn(t)
				counts := mustCopy(t, to, from, false)
				got := dumpOf(t, to)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("target after copy:\n%s\nwant the source:\n%s", show(got), show(want))
				}
				for _, c := range counts {
					if c.Rows != int64(len(want[c.Table])) {
						t.Errorf("copied %d rows into %s, the source has %d", c.Rows, c.Table, len(want[c.Table]))
					}
				}
				if len(counts) != len(want) {
					t.Errorf("counts=%+v, want one for each of %d tables", counts, len(want))
				}
				wantSameBoards(t, to, from)
				wantNewKeysPastCopied(t, to, want)
			})
			// A target with rows is left as it is, unless forced; copying
			// again, forced, gives the same target.
			t.Run("ErrNotEmpty", func(t *testing.T) {
				to := target.dsn(t)
				db := mustOpen(t, to)
				ok(t, db.AddPost(t.Context(), contest.Post{MazeID: testMaze, ChannelID: "c9", MessageID: "m9", PostedAt: at(0)}))
				db.Close()
				before := dumpOf(t, to)
				_, err := Copy(t.Context(), to, from, false)
				if !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "posts: 1 rows") {
					t.Fatalf("Copy into a target with a post: err=%v, want ErrNotEmpty naming posts", err)
				}
				if got := dumpOf(t, to); !reflect.DeepEqual(got, before) {
					t.Fatalf("target after a refused copy:\n%s\nwant it unchanged:\n%s", show(got), show(before))
				}
				mustCopy(t, to, from, true)
				if got := dumpOf(t, to); !reflect.DeepEqual(got, want) {
					t.Fatalf("target after a forced copy:\n%s\nwant the source:\n%s", show(got), show(want))
				}
				mustCopy(t, to, from, true)
				if got := dumpOf(t, to); !reflect.DeepEqual(got, want) {
					t.Fatalf("target after copying twice:\n%s\nwant the source:\n%s", show(got), show(want))
				}
			})
			// And back: a copy of the copy is the source again.
			t.Run("OKBack", func(t *testing.T) {
				to := target.dsn(t)
				mustCopy(t, to, from, false)
				back := sqliteFile(t)
				mustCopy(t, back, to, false)
				if got := dumpOf(t, back); !reflect.DeepEqual(got, want) {
					t.Fatalf("copied back:\n%s\nwant the source:\n%s", show(got), show(want))
				}
			})
		})
	}
}

func TestCopyRefused(t *testing.T) {
	t.Run("ErrNoSource", func(t *testing.T) {
		from := sqliteFile(t)
		if _, err := Copy(t.Context(), sqliteFile(t), from, false); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("Copy from a missing file: err=%v, want ErrNotExist", err)
		}
		if _, err := os.Stat(from); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("Copy made the missing source: stat err=%v", err)
		}
	})
	t.Run("ErrSameDatabase", func(t *testing.T) {
		from := sqliteFile(t)
		seed(t, from)
		rel, err := filepath.Rel(mustGetwd(t), from)
		ok(t, err)
		for _, to := range []string{from, rel} {
			if _, err := Copy(t.Context(), to, from, true); err == nil {
				t.Fatalf("Copy of %s onto %s: want an error", from, to)
			}
		}
	})
	// Databases of two versions of mazebot don't copy across.
	t.Run("ErrSchemasDiffer", func(t *testing.T) {
		from, to := sqliteFile(t), sqliteFile(t)
		seed(t, from)
		mustOpen(t, to).Close()
		raw, err := sql.Open("sqlite", to)
		ok(t, err)
		_, err = raw.Exec(`ALTER TABLE posts ADD COLUMN extra TEXT NOT NULL DEFAULT ''`)
		ok(t, err)
		ok(t, raw.Close())
		_, err = Copy(t.Context(), to, from, false)
		if err == nil || !strings.Contains(err.Error(), "posts.extra only in the target") {
			t.Fatalf("err=%v, want the schemas' difference named", err)
		}
	})
}

// TestSchemasAgree: both dialects' migrations make the same tables with
// the same columns, which is what Copy needs; a column added to one
// dialect's migrations only fails here.
func TestSchemasAgree(t *testing.T) {
	sqliteTables := tablesOf(t, ":memory:")
	pgTables := tablesOf(t, pgtest.Schema(t))
	if _, _, err := sameTables(t.Context(), staticTables(sqliteTables), staticTables(pgTables)); err != nil {
		t.Fatal(err)
	}
	if len(sqliteTables) == 0 {
		t.Fatal("no tables")
	}
}

func tablesOf(t *testing.T, dsn string) map[string][]string {
	t.Helper()
	db := mustOpen(t, dsn)
	defer db.Close()
	tables, err := db.Tables(t.Context())
	ok(t, err)
	return tables
}

// staticTables is a tables whose Tables is a fixed answer.
type staticTables map[string][]string

func (s staticTables) Tables(context.Context) (map[string][]string, error) { return s, nil }
func (staticTables) ReadTables(context.Context, func(sqldb.TableReader) error) error {
	panic("not read")
}
func (staticTables) WriteTables(context.Context, func(sqldb.TableWriter) error) error {
	panic("not written")
}

var testMaze = mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1}

func at(n int) time.Time {
	return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Second)
}

func day(n int) contest.Date { return contest.MakeDate(2026, 11, n) }

// seed fills every table of the database at dsn through the domain's
// stores, with gaps in the keys (a deleted event, deleted games) that a
// copy must keep.
func seed(t *testing.T, dsn string) {
	t.Helper()
	ctx := t.Context()
	db := mustOpen(t, dsn)
	defer db.Close()
	for i, p := range []contest.Post{
		{MazeID: testMaze, GuildID: "g1", ChannelID: "c1", MessageID: "m1", PostedAt: at(0)},
		{MazeID: testMaze, GuildID: "g1", ChannelID: "c1", PostedAt: at(0)}, // message unknown
		{MazeID: mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 31, Height: 31, Seed: 9}, GuildID: "g2", ChannelID: "c2", MessageID: "m2", PostedAt: at(5)},
	} {
		if err := db.AddPost(ctx, p); err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
	}
	for i, id := range []string{"1500000000000000001", "1500000000000000002"} {
		if first, err := db.FirstSeen(ctx, id, at(i)); err != nil || !first {
			t.Fatalf("FirstSeen(%s)=%v, %v", id, first, err)
		}
	}
	for bucket := range 2 {
		if _, turn, err := db.ClaimIdentify(ctx, bucket, at(bucket), 5*time.Second); err != nil || !turn {
			t.Fatalf("ClaimIdentify(%d)=%v, %v", bucket, turn, err)
		}
	}
	ok(t, db.AddCommandGuild(ctx, "g1", at(0)))
	seoul, err := time.LoadLocation("Asia/Seoul")
	ok(t, err)
	ok(t, db.SaveDailySettings(ctx, contest.DailySettings{GuildID: "g1", ChannelID: "c1", PostAt: 9 * 60, Zone: seoul, PrevZone: time.UTC, ZoneFrom: at(1), Algorithm: mazecore.Sidewinder, Size: 31, Enabled: true, UpdatedAt: at(1)}))
	ok(t, db.SaveDailySettings(ctx, contest.DailySettings{GuildID: "g2", ChannelID: "c2", Zone: time.UTC, Algorithm: mazecore.Digging, Size: 21, Grid: mazecore.Hex, Shape: contest.ShapeCalendar, UpdatedAt: at(2)}))
	claim := contest.DailyPost{GuildID: "g1", Date: day(29), ChannelID: "c1", MazeID: testMaze, State: contest.Posting, Attempts: 1, ClaimedAt: at(3)}
	ok(t, db.ClaimDailyPost(ctx, claim))
	ok(t, db.SetDailyPosted(ctx, "g1", day(29), "m29"))
	claim.Date = day(30)
	ok(t, db.ClaimDailyPost(ctx, claim))
	ok(t, db.SetDailyFailed(ctx, "g1", day(30), 1, true))
	if _, err := db.FixDailyMaze(ctx, contest.DailyMaze{GuildID: "g1", Date: day(29), MazeID: testMaze}); err != nil {
		t.Fatal(err)
	}
	ok(t, db.SaveRecapSettings(ctx, contest.RecapSettings{GuildID: "g1", Pings: true}))
	ok(t, db.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "ann", At: 20 * 60, Language: "ko"}))
	ok(t, db.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "bob", At: 8 * 60}))
	ok(t, db.ClaimReminder(ctx, "g1", "ann", day(29)))
	ok(t, db.SetReminderChannel(ctx, "g1", "ann", "dm-ann"))
	ok(t, db.CloseReminder(ctx, "g1", "bob"))
	ok(t, db.SaveChampionRole(ctx, contest.ChampionRole{GuildID: "g1", RoleID: "r1", AdminID: "ann", Language: "ko"}))
	ok(t, db.ClaimCrowning(ctx, "g1", contest.Season{Year: 2026, Month: 11}))
	ok(t, db.SetChampion(ctx, "g1", "bob"))
	ok(t, db.RefuseChampionRole(ctx, "g1"))

	var events []contest.Event
	for _, ch := range []string{"e1", "e2", "e3"} {
		e := contest.Event{GuildID: "g1", ChannelID: ch, Name: "race " + ch, MazeID: testMaze, CreatorID: "mod", StartedAt: at(0), EndsAt: at(3600), Status: contest.Running}
		e.ID, err = db.CreateEvent(ctx, e)
		ok(t, err)
		events = append(events, e)
	}
	ok(t, db.DeleteEvent(ctx, events[1].ID))
	ok(t, db.SetEventMessages(ctx, events[0].ID, "em", "eb"))
	ok(t, db.MarkBoardDirty(ctx, events[0].ID))
	ok(t, db.ClaimBoardEdit(ctx, events[0].ID, time.Time{}, at(60)))
	ok(t, db.MarkBoardDirty(ctx, events[0].ID))
	ok(t, db.EndEvent(ctx, events[2].ID, at(1800)))
	ok(t, db.SetClosingDone(ctx, events[2].ID, 1))
	ok(t, db.AddClosingRefusal(ctx, events[2].ID))

	// Results: daily runs over three days, event runs, a run in no
	// contest; and games left playing and given up.
	for i, r := range []struct {
		user, key   string
		secs, tiles int
	}{
		{"ann", contest.DailyKey("g1", day(28)).String(), 90, 60},
		{"ann", contest.DailyKey("g1", day(29)).String(), 80, 60},
		{"ann", contest.DailyKey("g1", day(29)).String(), 70, 65},
		{"bob", contest.DailyKey("g1", day(29)).String(), 70, 50},
		{"cat", contest.DailyKey("g1", day(30)).String(), 40, 40},
		{"bob", contest.DailyKey("g10", day(29)).String(), 1, 1},
		{"ann", events[0].Key().String(), 50, 55},
		{"bob", events[0].Key().String(), 45, 70},
		{"dan", events[2].Key().String(), 30, 30},
		{"dan", "", 10, 10},
	} {
		g := game(r.user, r.key, at(100*i))
		g.ID, err = db.CreateGame(ctx, g)
		ok(t, err)
		g.Pos, g.Clicks, g.Tiles, g.Seq, g.Status = mazecore.Point{X: 19, Y: 19}, 9, r.tiles, 1, play.Won
		g.UpdatedAt = g.StartedAt.Add(time.Duration(r.secs)*time.Second + 250*time.Millisecond)
		g.FinishedAt = g.UpdatedAt
		ok(t, db.SaveGame(ctx, g))
	}
	old := game("eve", "", at(-100000))
	_, err = db.CreateGame(ctx, old)
	ok(t, err)
	if n, err := db.DeleteGamesBefore(ctx, at(-1)); err != nil || n != 1 {
		t.Fatalf("DeleteGamesBefore=%d, %v; want the old game", n, err)
	}
	playing := game("eve", "", at(5000))
	playing.Trail = nil
	_, err = db.CreateGame(ctx, playing)
	ok(t, err)
	gaveUp := game("fay", "", at(6000))
	gaveUp.ID, err = db.CreateGame(ctx, gaveUp)
	ok(t, err)
	gaveUp.Seq, gaveUp.Status, gaveUp.UpdatedAt, gaveUp.FinishedAt = 1, play.GaveUp, at(6001), at(6001)
	ok(t, db.SaveGame(ctx, gaveUp))

	_, err = db.Secret(ctx, "play-hmac", func() ([]byte, error) { return []byte{0, 1, 2, 0xff}, nil })
	ok(t, err)
	ok(t, db.SaveImage(ctx, copiedImage, at(7000)))
	_, err = db.SaveRun(ctx, copiedRun)
	ok(t, err)
}

// copiedRun is the ghost's run the seed keeps, which a copy must too.
var copiedRun = play.Run{Contest: contest.DailyKey("g1", day(29)).String(), UserID: "bob", Name: "Bob", MazeID: testMaze, Ms: 70250,
	Moves: []byte{0x12, 0x83, 0x07}, FinishedAt: at(7100)}

// copiedImage is the image mask the seed keeps, which a copy must too.
var copiedImage = mazecore.NewImage(13, 9, func(x, y int) bool { return x+y > 5 })

// game is a new game of user's in the contest key, started at start.
func game(user, key string, start time.Time) play.Record {
	return play.Record{UserID: user, GuildID: "g1", ChannelID: "c1", MazeID: testMaze, Contest: key,
		Pos: mazecore.Point{X: 1, Y: 1}, Trail: []byte{0x02, 0, 0x80}, Status: play.Playing, StartedAt: start, UpdatedAt: start}
}

// wantSameBoards fails unless the rankings, streaks and button key read
// the same from both databases, through the domain.
func wantSameBoards(t *testing.T, a, b string) {
	t.Helper()
	type boards struct {
		Totals, Week []contest.TotalStanding
		Day          []contest.Standing
		Streak       int
		Event        []contest.Standing
		Secret       []byte
		Image        [16]byte
		Run          play.Run
	}
	read := func(dsn string) boards {
		db := mustOpen(t, dsn)
		defer db.Close()
		ctx := t.Context()
		now := func() time.Time { return at(0) }
		dailies := contest.NewDailies(db, nil, []byte("copy test key"), now, slog.New(slog.DiscardHandler))
		events := contest.NewEvents(db, nil, now, slog.New(slog.DiscardHandler))
		var (
			bd  boards
			err error
		)
		bd.Totals, err = dailies.Totals(ctx, "g1", contest.FirstDate, contest.LastDate)
		ok(t, err)
		bd.Week, err = dailies.Totals(ctx, "g1", day(29), day(30))
		ok(t, err)
		bd.Day, err = dailies.Day(ctx, "g1", day(29))
		ok(t, err)
		bd.Streak, err = dailies.Streak(ctx, "g1", "ann", day(29))
		ok(t, err)
		e, err := db.RunningEvent(ctx, "e1")
		ok(t, err)
		bd.Event, err = events.Standings(ctx, e)
		ok(t, err)
		bd.Secret, err = db.Secret(ctx, "play-hmac", func() ([]byte, error) { return nil, errors.New("the key was not copied") })
		ok(t, err)
		img, err := db.Image(ctx, copiedImage.Hash())
		ok(t, err)
		bd.Image = img.Hash()
		run, found, err := db.BestRun(ctx, copiedRun.Contest, "")
		ok(t, err)
		if !found {
			t.Fatalf("%s: no run of the day", dsn)
		}
		bd.Run = run
		return bd
	}
	got, want := read(a), read(b)
	if len(want.Totals) < 3 || len(want.Day) < 2 || want.Streak != 2 || len(want.Event) != 2 {
		t.Fatalf("the source's boards %+v: want several members ranked, a streak of 2", want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("boards after copy:\n%+v\nwant the source's:\n%+v", got, want)
	}
}

// wantNewKeysPastCopied fails unless a game and an event made after the
// copy get keys past the copied ones.
func wantNewKeysPastCopied(t *testing.T, dsn string, copied map[string][]string) {
	t.Helper()
	db := mustOpen(t, dsn)
	defer db.Close()
	ctx := t.Context()
	gameID, err := db.CreateGame(ctx, game("new", "", at(9000)))
	ok(t, err)
	eventID, err := db.CreateEvent(ctx, contest.Event{GuildID: "g1", ChannelID: "new", MazeID: testMaze, StartedAt: at(0), EndsAt: at(1), Status: contest.Running})
	ok(t, err)
	for _, k := range []struct {
		table string
		id    int64
	}{{"games", gameID}, {"events", eventID}} {
		if largest := maxID(copied[k.table]); k.id <= largest {
			t.Errorf("new row in %s got id %d, the copy's largest is %d", k.table, k.id, largest)
		}
	}
}

// maxID is the largest id of dumped rows, whose first value is the id.
func maxID(rows []string) int64 {
	var largest int64
	for _, r := range rows {
		var id int64
		fmt.Sscanf(r, "%d", &id)
		largest = max(largest, id)
	}
	return largest
}

// dumpOf reads every table of the database at dsn: each row as one line of
// its values, in column order, the lines sorted. Integers of any width and
// booleans read as numbers, so the dumps of both databases compare.
func dumpOf(t *testing.T, dsn string) map[string][]string {
	t.Helper()
	db := mustOpen(t, dsn)
	defer db.Close()
	tables, err := db.Tables(t.Context())
	ok(t, err)
	dump := map[string][]string{}
	err = db.ReadTables(t.Context(), func(r sqldb.TableReader) error {
		for table, columns := range tables {
			dump[table] = []string{}
			for values, err := range r.Rows(table, columns) {
				if err != nil {
					return err
				}
				var line []string
				for _, v := range values {
					switch v := v.(type) {
					case bool: // SQLite's are 0 and 1
						line = append(line, strings.NewReplacer("false", "0", "true", "1").Replace(fmt.Sprint(v)))
					case []byte:
						line = append(line, "x"+hex.EncodeToString(v))
					case string:
						line = append(line, fmt.Sprintf("%q", v))
					default:
						line = append(line, fmt.Sprint(v))
					}
				}
				dump[table] = append(dump[table], strings.Join(line, " "))
			}
			slices.Sort(dump[table])
		}
		return nil
	})
	ok(t, err)
	return dump
}

func show(dump map[string][]string) string {
	var b strings.Builder
	for _, table := range slices.Sorted(maps.Keys(dump)) {
		fmt.Fprintf(&b, "%s:\n  %s\n", table, strings.Join(dump[table], "\n  "))
	}
	return b.String()
}

func mustCopy(t *testing.T, to, from string, force bool) []TableCount {
	t.Helper()
	counts, err := Copy(t.Context(), to, from, force)
	ok(t, err)
	return counts
}

func mustOpen(t *testing.T, dsn string) *sqldb.Store {
	t.Helper()
	db, err := open(t.Context(), dsn)
	ok(t, err)
	return db
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	ok(t, err)
	return wd
}
