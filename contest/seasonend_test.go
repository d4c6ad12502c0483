package contest

import (
	"slices"
	"testing"
	"time"
)

// TestResultsOf: the podium is the season's ranking down to third (a
// shared rank shows everyone in it), the longest streak counts
// consecutive dates only, the most improved climbed the most places from
// the previous season, and the season's ranking breaks both ties.
func TestResultsOf(t *testing.T) {
	nov := Season{2026, time.November}
	day := func(date string, users ...string) SeasonDay {
		d := SeasonDay{Date: mustDate(t, date), Par: 9}
		for i, u := range users {
			d.Standings = append(d.Standings, Standing{Rank: i + 1, Run: Run{UserID: u, Elapsed: time.Duration(30+i) * time.Second, Tiles: 50, Clicks: 12}})
		}
		return d
	}
	prev := func(users ...string) []SeasonStanding {
		var out []SeasonStanding
		for i, u := range users {
			out = append(out, SeasonStanding{Rank: i + 1, SeasonTotal: SeasonTotal{UserID: u}})
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		days     []SeasonDay
		prev     []SeasonStanding
		podium   []string
		streak   SeasonStreak
		improved Improvement
	}{
		{"PodiumStreakImproved", []SeasonDay{
			day("2026-11-01", "ann", "bob", "cy", "dee"),
			day("2026-11-02", "ann", "dee", "cy"),
			day("2026-11-03", "dee", "ann"),
			day("2026-11-04", "dee"),
		}, prev("cy", "bob", "ann", "eve", "dee"),
			[]string{"dee", "ann", "cy"}, SeasonStreak{"dee", 4}, Improvement{"dee", 5, 1}},
		{"StreakNeedsConsecutiveDates", []SeasonDay{
			day("2026-11-01", "ann", "bob"),
			day("2026-11-02", "ann", "bob"),
			day("2026-11-04", "bob"),
			day("2026-11-10", "bob"),
			day("2026-11-11", "ann"),
		}, nil, []string{"bob", "ann"}, SeasonStreak{"bob", 2}, Improvement{}},
		{"StreakTieToBetterRank", []SeasonDay{
			day("2026-11-01", "bob", "ann"),
			day("2026-11-05", "ann", "bob"),
			day("2026-11-06", "ann", "bob"),
		}, nil, []string{"ann", "bob"}, SeasonStreak{"ann", 2}, Improvement{}},
		{"ImprovedTieToBetterRank", []SeasonDay{
			day("2026-11-01", "cy", "bob", "ann"),
		}, prev("ann", "dee", "bob", "eve", "cy"),
			[]string{"cy", "bob", "ann"}, SeasonStreak{"cy", 1}, Improvement{"cy", 5, 1}},
		{"NobodyClimbed", []SeasonDay{
			day("2026-11-01", "bob", "ann"),
		}, prev("bob", "ann"), []string{"bob", "ann"}, SeasonStreak{"bob", 1}, Improvement{}},
		{"SharedThirdAllOnPodium", []SeasonDay{{Date: mustDate(t, "2026-11-01"), Par: 9, Standings: []Standing{
			{Rank: 1, Run: Run{UserID: "ann", Elapsed: 30 * time.Second, Tiles: 50}},
			{Rank: 2, Run: Run{UserID: "bob", Elapsed: 31 * time.Second, Tiles: 50}},
			{Rank: 3, Run: Run{UserID: "cy", Elapsed: 32 * time.Second, Tiles: 50}},
			{Rank: 3, Run: Run{UserID: "dee", Elapsed: 32 * time.Second, Tiles: 50}},
			{Rank: 5, Run: Run{UserID: "eve", Elapsed: 33 * time.Second, Tiles: 50}},
		}}}, nil, []string{"ann", "bob", "cy", "dee"}, SeasonStreak{"ann", 1}, Improvement{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ResultsOf(nov, tc.days, tc.prev)
			var podium []string
			for _, s := range r.Podium {
				podium = append(podium, s.UserID)
			}
			if !slices.Equal(podium, tc.podium) || r.Streak != tc.streak || r.Improved != tc.improved {
				t.Fatalf("podium %v, streak %+v, improved %+v; want %v, %+v, %+v", podium, r.Streak, r.Improved, tc.podium, tc.streak, tc.improved)
			}
			if r.Champion() != tc.podium[0] {
				t.Fatalf("champion %q, want %q", r.Champion(), tc.podium[0])
			}
		})
	}
	if r := ResultsOf(nov, nil, prev("ann")); r != nil {
		t.Fatalf("a season nobody played has results %+v", r)
	}
}
