package contest_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store/storetest"
)

var quiet = slog.New(slog.DiscardHandler)

// The helpers these tests share with the internal ones (export_test.go).
var (
	testKey     = contest.DailiesKey
	utc         = contest.UTC
	mustLoad    = contest.MustLoad
	mustDate    = contest.MustDate
	mazeFor     = contest.MustMazeFor
	defaultMaze = contest.DefaultMaze
)

// runMaze is the maze of the games addRun wins.
var runMaze = mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1}

// addRun records r in the contest key as play does: a game of r's member
// won r.Elapsed after it started, in r.Tiles tiles and r.Clicks clicks.
func addRun(t testing.TB, s storetest.Store, key contest.Key, r contest.Run) {
	t.Helper()
	ctx := context.Background()
	start := r.FinishedAt.Add(-r.Elapsed)
	g := play.Record{UserID: r.UserID, GuildID: "g1", ChannelID: "c1", MazeID: runMaze, Contest: key.String(),
		Pos: mazecore.Point{X: 1, Y: 1}, Status: play.Playing, StartedAt: start, UpdatedAt: start}
	id, err := s.CreateGame(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	g.ID, g.Seq, g.Status, g.Clicks, g.Tiles, g.UpdatedAt, g.FinishedAt = id, 1, play.Won, r.Clicks, r.Tiles, r.FinishedAt, r.FinishedAt
	if err := s.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
}

type dailyEnv struct {
	store    storetest.Store
	announce *announcer
	clock    *testkit.Clock
	dailies  *contest.Dailies
}

func newDailyEnv(t testing.TB, now time.Time) *dailyEnv {
	t.Helper()
	e := &dailyEnv{store: storetest.Memory(t), announce: &announcer{}, clock: testkit.NewClock(now)}
	e.dailies = contest.NewDailies(e.store, e.announce, testKey, e.clock.Now, quiet)
	return e
}

// contests is the dailies with the events of the same store and channel.
func (e *dailyEnv) contests() contest.Contests {
	return contest.Contests{Dailies: e.dailies, Events: contest.NewEvents(e.store, e.announce, e.clock.Now, quiet)}
}

// another is a second process on the same store and channel.
func (e *dailyEnv) another() *contest.Dailies {
	return contest.NewDailies(e.store, e.announce, testKey, e.clock.Now, quiet)
}

func (e *dailyEnv) setup(t *testing.T, at string, zone string) time.Time {
	t.Helper()
	s, err := e.dailies.Settings(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	s.ChannelID, s.Zone = "daily-ch", mustLoad(t, zone)
	s.PostAt, _ = contest.ParseTimeOfDay(at)
	_, next, err := e.dailies.Setup(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

func (e *dailyEnv) tick(t *testing.T) {
	t.Helper()
	if err := e.dailies.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// tickTogether runs the Tick of every process at once, as processes on one
// store do, and fails t for each error.
func tickTogether(t *testing.T, ctx context.Context, processes ...interface{ Tick(context.Context) error }) {
	t.Helper()
	var wg sync.WaitGroup
	for _, p := range processes {
		wg.Go(func() {
			if err := p.Tick(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

func TestDailies(t *testing.T) {
	ctx := context.Background()
	t.Run("OKDefaults", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 12, 0))
		day, err := e.dailies.Today(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if want := defaultMaze(t, "g1", mustDate(t, "2026-11-30")); day.MazeID != want || day.Zone != time.UTC {
			t.Fatalf("default daily %+v, want %v in UTC", day, want)
		}
		if got := day.Ends(); !got.Equal(utc(2026, 12, 1, 0, 0)) {
			t.Fatalf("the day ends %v, want midnight UTC", got)
		}
		if got := day.SolutionsOpen(); !got.Equal(utc(2026, 12, 1, 0, 0).Add(contest.MaxClockSkew)) {
			t.Fatalf("solutions open %v, want MaxClockSkew after midnight UTC", got)
		}
	})
	t.Run("OKPostOnce", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		if next := e.setup(t, "09:00", "UTC"); !next.Equal(utc(2026, 11, 30, 9, 0)) {
			t.Fatalf("next post %v, want today 09:00", next)
		}
		e.tick(t)
		if n := len(e.announce.all()); n != 0 {
			t.Fatalf("%d posts before 09:00", n)
		}
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		e.tick(t)
		e.clock.Advance(10 * time.Hour)
		e.tick(t)
		if got := e.announce.all(); !slices.Equal(got, []string{"daily g1 2026-11-30 #334 in daily-ch"}) {
			t.Fatalf("posts %q, want the day's one", got)
		}
		p, err := e.store.DailyPost(ctx, "g1", mustDate(t, "2026-11-30"))
		if err != nil || p.State != contest.Posted || p.MessageID != "msg1" {
			t.Fatalf("post %+v (%v), want posted as msg1", p, err)
		}
		day, err := e.dailies.Today(ctx, "g1")
		if err != nil || day.MazeID != p.MazeID {
			t.Fatalf("today is %v (%v), the post shows %v", day.MazeID, err, p.MazeID)
		}
	})
	// Row 3 of issue 16: a new zone picked while the day is played waits
	// for its end: its solution stays held and its runs count until then.
	t.Run("OKZoneChangeWaitsForTheDay", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		running, err := e.dailies.Today(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Set(utc(2026, 11, 30, 20, 0))
		if next := e.setup(t, "09:00", "Asia/Seoul"); !next.Equal(utc(2026, 12, 1, 0, 0)) {
			t.Fatalf("next post %v, want 09:00 in Seoul, when the UTC day ends", next)
		}
		s, err := e.dailies.Settings(ctx, "g1")
		if err != nil || !s.ZonePending(e.clock.Now()) || !s.ZoneFrom.Equal(utc(2026, 12, 1, 0, 0)) {
			t.Fatalf("settings %+v (%v), want Seoul pending until midnight UTC", s, err)
		}
		c := contest.Contests{Dailies: e.dailies}
		e.clock.Set(utc(2026, 11, 30, 23, 59))
		if day, err := e.dailies.Today(ctx, "g1"); err != nil || day.MazeID != running.MazeID || day.Zone != time.UTC {
			t.Fatalf("at 23:59 UTC today is %+v (%v), want the UTC day still running", day, err)
		}
		if h, err := c.Held(ctx, running.MazeID, "g1"); err != nil || !h.Held() || !h.Until().Equal(utc(2026, 12, 1, 0, 0).Add(contest.MaxClockSkew)) {
			t.Fatalf("Held=%+v (%v), want the running day's solution held to its own midnight", h, err)
		}
		e.clock.Set(utc(2026, 12, 1, 0, 0))
		e.tick(t)
		if got := e.announce.all(); len(got) != 2 || got[1] != "daily g1 2026-12-01 #335 in daily-ch" {
			t.Fatalf("posts %q, want the 1st's in Seoul at the UTC day's end", got)
		}
	})
	t.Run("OKDifficultyAndLoops", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		s, err := e.dailies.Settings(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		s.ChannelID, s.PostAt, s.Difficulty, s.Loops = "daily-ch", 9*60, mazecore.Hard, 30
		if _, _, err := e.dailies.Setup(ctx, s); err != nil {
			t.Fatal(err)
		}
		date := mustDate(t, "2026-11-30")
		want := mazeFor(t, s, date)
		if want == defaultMaze(t, "g1", date) || want.Loops != 30 {
			t.Fatalf("hard with loops 30 is %+v: the settings are ignored", want)
		}
		if day, err := e.dailies.Today(ctx, "g1"); err != nil || day.MazeID != want {
			t.Fatalf("today %v (%v), want %v", day.MazeID, err, want)
		}
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		if p, err := e.store.DailyPost(ctx, "g1", date); err != nil || p.MazeID != want {
			t.Fatalf("posted %v (%v), want %v", p.MazeID, err, want)
		}
	})
	t.Run("OKTwoProcessesOnePost", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 29, 23, 0)) // 08:00 in Seoul
		e.setup(t, "09:00", "Asia/Seoul")
		e.clock.Advance(2 * time.Hour)
		a, b := e.dailies, e.another()
		tickTogether(t, ctx, a, b, a, b, a, b)
		if n := len(e.announce.all()); n != 1 {
			t.Fatalf("%d posts from two processes, want 1", n)
		}
		e.clock.Advance(24 * time.Hour)
		e.tick(t)
		if n := len(e.announce.all()); n != 2 {
			t.Fatalf("%d posts after the next day's time, want 2", n)
		}
	})
	t.Run("OKCatchUpOnlyToday", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 29, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.clock.Set(utc(2026, 11, 30, 10, 0))
		e.tick(t)
		e.tick(t)
		if got := e.announce.all(); !slices.Equal(got, []string{"daily g1 2026-11-30 #334 in daily-ch"}) {
			t.Fatalf("posts %q, want only 2026-11-30's", got)
		}
		if _, err := e.store.DailyPost(ctx, "g1", mustDate(t, "2026-11-29")); !errors.Is(err, contest.ErrNotFound) {
			t.Fatalf("yesterday has a post (%v), want none", err)
		}
	})
	t.Run("OKOff", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		if err := e.dailies.TurnOff(ctx, "g1"); err != nil {
			t.Fatal(err)
		}
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		if n := len(e.announce.all()); n != 0 {
			t.Fatalf("%d posts after TurnOff, want 0", n)
		}
		if err := e.dailies.TurnOff(ctx, "g1"); !errors.Is(err, contest.ErrNotEnabled) {
			t.Fatalf("second TurnOff: %v, want ErrNotEnabled", err)
		}
		if err := e.dailies.TurnOff(ctx, "never-set-up"); !errors.Is(err, contest.ErrNotEnabled) {
			t.Fatalf("TurnOff of a server without settings: %v, want ErrNotEnabled", err)
		}
	})
	t.Run("OKCrashedClaimTakenOver", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		date := mustDate(t, "2026-11-30")
		crashed := contest.DailyPost{GuildID: "g1", Date: date, ChannelID: "daily-ch", MazeID: defaultMaze(t, "g1", date), Attempts: 1, ClaimedAt: e.clock.Now()}
		if err := e.store.ClaimDailyPost(ctx, crashed); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(contest.RetryAfter - time.Second)
		e.tick(t)
		if n := len(e.announce.all()); n != 0 {
			t.Fatalf("a fresh claim of another process was taken over (%d posts)", n)
		}
		e.clock.Advance(2 * time.Second)
		e.tick(t)
		e.tick(t)
		if n := len(e.announce.all()); n != 1 {
			t.Fatalf("%d posts after the crashed claim went stale, want 1", n)
		}
	})
	t.Run("OKRetryKeepsTheMaze", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.announce.failAll(errDiscord)
		if err := e.dailies.Tick(ctx); err == nil {
			t.Fatal("a failed post was not reported")
		}
		first, err := e.dailies.Today(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		// The admin changes the size while members play the claimed maze.
		s, _ := e.store.DailySettings(ctx, "g1")
		s.Size = 31
		if err := e.store.SaveDailySettings(ctx, s); err != nil {
			t.Fatal(err)
		}
		e.announce.clearFaults()
		e.clock.Advance(contest.RetryAfter)
		e.tick(t)
		p, err := e.store.DailyPost(ctx, "g1", first.Date)
		if err != nil || p.State != contest.Posted || p.MazeID != first.MazeID {
			t.Fatalf("retried post %+v (%v), want posted with the day's maze %v", p, err, first.MazeID)
		}
	})
	t.Run("OKRetryAfterDelay", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.announce.failAll(errDiscord)
		if err := e.dailies.Tick(ctx); !errors.Is(err, errDiscord) {
			t.Fatalf("Tick=%v, want the post's error", err)
		}
		e.announce.clearFaults()
		e.clock.Advance(contest.RetryAfter - time.Second)
		e.tick(t)
		if n := len(e.announce.all()); n != 0 {
			t.Fatalf("retried after %v (%d posts), want after %v", contest.RetryAfter-time.Second, n, contest.RetryAfter)
		}
		e.clock.Advance(time.Second)
		e.tick(t)
		e.tick(t)
		if n := len(e.announce.all()); n != 1 {
			t.Fatalf("%d posts after the retry delay, want 1", n)
		}
	})
	// A channel the bot may not post to is given up after MaxRefusals
	// attempts, RefusedRetryAfter apart; transient failures after
	// MaxAttempts, the delay doubling from RetryAfter.
	for _, tc := range []struct {
		name     string
		err      error
		attempts int
		within   time.Duration // all of them happen in this time
	}{
		{"OKGivesUpRefused", fmt.Errorf("403 Missing Access: %w", contest.ErrRefused), contest.MaxRefusals, 2*contest.RefusedRetryAfter + time.Minute},
		{"OKGivesUpTransient", errDiscord, contest.MaxAttempts, 3 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newDailyEnv(t, utc(2026, 11, 30, 0, 0))
			e.setup(t, "00:00", "UTC")
			e.clock.Set(utc(2026, 11, 30, 0, 1))
			start := e.clock.Now()
			e.announce.failAll(tc.err)
			failures := 0
			var last time.Time
			for e.clock.Now().Before(utc(2026, 12, 1, 0, 0)) { // the whole day
				if err := e.dailies.Tick(ctx); err != nil {
					failures++
					last = e.clock.Now()
				}
				e.clock.Advance(contest.RetryAfter)
			}
			if failures != tc.attempts || last.Sub(start) > tc.within {
				t.Fatalf("%d failed attempts, the last after %v; want %d within %v", failures, last.Sub(start), tc.attempts, tc.within)
			}
			if tries := e.announce.nonceTries(); len(slices.Compact(tries)) != 1 {
				t.Fatalf("the attempts used %d nonces, want one: %q", len(slices.Compact(tries)), tries)
			}
		})
	}
	// A post that was made but not recorded afterwards is not made again.
	t.Run("OKPostedDespiteRecordError", func(t *testing.T) {
		e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
		e.setup(t, "09:00", "UTC")
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.announce.failRecord = errors.New("record post: disk full")
		if err := e.dailies.Tick(ctx); err == nil {
			t.Fatal("the record error was not reported")
		}
		e.announce.failRecord = nil
		e.clock.Advance(contest.RetryAfter + time.Minute)
		e.tick(t)
		if n := len(e.announce.all()); n != 1 {
			t.Fatalf("%d posts, want 1: the day was posted", n)
		}
	})
}

