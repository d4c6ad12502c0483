package commands

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	_ "time/tzdata" // the zones under test, whatever the host has

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

var (
	permsManager = strconv.FormatInt(discordgo.PermissionManageGuild|discordgo.PermissionSendMessages, 10)
	permsAdmin   = strconv.FormatInt(discordgo.PermissionAdministrator, 10)
	permsMember  = strconv.FormatInt(discordgo.PermissionSendMessages|discordgo.PermissionViewChannel, 10)
)

// dailySlash builds /daily <sub> by u1 with the given permissions.
func dailySlash(tb testing.TB, perms, sub string, opts map[string]any) *discordgo.Interaction {
	tb.Helper()
	return subcommandIx(tb, "daily", sub, opts, "u1", perms)
}

// setup runs /daily setup as a manager and checks it was accepted.
func (e *env) setup(tb testing.TB, at, tz string) bot.Reply {
	tb.Helper()
	rec := e.send(tb, dailySlash(tb, permsManager, "setup", map[string]any{"channel": "daily-ch", "time": at, "timezone": tz}))
	if len(rec.Replies) != 1 || strings.HasPrefix(rec.Replies[0].Text(), "⚠️") || !rec.Replies[0].Ephemeral {
		tb.Fatalf("/daily setup %s %s answered %+v, want an ephemeral confirmation", at, tz, rec.Replies)
	}
	return rec.Replies[0]
}

// today runs /daily today and returns the maze it shows.
func (e *env) today(tb testing.TB) (mazecore.ID, bot.Reply) {
	tb.Helper()
	rec := e.send(tb, dailySlash(tb, permsMember, "today", nil))
	if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral {
		tb.Fatalf("/daily today answered %+v, want one private maze", rec.Replies)
	}
	return idInReply(tb, rec.Replies[0]), rec.Replies[0]
}

func utc(year int, month time.Month, day, hour, min int) time.Time {
	return time.Date(year, month, day, hour, min, 0, 0, time.UTC)
}

// dailyOf is the daily maze of g1 on a date with the default settings.
func dailyOf(tb testing.TB, date contest.Date) mazecore.ID {
	tb.Helper()
	id, err := contest.MazeFor(testDailyKey, contest.DailySettings{GuildID: "g1", Algorithm: mazecore.Backtracking, Size: 21}, date)
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// opensAt is the "solutions open" stamp of a daily header for a day that
// ends at midnight: MaxClockSkew later. opensPattern reads it back.
func opensAt(midnight time.Time) string {
	return fmt.Sprintf("solutions open <t:%d:R>", midnight.Add(contest.MaxClockSkew).Unix())
}

// opensStamp is the timestamp of the solutions opening of a day that ends
// at midnight.
func opensStamp(midnight time.Time) string {
	return fmt.Sprintf("<t:%d:R>", midnight.Add(contest.MaxClockSkew).Unix())
}

var opensPattern = regexp.MustCompile(`solutions open <t:([0-9]+):R>`)

// TestDailyDayBoundaries: the daily's day is the server's local date, and
// its solutions open at the next local midnight, through daylight-saving
// changes, as /daily today shows them.
func TestDailyDayBoundaries(t *testing.T) {
	for _, tc := range []struct {
		name  string
		zone  string
		at    time.Time
		date  string
		opens time.Time // the next local midnight
	}{
		{"SeoulBeforeMidnight", "Asia/Seoul", utc(2026, 11, 30, 14, 59), "2026-11-30", utc(2026, 11, 30, 15, 0)},
		{"SeoulMidnightIs15UTC", "Asia/Seoul", utc(2026, 11, 30, 15, 0), "2026-12-01", utc(2026, 12, 1, 15, 0)},
		{"SeoulNextMidnight", "Asia/Seoul", utc(2026, 11, 30, 3, 0), "2026-11-30", utc(2026, 11, 30, 15, 0)},
		{"LABeforeMidnight", "America/Los_Angeles", utc(2026, 12, 1, 7, 59), "2026-11-30", utc(2026, 12, 1, 8, 0)},
		{"LAMidnightIs08UTCInWinter", "America/Los_Angeles", utc(2026, 12, 1, 8, 0), "2026-12-01", utc(2026, 12, 2, 8, 0)},
		{"LAMidnightIs07UTCInSummer", "America/Los_Angeles", utc(2026, 7, 1, 7, 0), "2026-07-01", utc(2026, 7, 2, 7, 0)},
		{"LASpringForwardDay", "America/Los_Angeles", utc(2026, 3, 9, 6, 59), "2026-03-08", utc(2026, 3, 9, 7, 0)},
		{"LASpringForwardNextDay", "America/Los_Angeles", utc(2026, 3, 9, 7, 0), "2026-03-09", utc(2026, 3, 10, 7, 0)},
		{"LAFallBackDay", "America/Los_Angeles", utc(2026, 11, 2, 7, 59), "2026-11-01", utc(2026, 11, 2, 8, 0)},
		{"LAFallBackNextDay", "America/Los_Angeles", utc(2026, 11, 2, 8, 0), "2026-11-02", utc(2026, 11, 3, 8, 0)},
		{"UTC", "UTC", utc(2026, 11, 30, 12, 0), "2026-11-30", utc(2026, 12, 1, 0, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOptions{now: tc.at.Add(-30 * 24 * time.Hour)})
			e.setup(t, "09:00", tc.zone)
			e.clock.Set(tc.at)
			_, msg := e.today(t)
			header := strings.SplitN(msg.Text(), "\n", 2)[0]
			if !strings.Contains(header, " · "+tc.date+" · ") || !strings.Contains(header, opensAt(tc.opens)) {
				t.Fatalf("at %v in %s the daily header is %q, want %s with %s", tc.at, tc.zone, header, tc.date, opensAt(tc.opens))
			}
		})
	}
	// A day runs from the previous day's solutions opening to its own: 23
	// hours when the clocks spring forward, 25 when they fall back.
	t.Run("DayLengths", func(t *testing.T) {
		la, err := time.LoadLocation("America/Los_Angeles")
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, envOptions{now: utc(2026, 1, 1, 0, 0)})
		e.setup(t, "09:00", la.String())
		opens := func(d contest.Date) time.Time {
			e.clock.Set(d.Noon(la))
			_, msg := e.today(t)
			m := opensPattern.FindStringSubmatch(msg.Text())
			if m == nil {
				t.Fatalf("no opening time in %q", msg.Text())
			}
			sec, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return time.Unix(sec, 0)
		}
		for _, tc := range []struct {
			date contest.Date
			want time.Duration
		}{{contest.MakeDate(2026, 3, 8), 23 * time.Hour}, {contest.MakeDate(2026, 11, 1), 25 * time.Hour}, {contest.MakeDate(2026, 11, 30), 24 * time.Hour}} {
			if got := opens(tc.date).Sub(opens(tc.date.AddDays(-1))); got != tc.want {
				t.Fatalf("%s in Los Angeles lasts %v, want %v", tc.date, got, tc.want)
			}
		}
	})
	// The maze of the day turns over at the server's local midnight.
	t.Run("MazeChangesAtLocalMidnight", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 0, 0)})
		e.setup(t, "09:00", "Asia/Seoul")
		e.clock.Set(utc(2026, 11, 30, 14, 59))
		before, msg := e.today(t)
		if !strings.Contains(msg.Text(), "#334") || !strings.Contains(msg.Text(), "2026-11-30") {
			t.Fatalf("daily header %q, want #334 of 2026-11-30", msg.Text())
		}
		if !strings.Contains(msg.Text(), opensStamp(utc(2026, 11, 30, 15, 0))) {
			t.Fatalf("daily header %q does not say solutions open just after 15:00 UTC", msg.Text())
		}
		e.clock.Set(utc(2026, 11, 30, 15, 0))
		after, msg := e.today(t)
		if before == after || !strings.Contains(msg.Text(), "#335") {
			t.Fatalf("daily at 15:00 UTC is %s (%q), want a new maze #335", after, msg.Text())
		}
	})
}

