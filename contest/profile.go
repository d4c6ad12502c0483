package contest

import (
	"context"
	"fmt"
	"slices"
)

// A member's profile in a server: what they did in its daily and events,
// and the badges it earned them. It is computed from the stored finishes
// alone, so it needs no store of its own and every process sees the same.
//
// The badges, written once (docs/commands.md says them too):
//   - First finish: a day's daily finished on the day.
//   - Par or better: a day's best run (the one its board ranks) at or under
//     the maze's par, as the season's par bonus counts it.
//   - 7, 30 and 100 days: a streak that long, ever (StreakState.Best).
//   - Season podium: first, second or third of a season that is over.
//   - Event won: first (a shared first too) of an event that has ended.
//
// Only the days' ranked runs count: an archive game earns no badge, since
// a past day's solution is open to all.

// BadgeKind is one kind of badge.
type BadgeKind uint8

// The badges, in the order a profile shows them.
const (
	BadgeFirstFinish BadgeKind = iota + 1
	BadgeUnderPar
	BadgeStreak7
	BadgeStreak30
	BadgeStreak100
	BadgeSeasonPodium
	BadgeEventWon
)

// streakBadges are the streak badges and the days each takes.
var streakBadges = []struct {
	kind BadgeKind
	days int
}{{BadgeStreak7, 7}, {BadgeStreak30, 30}, {BadgeStreak100, 100}}

// String is the badge's name in the catalogs (badge.<name>).
func (k BadgeKind) String() string {
	switch k {
	case BadgeFirstFinish:
		return "first_finish"
	case BadgeUnderPar:
		return "under_par"
	case BadgeStreak7:
		return "streak_7"
	case BadgeStreak30:
		return "streak_30"
	case BadgeStreak100:
		return "streak_100"
	case BadgeSeasonPodium:
		return "season_podium"
	case BadgeEventWon:
		return "event_won"
	}
	return fmt.Sprintf("badge(%d)", uint8(k))
}

// Badge is a badge a member earned.
type Badge struct {
	Kind BadgeKind
	// On is the day it was first earned; zero for the podium and events
	// (their Count tells how often).
	On Date
	// Count is how often it was earned: seasons on the podium, events
	// won; 1 for the others.
	Count int
}

// Profile is a member's record in a server.
type Profile struct {
	UserID string
	Today  Date
	// Solved counts the days whose daily the member finished on the day;
	// ArchiveSolved the other past days they finished from the archive.
	Solved        int
	ArchiveSolved int
	// Streak is the current streak, its freezes and the best ever.
	Streak StreakState
	// Season is today's; SeasonRank is the member's rank in it (0 when
	// they have not finished a day of it), of SeasonOf ranked.
	Season       Season
	SeasonRank   int
	SeasonPoints int
	SeasonOf     int
	Badges       []Badge
}

// Has tells whether the profile holds a badge of kind k.
func (p Profile) Has(k BadgeKind) bool {
	return slices.ContainsFunc(p.Badges, func(b Badge) bool { return b.Kind == k })
}

// ProfileFacts are what a profile is computed from.
type ProfileFacts struct {
	UserID string
	Today  Date
	// Days are the days of the seasons the member finished a day in, and
	// of today's, that anyone finished, oldest first (SeasonDays).
	Days []SeasonDay
	// ArchiveDates are the past days the member finished from the
	// archive (newest first; those also solved on the day count once).
	ArchiveDates []Date
	// EventsWon counts the ended events the member came first in.
	EventsWon int
}