func TestDailyAward(t *testing.T) {
	ctx := context.Background()
	e := newDailyEnv(t, utc(2026, 11, 30, 12, 0))
	today := mustDate(t, "2026-11-30")
	at := utc(2026, 11, 30, 12, 0)
	for _, d := range []contest.Date{today.AddDays(-1), today.AddDays(-2), today.AddDays(-4)} {
		addRun(t, e.store, contest.DailyKey("g1", d), contest.Run{UserID: "ann", Elapsed: time.Minute, Tiles: 40, FinishedAt: at.AddDate(0, 0, -1)})
	}
	addRun(t, e.store, contest.DailyKey("g1", today), contest.Run{UserID: "ben", Elapsed: 30 * time.Second, Tiles: 40, FinishedAt: at})
	addRun(t, e.store, contest.DailyKey("g1", today), contest.Run{UserID: "ann", Elapsed: 50 * time.Second, Tiles: 40, FinishedAt: at})
	slower := play.Result{UserID: "ann", Contest: contest.DailyKey("g1", today).String(), Elapsed: 70 * time.Second, Tiles: 40, FinishedAt: at.Add(time.Minute)}
	addRun(t, e.store, contest.DailyKey("g1", today), contest.Run{UserID: "ann", Elapsed: slower.Elapsed, Tiles: 40, FinishedAt: slower.FinishedAt})
	c := e.contests()
	a, err := c.Finish(ctx, slower)
	if err != nil {
		t.Fatal(err)
	}
	if a.Daily == nil || a.Event != nil {
		t.Fatalf("award %+v, want a daily one", a)
	}
	if got := *a.Daily; got.Number != 334 || got.Streak != 3 || got.Standing.Rank != 2 || got.Of != 2 || got.Standing.Elapsed != 50*time.Second {
		t.Fatalf("award %+v, want #334, a streak of 3, second of 2 with the 50 s best run", got)
	}
	if a, err := c.Finish(ctx, play.Result{UserID: "ann"}); err != nil || a.Daily != nil || a.Event != nil {
		t.Fatalf("a game outside contests earned %+v (%v)", a, err)
	}
}

