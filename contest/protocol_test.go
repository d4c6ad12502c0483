package contest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/store/storetest"
)

var errServer = errors.New("500 Internal Server Error")

// TestDailyPostExactlyOnce: whatever fails while the daily is posted (the
// request, the answer, the process), the day ends up posted once, within
// a tick or two of RetryAfter, every attempt with the day's one nonce.
// TestDailyPostOutOfTimeReleased: a claimed post that runs out of its
// time (a request hanging at Discord's pace) releases its claim on the
// way out, as failed, although its own context is over; the settable
// clock past RetryAfter then posts it. The release was written on the
// ended context, so the store kept the claim as if an attempt still
// made the post.
func TestDailyPostOutOfTimeReleased(t *testing.T) {
	ctx := context.Background()
	date := contest.MakeDate(2026, 11, 30)
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	e.setup(t, "09:00", "UTC")
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	defer contest.SetClaimedTimeout(50 * time.Millisecond)()
	e.announce.slow = time.Hour // never answers within the post's time
	if err := e.dailies.Tick(ctx); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("tick: %v, want the post out of time", err)
	}
	p, err := e.store.DailyPost(ctx, "g1", date)
	if err != nil || p.State != contest.Failed || p.Attempts != 1 {
		t.Fatalf("post %+v (%v), want attempt 1 released as failed", p, err)
	}
	e.announce.slow = 0
	e.clock.Advance(contest.RetryAfter)
	e.tick(t)
	if got := e.announce.all(); !slices.Equal(got, []string{"daily g1 2026-11-30 #334 in daily-ch"}) {
		t.Fatalf("posts %q, want the day's one", got)
	}
	if p, err := e.store.DailyPost(ctx, "g1", date); err != nil || p.State != contest.Posted {
		t.Fatalf("post %+v (%v), want posted", p, err)
	}
}

