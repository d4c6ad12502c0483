package commands

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // the zones under test, whatever the host has

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
	"mazebot/render"
	"mazebot/store"
	"mazebot/store/sqlite"
)

// dailyPoster is a Poster that keeps the channel posts.
type dailyPoster struct {
	mu    sync.Mutex
	posts []dailyPosted
	fail  error
}

type dailyPosted struct {
	channelID string
	reply     Reply
}

func (p *dailyPoster) Post(_ context.Context, channelID string, r Reply) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail != nil {
		return "", p.fail
	}
	p.posts = append(p.posts, dailyPosted{channelID: channelID, reply: r})
	return fmt.Sprintf("msg%d", len(p.posts)), nil
}

func (p *dailyPoster) Edit(context.Context, string, string, Reply) error { return nil }

func (p *dailyPoster) all() []dailyPosted {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]dailyPosted(nil), p.posts...)
}

// dailyEnv is a router on a real SQLite store, with a settable clock and a
// recording poster.
type dailyEnv struct {
	db     *sqlite.DB
	router *Router
	clock  *clock
	poster *dailyPoster
}

func newDailyEnv(tb testing.TB, now time.Time) *dailyEnv {
	tb.Helper()
	db, err := sqlite.OpenMemory(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return newDailyEnvOn(db, &clock{now: now}, &dailyPoster{})
}

// newDailyEnvOn builds a router (a bot process) on db: two on one file
// database are two processes, a new one on the same file a restart.
func newDailyEnvOn(db *sqlite.DB, c *clock, p *dailyPoster) *dailyEnv {
	router := NewRouter(&Deps{Posts: db, Now: c.Now, Seed: func() uint64 { return 7 }, Games: db, Secret: testSecret, Daily: db, Poster: p})
	return &dailyEnv{db: db, router: router, clock: c, poster: p}
}

func (e *dailyEnv) play() *playEnv { return &playEnv{db: e.db, router: e.router, clock: e.clock} }

func (e *dailyEnv) tick(tb testing.TB) {
	tb.Helper()
	if err := e.router.Tick(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

func (e *dailyEnv) set(t time.Time) {
	e.clock.mu.Lock()
	defer e.clock.mu.Unlock()
	e.clock.now = t
}

var (
	permsManager = strconv.FormatInt(discordgo.PermissionManageGuild|discordgo.PermissionSendMessages, 10)
	permsAdmin   = strconv.FormatInt(discordgo.PermissionAdministrator, 10)
	permsMember  = strconv.FormatInt(discordgo.PermissionSendMessages|discordgo.PermissionViewChannel, 10)
)

// dailySlash builds /daily <sub> by u1 with the given permissions.
func dailySlash(t *testing.T, perms, sub string, opts map[string]any) *discordgo.Interaction {
	t.Helper()
	return subcommandIx(t, "daily", sub, opts, "u1", perms)
}

// setup runs /daily setup as a manager and checks it was accepted.
func (e *dailyEnv) setup(t *testing.T, at, tz string) Reply {
	t.Helper()
	rec := dispatch(t, e.router, dailySlash(t, permsManager, "setup", map[string]any{"channel": "daily-ch", "time": at, "timezone": tz}))
	if len(rec.replies) != 1 || strings.HasPrefix(rec.replies[0].Content, "⚠️") || !rec.replies[0].Ephemeral {
		t.Fatalf("/daily setup %s %s answered %+v, want an ephemeral confirmation", at, tz, rec.replies)
	}
	return rec.replies[0]
}

// today runs /daily today and returns the maze it shows.
func (e *dailyEnv) today(t *testing.T) (mazecore.ID, Reply) {
	t.Helper()
	rec := dispatch(t, e.router, dailySlash(t, permsMember, "today", nil))
	if len(rec.replies) != 1 || rec.replies[0].Ephemeral {
		t.Fatalf("/daily today answered %+v, want one public maze", rec.replies)
	}
	return idInReply(t, rec.replies[0]), rec.replies[0]
}

func idInReply(t *testing.T, r Reply) mazecore.ID {
	t.Helper()
	m := idInContent.FindStringSubmatch(r.Content)
	if m == nil {
		t.Fatalf("no maze ID in %q", r.Content)
	}
	return mustParse(t, m[1])
}

// win plays maze id to the goal as user, one click per step.
func (e *dailyEnv) win(t *testing.T, id mazecore.ID, user string, step time.Duration) Reply {
	t.Helper()
	p := e.play()
	path := mazecore.Solve(mustMaze(t, id))
	msg, g := p.start(t, id, user)
	for g.Status == store.GamePlaying {
		e.clock.Advance(step)
		b := button(t, msg, dirActions[solutionDir(t, path, mazecore.Point{X: g.X, Y: g.Y})])
		msg = onlyUpdate(t, p.press(t, b.CustomID, user))
		g = p.game(t, g.ID)
	}
	return msg
}

func utc(year int, month time.Month, day, hour, min int) time.Time {
	return time.Date(year, month, day, hour, min, 0, 0, time.UTC)
}

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestDailyDayBoundaries(t *testing.T) {
	seoul, la := mustLoad(t, "Asia/Seoul"), mustLoad(t, "America/Los_Angeles")
	for _, tc := range []struct {
		name string
		loc  *time.Location
		at   time.Time
		date string
	}{
		{"SeoulBeforeMidnight", seoul, utc(2026, 11, 30, 14, 59), "2026-11-30"},
		{"SeoulMidnightIs15UTC", seoul, utc(2026, 11, 30, 15, 0), "2026-12-01"},
		{"LABeforeMidnight", la, utc(2026, 12, 1, 7, 59), "2026-11-30"},
		{"LAMidnightIs08UTCInWinter", la, utc(2026, 12, 1, 8, 0), "2026-12-01"},
		{"LAMidnightIs07UTCInSummer", la, utc(2026, 7, 1, 7, 0), "2026-07-01"},
		{"LASpringForwardDay", la, utc(2026, 3, 9, 6, 59), "2026-03-08"},
		{"LASpringForwardNextDay", la, utc(2026, 3, 9, 7, 0), "2026-03-09"},
		{"LAFallBackDay", la, utc(2026, 11, 2, 7, 59), "2026-11-01"},
		{"LAFallBackNextDay", la, utc(2026, 11, 2, 8, 0), "2026-11-02"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := localDate(tc.at, tc.loc); got != tc.date {
				t.Fatalf("localDate(%v)=%s, want %s", tc.at, got, tc.date)
			}
		})
	}
	t.Run("DayLengths", func(t *testing.T) {
		for _, tc := range []struct {
			date string
			want time.Duration
		}{{"2026-03-08", 23 * time.Hour}, {"2026-11-01", 25 * time.Hour}, {"2026-11-30", 24 * time.Hour}} {
			start := dayNoon(dailyDay{date: tc.date, loc: la})
			y, m, d := start.Date()
			midnight := time.Date(y, m, d, 0, 0, 0, 0, la)
			if got := nextMidnight(start, la).Sub(midnight); got != tc.want {
				t.Fatalf("%s in Los Angeles lasts %v, want %v", tc.date, got, tc.want)
			}
		}
		if got, want := nextMidnight(utc(2026, 11, 30, 3, 0), seoul), utc(2026, 11, 30, 15, 0); !got.Equal(want) {
			t.Fatalf("Seoul's next midnight=%v, want %v", got, want)
		}
	})
	// The maze of the day turns over at the server's local midnight.
	t.Run("MazeChangesAtLocalMidnight", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 0, 0))
		e.setup(t, "09:00", "Asia/Seoul")
		e.set(utc(2026, 11, 30, 14, 59))
		before, msg := e.today(t)
		if !strings.Contains(msg.Content, "#334") || !strings.Contains(msg.Content, "2026-11-30") {
			t.Fatalf("daily header %q, want #334 of 2026-11-30", msg.Content)
		}
		if !strings.Contains(msg.Content, fmt.Sprintf("<t:%d:R>", utc(2026, 11, 30, 15, 0).Unix())) {
			t.Fatalf("daily header %q does not say solutions open at 15:00 UTC", msg.Content)
		}
		e.set(utc(2026, 11, 30, 15, 0))
		after, msg := e.today(t)
		if before == after || !strings.Contains(msg.Content, "#335") {
			t.Fatalf("daily at 15:00 UTC is %s (%q), want a new maze #335", after, msg.Content)
		}
	})
}

