package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // the zones under test, whatever the host has

	"mazebot/contest"
	"mazebot/mazecore"
)

// sameSettings compares settings, their zones by name.
func sameSettings(a, b contest.DailySettings) bool {
	name := func(z *time.Location) string {
		if z == nil {
			return ""
		}
		return z.String()
	}
	if name(a.Zone) != name(b.Zone) || name(a.PrevZone) != name(b.PrevZone) || !a.ZoneFrom.Equal(b.ZoneFrom) {
		return false
	}
	a.Zone, b.Zone, a.PrevZone, b.PrevZone, a.ZoneFrom, b.ZoneFrom = nil, nil, nil, nil, time.Time{}, time.Time{}
	return a == b
}

func testDailySettings(t *testing.T, open opener) {
	seoul, err := time.LoadLocation("Asia/Seoul")
	ok(t, err)
	valid := contest.DailySettings{
		GuildID: "g1", ChannelID: "c1", PostAt: 9 * 60, Zone: seoul,
		Algorithm: mazecore.Sidewinder, Size: 31, Difficulty: mazecore.Hard, Loops: 30, Language: "ko", Enabled: true, UpdatedAt: at(0),
	}
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		_, err := s.DailySettings(ctx, "g1")
		wantNotFound(t, "DailySettings of a new server", err)
		want := valid
		check := func() {
			t.Helper()
			got, err := s.DailySettings(ctx, "g1")
			ok(t, err)
			if !sameSettings(got, want) {
				t.Fatalf("DailySettings=%+v, want %+v", got, want)
			}
		}
		ok(t, s.SaveDailySettings(ctx, want))
		check()
		// Setup again replaces; turning it off keeps the settings.
		want.PostAt, want.Difficulty, want.Loops, want.Language, want.Enabled, want.UpdatedAt = 18*60+30, mazecore.AnyLevel, 0, "en", false, at(5)
		ok(t, s.SaveDailySettings(ctx, want))
		check()
		// A zone change waiting for the running day's end is kept, and
		// the next save without one clears it.
		want.Zone, want.PrevZone, want.ZoneFrom = time.UTC, seoul, at(7)
		ok(t, s.SaveDailySettings(ctx, want))
		check()
		want.Zone, want.PrevZone, want.ZoneFrom = seoul, nil, time.Time{}
		ok(t, s.SaveDailySettings(ctx, want))
		check()
		other := contest.DailySettings{
			GuildID: "g2", ChannelID: "c2", PostAt: 0, Zone: time.UTC,
			Algorithm: mazecore.Digging, Size: 21, Enabled: true, UpdatedAt: at(1),
		}
		ok(t, s.SaveDailySettings(ctx, other))
		enabled, err := s.EnabledDailies(ctx)
		ok(t, err)
		if len(enabled) != 1 || !sameSettings(enabled[0], other) {
			t.Fatalf("EnabledDailies=%+v, want only g2", enabled)
		}
	})
	// A daily on another grid, or following the calendar of shapes,
	// reads back as saved.
	t.Run("OKShapes", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		for _, want := range []contest.DailySettings{
			{GuildID: "g1", ChannelID: "c1", PostAt: 60, Zone: seoul, Algorithm: mazecore.Wilson, Size: 15, Grid: mazecore.Hex, Shape: contest.ShapeCalendar, Enabled: true, UpdatedAt: at(0)},
			{GuildID: "g1", ChannelID: "c1", PostAt: 60, Zone: seoul, Algorithm: mazecore.Sidewinder, Size: 9, Grid: mazecore.Polar, Enabled: true, UpdatedAt: at(1)},
			{GuildID: "g1", ChannelID: "c1", PostAt: 60, Zone: seoul, Algorithm: mazecore.Backtracking, Size: 41, Shape: "heart", Enabled: true, UpdatedAt: at(2)},
		} {
			ok(t, s.SaveDailySettings(ctx, want))
			got, err := s.DailySettings(ctx, "g1")
			ok(t, err)
			if !sameSettings(got, want) {
				t.Fatalf("DailySettings=%+v, want %+v", got, want)
			}
		}
	})
	// Settings the store could not read back are refused.
	for _, tt := range []struct {
		name   string
		mutate func(*contest.DailySettings)
	}{
		{"ErrNoGuild", func(s *contest.DailySettings) { s.GuildID = "" }},
		{"ErrNoChannel", func(s *contest.DailySettings) { s.ChannelID = "" }},
		{"ErrPostAtNegative", func(s *contest.DailySettings) { s.PostAt = -1 }},
		{"ErrPostAtPastMidnight", func(s *contest.DailySettings) { s.PostAt = 24 * 60 }},
		{"ErrEvenSize", func(s *contest.DailySettings) { s.Size = 20 }},
		{"ErrTooSmall", func(s *contest.DailySettings) { s.Size = 3 }},
		{"ErrNoAlgorithm", func(s *contest.DailySettings) { s.Algorithm = 0 }},
		{"ErrLoopsNegative", func(s *contest.DailySettings) { s.Loops = -1 }},
		{"ErrLoopsOver100", func(s *contest.DailySettings) { s.Loops = mazecore.MaxLoops + 1 }},
		{"ErrLanguageTooLong", func(s *contest.DailySettings) { s.Language = strings.Repeat("x", 17) }},
		{"ErrUnknownShape", func(s *contest.DailySettings) { s.Shape = "squiggle" }},
		{"ErrShapeOnPolar", func(s *contest.DailySettings) { s.Grid, s.Shape = mazecore.Polar, "heart" }},
		{"ErrUnknownGrid", func(s *contest.DailySettings) { s.Grid = 9 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, open)
			bad := valid
			tt.mutate(&bad)
			wantRefused(t, "SaveDailySettings", s.SaveDailySettings(t.Context(), bad))
			_, err := s.DailySettings(t.Context(), bad.GuildID)
			wantNotFound(t, "DailySettings after a refused save", err)
			enabled, err := s.EnabledDailies(t.Context())
			ok(t, err)
			if len(enabled) != 0 {
				t.Fatalf("EnabledDailies=%+v, want none", enabled)
			}
		})
	}
}