type eventEnv struct {
	store    storetest.Store
	announce *announcer
	clock    *testkit.Clock
	events   *contest.Events
}

var eventMaze = mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 15, Height: 15, Seed: 4242}

func newEventEnv(t *testing.T) *eventEnv {
	e := &eventEnv{store: storetest.Memory(t), announce: &announcer{}, clock: testkit.NewClock(utc(2026, 11, 30, 12, 0))}
	e.events = contest.NewEvents(e.store, e.announce, e.clock.Now, quiet)
	return e
}

func (e *eventEnv) start(t *testing.T, channel string) contest.Event {
	t.Helper()
	ev, err := e.events.Start(context.Background(), contest.Event{GuildID: "g1", ChannelID: channel, Name: "Race " + channel, MazeID: eventMaze, CreatorID: "mod"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// win records a run and lets contest hear of it, as play does.
func (e *eventEnv) win(t *testing.T, ev contest.Event, user string, elapsed time.Duration) *contest.EventAward {
	t.Helper()
	now := e.clock.Now()
	addRun(t, e.store, ev.Key(), contest.Run{UserID: user, Elapsed: elapsed, Tiles: 30, FinishedAt: now})
	a, err := e.events.Award(context.Background(), ev.ID, play.Result{UserID: user, Contest: ev.Key().String(), Elapsed: elapsed, FinishedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestEvents(t *testing.T) {
	ctx := context.Background()
	t.Run("OKStart", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, "c1")
		if ev.Status != contest.Running || !ev.EndsAt.Equal(e.clock.Now().Add(time.Hour)) || ev.MazeMessageID != "msg1" || ev.BoardMessageID != "msg2" {
			t.Fatalf("started %+v", ev)
		}
		stored, err := e.store.Event(ctx, ev.ID)
		if err != nil || stored.BoardMessageID != "msg2" {
			t.Fatalf("stored %+v (%v), want its messages recorded", stored, err)
		}
	})
	t.Run("ErrOnePerChannel", func(t *testing.T) {
		e := newEventEnv(t)
		first := e.start(t, "c1")
		got, err := e.events.Start(ctx, contest.Event{ChannelID: "c1", Name: "Second", MazeID: eventMaze}, time.Hour)
		if !errors.Is(err, contest.ErrConflict) || got.ID != first.ID {
			t.Fatalf("second start: %+v, %v; want ErrConflict with the running event", got, err)
		}
		if n := len(e.announce.all()); n != 2 {
			t.Fatalf("%d posts, want the first event's two only", n)
		}
		e.start(t, "c2") // another channel is free
	})
	t.Run("ErrNotPostedFreesTheChannel", func(t *testing.T) {
		e := newEventEnv(t)
		e.announce.failAll(errDiscord)
		if _, err := e.events.Start(ctx, contest.Event{ChannelID: "c1", Name: "Doomed", MazeID: eventMaze}, time.Hour); !errors.Is(err, contest.ErrNotPosted) {
			t.Fatalf("err=%v, want ErrNotPosted", err)
		}
		e.announce.clearFaults()
		e.start(t, "c1")
	})
	t.Run("OKLiveBoardThrottled", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, "c1")
		if a := e.win(t, ev, "ann", 20*time.Second); a.Late || a.Standing.Rank != 1 || a.Of != 1 {
			t.Fatalf("award %+v, want #1 of 1", a)
		}
		e.clock.Advance(contest.BoardEditInterval / 2)
		if a := e.win(t, ev, "ben", 10*time.Second); a.Standing.Rank != 1 || a.Of != 2 {
			t.Fatalf("award %+v, want #1 of 2", a)
		}
		if got := e.announce.boards; !slices.Equal(got, []string{"live:ann#1"}) {
			t.Fatalf("board edits %q, want one (the second waits for the interval)", got)
		}
		if err := e.events.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(e.announce.boards); n != 1 {
			t.Fatalf("a tick within the interval edited the board (%d edits)", n)
		}
		e.clock.Advance(contest.BoardEditInterval / 2)
		if err := e.events.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		if got := e.announce.boards; !slices.Equal(got, []string{"live:ann#1", "live:ben#1,ann#2"}) {
			t.Fatalf("board edits %q, want the dirty board flushed after the interval", got)
		}
		if err := e.events.Tick(ctx); err != nil || len(e.announce.boards) != 2 {
			t.Fatalf("a clean board was edited again (%d edits, %v)", len(e.announce.boards), err)
		}
	})
	t.Run("OKEndOnceWithResults", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, "c1")
		e.win(t, ev, "ann", 2*time.Second)
		e.clock.Advance(time.Second)
		e.win(t, ev, "ben", 2*time.Second) // a tie, finished later
		e.win(t, ev, "cat", time.Second)
		e.clock.Advance(10 * time.Minute)
		if err := e.events.End(ctx, ev); err != nil {
			t.Fatal(err)
		}
		if err := e.events.End(ctx, ev); !errors.Is(err, contest.ErrConflict) {
			t.Fatalf("second End: %v, want ErrConflict", err)
		}
		calls := strings.Join(e.announce.all(), "\n")
		for want, n := range map[string]int{"results Race c1 final:cat#1,ann#2,ben#2": 1, "solution Race c1": 0, "reveal Race c1": 1} {
			if strings.Count(calls, want) != n {
				t.Fatalf("announcements:\n%s\nwant %q %d times", calls, want, n)
			}
		}
		stored, err := e.store.Event(ctx, ev.ID)
		if err != nil || stored.Status != contest.Ended || !stored.EndsAt.Equal(e.clock.Now()) || stored.ResultsMessageID == "" {
			t.Fatalf("stored %+v (%v), want ended now, early, with its results post", stored, err)
		}
		if boards := e.announce.boards; boards[len(boards)-1] != "final:cat#1,ann#2,ben#2 -> "+stored.ResultsMessageID {
			t.Fatalf("board edits %q, want the final board pointing to the results last", boards)
		}
		// A run finished after the early end doesn't count.
		if a := e.win(t, stored, "dan", time.Second); !a.Late {
			t.Fatalf("a run after the end earned %+v", a)
		}
	})
	// A closing begun by a release whose results post held no solution
	// (StepResults made alone) posts the solution on its own, once, and
	// not the results again.
	t.Run("OKOlderClosingGetsItsSolution", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, "c1")
		if err := e.store.EndEvent(ctx, ev.ID, e.clock.Now()); err != nil {
			t.Fatal(err)
		}
		if err := e.store.SetClosingDone(ctx, ev.ID, contest.StepResults); err != nil {
			t.Fatal(err)
		}
		from := len(e.announce.all())
		e.clock.Advance(contest.RetryAfter)
		if err := e.events.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		calls := strings.Join(e.announce.all()[from:], "\n")
		if strings.Count(calls, "solution Race c1") != 1 || strings.Contains(calls, "results ") {
			t.Fatalf("announcements:\n%s\nwant the solution once and no results", calls)
		}
	})
	t.Run("OKTickEndsDueEvents", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, "c1")
		e.clock.Advance(time.Hour - time.Second)
		if err := e.events.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		if s, _ := e.store.Event(ctx, ev.ID); s.Status != contest.Running {
			t.Fatal("ended before its time")
		}
		e.clock.Advance(3 * time.Hour) // the bot was down when it ended
		if err := e.events.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		s, err := e.store.Event(ctx, ev.ID)
		if err != nil || s.Status != contest.Ended || !s.EndsAt.Equal(ev.EndsAt) {
			t.Fatalf("after the tick %+v (%v), want ended at its planned end", s, err)
		}
	})
}