func TestDailyMazeID(t *testing.T) {
	c := store.DailyConfig{Algorithm: "backtracking", Size: 21}
	a, err := dailyMazeID("g1", "2026-11-30", c)
	if err != nil {
		t.Fatal(err)
	}
	// Locked: stored results and shared IDs rely on it forever.
	if got, want := a, (mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 0x7911fc71}); got != want {
		t.Fatalf("daily of g1 on 2026-11-30 = %+v, want %+v", got, want)
	}
	if b, _ := dailyMazeID("g2", "2026-11-30", c); b == a {
		t.Fatal("two servers share a daily")
	}
	if b, _ := dailyMazeID("g1", "2026-12-01", c); b == a {
		t.Fatal("two days share a daily")
	}
	if got := dailyNumber("2026-01-01"); got != 1 {
		t.Fatalf("dailyNumber(2026-01-01)=%d, want 1", got)
	}
}

// Every member of a server gets the same daily.
func TestDailySameForEveryone(t *testing.T) {
	e := newDailyEnv(t, utc(2026, 11, 30, 12, 0))
	first, _ := e.today(t)
	ix := dailySlash(t, permsMember, "today", nil)
	ix.Member.User.ID = "u2"
	rec := dispatch(t, e.router, ix)
	if len(rec.replies) != 1 || idInReply(t, rec.replies[0]) != first {
		t.Fatalf("u2 got %+v, want the daily %s", rec.replies, first)
	}
	if first.Width != 21 || first.Algorithm != mazecore.Backtracking {
		t.Fatalf("default daily %+v, want backtracking 21×21", first)
	}
	if got, want := first, mustDailyID(t, "g1", "2026-11-30", store.DailyConfig{Algorithm: "backtracking", Size: 21}); got != want {
		t.Fatalf("daily=%v, want %v (UTC until set up)", got, want)
	}
}