// firstClaim is the first claim on g1's post of November 30.
var firstClaim = contest.DailyPost{
	GuildID: "g1", Date: date(30), ChannelID: "c1", MazeID: maze(1),
	State: contest.Posting, Attempts: 1, ClaimedAt: at(0),
}

// retry is the claim after p, made in channel at t, on another maze (which
// the store ignores: the day keeps the maze of its first claim).
func retry(p contest.DailyPost, channel string, t time.Time) contest.DailyPost {
	p.Attempts++
	p.ChannelID, p.MazeID, p.ClaimedAt = channel, maze(uint64(100+p.Attempts)), t
	return p
}

func mustDailyPost(tb testing.TB, s Store, guildID string, d contest.Date) contest.DailyPost {
	tb.Helper()
	p, err := s.DailyPost(tb.Context(), guildID, d)
	ok(tb, err)
	return p
}

// wantDailyPost fails unless the stored post of want's server and date is want.
func wantDailyPost(tb testing.TB, s Store, want contest.DailyPost) {
	tb.Helper()
	if got := mustDailyPost(tb, s, want.GuildID, want.Date); got != want {
		tb.Fatalf("DailyPost=%+v, want %+v", got, want)
	}
}

func testDailyPosts(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		_, err := s.DailyPost(ctx, "g1", date(30))
		wantNotFound(t, "DailyPost before a claim", err)
		ok(t, s.ClaimDailyPost(ctx, firstClaim))
		wantDailyPost(t, s, firstClaim)
		// Other days and other servers (g10 starts like g1) are claimed
		// apart.
		for _, p := range []contest.DailyPost{
			{GuildID: "g1", Date: date(29), ChannelID: "c1", MazeID: maze(2), State: contest.Posting, Attempts: 1, ClaimedAt: at(1)},
			{GuildID: "g10", Date: date(30), ChannelID: "c9", MazeID: maze(3), State: contest.Posting, Attempts: 1, ClaimedAt: at(2)},
		} {
			ok(t, s.ClaimDailyPost(ctx, p))
			wantDailyPost(t, s, p)
		}
		ok(t, s.SetDailyPosted(ctx, "g1", date(30), "msg1"))
		want := firstClaim
		want.MessageID, want.State = "msg1", contest.Posted
		wantDailyPost(t, s, want)
		_, err = s.DailyPost(ctx, "g1", date(1))
		wantNotFound(t, "DailyPost of a day never claimed", err)
	})
	// A claim that never completed (a crash, a failed post) is claimed
	// again, each attempt over the one before: the channel follows the
	// latest claim, the maze stays the first's.
	t.Run("OKRetry", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		ok(t, s.ClaimDailyPost(ctx, firstClaim))
		second := retry(firstClaim, "c2", at(10))
		ok(t, s.ClaimDailyPost(ctx, second)) // over a claim still posting
		want := second
		want.MazeID = firstClaim.MazeID
		wantDailyPost(t, s, want)
		ok(t, s.SetDailyFailed(ctx, "g1", date(30), second.Attempts, false))
		want.State = contest.Failed
		wantDailyPost(t, s, want)
		third := retry(second, "c3", at(20))
		ok(t, s.ClaimDailyPost(ctx, third)) // over a failed one
		want = third
		want.MazeID = firstClaim.MazeID
		wantDailyPost(t, s, want)
		ok(t, s.SetDailyPosted(ctx, "g1", date(30), "msg3"))
		want.State, want.MessageID = contest.Posted, "msg3"
		wantDailyPost(t, s, want)
	})
	second := retry(firstClaim, "c2", at(10))
	again := firstClaim // another process's first claim
	again.ChannelID, again.MazeID, again.ClaimedAt = "c9", maze(9), at(1)
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, s Store) // the day as the claim finds it
		claim contest.DailyPost
	}{
		{"ErrConflictNotClaimed", func(*testing.T, Store) {}, second},
		{"ErrConflictFirstTwice", claimed(firstClaim), again},
		{"ErrConflictSkipped", claimed(firstClaim), retry(second, "c3", at(20))},
		{"ErrConflictStale", claimed(firstClaim, second), second},
		{"ErrConflictStaleFailed", func(t *testing.T, s Store) {
			claimed(firstClaim, second)(t, s)
			ok(t, s.SetDailyFailed(t.Context(), "g1", date(30), second.Attempts, false))
		}, second},
		// A posted day is never claimed again, however old.
		{"ErrConflictPosted", func(t *testing.T, s Store) {
			claimed(firstClaim)(t, s)
			ok(t, s.SetDailyPosted(t.Context(), "g1", date(30), "msg1"))
		}, second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, open)
			tt.setup(t, s)
			before, err := s.DailyPost(t.Context(), "g1", date(30))
			if err != nil {
				wantNotFound(t, "DailyPost before the claim", err)
			}
			wantConflict(t, fmt.Sprintf("claim #%d", tt.claim.Attempts), s.ClaimDailyPost(t.Context(), tt.claim))
			if before == (contest.DailyPost{}) {
				_, err := s.DailyPost(t.Context(), "g1", date(30))
				wantNotFound(t, "DailyPost after a refused claim", err)
				return
			}
			wantDailyPost(t, s, before)
		})
	}
	// Processes ticking at once, on two handles: exactly one claim of each
	// attempt wins, and the day records the winner's.
	t.Run("OKOneClaimPerAttempt", func(t *testing.T) {
		h := handles(t, open)
		ctx := t.Context()
		// Round r claims the post of November r+1.
		claim := func(round, attempt, i int) contest.DailyPost {
			p := firstClaim
			p.Date, p.Attempts, p.ClaimedAt = date(1+round), attempt, at(10*attempt)
			p.ChannelID, p.MazeID = fmt.Sprintf("c%d.%d", attempt, i), maze(uint64(100*attempt+i))
			return p
		}
		var first []int
		for attempt := 1; attempt <= 3; attempt++ {
			if attempt == 3 {
				for round := range rounds {
					ok(t, h[0].SetDailyFailed(ctx, "g1", date(1+round), 2, false))
				}
			}
			winners := raceOne(t, h, func(s Store, round, i int) error { return s.ClaimDailyPost(ctx, claim(round, attempt, i)) })
			if attempt == 1 {
				first = winners
			}
			for round, i := range winners {
				want := claim(round, attempt, i)
				want.MazeID = claim(round, 1, first[round]).MazeID
				wantDailyPost(t, h[1], want)
			}
		}
	})
}

