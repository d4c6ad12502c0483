package contest_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/play"
)

// dec is a date of December 2026.
func dec(day int) contest.Date { return contest.MakeDate(2026, 12, day) }

// decemberDailies is a store whose server g1 had its daily on those days
// of December 2026, at noon UTC on Dec 5, with its settings.
func decemberDailies(t *testing.T, days ...int) (*dailyEnv, contest.DailySettings) {
	t.Helper()
	e := newDailyEnv(t, utc(2026, 12, 5, 12, 0))
	s, err := e.dailies.Settings(t.Context(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, day := range days {
		if _, err := e.dailies.Fix(t.Context(), s, dec(day)); err != nil {
			t.Fatal(err)
		}
	}
	return e, s
}

// TestArchive: a past daily is played unranked: its finishes change no
// board, streak or season, only the ✓ of the days solved; the archive
// refuses today, the days to come and the days before the server's first
// daily.
func TestArchive(t *testing.T) {
	ctx := t.Context()
	e, s := decemberDailies(t, 1, 2, 4)
	// ann solved the 2nd and the 4th on the day.
	addRun(t, e.store, contest.DailyKey("g1", dec(2)), contest.Run{UserID: "ann", Elapsed: 30 * time.Second, Tiles: 40, Clicks: 9, FinishedAt: utc(2026, 12, 2, 10, 0)})
	addRun(t, e.store, contest.DailyKey("g1", dec(4)), contest.Run{UserID: "ann", Elapsed: 30 * time.Second, Tiles: 40, Clicks: 9, FinishedAt: utc(2026, 12, 4, 10, 0)})

	t.Run("Refusals", func(t *testing.T) {
		for _, tc := range []struct {
			date contest.Date
			want error
		}{
			{dec(5), contest.ErrArchiveFuture},
			{dec(6), contest.ErrArchiveFuture},
			{dec(5).AddDays(400), contest.ErrArchiveFuture},
			{dec(1).AddDays(-1), contest.ErrArchiveBeforeFirst},
		} {
			if _, err := e.dailies.Archive(ctx, "g1", tc.date); !errors.Is(err, tc.want) {
				t.Errorf("Archive(%s)=%v, want %v", tc.date, err, tc.want)
			}
		}
		if _, err := e.dailies.Archive(ctx, "g2", dec(1)); !errors.Is(err, contest.ErrArchiveEmpty) {
			t.Errorf("Archive of a server without dailies: %v, want ErrArchiveEmpty", err)
		}
	})

	t.Run("OKTheDaysMaze", func(t *testing.T) {
		day, err := e.dailies.Archive(ctx, "g1", dec(1))
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := e.store.DailyMaze(ctx, "g1", dec(1)); day.MazeID != want || day.Number() != 335 {
			t.Fatalf("archive of Dec 1: %v #%d, want the day's maze %v, #335", day.MazeID, day.Number(), want)
		}
		// A day between that nobody opened has the maze it would have had.
		gap, err := e.dailies.Archive(ctx, "g1", dec(3))
		if err != nil || gap.MazeID != mazeFor(t, s, dec(3)) {
			t.Fatalf("archive of Dec 3: %v, %v; want %v", gap.MazeID, err, mazeFor(t, s, dec(3)))
		}
	})

	board := func() []any {
		day, _ := e.dailies.Day(ctx, "g1", dec(1))
		streak, _ := e.dailies.StreakOf(ctx, "g1", "ann", dec(5))
		season, _ := e.dailies.Season(ctx, "g1", contest.SeasonOf(dec(5)), dec(5))
		totals, _ := e.dailies.Totals(ctx, "g1", contest.FirstDate, dec(5))
		return []any{len(day), streak, len(season), season[0].Points, season[0].Days, len(totals), totals[0].Days}
	}
	before := board()

	t.Run("OKUnranked", func(t *testing.T) {
		day, err := e.dailies.Archive(ctx, "g1", dec(1))
		if err != nil {
			t.Fatal(err)
		}
		games := contest.NewGames(e.store, e.clock.Now, e.contests(), quiet)
		g, _, err := games.StartArchive(ctx, day, play.Record{UserID: "ann", GuildID: "g1", ChannelID: "c1"})
		if err != nil {
			t.Fatal(err)
		}
		if want := contest.ArchiveKey("g1", dec(1)).String(); g.Contest != want {
			t.Fatalf("archive game's contest %q, want %q", g.Contest, want)
		}
		for _, d := range []int{1, 3} {
			addRun(t, e.store, contest.ArchiveKey("g1", dec(d)), contest.Run{UserID: "ann", Elapsed: 5 * time.Second, Tiles: 40, Clicks: 1, FinishedAt: utc(2026, 12, 5, 12, d)})
		}
		if after := board(); !slices.Equal(after, before) {
			t.Fatalf("board, streak, season and totals after archive games: %v, want %v", after, before)
		}
		a, err := e.contests().Finish(ctx, play.Result{UserID: "ann", GuildID: "g1", Contest: contest.ArchiveKey("g1", dec(1)).String()})
		if err != nil {
			t.Fatal(err)
		}
		if a.Daily != nil || a.Archive == nil || a.Archive.Number != 335 || !a.Archive.Next.IsZero() {
			t.Fatalf("archive award %+v", a)
		}
		solved, err := e.dailies.ArchiveSolved(ctx, "g1", "ann")
		if want := []contest.Date{dec(4), dec(3), dec(2), dec(1)}; err != nil || !slices.Equal(solved, want) {
			t.Fatalf("ArchiveSolved=%v, %v; want %v", solved, err, want)
		}
		if next, ok, err := e.dailies.NextUnsolved(ctx, "g1", "ann", dec(1)); err != nil || ok {
			t.Fatalf("NextUnsolved with every past day solved: %s, %v, %v", next, ok, err)
		}
		if next, ok, err := e.dailies.NextUnsolved(ctx, "g1", "bob", dec(2)); err != nil || !ok || next != dec(3) {
			t.Fatalf("NextUnsolved(bob, after Dec 2)=%s, %v, %v; want Dec 3", next, ok, err)
		}
		if next, ok, err := e.dailies.NextUnsolved(ctx, "g1", "bob", dec(4)); err != nil || !ok || next != dec(1) {
			t.Fatalf("NextUnsolved(bob, after Dec 4)=%s, %v, %v; want Dec 1 (from the first again)", next, ok, err)
		}
	})
}

// TestProfile: the profile query reads the days solved, the archive and
// the events won from the store.
func TestProfile(t *testing.T) {
	ctx := t.Context()
	e, _ := decemberDailies(t, 1, 2, 3, 4)
	for _, day := range []int{2, 3, 4} {
		addRun(t, e.store, contest.DailyKey("g1", dec(day)), contest.Run{UserID: "ann", Elapsed: 30 * time.Second, Tiles: 40, Clicks: 900, FinishedAt: utc(2026, 12, day, 10, 0)})
	}
	addRun(t, e.store, contest.ArchiveKey("g1", dec(1)), contest.Run{UserID: "ann", Elapsed: 5 * time.Second, Tiles: 40, Clicks: 1, FinishedAt: utc(2026, 12, 5, 11, 0)})
	// Two ended events: ann first of one, second of the other; a running
	// one she leads counts for nothing yet.
	for i, first := range []string{"ann", "bob", "ann"} {
		ev := contest.Event{GuildID: "g1", ChannelID: fmt.Sprintf("ev%d", i), Name: "race", MazeID: runMaze, StartedAt: utc(2026, 12, 5, 9, 0), EndsAt: utc(2026, 12, 5, 11, 0), Status: contest.Running}
		id, err := e.store.CreateEvent(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		addRun(t, e.store, contest.EventKey(id), contest.Run{UserID: first, Elapsed: 10 * time.Second, Tiles: 40, Clicks: 9, FinishedAt: utc(2026, 12, 5, 10, 0)})
		other := map[string]string{"ann": "bob", "bob": "ann"}[first]
		addRun(t, e.store, contest.EventKey(id), contest.Run{UserID: other, Elapsed: 20 * time.Second, Tiles: 40, Clicks: 9, FinishedAt: utc(2026, 12, 5, 10, 1)})
		if i < 2 {
			if err := e.store.EndEvent(ctx, id, utc(2026, 12, 5, 11, 0)); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := e.contests().Profile(ctx, "g1", "ann")
	if err != nil {
		t.Fatal(err)
	}
	if p.Solved != 3 || p.ArchiveSolved != 1 || p.Streak.Days != 3 || p.SeasonRank != 1 || p.SeasonPoints != 3*(contest.FinishPoints+contest.RankedPlaces) {
		t.Fatalf("profile %+v, want 3 solved, 1 from the archive, a 3-day streak, 1st of December with 60 points", p)
	}
	want := []contest.Badge{{Kind: contest.BadgeFirstFinish, On: dec(2), Count: 1}, {Kind: contest.BadgeEventWon, Count: 1}}
	if !slices.Equal(p.Badges, want) {
		t.Fatalf("badges %+v, want %+v", p.Badges, want)
	}
}

// BenchmarkProfile: the profile of a member who finished every day of a
// year, among ten members a day, with twelve ended events: what one
// /profile reads and ranks (a store read a day of the year's seasons,
// one an event), on SQLite in memory.
func BenchmarkProfile(b *testing.B) {
	ctx := b.Context()
	today := contest.MakeDate(2026, 12, 31)
	e := newDailyEnv(b, today.Noon(time.UTC))
	s, err := e.dailies.Settings(ctx, "g1")
	if err != nil {
		b.Fatal(err)
	}
	for day := today.AddDays(-364); !today.Before(day); day = day.AddDays(1) {
		if _, err := e.dailies.Fix(ctx, s, day); err != nil {
			b.Fatal(err)
		}
		for i := range 10 {
			addRun(b, e.store, contest.DailyKey("g1", day), contest.Run{UserID: fmt.Sprintf("u%d", i), Elapsed: time.Duration(30+i) * time.Second, Tiles: 40, Clicks: 9 + i, FinishedAt: day.Noon(time.UTC)})
		}
	}
	for i := range 12 {
		id, err := e.store.CreateEvent(ctx, contest.Event{GuildID: "g1", ChannelID: fmt.Sprintf("ev%d", i), Name: "race", MazeID: runMaze, StartedAt: utc(2026, 12, 30, 9, 0), EndsAt: utc(2026, 12, 30, 11, 0), Status: contest.Running})
		if err != nil {
			b.Fatal(err)
		}
		addRun(b, e.store, contest.EventKey(id), contest.Run{UserID: "u0", Elapsed: 10 * time.Second, Tiles: 40, Clicks: 9, FinishedAt: utc(2026, 12, 30, 10, 0)})
		if err := e.store.EndEvent(ctx, id, utc(2026, 12, 30, 11, 0)); err != nil {
			b.Fatal(err)
		}
	}
	c := e.contests()
	b.ResetTimer()
	for b.Loop() {
		p, err := c.Profile(ctx, "g1", "u0")
		if err != nil || p.Solved != 365 || !p.Has(contest.BadgeStreak100) || !p.Has(contest.BadgeEventWon) {
			b.Fatalf("profile %+v, %v", p, err)
		}
	}
}
