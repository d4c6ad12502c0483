package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/play"
)

// res is a result of 3 clicks in the contest key ("" for none), in the
// server the key names.
func res(user, key string, elapsed time.Duration, tiles int, finished time.Time) play.Result {
	k, _ := contest.ParseKey(key)
	guild, _, _ := k.Daily()
	if g, _, ok := k.Archive(); ok {
		guild = g
	}
	return play.Result{UserID: user, GuildID: guild, Contest: key, Clicks: 3, Tiles: tiles, Elapsed: elapsed, FinishedAt: finished}
}

// record wins a game for each result, in order.
func record(tb testing.TB, s Store, results ...play.Result) {
	tb.Helper()
	for _, r := range results {
		win(tb, s, r)
	}
}

// run is the run of r.
func run(r play.Result) contest.Run {
	return contest.Run{UserID: r.UserID, Elapsed: r.Elapsed, Tiles: r.Tiles, Clicks: r.Clicks, FinishedAt: r.FinishedAt}
}

func testRankings(t *testing.T, open opener) {
	sec := func(n int) time.Duration { return time.Duration(n) * time.Second }
	nov29, nov30 := daily("g1", date(29)), daily("g1", date(30))
	annBest := res("ann", nov30, sec(70), 70, at(3)) // faster than her first, more tiles
	bob := res("bob", nov30, sec(70), 50, at(4))     // beats ann on tiles
	cat := res("cat", nov30, sec(95), 40, at(5))
	days := []play.Result{
		res("ann", nov29, sec(90), 60, at(1)),
		res("ann", nov30, sec(80), 60, at(2)),
		annBest, bob, cat,
		res("cat", daily("g1", date(28)), sec(10), 40, at(6)),
		// Not counted: another server whose ID starts alike, a run in no
		// contest, an event's run.
		res("dan", daily("g10", date(30)), sec(1), 1, at(7)),
		res("dan", "", sec(1), 1, at(8)),
		res("dan", contest.EventKey(1).String(), sec(1), 1, at(9)),
	}

	// Each member's best run of the day, best first: fastest, then fewest
	// tiles, then earliest.
	t.Run("OKDayRuns", func(t *testing.T) {
		s := fresh(t, open)
		record(t, s, days...)
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), []contest.Run{run(bob), run(annBest), run(cat)})
	})
	t.Run("OKDayRunsOrder", func(t *testing.T) {
		s := fresh(t, open)
		// Recorded out of order; the letter is the expected place.
		e := res("e", nov30, sec(20), 10, at(0))
		c := res("c", nov30, sec(10), 30, at(1))
		a := res("a", nov30, sec(10), 20, at(5))
		d := res("d", nov30, sec(10), 30, at(2))
		b := res("b", nov30, sec(10), 25, at(9))
		record(t, s, e, c, a, d, b, res("x", nov29, sec(1), 1, at(0)))
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), []contest.Run{run(a), run(b), run(c), run(d), run(e)})
	})
	// Of a member's equal runs, the earliest is the best.
	t.Run("OKDayRunsEarliest", func(t *testing.T) {
		s := fresh(t, open)
		first := res("ann", nov30, sec(30), 30, at(10))
		record(t, s, res("ann", nov30, sec(30), 30, at(20)), first, res("ann", nov30, sec(30), 30, at(30)))
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), []contest.Run{run(first)})
	})

	t.Run("OKTotals", func(t *testing.T) {
		s := fresh(t, open)
		record(t, s, days...)
		wantTotals(t, s, "g1", date(29), date(30), []contest.Total{
			{UserID: "ann", Days: 2, Elapsed: sec(160), Tiles: 130},
			{UserID: "bob", Days: 1, Elapsed: sec(70), Tiles: 50},
			{UserID: "cat", Days: 1, Elapsed: sec(95), Tiles: 40},
		})
		// cat's 2 days took less time in total than ann's.
		wantTotals(t, s, "g1", contest.FirstDate, contest.LastDate, []contest.Total{
			{UserID: "cat", Days: 2, Elapsed: sec(105), Tiles: 80},
			{UserID: "ann", Days: 2, Elapsed: sec(160), Tiles: 130},
			{UserID: "bob", Days: 1, Elapsed: sec(70), Tiles: 50},
		})
	})
	// Most days first, then least time, then fewest tiles.
	t.Run("OKTotalsOrder", func(t *testing.T) {
		s := fresh(t, open)
		d1, d2 := daily("g2", date(1)), daily("g2", date(2))
		record(t, s,
			res("x", d1, sec(60), 50, at(1)),
			res("y", d1, sec(60), 40, at(2)),
			res("w", d2, sec(30), 90, at(3)),
			res("z", d1, sec(100), 50, at(4)),
			res("z", d2, sec(100), 50, at(5)),
		)
		wantTotals(t, s, "g2", date(1), date(2), []contest.Total{
			{UserID: "z", Days: 2, Elapsed: sec(200), Tiles: 100},
			{UserID: "w", Days: 1, Elapsed: sec(30), Tiles: 90},
			{UserID: "y", Days: 1, Elapsed: sec(60), Tiles: 40},
			{UserID: "x", Days: 1, Elapsed: sec(60), Tiles: 50},
		})
	})

	// Each member's best run in an event up to a time, ranked by the
	// domain's rule.
	t.Run("OKEventRuns", func(t *testing.T) {
		s := fresh(t, open)
		e := mustCreateEvent(t, s, newEvent("ch1"))
		other := mustCreateEvent(t, s, newEvent("ch2"))
		key := e.Key().String()
		slow := res("slow", key, sec(90), 40, at(10))
		ada := res("ada", key, sec(60), 50, at(20))
		adaBest := res("ada", key, sec(50), 60, at(30))
		bobTied := res("bob", key, sec(50), 60, at(25)) // tied with ada, earlier
		cy := res("cy", key, sec(50), 55, at(40))       // fewer tiles beats them
		onTime := res("onTime", key, sec(120), 10, e.EndsAt)
		lateBest := res("lateBest", key, sec(80), 10, at(50)) // the best before the end counts
		record(t, s, slow, ada, adaBest, bobTied, cy, onTime, lateBest,
			res("late", key, sec(1), 10, e.EndsAt.Add(time.Millisecond)),
			res("lateBest", key, sec(5), 5, e.EndsAt.Add(time.Second)),
			res("elsewhere", other.Key().String(), time.Millisecond, 1, at(5)),
			res("nocontext", "", time.Millisecond, 1, at(5)),
		)
		for _, tt := range []struct {
			name  string
			until time.Time
			want  []contest.Standing
		}{
			{"End", e.EndsAt, []contest.Standing{
				{Rank: 1, Run: run(cy)}, {Rank: 2, Run: run(bobTied)}, {Rank: 2, Run: run(adaBest)},
				{Rank: 4, Run: run(lateBest)}, {Rank: 5, Run: run(slow)}, {Rank: 6, Run: run(onTime)},
			}},
			{"Early", at(26), []contest.Standing{
				{Rank: 1, Run: run(bobTied)}, {Rank: 2, Run: run(ada)}, {Rank: 3, Run: run(slow)},
			}},
		} {
			runs, err := s.EventRuns(t.Context(), e.Key(), tt.until)
			ok(t, err)
			if got := contest.Rank(runs); !slices.Equal(got, tt.want) {
				t.Fatalf("%s: ranked EventRuns=%+v, want %+v", tt.name, got, tt.want)
			}
		}
		empty := mustCreateEvent(t, s, newEvent("ch3"))
		runs, err := s.EventRuns(t.Context(), empty.Key(), forever)
		ok(t, err)
		wantRuns(t, "EventRuns of an event without runs", runs, nil)
	})
}

