package contest

import (
	"slices"
	"testing"
	"time"
)

func TestSeasonDates(t *testing.T) {
	for _, tc := range []struct {
		date, season, first, last, prev, next string
	}{
		{"2026-11-30", "2026-11", "2026-11-01", "2026-11-30", "2026-10", "2026-12"},
		{"2026-12-01", "2026-12", "2026-12-01", "2026-12-31", "2026-11", "2027-01"},
		{"2027-01-15", "2027-01", "2027-01-01", "2027-01-31", "2026-12", "2027-02"},
		{"2028-02-29", "2028-02", "2028-02-01", "2028-02-29", "2028-01", "2028-03"},
	} {
		s := SeasonOf(mustDate(t, tc.date))
		got := []string{s.String(), s.First().String(), s.Last().String(), s.Prev().String(), s.Next().String()}
		if want := []string{tc.season, tc.first, tc.last, tc.prev, tc.next}; !slices.Equal(got, want) {
			t.Errorf("season of %s: %v, want %v", tc.date, got, want)
		}
		if p, err := ParseSeason(tc.season); err != nil || p != s {
			t.Errorf("ParseSeason(%q)=%v, %v, want %v", tc.season, p, err, s)
		}
	}
	for _, bad := range []string{"", "2026-13", "2026-1", "2026-11-01", "november"} {
		if _, err := ParseSeason(bad); err == nil {
			t.Errorf("ParseSeason(%q) took it", bad)
		}
	}
}

// TestDayPoints: a finish scores 10, the day's top ten 10 down to 1 more,
// a run at or under par 5 more.
func TestDayPoints(t *testing.T) {
	for _, tc := range []struct {
		name              string
		rank, clicks, par int
		want              int
	}{
		{"FirstAtPar", 1, 9, 9, 25},
		{"FirstOverPar", 1, 10, 9, 20},
		{"SecondUnderPar", 2, 8, 9, 24},
		{"TenthOverPar", 10, 30, 9, 11},
		{"EleventhFinishOnly", 11, 30, 9, 10},
		{"EleventhAtPar", 11, 9, 9, 15},
		{"ParUnknown", 1, 1, 0, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Standing{Rank: tc.rank, Run: Run{Clicks: tc.clicks}}
			if got := DayPoints(s, tc.par); got != tc.want {
				t.Fatalf("DayPoints(rank %d, %d clicks, par %d)=%d, want %d", tc.rank, tc.clicks, tc.par, got, tc.want)
			}
		})
	}
}

// TestRankSeason: points add up over the days; a tie in points goes to
// the least total time, then the fewest tiles; equal in all, a shared
// rank.
func TestRankSeason(t *testing.T) {
	run := func(user string, rank int, secs, tiles, clicks int) Standing {
		return Standing{Rank: rank, Run: Run{UserID: user, Elapsed: time.Duration(secs) * time.Second, Tiles: tiles, Clicks: clicks}}
	}
	for _, tc := range []struct {
		name string
		days []SeasonDay
		want []SeasonStanding
	}{
		{"PointsAddUp", []SeasonDay{
			{Par: 9, Standings: []Standing{run("ann", 1, 30, 50, 9), run("bob", 2, 40, 50, 12)}},
			{Par: 9, Standings: []Standing{run("bob", 1, 20, 50, 9)}},
		}, []SeasonStanding{
			{1, SeasonTotal{UserID: "bob", Points: 19 + 25, Days: 2, Elapsed: 60 * time.Second, Tiles: 100}},
			{2, SeasonTotal{UserID: "ann", Points: 25, Days: 1, Elapsed: 30 * time.Second, Tiles: 50}},
		}},
		{"TieBrokenByTime", []SeasonDay{
			{Par: 9, Standings: []Standing{run("ann", 1, 30, 50, 9), run("bob", 2, 40, 50, 12)}},
			{Par: 9, Standings: []Standing{run("bob", 1, 45, 50, 9), run("ann", 2, 60, 50, 12)}},
		}, []SeasonStanding{
			{1, SeasonTotal{UserID: "bob", Points: 44, Days: 2, Elapsed: 85 * time.Second, Tiles: 100}},
			{2, SeasonTotal{UserID: "ann", Points: 44, Days: 2, Elapsed: 90 * time.Second, Tiles: 100}},
		}},
		{"TieBrokenByTiles", []SeasonDay{
			{Par: 9, Standings: []Standing{run("ann", 1, 30, 60, 9), run("bob", 1, 30, 50, 9)}},
		}, []SeasonStanding{
			{1, SeasonTotal{UserID: "bob", Points: 25, Days: 1, Elapsed: 30 * time.Second, Tiles: 50}},
			{2, SeasonTotal{UserID: "ann", Points: 25, Days: 1, Elapsed: 30 * time.Second, Tiles: 60}},
		}},
		{"SharedRank", []SeasonDay{
			{Par: 9, Standings: []Standing{run("ann", 1, 30, 50, 9), run("bob", 1, 30, 50, 9), run("cy", 3, 31, 50, 9)}},
		}, []SeasonStanding{
			{1, SeasonTotal{UserID: "ann", Points: 25, Days: 1, Elapsed: 30 * time.Second, Tiles: 50}},
			{1, SeasonTotal{UserID: "bob", Points: 25, Days: 1, Elapsed: 30 * time.Second, Tiles: 50}},
			{3, SeasonTotal{UserID: "cy", Points: 23, Days: 1, Elapsed: 31 * time.Second, Tiles: 50}},
		}},
		{"NoDays", nil, []SeasonStanding{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RankSeason(tc.days); !slices.Equal(got, tc.want) {
				t.Fatalf("RankSeason=%+v, want %+v", got, tc.want)
			}
		})
	}
}