// TestTickOutOfTimeLeavesTheRest: a tick whose time ends with posts
// still to make (a backlog of servers whose day turned at one minute)
// says so in one line, and is no error: the next tick makes them. It was
// an error ("context deadline exceeded") for each post cut short, every
// tick of the backlog.
func TestTickOutOfTimeLeavesTheRest(t *testing.T) {
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	var logged bytes.Buffer
	e.dailies = contest.NewDailies(e.store, e.announce, testKey, e.clock.Now, slog.New(slog.NewTextHandler(&logged, nil)))
	const servers = 40 // more than the tick claims before its first post is made, even on a loaded machine
	for i := range servers {
		s, err := e.dailies.Settings(context.Background(), fmt.Sprintf("g%d", i))
		if err != nil {
			t.Fatal(err)
		}
		s.ChannelID, s.Zone = fmt.Sprintf("ch%d", i), time.UTC
		s.PostAt, _ = contest.ParseTimeOfDay("09:00")
		if _, _, err := e.dailies.Setup(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	ctx, cancel := context.WithCancel(context.Background())
	e.announce.afterPost = cancel // the tick's time ends with its first post
	if err := e.dailies.Tick(ctx); err != nil {
		t.Fatalf("tick cut short: %v, want no error", err)
	}
	made := len(e.announce.all())
	if made == 0 || made == servers {
		t.Fatalf("%d of %d posted by the tick cut short, want some", made, servers)
	}
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	var left []string
	for _, l := range lines {
		if strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR") {
			t.Errorf("logged %q", l)
		}
		if strings.Contains(l, "left for the next tick") {
			left = append(left, l)
		}
	}
	if want := fmt.Sprintf("left=%d of=%d", servers-made, servers); len(left) != 1 || !strings.Contains(left[0], want) {
		t.Fatalf("logged %q, want one line with %s", left, want)
	}
	e.announce.afterPost = nil
	e.tick(t)
	if got := len(e.announce.all()); got != servers {
		t.Fatalf("%d of %d posted after the next tick", got, servers)
	}
}

// TestMadePostNotReadAgain: once a server's post of the day is made,
// the ticks that follow (every 15 s, each passing every due server: ten
// thousand of them at scale) do not read it from the store again; a
// second process, which did not make it, reads it once.
func TestMadePostNotReadAgain(t *testing.T) {
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	e.setup(t, "09:00", "UTC")
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	counted := &postReads{Store: e.store}
	e.dailies = contest.NewDailies(counted, e.announce, testKey, e.clock.Now, quiet)
	other := contest.NewDailies(counted, e.announce, testKey, e.clock.Now, quiet)
	e.tick(t)
	if len(e.announce.all()) != 1 {
		t.Fatalf("posts %q, want the day's one", e.announce.all())
	}
	before := counted.n.Load()
	for range 3 {
		e.tick(t)
	}
	if n := counted.n.Load() - before; n != 0 {
		t.Fatalf("the made post was read %d times by the ticks after it", n)
	}
	for range 3 {
		if err := other.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := counted.n.Load() - before; n != 1 {
		t.Fatalf("another process read the made post %d times, want once", n)
	}
}

// postReads counts the reads of daily posts.
type postReads struct {
	storetest.Store
	n atomic.Int32
}

func (p *postReads) DailyPost(ctx context.Context, guildID string, date contest.Date) (contest.DailyPost, error) {
	p.n.Add(1)
	return p.Store.DailyPost(ctx, guildID, date)
}

func TestDailyPostExactlyOnce(t *testing.T) {
	ctx := context.Background()
	date := contest.MakeDate(2026, 11, 30)
	for _, tc := range []struct {
		name string
		// fail breaks the first attempt; it runs after setup, at 09:00.
		fail func(t *testing.T, e *dailyEnv)
	}{
		{"OKNoFault", func(*testing.T, *dailyEnv) {}},
		{"OK5xxBefore", func(t *testing.T, e *dailyEnv) {
			e.announce.failNext("daily", 1, errServer, false)
			if err := e.dailies.Tick(ctx); err == nil {
				t.Fatal("the failed post was not reported")
			}
		}},
		// Discord made the message; its answer was lost.
		{"OK5xxAfter", func(t *testing.T, e *dailyEnv) {
			e.announce.failNext("daily", 1, errServer, true)
			if err := e.dailies.Tick(ctx); err == nil {
				t.Fatal("the failed post was not reported")
			}
		}},
		// The process died with its claim written and the post on its
		// way: never made, or made with the answer never read.
		{"OKCrashBeforePost", func(t *testing.T, e *dailyEnv) { e.crashedClaim(t, date, false) }},
		{"OKCrashAfterPost", func(t *testing.T, e *dailyEnv) { e.crashedClaim(t, date, true) }},
		{"OKRecordFailed", func(t *testing.T, e *dailyEnv) {
			e.announce.failRecord = errors.New("record post: disk full")
			if err := e.dailies.Tick(ctx); err == nil {
				t.Fatal("the record error was not reported")
			}
			e.announce.failRecord = nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
			e.setup(t, "09:00", "UTC")
			e.clock.Set(utc(2026, 11, 30, 9, 0))
			tc.fail(t, e)
			// A tick right away (a restarted process) leaves a fresh claim
			// alone; ticks every 15 s finish it after RetryAfter.
			for range 3 {
				e.tick(t)
				e.clock.Advance(contest.RetryAfter)
			}
			if got := e.announce.all(); !slices.Equal(got, []string{"daily g1 2026-11-30 #334 in daily-ch"}) {
				t.Fatalf("posts %q, want the day's one", got)
			}
			p, err := e.store.DailyPost(ctx, "g1", date)
			if err != nil || p.State != contest.Posted || p.MessageID != "msg1" {
				t.Fatalf("post %+v (%v), want posted as msg1", p, err)
			}
			if tries := e.announce.nonceTries(); len(slices.Compact(tries)) != 1 || len(tries[0]) > 25 {
				t.Fatalf("the attempts sent nonces %q, want one of at most 25 characters", tries)
			}
		})
	}
	// Two processes taking over one stale claim at once: one wins.
	t.Run("OKTakeoverRace", func(t *testing.T) {
		e := staleClaim(t, date)
		tickTogether(t, ctx, e.dailies, e.another(), e.another(), e.dailies)
		if n := len(e.announce.all()); n != 1 {
			t.Fatalf("%d posts, want 1", n)
		}
		if p, _ := e.store.DailyPost(ctx, "g1", date); p.Attempts != 2 || p.State != contest.Posted {
			t.Fatalf("post %+v, want posted by the second attempt", p)
		}
	})
	// A process that took over a slow claim posts with the same nonce:
	// when the slow attempt lands too, one message, recorded once.
	t.Run("OKSlowAttemptOvertaken", func(t *testing.T) {
		e := staleClaim(t, date)
		e.tick(t)
		// The first attempt's post arrives late, and it records.
		id, err := e.announce.PostDaily(ctx, contest.Daily{GuildID: "g1", Date: date}, "daily-ch", contest.Nonce(contest.DailyPostKey("g1", date)))
		if err != nil || id != "msg1" {
			t.Fatalf("late post %q (%v), want the message made, msg1", id, err)
		}
		if err := e.store.SetDailyPosted(ctx, "g1", date, id); !errors.Is(err, contest.ErrConflict) {
			t.Fatalf("late record: %v, want ErrConflict (posted already)", err)
		}
		if n := len(e.announce.all()); n != 1 {
			t.Fatalf("%d posts, want 1", n)
		}
	})
}

// staleClaim is a day posted at 09:00 whose first claim, at 09:00, crashed
// RetryAfter ago.
func staleClaim(t *testing.T, date contest.Date) *dailyEnv {
	t.Helper()
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	e.setup(t, "09:00", "UTC")
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	e.crashedClaim(t, date, false)
	e.clock.Advance(contest.RetryAfter)
	return e
}

// crashedClaim is a process that claimed the day's post and died; with
// landed, its post reached Discord first.
func (e *dailyEnv) crashedClaim(t *testing.T, date contest.Date, landed bool) {
	t.Helper()
	ctx := context.Background()
	s, err := e.store.DailySettings(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	maze, err := e.dailies.Fix(ctx, s, date)
	if err != nil {
		t.Fatal(err)
	}
	claim := contest.DailyPost{GuildID: "g1", Date: date, ChannelID: s.ChannelID, MazeID: maze, State: contest.Posting, Attempts: 1, ClaimedAt: e.clock.Now()}
	if err := e.store.ClaimDailyPost(ctx, claim); err != nil {
		t.Fatal(err)
	}
	if landed {
		day := contest.Daily{GuildID: "g1", Date: date, Zone: time.UTC, MazeID: maze}
		if _, err := e.announce.PostDaily(ctx, day, s.ChannelID, contest.Nonce(contest.DailyPostKey("g1", date))); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEventClosingExactlyOnce: an event's closing post (its results,
// with the solution) and edits (the board's pointer, the Solve button)
// are made once each,
// whatever fails on the way, within a tick or two of RetryAfter.
func TestEventClosingExactlyOnce(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// fail breaks the end, made by /event end (End) unless it says
		// otherwise; pending is whether End reports posts pending.
		fail    func(t *testing.T, e *eventEnv, ev contest.Event)
		pending bool
	}{
		{"OKNoFault", nil, false},
		{"OKResults5xxBefore", func(_ *testing.T, e *eventEnv, _ contest.Event) { e.announce.failNext("results", 1, errServer, false) }, true},
		{"OKResults5xxAfter", func(_ *testing.T, e *eventEnv, _ contest.Event) { e.announce.failNext("results", 1, errServer, true) }, true},
		{"OKEditsFail", func(_ *testing.T, e *eventEnv, _ contest.Event) {
			e.announce.failNext("edit board", 1, errServer, false)
			e.announce.failNext("reveal", 1, errServer, false)
		}, true},
		{"OKFailsTwice", func(_ *testing.T, e *eventEnv, _ contest.Event) { e.announce.failNext("results", 2, errServer, false) }, true},
		// The process that ended the event died before any post, or after
		// the results landed but before it recorded them.
		{"OKCrashAfterEnd", func(t *testing.T, e *eventEnv, ev contest.Event) { e.crashedEnd(t, ev, false) }, false},
		{"OKCrashAfterResults", func(t *testing.T, e *eventEnv, ev contest.Event) { e.crashedEnd(t, ev, true) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEventEnv(t)
			ev := e.start(t, "c1")
			e.win(t, ev, "ann", 2*time.Second)
			e.clock.Advance(time.Minute)
			from := len(e.announce.all())
			if tc.fail != nil {
				tc.fail(t, e, ev)
			}
			if stored, _ := e.store.Event(ctx, ev.ID); stored.Status == contest.Running {
				err := e.events.End(ctx, ev)
				if tc.pending != errors.Is(err, contest.ErrPostsPending) || (!tc.pending && err != nil) {
					t.Fatalf("End=%v, want posts pending: %v", err, tc.pending)
				}
			}
			for range 4 {
				if err := e.events.Tick(ctx); err != nil && !errors.Is(err, contest.ErrPostsPending) {
					t.Fatal(err)
				}
				e.clock.Advance(contest.RetryAfter)
			}
			e.checkClosed(t, ev, "Race c1", from)
		})
	}
	// A channel that keeps refusing the bot is given up on.
	t.Run("OKRefusedGivenUp", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, "c1")
		e.announce.failNext("results", 1<<30, fmt.Errorf("403: %w", contest.ErrRefused), false)
		if err := e.events.End(ctx, ev); !errors.Is(err, contest.ErrPostsPending) || !errors.Is(err, contest.ErrRefused) {
			t.Fatalf("End=%v, want posts pending, refused", err)
		}
		for range 100 {
			_ = e.events.Tick(ctx)
			e.clock.Advance(time.Minute)
		}
		s, err := e.store.Event(ctx, ev.ID)
		if err != nil || !s.Closing.Closed || s.Closing.Refused != contest.MaxRefusals || s.Closing.Attempts != contest.MaxRefusals {
			t.Fatalf("closing %+v (%v), want given up after %d refused attempts", s.Closing, err, contest.MaxRefusals)
		}
		if calls := strings.Join(e.announce.all(), "\n"); strings.Contains(calls, "results") || strings.Contains(calls, "solution") {
			t.Fatalf("posts made in a refusing channel:\n%s", calls)
		}
	})
	// Two processes finishing one closing at once make each post once.
	t.Run("OKTwoProcesses", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, "c1")
		from := len(e.announce.all())
		e.crashedEnd(t, ev, false)
		e.clock.Advance(contest.RetryAfter)
		other := contest.NewEvents(e.store, e.announce, e.clock.Now, quiet)
		tickTogether(t, ctx, e.events, other, e.events, other)
		e.checkClosed(t, ev, "Race c1", from)
	})
}