// wantTotals fails unless a server's totals over from..to are want, in
// order.
func wantTotals(tb testing.TB, s Store, guildID string, from, to contest.Date, want []contest.Total) {
	tb.Helper()
	totals, err := s.Totals(tb.Context(), guildID, from, to)
	ok(tb, err)
	if !slices.Equal(totals, want) {
		tb.Fatalf("Totals(%s, %s..%s)=%+v, want %+v", guildID, from, to, totals, want)
	}
}

// testStreaks: the days a member solved a server's daily, what a streak
// counts.
func testStreaks(t *testing.T, open opener) {
	s := fresh(t, open)
	dec1 := contest.MakeDate(2026, 12, 1)
	record(t, s,
		res("cat", daily("g1", date(28)), time.Second, 10, at(1)),
		res("cat", daily("g1", date(30)), time.Second, 10, at(2)),
		res("cat", daily("g1", date(30)), 2*time.Second, 10, at(3)), // twice the same day
		res("cat", daily("g1", dec1), time.Second, 10, at(4)),
		// Would fill the gap of the 29th, were they counted: other servers
		// whose IDs start alike, an event, no contest, another member.
		res("cat", daily("g10", date(29)), time.Second, 10, at(5)),
		res("cat", daily("g", date(27)), time.Second, 10, at(6)),
		res("cat", contest.EventKey(1).String(), time.Second, 10, at(7)),
		res("cat", "", time.Second, 10, at(8)),
		res("ann", daily("g1", date(29)), time.Second, 10, at(9)),
	)
	for _, tt := range []struct {
		name        string
		guild, user string
		upTo        contest.Date
		want        []contest.Date
	}{
		{"OK", "g1", "cat", date(30), []contest.Date{date(30), date(28)}},
		{"OKNoneAfterUpTo", "g1", "cat", date(29), []contest.Date{date(28)}},
		{"OKUpToLater", "g1", "cat", contest.LastDate, []contest.Date{dec1, date(30), date(28)}},
		{"OKNoneBefore", "g1", "cat", date(27), nil},
		{"OKLongerGuildID", "g10", "cat", contest.LastDate, []contest.Date{date(29)}},
		{"OKShorterGuildID", "g", "cat", contest.LastDate, []contest.Date{date(27)}},
		{"OKOtherMember", "g1", "ann", contest.LastDate, []contest.Date{date(29)}},
		{"OKNoResults", "g1", "dan", contest.LastDate, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.SolvedDates(t.Context(), tt.guild, tt.user, tt.upTo)
			ok(t, err)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("SolvedDates(%s, %s, %s)=%v, want %v", tt.guild, tt.user, tt.upTo, got, tt.want)
			}
		})
	}
}