// BuildProfile computes a member's profile from facts: the rules of the
// badges, the streak and the season in one place.
func BuildProfile(f ProfileFacts) Profile {
	p := Profile{UserID: f.UserID, Today: f.Today, Season: SeasonOf(f.Today)}
	var solved []Date // oldest first, as the days come
	var underPar Date
	bySeason := map[Season][]SeasonDay{}
	var seasons []Season
	for _, day := range f.Days {
		if f.Today.Before(day.Date) {
			continue
		}
		s := SeasonOf(day.Date)
		if _, ok := bySeason[s]; !ok {
			seasons = append(seasons, s)
		}
		bySeason[s] = append(bySeason[s], day)
		for _, st := range day.Standings {
			if st.UserID != f.UserID {
				continue
			}
			if len(solved) == 0 || solved[len(solved)-1] != day.Date {
				solved = append(solved, day.Date)
			}
			if underPar.IsZero() && day.Par > 0 && st.Clicks <= day.Par {
				underPar = day.Date
			}
		}
	}
	p.Solved = len(solved)
	newestFirst := slices.Clone(solved)
	slices.Reverse(newestFirst)
	reached := map[BadgeKind]Date{}
	p.Streak = walkStreak(newestFirst, f.Today, func(day Date, s StreakState) {
		for _, b := range streakBadges {
			if _, ok := reached[b.kind]; !ok && s.Days >= b.days {
				reached[b.kind] = day
			}
		}
	})
	onTheDay := make(map[Date]bool, len(solved))
	for _, d := range solved {
		onTheDay[d] = true
	}
	for _, d := range slices.Compact(slices.Clone(f.ArchiveDates)) {
		if !onTheDay[d] && d.Before(f.Today) {
			p.ArchiveSolved++
		}
	}

	podiums := 0
	for _, s := range seasons {
		over := s.Last().Before(f.Today)
		if !over && s != p.Season {
			continue
		}
		standings := RankSeason(bySeason[s])
		for _, st := range standings {
			if st.UserID != f.UserID {
				continue
			}
			if over && st.Rank <= 3 {
				podiums++
			}
			if s == p.Season {
				p.SeasonRank, p.SeasonPoints = st.Rank, st.Points
			}
		}
		if s == p.Season {
			p.SeasonOf = len(standings)
		}
	}

	if len(solved) > 0 {
		p.Badges = append(p.Badges, Badge{Kind: BadgeFirstFinish, On: solved[0], Count: 1})
	}
	if !underPar.IsZero() {
		p.Badges = append(p.Badges, Badge{Kind: BadgeUnderPar, On: underPar, Count: 1})
	}
	for _, b := range streakBadges {
		if on, ok := reached[b.kind]; ok {
			p.Badges = append(p.Badges, Badge{Kind: b.kind, On: on, Count: 1})
		}
	}
	if podiums > 0 {
		p.Badges = append(p.Badges, Badge{Kind: BadgeSeasonPodium, Count: podiums})
	}
	if f.EventsWon > 0 {
		p.Badges = append(p.Badges, Badge{Kind: BadgeEventWon, Count: f.EventsWon})
	}
	return p
}

// Profile is a member's profile in a server as of today. It reads the
// days of every season the member finished a day in (and today's): a
// store read a day of those seasons, and one per ended event of the
// server.
func (c Contests) Profile(ctx context.Context, guildID, userID string) (Profile, error) {
	d := c.Dailies
	today, err := d.Date(ctx, guildID)
	if err != nil {
		return Profile{}, err
	}
	dates, err := d.store.SolvedDates(ctx, guildID, userID, today)
	if err != nil {
		return Profile{}, err
	}
	seasons := []Season{SeasonOf(today)}
	for _, date := range dates {
		if s := SeasonOf(date); !slices.Contains(seasons, s) {
			seasons = append(seasons, s)
		}
	}
	slices.SortFunc(seasons, func(a, b Season) int { return a.First().t.Compare(b.First().t) })
	f := ProfileFacts{UserID: userID, Today: today}
	for _, s := range seasons {
		days, err := d.SeasonDays(ctx, guildID, s, today)
		if err != nil {
			return Profile{}, fmt.Errorf("profile of %s in %s, season %s: %w", userID, guildID, s, err)
		}
		f.Days = append(f.Days, days...)
	}
	if f.ArchiveDates, err = d.store.ArchiveDates(ctx, guildID, userID); err != nil {
		return Profile{}, err
	}
	if f.EventsWon, err = c.Events.won(ctx, guildID, userID); err != nil {
		return Profile{}, err
	}
	return BuildProfile(f), nil
}

// won counts the ended events of a server whose board has the member
// first.
func (ev *Events) won(ctx context.Context, guildID, userID string) (int, error) {
	events, err := ev.store.EndedEvents(ctx, guildID)
	if err != nil {
		return 0, fmt.Errorf("ended events of %s: %w", guildID, err)
	}
	n := 0
	for _, e := range events {
		standings, err := ev.Standings(ctx, e)
		if err != nil {
			return 0, err
		}
		for _, s := range standings {
			if s.Rank == 1 && s.UserID == userID {
				n++
				break
			}
		}
	}
	return n, nil
}