// Every member of a server gets the same daily.
func TestDailySameForEveryone(t *testing.T) {
	e := newEnv(t, envOptions{})
	first, _ := e.today(t)
	ix := dailySlash(t, permsMember, "today", nil)
	ix.Member.User.ID = "u2"
	rec := e.send(t, ix)
	if len(rec.Replies) != 1 || idInReply(t, rec.Replies[0]) != first {
		t.Fatalf("u2 got %+v, want the daily %s", rec.Replies, first)
	}
	if first.Width != 21 || first.Algorithm != mazecore.Backtracking {
		t.Fatalf("default daily %+v, want backtracking 21×21", first)
	}
	if got, want := first, dailyOf(t, contest.MakeDate(2026, 11, 30)); got != want {
		t.Fatalf("daily=%v, want %v (UTC until set up)", got, want)
	}
}

// The post time is local: it moves in UTC across daylight-saving changes.
func TestDailyPostTimeAcrossDST(t *testing.T) {
	for _, tc := range testkit.PostTimesAcrossDST() {
		t.Run(tc.Name, func(t *testing.T) {
			e := newEnv(t, envOptions{now: tc.Before.Add(-24 * time.Hour)})
			e.setup(t, tc.At, "America/Los_Angeles")
			e.clock.Set(tc.Before)
			e.tick(t) // yesterday is over and today's post is not due yet
			if len(e.poster.all()) != 0 {
				t.Fatalf("posted at %v, a minute before %s local", tc.Before, tc.At)
			}
			e.clock.Set(tc.When)
			e.tick(t)
			posts := e.poster.all()
			if len(posts) != 1 || !strings.Contains(posts[0].reply.Text(), tc.Date) {
				t.Fatalf("after the tick at %v: %d posts, want today's (%s)", tc.When, len(posts), tc.Date)
			}
			e.clock.Set(tc.When.Add(time.Hour)) // the repeated hour comes again
			e.tick(t)
			if got := len(e.poster.all()); got != 1 {
				t.Fatalf("%d posts for the day, want 1", got)
			}
		})
	}
}