// crashedEnd ends ev in the store as a process that died right after
// would; with landed, its results post reached Discord first.
func (e *eventEnv) crashedEnd(t *testing.T, ev contest.Event, landed bool) {
	t.Helper()
	ctx := context.Background()
	if err := e.store.EndEvent(ctx, ev.ID, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if landed {
		ended, err := e.store.Event(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		standings, err := e.events.Standings(ctx, ended)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.announce.PostResults(ctx, ended, standings, contest.Nonce(ended.PostKey("results"))); err != nil {
			t.Fatal(err)
		}
	}
}

// checkClosed: every closing step of ev made once since the call from:
// one results post (which holds the solution), then the board's pointer
// to it and the maze's Solve button; the event closed.
func (e *eventEnv) checkClosed(t *testing.T, ev contest.Event, name string, from int) {
	t.Helper()
	calls := e.announce.all()[from:]
	var closing []string
	for _, c := range calls {
		for _, p := range []string{"results ", "solution ", "edit board ", "reveal "} {
			if strings.HasPrefix(c, p) {
				closing = append(closing, strings.TrimSpace(p))
			}
		}
	}
	count := func(what string) int { return strings.Count(","+strings.Join(closing, ",")+",", ","+what+",") }
	if count("results") != 1 || count("solution") != 0 || count("edit board") != 1 || count("reveal") != 1 ||
		slices.Index(closing, "results") > slices.Index(closing, "edit board") {
		t.Fatalf("closing calls %q (all: %q), want one results post, no solution of its own, then the board and the maze once each", closing, calls)
	}
	s, err := e.store.Event(context.Background(), ev.ID)
	if err != nil || s.Status != contest.Ended || !s.Closing.Closed || s.Closing.Done != contest.AllEndSteps {
		t.Fatalf("event %+v (%v), want ended and closed with every step", s, err)
	}
	for _, c := range calls {
		if strings.HasPrefix(c, "results ") && !strings.HasPrefix(c, "results "+name+" final:") {
			t.Fatalf("results %q, want the final standings", c)
		}
	}
}

// TestEventStartExactlyOnce: an event's maze and board are posted once,
// through a lost answer, and a start cut short by a crash is finished.
func TestEventStartExactlyOnce(t *testing.T) {
	ctx := context.Background()
	t.Run("OKBoard5xxAfter", func(t *testing.T) {
		e := newEventEnv(t)
		e.announce.failNext("board", 1, errServer, true)
		ev := e.start(t, "c1")
		if got := e.announce.all(); !slices.Equal(got, []string{"event Race c1", "board Race c1"}) {
			t.Fatalf("posts %q, want the maze and the board once", got)
		}
		if s, _ := e.store.Event(ctx, ev.ID); s.BoardMessageID != "msg2" || s.MazeMessageID != "msg1" {
			t.Fatalf("stored %+v, want both messages recorded", s)
		}
	})
	t.Run("OKRefusedNotRetried", func(t *testing.T) {
		e := newEventEnv(t)
		e.announce.failNext("event", 5, fmt.Errorf("403: %w", contest.ErrRefused), false)
		if _, err := e.events.Start(ctx, contest.Event{ChannelID: "c1", Name: "Doomed", MazeID: eventMaze}, time.Hour); !errors.Is(err, contest.ErrNotPosted) {
			t.Fatalf("err=%v, want ErrNotPosted", err)
		}
		if n := len(e.announce.nonceTries()); n != 1 {
			t.Fatalf("%d tries in a refusing channel, want 1", n)
		}
	})
	t.Run("OKCrashFinishedByTick", func(t *testing.T) {
		e := newEventEnv(t)
		now := e.clock.Now()
		id, err := e.store.CreateEvent(ctx, contest.Event{GuildID: "g1", ChannelID: "c1", Name: "Cut short", MazeID: eventMaze, StartedAt: now, EndsAt: now.Add(time.Hour), Status: contest.Running})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.events.Tick(ctx); err != nil || len(e.announce.all()) != 0 {
			t.Fatalf("a fresh start was finished by a tick (%v, %q)", err, e.announce.all())
		}
		e.clock.Advance(contest.StartGrace)
		if err := e.events.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.events.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		if got := e.announce.all(); !slices.Equal(got, []string{"event Cut short", "board Cut short"}) {
			t.Fatalf("posts %q, want the maze and the board once", got)
		}
		if s, _ := e.store.Event(ctx, id); s.BoardMessageID == "" || s.MazeMessageID == "" {
			t.Fatalf("stored %+v, want its messages recorded", s)
		}
	})
}