func TestHeld(t *testing.T) {
	ctx := context.Background()
	e := newDailyEnv(t, utc(2026, 11, 30, 12, 0))
	c := e.contests()
	today, err := c.Dailies.Show(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		guild string
	}{{"OKOwnServer", "g1"}, {"OKElsewhere", "g2"}, {"OKInDM", ""}} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := c.Held(ctx, today.MazeID, tc.guild)
			if err != nil || h.Daily == nil || h.Daily.GuildID != "g1" || !h.Until().Equal(utc(2026, 12, 1, 0, 0).Add(contest.MaxClockSkew)) {
				t.Fatalf("Held=%+v (%v), want g1's daily until just after midnight", h, err)
			}
		})
	}
	t.Run("OKFreeMaze", func(t *testing.T) {
		if h, err := c.Held(ctx, mazecore.ID{Algorithm: mazecore.Digging, Width: 9, Height: 9, Seed: 1}, "g1"); err != nil || h.Held() {
			t.Fatalf("Held=%+v (%v), want nothing held", h, err)
		}
	})
	t.Run("OKYesterdaysDaily", func(t *testing.T) {
		e.clock.Advance(24 * time.Hour)
		defer e.clock.Advance(-24 * time.Hour)
		if h, err := c.Held(ctx, today.MazeID, "g1"); err != nil || h.Held() {
			t.Fatalf("Held=%+v (%v), want yesterday's daily open", h, err)
		}
	})
	t.Run("OKEvent", func(t *testing.T) {
		ev, err := c.Events.Start(ctx, contest.Event{GuildID: "g1", ChannelID: "c1", Name: "Race", MazeID: eventMaze}, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		h, err := c.Held(ctx, eventMaze, "")
		if err != nil || h.Event == nil || h.Event.ID != ev.ID || h.Closing || !h.Until().Equal(ev.EndsAt) {
			t.Fatalf("Held=%+v (%v), want the running event until its end", h, err)
		}
		e.clock.Advance(time.Hour)
		if h, err := c.Held(ctx, eventMaze, ""); err != nil || !h.Closing {
			t.Fatalf("Held=%+v (%v), want the event closing once its time is up", h, err)
		}
	})
}