func TestDailyPost(t *testing.T) {
	ctx := context.Background()
	today := contest.MakeDate(2026, 11, 30)
	// setUpThen is a server whose daily was set up at from, to post at
	// 09:00 UTC, with its clock then moved to now and no tick run yet.
	setUpThen := func(t *testing.T, from, now time.Time) *env {
		t.Helper()
		e := newEnv(t, envOptions{now: from})
		e.setup(t, "09:00", "UTC")
		e.clock.Set(now)
		return e
	}
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
		reply := e.setup(t, "09:00", "UTC")
		if !strings.Contains(reply.Text(), "<#daily-ch>") || !strings.Contains(reply.Text(), fmt.Sprintf("<t:%d:F>", utc(2026, 11, 30, 9, 0).Unix())) {
			t.Fatalf("setup reply %q, want the channel and today 09:00 as the next post", reply.Text())
		}
		e.tick(t)
		wantPosts(t, e.poster, 0, "before 09:00")
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		posts := e.poster.all()
		if len(posts) != 1 || posts[0].channel != "daily-ch" {
			t.Fatalf("posts=%+v, want one in daily-ch", posts)
		}
		msg := posts[0].reply
		if !strings.HasPrefix(msg.Text(), "📅 **Daily challenge #334**") || len(buttons(msg)) != 3 || buttons(msg)[0].CustomID != customid.PlayPrefix+":"+idInReply(t, msg).String() {
			t.Fatalf("post %q with %d buttons, want the daily header and Play, Solve, Race", msg.Text(), len(buttons(msg)))
		}
		id, _ := e.today(t)
		if idInReply(t, msg) != id {
			t.Fatalf("post shows %s, /daily today %s", idInReply(t, msg), id)
		}
		p, err := e.db.DailyPost(ctx, "g1", today)
		if err != nil {
			t.Fatal(err)
		}
		if p.State != contest.Posted || p.MessageID != "msg1" || p.MazeID != id {
			t.Fatalf("daily post row %+v, want %s posted as msg1", p, id)
		}
		// The post is the channel's latest maze, for a bare /solve.
		last, err := e.db.LastPost(ctx, "daily-ch")
		if err != nil {
			t.Fatal(err)
		}
		if last.MazeID != id || last.MessageID != "msg1" {
			t.Fatalf("last post in the channel %+v, want the daily", last)
		}
	})
	t.Run("OKExactlyOnce", func(t *testing.T) {
		e := setUpThen(t, utc(2026, 11, 30, 8, 0), utc(2026, 11, 30, 9, 0))
		e.tick(t)
		e.tick(t)
		e.clock.Advance(10 * time.Hour)
		e.tick(t)
		wantPosts(t, e.poster, 1, "after three ticks")
	})
	// Two bot processes on one database file, ticking at once; then a
	// restart: one post.
	t.Run("OKTwoProcessesAndRestart", func(t *testing.T) {
		shared := envOptions{path: tempDB(t), clock: testkit.NewClock(utc(2026, 11, 29, 23, 0)), poster: &poster{}} // 08:00 in Seoul
		a, b := newEnv(t, shared), newEnv(t, shared)
		a.setup(t, "09:00", "Asia/Seoul")
		shared.clock.Advance(2 * time.Hour)
		var wg sync.WaitGroup
		for _, e := range []*env{a, b, a, b, a, b} {
			wg.Go(func() {
				if err := e.tickErr(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		restarted := newEnv(t, shared)
		restarted.tick(t)
		wantPosts(t, shared.poster, 1, "from two processes and a restart")
		shared.clock.Advance(24 * time.Hour)
		restarted.tick(t)
		a.tick(t)
		wantPosts(t, shared.poster, 2, "after the next day's post time")
	})
	// The bot was down at 09:00 and comes back at 14:00: it posts then.
	t.Run("OKCatchUpSameDay", func(t *testing.T) {
		e := setUpThen(t, utc(2026, 11, 30, 8, 0), utc(2026, 11, 30, 14, 0))
		e.tick(t)
		if posts := e.poster.all(); len(posts) != 1 || !strings.Contains(posts[0].reply.Text(), "2026-11-30") {
			t.Fatalf("posts=%+v, want today's on return", posts)
		}
	})
	// Down from before yesterday's post time until after today's: only
	// today's is posted; yesterday is over.
	t.Run("OKCatchUpNextDay", func(t *testing.T) {
		e := setUpThen(t, utc(2026, 11, 29, 8, 0), utc(2026, 11, 30, 10, 0))
		e.tick(t)
		e.tick(t)
		posts := e.poster.all()
		if len(posts) != 1 || !strings.Contains(posts[0].reply.Text(), "2026-11-30") {
			t.Fatalf("posts=%+v, want only 2026-11-30's", posts)
		}
		if _, err := e.db.DailyPost(ctx, "g1", today.AddDays(-1)); !errors.Is(err, contest.ErrNotFound) {
			t.Fatalf("yesterday's post row: err=%v, want ErrNotFound", err)
		}
	})
	// Back the next morning before the post time: nothing yet.
	t.Run("OKNothingBeforeTime", func(t *testing.T) {
		e := setUpThen(t, utc(2026, 11, 29, 8, 0), utc(2026, 11, 30, 8, 59))
		e.tick(t)
		wantPosts(t, e.poster, 0, "before the post time")
	})
	// Set up after today's post time: the first post is tomorrow's.
	t.Run("OKSetupAfterPostTime", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 15, 0)})
		reply := e.setup(t, "09:00", "UTC")
		if !strings.Contains(reply.Text(), fmt.Sprintf("<t:%d:F>", utc(2026, 12, 1, 9, 0).Unix())) {
			t.Fatalf("setup reply %q, want tomorrow 09:00 as the next post", reply.Text())
		}
		e.tick(t)
		wantPosts(t, e.poster, 0, "right after a late setup")
		e.clock.Set(utc(2026, 12, 1, 9, 0))
		e.tick(t)
		wantPosts(t, e.poster, 1, "the next day")
	})
	t.Run("OKOff", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
		e.setup(t, "09:00", "UTC")
		rec := e.send(t, dailySlash(t, permsManager, "off", nil))
		if len(rec.Replies) != 1 || strings.HasPrefix(rec.Replies[0].Text(), "⚠️") {
			t.Fatalf("/daily off answered %+v", rec.Replies)
		}
		e.clock.Set(utc(2026, 11, 30, 9, 0))
		e.tick(t)
		wantPosts(t, e.poster, 0, "after /daily off")
		checkRefusal(t, e.send(t, dailySlash(t, permsManager, "off", nil)))
	})
	// A process that claimed the day and died before posting: the claim is
	// taken over once it is older than the retry delay.
	t.Run("OKCrashMidPost", func(t *testing.T) {
		e := setUpThen(t, utc(2026, 11, 30, 8, 0), utc(2026, 11, 30, 9, 0))
		crashed := contest.DailyPost{GuildID: "g1", Date: today, ChannelID: "daily-ch", MazeID: dailyOf(t, today),
			State: contest.Posting, Attempts: 1, ClaimedAt: e.clock.Now()}
		if err := e.db.ClaimDailyPost(ctx, crashed); err != nil {
			t.Fatalf("claim: %v", err)
		}
		e.clock.Advance(contest.RetryAfter - time.Second)
		e.tick(t)
		wantPosts(t, e.poster, 0, "while another process's claim is fresh")
		e.clock.Advance(2 * time.Second)
		e.tick(t)
		e.tick(t)
		wantPosts(t, e.poster, 1, "after the crashed claim went stale")
	})
	// A channel the bot can't post in (Discord answers 403) is tried
	// MaxRefusals times, not all day.
	t.Run("OKGivesUp", func(t *testing.T) {
		e := setUpThen(t, utc(2026, 11, 30, 8, 0), utc(2026, 11, 30, 9, 0))
		e.poster.failWith(&discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusForbidden}, Message: &discordgo.APIErrorMessage{Code: 50001, Message: "Missing Access"}})
		failures := 0
		for e.clock.Now().Before(utc(2026, 12, 1, 0, 0)) {
			if err := e.tickErr(ctx); err != nil {
				failures++
			}
			e.clock.Advance(contest.RetryAfter)
		}
		if failures != contest.MaxRefusals {
			t.Fatalf("%d failed attempts over the day, want %d", failures, contest.MaxRefusals)
		}
	})
	// A failed post is retried after a delay, not on every tick.
	t.Run("OKRetryAfterFailure", func(t *testing.T) {
		e := setUpThen(t, utc(2026, 11, 30, 8, 0), utc(2026, 11, 30, 9, 0))
		e.poster.failWith(errors.New("discord is down"))
		if err := e.tickErr(ctx); err == nil {
			t.Fatal("a failed post was not reported")
		}
		e.poster.failWith(nil)
		e.clock.Advance(contest.RetryAfter - time.Second)
		e.tick(t)
		wantPosts(t, e.poster, 0, "within the retry delay of "+contest.RetryAfter.String())
		e.clock.Advance(time.Second)
		e.tick(t)
		e.tick(t)
		wantPosts(t, e.poster, 1, "after the retry delay")
	})
}