func mustDailyID(t *testing.T, guild, date string, c store.DailyConfig) mazecore.ID {
	t.Helper()
	id, err := dailyMazeID(guild, date, c)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The post time is local: it moves in UTC across daylight-saving changes.
func TestDailyPostTimeAcrossDST(t *testing.T) {
	for _, tc := range []struct {
		name         string
		at           string
		before, when time.Time
		date         string
	}{
		{"StandardTime", "09:00", utc(2026, 3, 7, 16, 59), utc(2026, 3, 7, 17, 0), "2026-03-07"},
		{"SpringForwardDay", "09:00", utc(2026, 3, 8, 15, 59), utc(2026, 3, 8, 16, 0), "2026-03-08"},
		{"FallBackDay", "09:00", utc(2026, 11, 1, 16, 59), utc(2026, 11, 1, 17, 0), "2026-11-01"},
		// 02:30 doesn't exist on 2026-03-08: the clock jumps to 03:00.
		{"SkippedHour", "02:30", utc(2026, 3, 8, 9, 59), utc(2026, 3, 8, 10, 0), "2026-03-08"},
		// 01:30 happens twice on 2026-11-01: the first one posts.
		{"RepeatedHour", "01:30", utc(2026, 11, 1, 8, 29), utc(2026, 11, 1, 8, 30), "2026-11-01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newDailyEnv(t, tc.before.Add(-24*time.Hour))
			e.setup(t, tc.at, "America/Los_Angeles")
			e.set(tc.before)
			e.tick(t) // yesterday is over and today's post is not due yet
			if len(e.poster.all()) != 0 {
				t.Fatalf("posted at %v, a minute before %s local", tc.before, tc.at)
			}
			e.set(tc.when)
			e.tick(t)
			posts := e.poster.all()
			if len(posts) != 1 || !strings.Contains(posts[0].reply.Content, tc.date) {
				t.Fatalf("after the tick at %v: %d posts, want today's (%s)", tc.when, len(posts), tc.date)
			}
			e.set(tc.when.Add(time.Hour)) // the repeated hour comes again
			e.tick(t)
			if got := len(e.poster.all()); got != 1 {
				t.Fatalf("%d posts for the day, want 1", got)
			}
		})
	}
}