// testArchive: a server's first daily is its earliest fixed maze; the
// days a member solved from the archive are its own, apart from the
// days solved on the day (and from other servers').
func testArchive(t *testing.T, open opener) {
	s := fresh(t, open)
	ctx := t.Context()
	if _, err := s.FirstDaily(ctx, "g1"); !errors.Is(err, contest.ErrNotFound) {
		t.Fatalf("FirstDaily of a server without dailies: %v, want ErrNotFound", err)
	}
	for _, d := range []contest.DailyMaze{
		{GuildID: "g1", Date: date(20), MazeID: maze(1)},
		{GuildID: "g1", Date: date(12), MazeID: maze(2)},
		{GuildID: "g1", Date: date(25), MazeID: maze(3)},
		{GuildID: "g", Date: date(2), MazeID: maze(4)},
		{GuildID: "g10", Date: date(3), MazeID: maze(5)},
	} {
		if _, err := s.FixDailyMaze(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.FirstDaily(ctx, "g1")
	ok(t, err)
	if first != date(12) {
		t.Fatalf("FirstDaily(g1)=%s, want %s", first, date(12))
	}
	archive := func(guild string, d contest.Date) string { return contest.ArchiveKey(guild, d).String() }
	record(t, s,
		res("cat", archive("g1", date(12)), time.Second, 10, at(1)),
		res("cat", archive("g1", date(20)), time.Second, 10, at(2)),
		res("cat", archive("g1", date(20)), time.Second, 10, at(3)), // twice the same day
		res("cat", daily("g1", date(25)), time.Second, 10, at(4)),
		res("cat", archive("g10", date(13)), time.Second, 10, at(5)),
		res("cat", archive("g", date(14)), time.Second, 10, at(6)),
		res("ann", archive("g1", date(15)), time.Second, 10, at(7)),
	)
	got, err := s.ArchiveDates(ctx, "g1", "cat")
	ok(t, err)
	if want := []contest.Date{date(20), date(12)}; !slices.Equal(got, want) {
		t.Fatalf("ArchiveDates(g1, cat)=%v, want %v", got, want)
	}
	// Archive finishes are no daily's: the streak's days don't hold them.
	solved, err := s.SolvedDates(ctx, "g1", "cat", contest.LastDate)
	ok(t, err)
	if want := []contest.Date{date(25)}; !slices.Equal(solved, want) {
		t.Fatalf("SolvedDates(g1, cat)=%v, want %v: archive games counted", solved, want)
	}
	if got, err := s.ArchiveDates(ctx, "g1", "dan"); err != nil || len(got) != 0 {
		t.Fatalf("ArchiveDates of a member with none=%v, %v", got, err)
	}
}