// TestDailyDifficulty: a server's difficulty and loops make its dailies,
// and a server that never set them keeps the maze it always had.
func TestDailyDifficulty(t *testing.T) {
	today := contest.MakeDate(2026, 11, 30)
	t.Run("OKUnchangedWithout", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.setup(t, "09:00", "UTC")
		// The keyed hash's maze, as TestMazeFor locks it: no choosing among
		// candidates, no loops.
		if id, _ := e.today(t); id != dailyOf(t, today) || id.Loops != 0 {
			t.Fatalf("today %+v, want the maze of before difficulty and loops", id)
		}
	})
	t.Run("OKHardWithLoops", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, dailySlash(t, permsManager, "setup", map[string]any{"channel": "daily-ch", "time": "09:00", "timezone": "UTC", "size": 41, "difficulty": "hard", "loops": 30}))
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "(Recursive backtracking, 41×41, hard, loops 30%)") {
			t.Fatalf("setup answered %+v, want a confirmation naming hard and loops 30%%", rec.Replies)
		}
		settings := contest.DailySettings{GuildID: "g1", Algorithm: mazecore.Backtracking, Size: 41, Difficulty: mazecore.Hard, Loops: 30}
		want, err := contest.MazeFor(testDailyKey, settings, today)
		if err != nil {
			t.Fatal(err)
		}
		id, msg := e.today(t)
		if id != want || id.Loops != 30 {
			t.Fatalf("today %+v, want %+v", id, want)
		}
		m := testkit.Maze(t, id)
		header := fmt.Sprintf("🧩 **Recursive backtracking** · 41×41 · loops 30%% · %s · par %d · ID `%s`", views.Stars(mazecore.Rate(m).Rating), play.Par(m), id)
		if lines := strings.SplitN(msg.Text(), "\n", 3); len(lines) < 2 || lines[1] != header {
			t.Fatalf("daily message %q, want the maze header %q", msg.Text(), header)
		}
		// A later setup without them keeps them.
		e.setup(t, "10:00", "UTC")
		if again, _ := e.today(t); again != want {
			t.Fatalf("after a setup without difficulty: %+v, want still %+v", again, want)
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
		"ErrNoManageServer":     {permsMember, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC"}, "Manage Server"},
		"ErrOffNoManageServer":  {permsMember, "off", nil, "Manage Server"},
		"ErrBadTime":            {permsManager, "setup", map[string]any{"channel": "c", "time": "9am", "timezone": "UTC"}, "HH:MM"},
		"ErrTime24":             {permsManager, "setup", map[string]any{"channel": "c", "time": "24:00", "timezone": "UTC"}, "HH:MM"},
		"ErrUnknownZone":        {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "Mars/Olympus"}, "Asia/Seoul"},
		"ErrLocalZone":          {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "Local"}, "Asia/Seoul"},
		"ErrSizeTooBig":         {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "size": 43}, "41"},
		"ErrSizeTooSmall":       {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "size": 3}, "41"},
		"ErrUnknownAlgorithm":   {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "algorithm": "prim"}, "prim"},
		"ErrUnknownDifficulty":  {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "difficulty": "brutal"}, "`brutal`: choose easy, medium, hard, any"},
		"ErrLoops":              {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "loops": 250}, "to 100 (no dead ends). You asked for 250."},
		"ErrChampionEveryone":   {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "champion-role": "g1"}, "`@everyone` can't be the champion role"},
		"ErrChampionRoleAndOff": {permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "champion-role": "r1", "champion-role-off": true}, "not both"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
			msg := checkRefusal(t, e.send(t, dailySlash(t, tc.perms, tc.sub, tc.opts)))
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("refusal %q does not mention %q", msg, tc.want)
			}
			if _, err := e.db.DailySettings(context.Background(), "g1"); !errors.Is(err, contest.ErrNotFound) {
				t.Fatalf("a refused setup: settings err=%v, want ErrNotFound (nothing stored)", err)
			}
		})
	}
	t.Run("OKAdministrator", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
		rec := e.send(t, dailySlash(t, permsAdmin, "setup", map[string]any{"channel": "c", "time": "7:05", "timezone": "Asia/Seoul", "algorithm": "sidewinder", "size": 30}))
		if len(rec.Replies) != 1 || strings.HasPrefix(rec.Replies[0].Text(), "⚠️") || !strings.Contains(rec.Replies[0].Text(), "rounded up to 31") {
			t.Fatalf("an administrator's setup answered %+v, want it accepted with a rounding note", rec.Replies)
		}
		s, err := e.db.DailySettings(context.Background(), "g1")
		if err != nil {
			t.Fatal(err)
		}
		if s.Zone == nil || s.Zone.String() != "Asia/Seoul" {
			t.Fatalf("zone=%v, want Asia/Seoul", s.Zone)
		}
		// Nobody had seen the day running in UTC: Seoul's starts at once,
		// and UTC's dates stay behind it.
		if s.PrevZone != time.UTC || !s.ZoneFrom.Equal(utc(2026, 11, 30, 0, 0)) {
			t.Fatalf("previous zone %v from %v, want UTC until today's start", s.PrevZone, s.ZoneFrom)
		}
		s.Zone, s.PrevZone, s.ZoneFrom = nil, nil, time.Time{}
		postAt, _ := contest.ParseTimeOfDay("07:05")
		want := contest.DailySettings{GuildID: "g1", ChannelID: "c", PostAt: postAt, Algorithm: mazecore.Sidewinder, Size: 31, Language: "en", Enabled: true, UpdatedAt: utc(2026, 11, 30, 8, 0)}
		if s != want {
			t.Fatalf("settings=%+v, want %+v", s, want)
		}
	})
	t.Run("ErrDM", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
		for _, sub := range []string{"today", "setup"} {
			ix := dmIx(t, "daily", []map[string]any{{"name": sub, "type": 1}})
			if msg := checkRefusal(t, e.send(t, ix)); !strings.Contains(msg, "server") {
				t.Fatalf("/daily %s in DMs: refusal %q does not say it needs a server", sub, msg)
			}
		}
	})
}