func TestDailyPost(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		reply := e.setup(t, "09:00", "UTC")
		if !strings.Contains(reply.Content, "<#daily-ch>") || !strings.Contains(reply.Content, fmt.Sprintf("<t:%d:F>", utc(2026, 11, 30, 9, 0).Unix())) {
			t.Fatalf("setup reply %q, want the channel and today 09:00 as the next post", reply.Content)
		}
		e.tick(t)
		if n := len(e.poster.all()); n != 0 {
			t.Fatalf("%d posts before 09:00", n)
		}
		e.set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		posts := e.poster.all()
		if len(posts) != 1 || posts[0].channelID != "daily-ch" {
			t.Fatalf("posts=%+v, want one in daily-ch", posts)
		}
		msg := posts[0].reply
		if !strings.HasPrefix(msg.Content, "📅 **Daily challenge #334**") || len(buttons(msg)) != 2 || buttons(msg)[0].CustomID != playPrefix+":"+idInReply(t, msg).String() {
			t.Fatalf("post %q with %d buttons, want the daily header and Play", msg.Content, len(buttons(msg)))
		}
		id, _ := e.today(t)
		if idInReply(t, msg) != id {
			t.Fatalf("post shows %s, /daily today %s", idInReply(t, msg), id)
		}
		p, err := e.db.DailyPost(context.Background(), "g1", "2026-11-30")
		if err != nil || p.Status != store.DailyPosted || p.MessageID != "msg1" {
			t.Fatalf("daily post row %+v (%v), want posted as msg1", p, err)
		}
		// The post is the channel's latest maze, for a bare /solve.
		if last, err := e.db.LastPost(context.Background(), "daily-ch"); err != nil || last.MazeID != id.String() || last.MessageID != "msg1" {
			t.Fatalf("last post in the channel %+v (%v), want the daily", last, err)
		}
	})
	t.Run("OKExactlyOnce", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		e.tick(t)
		e.clock.Advance(10 * time.Hour)
		e.tick(t)
		if n := len(e.poster.all()); n != 1 {
			t.Fatalf("%d posts after three ticks, want 1", n)
		}
	})
	// Two bot processes on one database file, ticking at once; then a
	// restart: one post.
	t.Run("OKTwoProcessesAndRestart", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mazebot.db")
		open := func() *sqlite.DB {
			db, err := sqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
		c, poster := &clock{now: utc(2026, 11, 29, 23, 0)}, &dailyPoster{} // 08:00 in Seoul
		a, b := newDailyEnvOn(open(), c, poster), newDailyEnvOn(open(), c, poster)
		a.setup(t, "09:00", "Asia/Seoul")
		c.Advance(2 * time.Hour)
		var wg sync.WaitGroup
		for _, e := range []*dailyEnv{a, b, a, b, a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := e.router.Tick(context.Background()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		restarted := newDailyEnvOn(open(), c, poster)
		restarted.tick(t)
		if n := len(poster.all()); n != 1 {
			t.Fatalf("%d posts from two processes and a restart, want 1", n)
		}
		c.Advance(24 * time.Hour)
		restarted.tick(t)
		a.tick(t)
		if n := len(poster.all()); n != 2 {
			t.Fatalf("%d posts after the next day's post time, want 2", n)
		}
	})
	// The bot was down at 09:00 and comes back at 14:00: it posts then.
	t.Run("OKCatchUpSameDay", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.set(utc(2026, 11, 30, 14, 0))
		e.tick(t)
		if posts := e.poster.all(); len(posts) != 1 || !strings.Contains(posts[0].reply.Content, "2026-11-30") {
			t.Fatalf("posts=%+v, want today's on return", posts)
		}
	})
	// Down from before yesterday's post time until after today's: only
	// today's is posted; yesterday is over.
	t.Run("OKCatchUpNextDay", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 29, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.set(utc(2026, 11, 30, 10, 0))
		e.tick(t)
		e.tick(t)
		posts := e.poster.all()
		if len(posts) != 1 || !strings.Contains(posts[0].reply.Content, "2026-11-30") {
			t.Fatalf("posts=%+v, want only 2026-11-30's", posts)
		}
		if _, err := e.db.DailyPost(context.Background(), "g1", "2026-11-29"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("yesterday has a post row (%v), want none", err)
		}
	})
	// Back the next morning before the post time: nothing yet.
	t.Run("OKNothingBeforeTime", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 29, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.set(utc(2026, 11, 30, 8, 59))
		e.tick(t)
		if n := len(e.poster.all()); n != 0 {
			t.Fatalf("%d posts before the post time, want 0", n)
		}
	})
	// Set up after today's post time: the first post is tomorrow's.
	t.Run("OKSetupAfterPostTime", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 15, 0))
		reply := e.setup(t, "09:00", "UTC")
		if !strings.Contains(reply.Content, fmt.Sprintf("<t:%d:F>", utc(2026, 12, 1, 9, 0).Unix())) {
			t.Fatalf("setup reply %q, want tomorrow 09:00 as the next post", reply.Content)
		}
		e.tick(t)
		if n := len(e.poster.all()); n != 0 {
			t.Fatalf("%d posts right after a late setup, want 0", n)
		}
		e.set(utc(2026, 12, 1, 9, 0))
		e.tick(t)
		if n := len(e.poster.all()); n != 1 {
			t.Fatalf("%d posts the next day, want 1", n)
		}
	})
	t.Run("OKOff", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		rec := dispatch(t, e.router, dailySlash(t, permsManager, "off", nil))
		if len(rec.replies) != 1 || strings.HasPrefix(rec.replies[0].Content, "⚠️") {
			t.Fatalf("/daily off answered %+v", rec.replies)
		}
		e.set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		if n := len(e.poster.all()); n != 0 {
			t.Fatalf("%d posts after /daily off, want 0", n)
		}
		checkRefusal(t, dispatch(t, e.router, dailySlash(t, permsManager, "off", nil)))
	})
	// A process that claimed the day and died before posting: the claim is
	// taken over once it is older than the retry delay.
	t.Run("OKCrashMidPost", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.set(utc(2026, 11, 30, 9, 0))
		crashed := store.DailyPost{GuildID: "g1", Date: "2026-11-30", ChannelID: "daily-ch", MazeID: mustDailyID(t, "g1", "2026-11-30", store.DailyConfig{Algorithm: "backtracking", Size: 21}).String(), ClaimedAt: e.clock.Now()}
		if ok, err := e.db.ClaimDailyPost(context.Background(), crashed, e.clock.Now(), dailyMaxAttempts); err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
		e.clock.Advance(dailyRetryAfter - time.Second)
		e.tick(t)
		if n := len(e.poster.all()); n != 0 {
			t.Fatalf("a fresh claim of another process was taken over (%d posts)", n)
		}
		e.clock.Advance(2 * time.Second)
		e.tick(t)
		e.tick(t)
		if n := len(e.poster.all()); n != 1 {
			t.Fatalf("%d posts after the crashed claim went stale, want 1", n)
		}
	})
	// A channel the bot can't post in is tried dailyMaxAttempts times, not
	// all day.
	t.Run("OKGivesUp", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.set(utc(2026, 11, 30, 9, 0))
		e.poster.fail = errors.New("403 Missing Access")
		failures := 0
		for range 24 * 4 {
			if err := e.router.Tick(context.Background()); err != nil {
				failures++
			}
			e.clock.Advance(dailyRetryAfter)
		}
		if failures != dailyMaxAttempts {
			t.Fatalf("%d failed attempts over the day, want %d", failures, dailyMaxAttempts)
		}
	})
	// A failed post is retried after a delay, not on every tick.
	t.Run("OKRetryAfterFailure", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.set(utc(2026, 11, 30, 9, 0))
		e.poster.fail = errors.New("discord is down")
		if err := e.router.Tick(context.Background()); err == nil {
			t.Fatal("a failed post was not reported")
		}
		e.poster.fail = nil
		e.clock.Advance(time.Minute)
		e.tick(t)
		if n := len(e.poster.all()); n != 0 {
			t.Fatalf("retried after a minute (%d posts), want after %v", n, dailyRetryAfter)
		}
		e.clock.Advance(dailyRetryAfter)
		e.tick(t)
		e.tick(t)
		if n := len(e.poster.all()); n != 1 {
			t.Fatalf("%d posts after the retry delay, want 1", n)
		}
	})
}

func TestDailySetupRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		perms string
		sub   string
		opts  map[string]any
		want  string
	}{
		"ErrNoManageServer":    {permsMember, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC"}, "Manage Server"},
		"ErrOffNoManageServer": {permsMember, "off", nil, "Manage Server"},
		"ErrBadTime":           {permsManager, "setup", map[string]any{"channel": "c", "time": "9am", "timezone": "UTC"}, "HH:MM"},
		"ErrTime24":            {permsManager, "setup", map[string]any{"channel": "c", "time": "24:00", "timezone": "UTC"}, "HH:MM"},
		"ErrUnknownZone":       {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "Mars/Olympus"}, "Asia/Seoul"},
		"ErrLocalZone":         {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "Local"}, "Asia/Seoul"},
		"ErrSizeTooBig":        {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "size": 43}, "41"},
		"ErrSizeTooSmall":      {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "size": 3}, "41"},
		"ErrUnknownAlgorithm":  {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "algorithm": "prim"}, "prim"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
			msg := checkRefusal(t, dispatch(t, e.router, dailySlash(t, tc.perms, tc.sub, tc.opts)))
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("refusal %q does not mention %q", msg, tc.want)
			}
			if _, err := e.db.DailyConfig(context.Background(), "g1"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("a refused setup stored a config (%v)", err)
			}
		})
	}
	t.Run("OKAdministrator", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		rec := dispatch(t, e.router, dailySlash(t, permsAdmin, "setup", map[string]any{"channel": "c", "time": "7:05", "timezone": "Asia/Seoul", "algorithm": "sidewinder", "size": 30}))
		if len(rec.replies) != 1 || strings.HasPrefix(rec.replies[0].Content, "⚠️") || !strings.Contains(rec.replies[0].Content, "rounded up to 31") {
			t.Fatalf("an administrator's setup answered %+v, want it accepted with a rounding note", rec.replies)
		}
		c, err := e.db.DailyConfig(context.Background(), "g1")
		if err != nil {
			t.Fatal(err)
		}
		want := store.DailyConfig{GuildID: "g1", ChannelID: "c", PostAt: "07:05", TimeZone: "Asia/Seoul", Algorithm: "sidewinder", Size: 31, Enabled: true, UpdatedAt: utc(2026, 11, 30, 8, 0)}
		if c != want {
			t.Fatalf("config=%+v, want %+v", c, want)
		}
	})
	t.Run("ErrDM", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		for _, sub := range []string{"today", "setup"} {
			ix := decodeInteraction(t, map[string]any{
				"type": discordgo.InteractionApplicationCommand, "guild_id": "", "member": nil,
				"user": map[string]any{"id": "u1", "username": "ada"},
				"data": map[string]any{"id": "c1", "name": "daily", "type": 1, "options": []map[string]any{{"name": sub, "type": 1}}},
			})
			if msg := checkRefusal(t, dispatch(t, e.router, ix)); !strings.Contains(msg, "server") {
				t.Fatalf("/daily %s in DMs: refusal %q does not say it needs a server", sub, msg)
			}
		}
	})
}