// testDailyPostOutcomes: what failed and made attempts record.
func testDailyPostOutcomes(t *testing.T, open opener) {
	second := retry(firstClaim, "c2", at(10))
	// Refused attempts are counted and kept through later claims.
	t.Run("OKRefusedCounted", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		claimed(firstClaim)(t, s)
		ok(t, s.SetDailyFailed(ctx, "g1", date(30), 1, true))
		want := firstClaim
		want.State, want.Refused = contest.Failed, 1
		wantDailyPost(t, s, want)
		ok(t, s.ClaimDailyPost(ctx, second))
		want = second
		want.MazeID, want.Refused = firstClaim.MazeID, 1
		wantDailyPost(t, s, want)
		ok(t, s.SetDailyFailed(ctx, "g1", date(30), 2, false))
		want.State = contest.Failed
		wantDailyPost(t, s, want)
	})
	// The failure of a claim that was taken over since changes nothing.
	t.Run("ErrConflictFailTakenOver", func(t *testing.T) {
		s := fresh(t, open)
		claimed(firstClaim, second)(t, s)
		wantConflict(t, "SetDailyFailed of claim 1 under claim 2", s.SetDailyFailed(t.Context(), "g1", date(30), 1, true))
		want := second
		want.MazeID = firstClaim.MazeID
		wantDailyPost(t, s, want)
	})
	t.Run("ErrConflictFailNotClaimed", func(t *testing.T) {
		wantConflict(t, "SetDailyFailed of a day never claimed", fresh(t, open).SetDailyFailed(t.Context(), "g1", date(30), 1, false))
	})
	// An attempt's post may land after the attempt was given up as
	// failed: it is recorded.
	t.Run("OKPostedAfterFailed", func(t *testing.T) {
		s := fresh(t, open)
		claimed(firstClaim)(t, s)
		ok(t, s.SetDailyFailed(t.Context(), "g1", date(30), 1, false))
		ok(t, s.SetDailyPosted(t.Context(), "g1", date(30), "late"))
		want := firstClaim
		want.State, want.MessageID = contest.Posted, "late"
		wantDailyPost(t, s, want)
	})
	// A posted day keeps its message.
	t.Run("ErrConflictPostedTwice", func(t *testing.T) {
		s := fresh(t, open)
		claimed(firstClaim)(t, s)
		ok(t, s.SetDailyPosted(t.Context(), "g1", date(30), "msg1"))
		wantConflict(t, "second SetDailyPosted", s.SetDailyPosted(t.Context(), "g1", date(30), "msg2"))
		want := firstClaim
		want.State, want.MessageID = contest.Posted, "msg1"
		wantDailyPost(t, s, want)
	})
	t.Run("ErrConflictPostedNotClaimed", func(t *testing.T) {
		s := fresh(t, open)
		wantConflict(t, "SetDailyPosted of a day never claimed", s.SetDailyPosted(t.Context(), "g1", date(30), "msg1"))
		_, err := s.DailyPost(t.Context(), "g1", date(30))
		wantNotFound(t, "DailyPost after a refused record", err)
	})
}