// Playing the daily through Play counts; the finish shows the share line
// with a streak that grows day by day and resets after a missed day.
func TestDailyFinishStreak(t *testing.T) {
	e := newEnv(t, envOptions{now: utc(2026, 11, 28, 3, 0)})
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
		e.clock.Set(tc.day)
		id, _ := e.today(t)
		final := e.play(t, "ch1", id, "u1", 2*time.Second)
		// Following the solution takes par clicks, 2 s each.
		m := testkit.Maze(t, id)
		rating, par := mazecore.Rate(m).Rating, play.Par(m)
		// One line on the win; the share lines behind Share, privately.
		line := fmt.Sprintf("📋 Share it: `mazebot daily #%d · %s · %s · par ±0 · 🔥%d`\n", tc.number, strings.Repeat("★", rating), lang.English.Clock(time.Duration(par)*2*time.Second), tc.streak)
		text := fmt.Sprintf("Share (text only): `mazebot daily %d, difficulty %d of 5, time ", tc.number, rating)
		if strings.Contains(final.Text(), "Share it:") || !strings.Contains(final.Text(), "you're #1 of 1 today") {
			t.Fatalf("finish on %v:\n%s\nwant the day's rank alone", tc.day, final.Text())
		}
		shared := e.share(t, final, "u1").Text()
		if !strings.Contains(shared, line) || !strings.Contains(shared, text) || !strings.Contains(shared, fmt.Sprintf("at par, streak %d day", tc.streak)) {
			t.Fatalf("Share on %v lacks the share lines %q and %q…:\n%s", tc.day, line, text, shared)
		}
		if strings.Contains(shared, id.String()) {
			t.Fatal("the share lines spoil the maze ID")
		}
	}
	// Another maze counts for nothing.
	e.clock.Set(utc(2026, 12, 2, 4, 0))
	other := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 9, Height: 9, Seed: 1}
	if final := e.play(t, "ch1", other, "u1", time.Second); strings.Contains(final.Text(), "mazebot daily") || strings.Contains(e.share(t, final, "u1").Text(), "mazebot daily") {
		t.Fatalf("a normal maze got a daily's share line:\n%s", final.Text())
	}
	// A second, slower run on the day keeps the best for the ranking.
	e.clock.Set(utc(2026, 12, 2, 5, 0))
	id, _ := e.today(t)
	final := e.play(t, "ch1", id, "u1", 10*time.Second)
	if !strings.Contains(final.Text(), "with your best run") {
		t.Fatalf("a slower second run does not point at the best:\n%s", final.Text())
	}
	bests, err := e.db.DayRuns(context.Background(), "g1", contest.MakeDate(2026, 12, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(bests) != 1 || bests[0].UserID != "u1" {
		t.Fatalf("bests=%+v, want one per member", bests)
	}
}

func TestDailyGameContext(t *testing.T) {
	e := newEnv(t, envOptions{})
	id, _ := e.today(t)
	if _, g := e.start(t, id, "u1"); g.Contest != "daily:g1:2026-11-30" {
		t.Fatalf("game on today's daily has contest %q", g.Contest)
	}
	yesterday := dailyOf(t, contest.MakeDate(2026, 11, 29))
	if _, g := e.start(t, yesterday, "u1"); g.Contest != "" {
		t.Fatalf("game on yesterday's daily has contest %q, want none", g.Contest)
	}
}

// /solve on the running daily is refused until midnight in the server's
// zone, by every road to a solution; the next day it works.
func TestDailySolveRefused(t *testing.T) {
	e := newEnv(t, envOptions{now: utc(2026, 11, 29, 23, 0)})
	e.setup(t, "09:00", "Asia/Seoul")    // 08:00 in Seoul
	e.clock.Set(utc(2026, 11, 30, 8, 0)) // 17:00 in Seoul
	id, msg := e.today(t)
	e.tick(t) // the day's post, the channel's latest maze
	opens := opensStamp(utc(2026, 11, 30, 15, 0))
	roads := map[string]func() *discordgo.Interaction{
		"Slash": func() *discordgo.Interaction { return slash(t, "solve", map[string]any{"id": id.String()}) },
		"Bare": func() *discordgo.Interaction {
			ix := slash(t, "solve", nil)
			ix.ChannelID = "daily-ch"
			return ix
		},
		"Button":      func() *discordgo.Interaction { return buttonIx(t, "ch1", "solve:"+id.String(), "u1") },
		"ContextMenu": func() *discordgo.Interaction { return messageCommand(t, botMessage(msg)) },
	}
	for name, road := range roads {
		refusal := checkRefusal(t, e.send(t, road()))
		if !strings.Contains(refusal, opens) || !strings.Contains(refusal, "Asia/Seoul") {
			t.Fatalf("%s: refusal %q does not say solutions open at Seoul midnight (%s)", name, refusal, opens)
		}
	}
	// The ID copied into a DM or another server doesn't get around it.
	dm := dmIx(t, "solve", []map[string]any{{"name": "id", "type": 3, "value": id.String()}})
	elsewhere := slash(t, "solve", map[string]any{"id": id.String()})
	elsewhere.GuildID = "g2"
	for name, ix := range map[string]*discordgo.Interaction{"DM": dm, "OtherServer": elsewhere} {
		if refusal := checkRefusal(t, e.send(t, ix)); !strings.Contains(refusal, opens) {
			t.Fatalf("%s: refusal %q does not say solutions open at Seoul midnight", name, refusal)
		}
	}
	// Other mazes still solve.
	other := mazecore.ID{Algorithm: mazecore.Digging, Width: 9, Height: 15, Seed: 99}
	checkSolution(t, e.send(t, slash(t, "solve", map[string]any{"id": other.String()})), other, false)

	// Midnight in Seoul: the day is over, but a process whose clock is
	// ahead could say so early; the solution waits MaxClockSkew more
	// (issue 16 row 17).
	e.clock.Set(utc(2026, 11, 30, 15, 0))
	if refusal := checkRefusal(t, e.send(t, slash(t, "solve", map[string]any{"id": id.String()}))); !strings.Contains(refusal, opens) {
		t.Fatalf("at midnight: %q, want the solution held a few minutes more", refusal)
	}
	e.clock.Set(utc(2026, 11, 30, 15, 0).Add(contest.MaxClockSkew))
	checkSolution(t, e.send(t, slash(t, "solve", map[string]any{"id": id.String()})), id, false)
	checkSolution(t, e.press(t, "solve:"+id.String(), "u1"), id, true)
}

// TestDailyGiveUpHidesSolution: giving up today's daily ends the game
// without the path, which stays hidden until midnight like /solve.
func TestDailyGiveUpHidesSolution(t *testing.T) {
	e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
	e.setup(t, "09:00", "Asia/Seoul")
	id, _ := e.today(t)
	msg, g := e.start(t, id, "u1")
	final := onlyUpdate(t, e.press(t, button(t, msg, customid.GiveUp).CustomID, "u1"))
	if strings.Contains(final.Text(), render.DefaultTheme.Path) || !strings.Contains(final.Text(), "You gave up") {
		t.Fatalf("giving up the running daily shows:\n%s\nwant the give-up line and no solution", final.Text())
	}
	if opens := opensStamp(utc(2026, 11, 30, 15, 0)); !strings.Contains(final.Text(), opens) {
		t.Fatalf("give-up message %q does not say when solutions open (%s)", final.Text(), opens)
	}
	if g = e.game(t, g.ID); g.Status != play.GaveUp {
		t.Fatalf("game %+v, want gave up", g)
	}
	// An ordinary maze still shows its solution on Give up.
	other := mazecore.ID{Algorithm: mazecore.Digging, Width: 9, Height: 15, Seed: 99}
	msg, _ = e.start(t, other, "u1")
	if final := onlyUpdate(t, e.press(t, button(t, msg, customid.GiveUp).CustomID, "u1")); !strings.Contains(final.Text(), render.DefaultTheme.Path) {
		t.Fatalf("giving up an ordinary maze shows no solution:\n%s", final.Text())
	}
}

// TestDailyTodayIsPrivate: /daily today shows the day's maze to the
// member who asks, privately, with Play and no Solve (it could only
// refuse all day), and links the day's post once it is made; it posts
// nothing in the channel (issue 16 row 6).
func TestDailyTodayIsPrivate(t *testing.T) {
	e := newEnv(t, envOptions{now: utc(2026, 11, 29, 23, 0)})
	e.setup(t, "09:00", "Asia/Seoul")
	id, before := e.today(t)
	if strings.Contains(before.Text(), "discord.com/channels/") {
		t.Fatalf("before the post: %q links a post", before.Text())
	}
	if bs := buttons(before); len(bs) != 1 || bs[0].CustomID != customid.Play(id) {
		t.Fatalf("buttons %+v, want Play alone", bs)
	}
	e.clock.Set(utc(2026, 11, 30, 1, 0)) // 10:00 in Seoul
	e.tick(t)
	posts := e.poster.in("daily-ch")
	if len(posts) != 1 {
		t.Fatalf("daily posts %+v, want the day's one", posts)
	}
	_, after := e.today(t)
	if want := "https://discord.com/channels/g1/daily-ch/" + posts[0].id; !strings.Contains(after.Text(), want) {
		t.Fatalf("after the post: %q, want a link %s", after.Text(), want)
	}
	wantPosts(t, e.poster, 1, "in all channels (the day's post alone)")
}

// TestDailyPostsInParallel: many servers due at the same hour are posted
// a few at a time, not one after another, and every one is posted once
// (issue 16 row 19).
func TestDailyPostsInParallel(t *testing.T) {
	e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
	const servers = 40
	for i := range servers {
		ix := dailySlash(t, permsManager, "setup", map[string]any{"channel": fmt.Sprintf("ch-%d", i), "time": "09:00", "timezone": "UTC"})
		ix.GuildID = fmt.Sprintf("g-%d", i)
		ix.ApplicationCommandData().Resolved.Channels[fmt.Sprintf("ch-%d", i)].GuildID = ix.GuildID
		if rec := e.send(t, ix); len(rec.Replies) != 1 || strings.HasPrefix(rec.Replies[0].Text(), "⚠️") {
			t.Fatalf("setup %d: %+v", i, rec.Replies)
		}
	}
	var now, peak atomic.Int32
	e.poster.onPost = func() {
		n := now.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(100 * time.Millisecond) // a post's round trip to Discord
		now.Add(-1)
	}
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	e.tick(t)
	if got := len(e.poster.all()); got != servers {
		t.Fatalf("%d posts, want %d", got, servers)
	}
	if p := peak.Load(); p < 2 || p > 8 {
		t.Fatalf("%d posts at once at most, want a few (2 to 8)", p)
	}
	e.tick(t)
	if got := len(e.poster.all()); got != servers {
		t.Fatalf("after a second tick: %d posts, want still %d", got, servers)
	}
}

// TestDailyPostFoundBeforeRepost: an attempt that made the day's post and
// could not record it (the process died, a 502 after posting), retried
// after Discord's nonce window, finds the post in the channel and records
// it rather than post the day twice (issue 16 row 18).
func TestDailyPostFoundBeforeRepost(t *testing.T) {
	e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
	e.setup(t, "09:00", "UTC")
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	e.poster.failAfter = errors.New("502 Bad Gateway")
	if err := e.tickErr(context.Background()); err == nil {
		t.Fatal("the failing post reported no error")
	}
	e.poster.failAfter = nil
	e.poster.forgetNonces()
	e.clock.Advance(time.Hour) // past the retry delay and the nonce window
	e.tick(t)
	posts := e.poster.in("daily-ch")
	if len(posts) != 1 {
		t.Fatalf("%d daily posts, want the one made first", len(posts))
	}
	p, err := e.db.DailyPost(context.Background(), "g1", contest.MakeDate(2026, 11, 30))
	if err != nil || p.State != contest.Posted || p.MessageID != posts[0].id {
		t.Fatalf("the day's post record %+v, %v; want posted as %s", p, err, posts[0].id)
	}
}

// TestDailyLateRuns: a run on a daily that is over does not count, and
// the member is told so: a game started on yesterday's post, and one
// started during the day that reaches the goal after its solutions opened
// (issue 16 row 2).
func TestDailyLateRuns(t *testing.T) {
	const late = "which is over, so this run doesn't count"
	t.Run("YesterdaysPost", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 29, 12, 0), path: tempDB(t)})
		yesterday, _ := e.today(t) // fixes 2026-11-29's maze
		e.clock.Set(utc(2026, 11, 30, 12, 0))
		final := e.play(t, "ch1", yesterday, "u1", 2*time.Second)
		if !strings.Contains(final.Text(), late) || !strings.Contains(final.Text(), "#333") {
			t.Fatalf("finishing yesterday's daily says:\n%s\nwant that daily #333 is over", final.Text())
		}
		if rs := e.results(t, yesterday); len(rs) != 1 || rs[0].Contest != "" {
			t.Fatalf("results %+v, want one counting for nothing", rs)
		}
	})
	t.Run("FinishedAfterTheDay", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 23, 50)})
		id, _ := e.today(t)
		msg, g := e.start(t, id, "u1")
		e.clock.Set(utc(2026, 12, 1, 0, 0).Add(contest.MaxClockSkew)) // the day's solutions open
		final, _ := e.win(t, msg, g, time.Second, nil)
		if !strings.Contains(final.Text(), late) || !strings.Contains(final.Text(), "#334") {
			t.Fatalf("finishing after the day says:\n%s\nwant that daily #334 is over", final.Text())
		}
		rec := e.send(t, slash(t, "leaderboard", map[string]any{"period": "all"}))
		if len(rec.Replies) != 1 || len(rec.Replies[0].Embeds) != 1 {
			t.Fatalf("/leaderboard answered %+v", rec.Replies)
		}
		if board := rec.Replies[0]; strings.Contains(board.Embeds[0].Description, "<@u1>") {
			t.Fatalf("the late run is on the board: %q", board.Embeds[0].Description)
		}
	})
	t.Run("OKFinishedInTime", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 30, 23, 50)})
		id, _ := e.today(t)
		final := e.play(t, "ch1", id, "u1", time.Second)
		if strings.Contains(final.Text(), late) || !strings.Contains(final.Text(), "you're #1 of 1 today") {
			t.Fatalf("a run in time says:\n%s\nwant the day's rank", final.Text())
		}
	})
}