func TestDailyStreak(t *testing.T) {
	for _, tc := range []struct {
		dates []string
		today string
		want  int
	}{
		{nil, "2026-11-30", 0},
		{[]string{"2026-11-30"}, "2026-11-30", 1},
		{[]string{"2026-11-30", "2026-11-29", "2026-11-28", "2026-11-26"}, "2026-11-30", 3},
		{[]string{"2026-11-29", "2026-11-28"}, "2026-11-30", 2}, // today not played yet
		{[]string{"2026-11-28"}, "2026-11-30", 0},
		{[]string{"2026-03-01", "2026-02-28"}, "2026-03-01", 2}, // across a month
	} {
		if got := dailyStreak(tc.dates, tc.today); got != tc.want {
			t.Errorf("dailyStreak(%v, %s)=%d, want %d", tc.dates, tc.today, got, tc.want)
		}
	}
}

func TestShareLine(t *testing.T) {
	if got, want := shareLine(123, 102*time.Second+400*time.Millisecond, 57, 4), "mazebot daily #123 · 1:42 · 57 tiles · 🔥4"; got != want {
		t.Fatalf("shareLine=%q, want %q", got, want)
	}
}

// Playing the daily through Play counts; the finish shows the share line
// with a streak that grows day by day and resets after a missed day.
func TestDailyFinishStreak(t *testing.T) {
	e := newDailyEnv(t, utc(2026, 11, 28, 3, 0))
	e.setup(t, "09:00", "Asia/Seoul")
	for _, tc := range []struct {
		day    time.Time // noon in Seoul
		number int
		streak int
	}{
		{utc(2026, 11, 28, 3, 0), 332, 1},
		{utc(2026, 11, 29, 3, 0), 333, 2},
		{utc(2026, 11, 30, 3, 0), 334, 3},
		{utc(2026, 12, 2, 3, 0), 336, 1}, // skipped 12-01
	} {
		e.set(tc.day)
		id, _ := e.today(t)
		final := e.win(t, id, "u1", 2*time.Second)
		share := fmt.Sprintf("`mazebot daily #%d · ", tc.number)
		if !strings.Contains(final.Content, share) || !strings.Contains(final.Content, fmt.Sprintf("tiles · 🔥%d`", tc.streak)) {
			t.Fatalf("finish on %v lacks the share line #%d with 🔥%d:\n%s", tc.day, tc.number, tc.streak, final.Content)
		}
		if strings.Contains(strings.SplitN(final.Content, "Share it:", 2)[1], id.String()) {
			t.Fatal("the share line spoils the maze ID")
		}
		if !strings.Contains(final.Content, "you're #1 of 1 today") {
			t.Fatalf("finish lacks the day's rank:\n%s", final.Content)
		}
	}
	// Another maze counts for nothing.
	e.set(utc(2026, 12, 2, 4, 0))
	other := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 9, Height: 9, Seed: 1}
	if final := e.win(t, other, "u1", time.Second); strings.Contains(final.Content, "mazebot daily") {
		t.Fatalf("a normal maze got a share line:\n%s", final.Content)
	}
	// A second, slower run on the day keeps the best for the ranking.
	e.set(utc(2026, 12, 2, 5, 0))
	id, _ := e.today(t)
	final := e.win(t, id, "u1", 10*time.Second)
	if !strings.Contains(final.Content, "with your best run") {
		t.Fatalf("a slower second run does not point at the best:\n%s", final.Content)
	}
	bests, err := e.db.DailyBests(context.Background(), "g1", "2026-12-02")
	if err != nil || len(bests) != 1 {
		t.Fatalf("bests=%+v (%v), want one per member", bests, err)
	}
}