// testDailyMazes: the first maze fixed for a server's day stays, and
// every day on a maze is found by it.
func testDailyMazes(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		_, err := s.DailyMaze(ctx, "g1", date(30))
		wantNotFound(t, "DailyMaze before a fix", err)
		fix := func(guild string, day int, m uint64) {
			t.Helper()
			got, err := s.FixDailyMaze(ctx, contest.DailyMaze{GuildID: guild, Date: date(day), MazeID: maze(m)})
			ok(t, err)
			want := read(t, func(ctx context.Context, g string) (mazecore.ID, error) { return s.DailyMaze(ctx, g, date(day)) }, guild)
			if got != want {
				t.Fatalf("FixDailyMaze(%s, %d)=%v, DailyMaze=%v: want the same", guild, day, got, want)
			}
		}
		fix("g1", 30, 1)
		fix("g1", 30, 2) // too late: the day keeps maze 1
		if got := read(t, func(ctx context.Context, g string) (mazecore.ID, error) { return s.DailyMaze(ctx, g, date(30)) }, "g1"); got != maze(1) {
			t.Fatalf("DailyMaze=%v after a second fix, want the first, %v", got, maze(1))
		}
		fix("g1", 29, 3)
		fix("g10", 30, 1) // a seed collision: two days on one maze
		fix("g2", 30, 4)
		got, err := s.DailiesOnMaze(ctx, maze(1))
		ok(t, err)
		slices.SortFunc(got, func(a, b contest.DailyMaze) int { return strings.Compare(a.GuildID, b.GuildID) })
		want := []contest.DailyMaze{{GuildID: "g1", Date: date(30), MazeID: maze(1)}, {GuildID: "g10", Date: date(30), MazeID: maze(1)}}
		if !slices.Equal(got, want) {
			t.Fatalf("DailiesOnMaze=%+v, want %+v", got, want)
		}
		none, err := s.DailiesOnMaze(ctx, maze(2))
		ok(t, err)
		if len(none) != 0 {
			t.Fatalf("DailiesOnMaze of a maze never fixed=%+v, want none", none)
		}
	})
	// Processes fixing a day at once all get the one maze that stuck.
	t.Run("OKOneFix", func(t *testing.T) {
		h := handles(t, open)
		ctx := t.Context()
		var (
			wg  sync.WaitGroup
			got [racers]mazecore.ID
		)
		for i := range racers {
			wg.Go(func() {
				var err error
				got[i], err = h[i%2].FixDailyMaze(ctx, contest.DailyMaze{GuildID: "g1", Date: date(30), MazeID: maze(uint64(i + 1))})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		for i := range got {
			if got[i] != got[0] {
				t.Fatalf("racer %d got %v, racer 0 %v: want one maze", i, got[i], got[0])
			}
		}
	})
}

// claimed makes the claims in order.
func claimed(claims ...contest.DailyPost) func(t *testing.T, s Store) {
	return func(t *testing.T, s Store) {
		t.Helper()
		for _, p := range claims {
			ok(t, s.ClaimDailyPost(t.Context(), p))
		}
	}
}