func TestFor(t *testing.T) {
	ctx := context.Background()
	e := newDailyEnv(t, utc(2026, 11, 30, 12, 0))
	c := e.contests()
	today, err := c.Dailies.Today(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := c.Events.Start(ctx, contest.Event{GuildID: "g1", ChannelID: "c1", Name: "Race", MazeID: eventMaze}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		guild, channel string
		maze           mazecore.ID
		want           contest.Key
	}{
		{"OKDaily", "g1", "c9", today.MazeID, today.Key()},
		{"OKEvent", "g1", "c1", eventMaze, ev.Key()},
		{"OKEventMazeElsewhere", "g1", "c2", eventMaze, contest.Key{}},
		{"OKDailyOfAnotherServer", "g2", "c9", today.MazeID, contest.Key{}},
		{"OKDM", "", "", today.MazeID, contest.Key{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := c.For(ctx, tc.guild, tc.channel, tc.maze); err != nil || got != tc.want {
				t.Fatalf("For=%q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

// TestDailiesDate: a server's date is taken in its zone, UTC until set.
func TestDailiesDate(t *testing.T) {
	store, clock := storetest.Memory(t), testkit.NewClock(utc(2026, 11, 30, 16, 0))
	d := contest.NewDailies(store, &announcer{}, testKey, clock.Now, quiet)
	if got, err := d.Date(context.Background(), "g1"); err != nil || got.String() != "2026-11-30" {
		t.Fatalf("Date=%s, %v; want UTC's 2026-11-30", got, err)
	}
	if err := store.SaveDailySettings(context.Background(), contest.DailySettings{GuildID: "g1", ChannelID: "c1", Zone: mustLoad(t, "Asia/Seoul"),
		Algorithm: contest.DefaultAlgorithm, Size: contest.DefaultSize}); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Date(context.Background(), "g1"); err != nil || got.String() != "2026-12-01" {
		t.Fatalf("Date=%s, %v; want Seoul's 2026-12-01", got, err)
	}
}

// TestTickBacklog: more servers whose day turns at one minute than one
// tick's time allows at the posts' pace are all posted over the ticks
// that follow, each once, on a clock that does not move (so no retry
// delay passes): a tick walks past the servers posted already in a
// moment, and a post that the tick's end falls on is made, not cut off
// holding its claim. Ticking the servers from the first each time at the
// posts' pace, done or not, never got past the first tick's.
func TestTickBacklog(t *testing.T) {
	ctx := context.Background()
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	const servers = 60
	for i := range servers {
		s, err := e.dailies.Settings(ctx, fmt.Sprintf("g%d", i))
		if err != nil {
			t.Fatal(err)
		}
		s.ChannelID, s.Zone, s.PostAt = fmt.Sprintf("c%d", i), time.UTC, 9*60
		if _, _, err := e.dailies.Setup(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	e.announce.slow = 30 * time.Millisecond
	// At most 40 claims a second: a 400 ms tick has time for some 16.
	for ticks, stalled := 1, 0; len(e.announce.all()) < servers; ticks++ {
		before := len(e.announce.all())
		tctx, cancel := context.WithTimeout(ctx, 400*time.Millisecond)
		_ = e.dailies.Tick(tctx)
		cancel()
		if len(e.announce.all()) > before {
			stalled = 0
		} else if stalled++; stalled == 3 {
			t.Fatalf("%d of %d posted after %d ticks; the last 3 posted none", before, servers, ticks)
		}
	}
	posts := e.announce.all()
	if n := len(slices.Compact(slices.Sorted(slices.Values(posts)))); n != servers || len(posts) != servers {
		t.Fatalf("%d posts of %d servers, want each once: %q", len(posts), n, posts)
	}
	for i := range servers {
		p, err := e.store.DailyPost(ctx, fmt.Sprintf("g%d", i), mustDate(t, "2026-11-30"))
		if err != nil || p.State != contest.Posted || p.Attempts != 1 {
			t.Fatalf("g%d's post %+v (%v), want posted at the first attempt", i, p, err)
		}
	}
}
