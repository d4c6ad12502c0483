package contest

import (
	"slices"
	"testing"
	"time"
)

// TestBuildProfile: the badges, the streak with its freezes and the
// season's place, from the days' boards alone; an archive day counts
// only as solved from the archive.
func TestBuildProfile(t *testing.T) {
	today := MakeDate(2026, 12, 20)
	run := func(user string, rank, clicks int) Standing {
		return Standing{Rank: rank, Run: Run{UserID: user, Elapsed: time.Duration(10+rank) * time.Second, Tiles: 40, Clicks: clicks}}
	}
	// days are the days from..to (inclusive), each with ann's run of
	// clicks (par 9) at rank, and bob first.
	days := func(from Date, n, rank, clicks int) []SeasonDay {
		var out []SeasonDay
		for i := range n {
			st := []Standing{run("bob", 1, 9)}
			if rank > 1 {
				st = append(st, run("ann", rank, clicks))
			} else {
				st = []Standing{run("ann", 1, clicks), run("bob", 2, 9)}
			}
			out = append(out, SeasonDay{Date: from.AddDays(i), Par: 9, Standings: st})
		}
		return out
	}
	badges := func(p Profile) []Badge { return p.Badges }
	for _, tc := range []struct {
		name  string
		facts ProfileFacts
		check func(t *testing.T, p Profile)
	}{
		{"NoFinish", ProfileFacts{}, func(t *testing.T, p Profile) {
			if p.Solved != 0 || p.Streak != (StreakState{}) || p.SeasonRank != 0 || len(p.Badges) != 0 {
				t.Fatalf("profile of a member who never finished: %+v", p)
			}
		}},
		{"FirstFinishOverPar", ProfileFacts{Days: days(MakeDate(2026, 12, 18), 1, 2, 12)}, func(t *testing.T, p Profile) {
			want := []Badge{{Kind: BadgeFirstFinish, On: MakeDate(2026, 12, 18), Count: 1}}
			if !slices.Equal(badges(p), want) || p.Solved != 1 {
				t.Fatalf("badges %+v, solved %d; want %+v, 1", p.Badges, p.Solved, want)
			}
			// Dec 19 ended unsolved with no freeze: the streak is lost.
			if p.Streak != (StreakState{Days: 0, Best: 1}) {
				t.Fatalf("streak %+v, want lost, best 1", p.Streak)
			}
		}},
		{"AtParOnTheSecondDay", ProfileFacts{Days: append(days(MakeDate(2026, 12, 18), 1, 2, 12), days(MakeDate(2026, 12, 19), 2, 2, 9)...)}, func(t *testing.T, p Profile) {
			if !p.Has(BadgeUnderPar) || p.Badges[1] != (Badge{Kind: BadgeUnderPar, On: MakeDate(2026, 12, 19), Count: 1}) {
				t.Fatalf("badges %+v, want par or better on Dec 19", p.Badges)
			}
			if p.Streak.Days != 3 || p.Solved != 3 {
				t.Fatalf("streak %+v, solved %d; want 3 days", p.Streak, p.Solved)
			}
		}},
		{"ParUnknownEarnsNothing", ProfileFacts{Days: []SeasonDay{{Date: today, Standings: []Standing{run("ann", 1, 1)}}}}, func(t *testing.T, p Profile) {
			if p.Has(BadgeUnderPar) {
				t.Fatalf("badges %+v: par or better on a day without par", p.Badges)
			}
		}},
		{"Streak7WithAFreeze", ProfileFacts{Days: days(today.AddDays(-6), 7, 3, 12)}, func(t *testing.T, p Profile) {
			if p.Streak != (StreakState{Days: 7, Freezes: 1, Best: 7}) {
				t.Fatalf("streak %+v, want 7 days, 1 freeze", p.Streak)
			}
			if want := (Badge{Kind: BadgeStreak7, On: today, Count: 1}); !slices.Contains(p.Badges, want) || p.Has(BadgeStreak30) {
				t.Fatalf("badges %+v, want %+v and no 30 days", p.Badges, want)
			}
		}},
		{"Streak100KeptAfterItsLoss", ProfileFacts{Days: days(MakeDate(2026, 8, 1), 100, 3, 12)}, func(t *testing.T, p Profile) {
			// Aug 1 + 100 days is Nov 8, with two freezes: lost Nov 11.
			if p.Streak.Days != 0 || p.Streak.Best != 100 || p.Solved != 100 {
				t.Fatalf("streak %+v, solved %d; want lost, best 100, 100 solved", p.Streak, p.Solved)
			}
			for kind, on := range map[BadgeKind]Date{BadgeStreak7: MakeDate(2026, 8, 7), BadgeStreak30: MakeDate(2026, 8, 30), BadgeStreak100: MakeDate(2026, 11, 8)} {
				if !slices.Contains(p.Badges, Badge{Kind: kind, On: on, Count: 1}) {
					t.Errorf("badges %+v lack %s on %s", p.Badges, kind, on)
				}
			}
		}},
		{"SeasonPodiumOnlyOnceOver", ProfileFacts{Days: slices.Concat(
			days(MakeDate(2026, 10, 1), 1, 2, 12), // October: 2nd of 2
			days(MakeDate(2026, 11, 1), 1, 1, 12), // November: 1st
			days(MakeDate(2026, 12, 1), 1, 1, 9),  // December, running: 1st
		)}, func(t *testing.T, p Profile) {
			if want := (Badge{Kind: BadgeSeasonPodium, Count: 2}); !slices.Contains(p.Badges, want) {
				t.Fatalf("badges %+v, want %+v: October and November, not December", p.Badges, want)
			}
			if p.Season != (Season{2026, time.December}) || p.SeasonRank != 1 || p.SeasonPoints != 25 || p.SeasonOf != 2 {
				t.Fatalf("season %s: rank %d of %d, %d points; want 1 of 2, 25", p.Season, p.SeasonRank, p.SeasonOf, p.SeasonPoints)
			}
		}},
		{"FourthIsNoPodium", ProfileFacts{Days: []SeasonDay{{Date: MakeDate(2026, 11, 3), Par: 9, Standings: []Standing{
			run("a", 1, 9), run("b", 2, 9), run("c", 3, 9), run("ann", 4, 9),
		}}}}, func(t *testing.T, p Profile) {
			if p.Has(BadgeSeasonPodium) || p.SeasonRank != 0 || p.SeasonOf != 0 {
				t.Fatalf("4th of November: %+v", p)
			}
		}},
		{"EventsWon", ProfileFacts{EventsWon: 3}, func(t *testing.T, p Profile) {
			if want := []Badge{{Kind: BadgeEventWon, Count: 3}}; !slices.Equal(p.Badges, want) {
				t.Fatalf("badges %+v, want %+v", p.Badges, want)
			}
		}},
		{"ArchiveSolvedApart", ProfileFacts{
			Days:         days(MakeDate(2026, 12, 10), 1, 2, 9),
			ArchiveDates: []Date{today, MakeDate(2026, 12, 12), MakeDate(2026, 12, 11), MakeDate(2026, 12, 10)},
		}, func(t *testing.T, p Profile) {
			// Dec 10 was solved on the day; today is no archive day.
			if p.ArchiveSolved != 2 || p.Solved != 1 {
				t.Fatalf("solved %d, from the archive %d; want 1 and 2", p.Solved, p.ArchiveSolved)
			}
			if len(p.Badges) != 2 || p.Streak.Days != 0 {
				t.Fatalf("archive days earned %+v, streak %+v; want the day's badges only, no streak", p.Badges, p.Streak)
			}
		}},
		{"DaysAfterTodayIgnored", ProfileFacts{Days: days(today.AddDays(1), 3, 1, 9)}, func(t *testing.T, p Profile) {
			if p.Solved != 0 || len(p.Badges) != 0 {
				t.Fatalf("days to come counted: %+v", p)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.facts.UserID, tc.facts.Today = "ann", today
			p := BuildProfile(tc.facts)
			if p.UserID != "ann" || p.Today != today {
				t.Fatalf("profile of %q on %s", p.UserID, p.Today)
			}
			tc.check(t, p)
		})
	}
}