// TestZoneAutocomplete: /daily setup's timezone is completed as it is
// typed: by city, country or offset, in the member's language where the
// city has a name in it (issue 18 item 4).
func TestZoneAutocomplete(t *testing.T) {
	e := newEnv(t, envOptions{})
	complete := func(locale, typed string) []*discordgo.ApplicationCommandOptionChoice {
		t.Helper()
		ix := decodeInteraction(t, map[string]any{
			"type": discordgo.InteractionApplicationCommandAutocomplete, "locale": locale,
			"member": map[string]any{"user": map[string]any{"id": "mod", "username": "mod"}, "permissions": permsManager},
			"data": map[string]any{"id": "c-daily", "name": "daily", "type": 1, "options": []map[string]any{{
				"name": "setup", "type": discordgo.ApplicationCommandOptionSubCommand, "options": []map[string]any{
					{"name": "channel", "type": discordgo.ApplicationCommandOptionChannel, "value": "daily-ch"},
					{"name": "timezone", "type": discordgo.ApplicationCommandOptionString, "value": typed, "focused": true},
				},
			}}},
		})
		rec := e.send(t, ix)
		if len(rec.Completions) != 1 || len(rec.Replies) != 0 {
			t.Fatalf("%q: choices %v, replies %+v; want one answer of choices", typed, rec.Completions, rec.Replies)
		}
		return rec.Completions[0]
	}
	for _, tc := range []struct{ locale, typed, first, label string }{
		{"en-US", "seoul", "Asia/Seoul", "Asia/Seoul · Korea (South) · UTC+09:00"},
		{"en-US", "new york", "America/New_York", "America/New_York"},
		{"ko", "서울", "Asia/Seoul", "서울 · 대한민국"},
		{"ko", "seoul", "Asia/Seoul", "서울"},
	} {
		choices := complete(tc.locale, tc.typed)
		if len(choices) == 0 || len(choices) > 25 || choices[0].Value != tc.first || !strings.HasPrefix(choices[0].Name, tc.label) {
			t.Errorf("%s %q: %d choices, first %+v; want %s first, named %q…", tc.locale, tc.typed, len(choices), choices[0], tc.first, tc.label)
		}
	}
	// What a completion offers, setup takes.
	if msg := e.setup(t, "09:00", complete("en-US", "new york")[0].Value.(string)).Text(); !strings.Contains(msg, "America/New_York") {
		t.Fatalf("setup with the completed zone: %q", msg)
	}
}