func TestDailyGameContext(t *testing.T) {
	e := newDailyEnv(t, utc(2026, 11, 30, 12, 0))
	id, _ := e.today(t)
	_, g := e.play().start(t, id, "u1")
	if g.Context != "daily:g1:2026-11-30" {
		t.Fatalf("game on today's daily has context %q", g.Context)
	}
	yesterday := mustDailyID(t, "g1", "2026-11-29", store.DailyConfig{Algorithm: "backtracking", Size: 21})
	if _, g := e.play().start(t, yesterday, "u1"); g.Context != "" {
		t.Fatalf("game on yesterday's daily has context %q, want none", g.Context)
	}
}

// /solve on the running daily is refused until midnight in the server's
// zone, by every road to a solution; the next day it works.
func TestDailySolveRefused(t *testing.T) {
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	e.setup(t, "09:00", "Asia/Seoul") // 17:00 in Seoul
	id, msg := e.today(t)
	opens := fmt.Sprintf("<t:%d:R>", utc(2026, 11, 30, 15, 0).Unix())
	roads := map[string]func() *discordgo.Interaction{
		"Slash":  func() *discordgo.Interaction { return slash(t, "solve", map[string]any{"id": id.String()}) },
		"Bare":   func() *discordgo.Interaction { return slash(t, "solve", nil) },
		"Button": func() *discordgo.Interaction { return componentPress(t, "solve:"+id.String()) },
		"ContextMenu": func() *discordgo.Interaction {
			return messageCommand(t, map[string]any{"id": "m1", "channel_id": "ch1", "content": msg.Content, "author": map[string]any{"id": "app", "bot": true}, "components": msg.Components})
		},
	}
	for name, road := range roads {
		refusal := checkRefusal(t, dispatch(t, e.router, road()))
		if !strings.Contains(refusal, opens) || !strings.Contains(refusal, "Asia/Seoul") {
			t.Fatalf("%s: refusal %q does not say solutions open at Seoul midnight (%s)", name, refusal, opens)
		}
	}
	// The ID copied into a DM or another server doesn't get around it.
	dm := decodeInteraction(t, map[string]any{
		"type": discordgo.InteractionApplicationCommand, "guild_id": "", "member": nil,
		"user": map[string]any{"id": "u1", "username": "ada"},
		"data": map[string]any{"id": "c1", "name": "solve", "type": 1, "options": []map[string]any{{"name": "id", "type": 3, "value": id.String()}}},
	})
	elsewhere := slash(t, "solve", map[string]any{"id": id.String()})
	elsewhere.GuildID = "g2"
	for name, ix := range map[string]*discordgo.Interaction{"DM": dm, "OtherServer": elsewhere} {
		if refusal := checkRefusal(t, dispatch(t, e.router, ix)); !strings.Contains(refusal, opens) {
			t.Fatalf("%s: refusal %q does not say solutions open at Seoul midnight", name, refusal)
		}
	}
	// Other mazes still solve.
	other := mazecore.ID{Algorithm: mazecore.Digging, Width: 21, Height: 15, Seed: 99}
	checkSolution(t, dispatch(t, e.router, slash(t, "solve", map[string]any{"id": other.String()})), other, false)

	e.set(utc(2026, 11, 30, 15, 0)) // midnight in Seoul
	checkSolution(t, dispatch(t, e.router, slash(t, "solve", map[string]any{"id": id.String()})), id, false)
	checkSolution(t, dispatch(t, e.router, componentPress(t, "solve:"+id.String())), id, true)
}

