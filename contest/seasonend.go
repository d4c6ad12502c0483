package contest

import (
	"context"
	"fmt"
	"sync"
)

// A season's end is told once, by a results card: the podium, the member
// with the longest streak of the season and the most improved. The card
// rides on the first daily post of the new season (the post of the 1st of
// the month, in the server's zone, at its post time), so the daily post's
// claim (retry.go) makes it exactly once across processes and restarts,
// and a server whose daily is off hears of no season.

// PodiumPlaces is how many ranks the results card shows.
const PodiumPlaces = 3

// SeasonResults is an ended season as its results card tells it.
type SeasonResults struct {
	Season Season
	// Podium is the season's ranking down to rank PodiumPlaces (more
	// members when they share a rank).
	Podium []SeasonStanding
	// Streak is the member with the longest run of consecutive days
	// finished within the season (freezes aside: the season's own days
	// only); on a tie, the better ranked of the season.
	Streak SeasonStreak
	// Improved is the member who climbed the most places from the
	// previous season's ranking to this one's, among the members ranked
	// in both; on a tie, the better ranked of this season. Zero when
	// nobody climbed.
	Improved Improvement
	// Pings: the card may notify the members it names (the recap's
	// setting).
	Pings bool
}

// SeasonStreak is a member's longest run of days within a season.
type SeasonStreak struct {
	UserID string
	Days   int
}

// Improvement is a member's climb from rank From in the previous season
// to rank To in this one.
type Improvement struct {
	UserID   string
	From, To int
}

// Gain is the places climbed.
func (i Improvement) Gain() int { return i.From - i.To }

// Champion is the season's winner: the first of its ranking, "" for a
// season nobody scored in. Members sharing the first rank are listed in
// the order they first finished a day, and the first of them is the
// champion.
func (r *SeasonResults) Champion() string {
	if r == nil || len(r.Podium) == 0 {
		return ""
	}
	return r.Podium[0].UserID
}

// Named lists the members the card names, each once: who may be pinged.
func (r *SeasonResults) Named() []string {
	var ids []string
	seen := map[string]bool{"": true}
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, s := range r.Podium {
		add(s.UserID)
	}
	add(r.Streak.UserID)
	add(r.Improved.UserID)
	return ids
}

// ResultsOf are the results of a season from its days (in date order, as
// SeasonDays lists them) and the previous season's ranking; nil when
// nobody finished a day of it.
func ResultsOf(s Season, days []SeasonDay, prev []SeasonStanding) *SeasonResults {
	ranking := RankSeason(days)
	if len(ranking) == 0 {
		return nil
	}
	r := &SeasonResults{Season: s}
	for _, st := range ranking {
		if st.Rank > PodiumPlaces {
			break
		}
		r.Podium = append(r.Podium, st)
	}
	// Longest runs of consecutive days, walked in date order.
	longest := map[string]int{}
	run := map[string]int{}
	last := map[string]Date{}
	for _, day := range days {
		for _, st := range day.Standings {
			if l, ok := last[st.UserID]; ok && l.AddDays(1) == day.Date {
				run[st.UserID]++
			} else {
				run[st.UserID] = 1
			}
			last[st.UserID] = day.Date
			longest[st.UserID] = max(longest[st.UserID], run[st.UserID])
		}
	}
	prevRank := map[string]int{}
	for _, st := range prev {
		prevRank[st.UserID] = st.Rank
	}
	// The ranking's order breaks the ties of both: strictly more wins.
	for _, st := range ranking {
		if n := longest[st.UserID]; n > r.Streak.Days {
			r.Streak = SeasonStreak{UserID: st.UserID, Days: n}
		}
		if from, ok := prevRank[st.UserID]; ok {
			if imp := (Improvement{UserID: st.UserID, From: from, To: st.Rank}); imp.Gain() > r.Improved.Gain() {
				r.Improved = imp
			}
		}
	}
	return r
}

// SeasonResults are the results of a server's ended season s: nil when
// nobody finished a day of it. They are counted once per server and
// process (endedSeasons): do not change them.
func (d *Dailies) SeasonResults(ctx context.Context, guildID string, s Season) (*SeasonResults, error) {
	if r, ok := d.ended.get(guildID, s); ok {
		return r, nil
	}
	days, err := d.SeasonDays(ctx, guildID, s, s.Last())
	if err != nil {
		return nil, err
	}
	var r *SeasonResults
	if len(days) > 0 {
		prev, err := d.Season(ctx, guildID, s.Prev(), s.Prev().Last())
		if err != nil {
			return nil, fmt.Errorf("season %s of %s: %w", s.Prev(), guildID, err)
		}
		r = ResultsOf(s, days, prev)
	}
	d.ended.put(guildID, s, r)
	return r, nil
}

// endedSeasons keeps the results of each server's latest ended season
// that were asked for: the post of the 1st carries them on its card and
// the crowning that follows gives the role by them. Counting them takes
// some sixty queries (two months of boards), and at a month's end every
// server asks at the same minute, beside members playing; counted once,
// the card and the role also cannot disagree. An ended season's boards
// no longer change, and a server holds one season: the memory is bounded
// by the servers.
type endedSeasons struct {
	mu sync.Mutex
	m  map[string]endedSeason // by server
}

type endedSeason struct {
	season  Season
	results *SeasonResults
}

func (e *endedSeasons) get(guildID string, s Season) (*SeasonResults, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	got, ok := e.m[guildID]
	return got.results, ok && got.season == s
}

func (e *endedSeasons) put(guildID string, s Season, r *SeasonResults) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[string]endedSeason{}
	}
	if got, ok := e.m[guildID]; !ok || got.season.before(s) {
		e.m[guildID] = endedSeason{season: s, results: r}
	}
}

// seasonEnding is the results of the season a server's post of date ends:
// the previous season's, on the first day of a season; nil on other days.
func (d *Dailies) seasonEnding(ctx context.Context, guildID string, date Date) (*SeasonResults, error) {
	s := SeasonOf(date)
	if s.First() != date {
		return nil, nil
	}
	shared, err := d.SeasonResults(ctx, guildID, s.Prev())
	if shared == nil || err != nil {
		return nil, err
	}
	settings, err := d.RecapSettings(ctx, guildID)
	r := *shared
	r.Pings = settings.Pings
	return &r, err
}