// TestDailyGiveUpHidesSolution: giving up today's daily ends the game
// without the path, which stays hidden until midnight like /solve.
func TestDailyGiveUpHidesSolution(t *testing.T) {
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	e.setup(t, "09:00", "Asia/Seoul")
	id, _ := e.today(t)
	p := e.play()
	msg, _ := p.start(t, id, "u1")
	final := onlyUpdate(t, p.press(t, button(t, msg, actGiveUp).CustomID, "u1"))
	if strings.Contains(final.Content, render.DefaultTheme.Path) || !strings.Contains(final.Content, "You gave up") {
		t.Fatalf("giving up the running daily shows:\n%s\nwant the give-up line and no solution", final.Content)
	}
	if opens := fmt.Sprintf("<t:%d:R>", utc(2026, 11, 30, 15, 0).Unix()); !strings.Contains(final.Content, opens) {
		t.Fatalf("give-up message %q does not say when solutions open (%s)", final.Content, opens)
	}
	// An ordinary maze still shows its solution on Give up.
	other := mazecore.ID{Algorithm: mazecore.Digging, Width: 21, Height: 15, Seed: 99}
	msg, _ = p.start(t, other, "u1")
	if final := onlyUpdate(t, p.press(t, button(t, msg, actGiveUp).CustomID, "u1")); !strings.Contains(final.Content, render.DefaultTheme.Path) {
		t.Fatalf("giving up an ordinary maze shows no solution:\n%s", final.Content)
	}
}

func componentPress(t *testing.T, customID string) *discordgo.Interaction {
	return decodeInteraction(t, map[string]any{"type": discordgo.InteractionMessageComponent, "data": map[string]any{"custom_id": customID, "component_type": 2}})
}
