package contest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// Season is a calendar month of a server's dailies, in the server's time
// zone (its dates are the daily's dates): a board that starts afresh, so
// a newcomer can catch the founders.
type Season struct {
	Year  int
	Month time.Month
}

// SeasonOf is the season a daily's date belongs to.
func SeasonOf(d Date) Season { return Season{Year: d.t.Year(), Month: d.t.Month()} }

// ParseSeason reads "YYYY-MM".
func ParseSeason(s string) (Season, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return Season{}, fmt.Errorf("season %q: %w", s, err)
	}
	return Season{Year: t.Year(), Month: t.Month()}, nil
}

// String is "YYYY-MM".
func (s Season) String() string { return fmt.Sprintf("%04d-%02d", s.Year, int(s.Month)) }

// First and Last are the season's first and last dates.
func (s Season) First() Date { return MakeDate(s.Year, s.Month, 1) }
func (s Season) Last() Date  { return s.Next().First().AddDays(-1) }

// Next and Prev are the seasons after and before s.
func (s Season) Next() Season { return SeasonOf(MakeDate(s.Year, s.Month+1, 1)) }
func (s Season) Prev() Season { return SeasonOf(MakeDate(s.Year, s.Month-1, 1)) }

// The season points rule, written once (docs/commands.md says it too):
// each day a member finishes the daily scores FinishPoints; the day's
// top ten score more by their rank on the day's board (1st +10, 2nd +9,
// … 10th +1; members who share a rank share its points); a best run at
// or under the maze's par scores ParPoints more. Only the member's best
// run of each day counts, as on the daily board.
const (
	FinishPoints = 10
	RankedPlaces = 10
	ParPoints    = 5
)

// DayPoints are the points a day's standing earns, par the day's maze's
// par (0 when unknown: no par bonus).
func DayPoints(s Standing, par int) int {
	p := FinishPoints
	if s.Rank >= 1 && s.Rank <= RankedPlaces {
		p += RankedPlaces + 1 - s.Rank
	}
	if par > 0 && s.Clicks <= par {
		p += ParPoints
	}
	return p
}

// SeasonDay is one day's board and its maze's par, what the season's
// points are counted from.
type SeasonDay struct {
	Date      Date
	Standings []Standing
	Par       int
}

// SeasonTotal is a member's season: points, days finished, and the sums
// of their best times and tiles, which break ties.
type SeasonTotal struct {
	UserID  string
	Points  int
	Days    int
	Elapsed time.Duration
	Tiles   int
}

// SeasonStanding is a season total with its rank.
type SeasonStanding struct {
	Rank int
	SeasonTotal
}

// RankSeason counts the days' points and ranks the members: most points
// first, then, as the daily board breaks ties, the least total time and
// the fewest total tiles; members equal in all three share a rank, listed
// in the order they first finished a day.
func RankSeason(days []SeasonDay) []SeasonStanding {
	byUser := map[string]int{}
	var totals []SeasonTotal
	for _, day := range days {
		for _, s := range day.Standings {
			i, ok := byUser[s.UserID]
			if !ok {
				i = len(totals)
				byUser[s.UserID] = i
				totals = append(totals, SeasonTotal{UserID: s.UserID})
			}
			t := &totals[i]
			t.Points += DayPoints(s, day.Par)
			t.Days++
			t.Elapsed += s.Elapsed
			t.Tiles += s.Tiles
		}
	}
	ranks := rank(totals,
		func(t SeasonTotal) [3]int64 {
			return [3]int64{-int64(t.Points), t.Elapsed.Milliseconds(), int64(t.Tiles)}
		},
		func(SeasonTotal, SeasonTotal) int { return 0 })
	out := make([]SeasonStanding, len(totals))
	for i, t := range totals {
		out[i] = SeasonStanding{Rank: ranks[i], SeasonTotal: t}
	}
	return out
}

// SeasonDays are the days of a server's season up to upTo (today, for
// the running season) that someone finished, with their boards and pars.
// An archive game never reaches them: only the day's own runs are on its
// board.
func (d *Dailies) SeasonDays(ctx context.Context, guildID string, s Season, upTo Date) ([]SeasonDay, error) {
	var days []SeasonDay
	for date := s.First(); !s.Last().Before(date) && !upTo.Before(date); date = date.AddDays(1) {
		standings, err := d.Day(ctx, guildID, date)
		if err != nil {
			return nil, err
		}
		if len(standings) == 0 {
			continue
		}
		par, err := d.par(ctx, guildID, date)
		if err != nil {
			return nil, err
		}
		days = append(days, SeasonDay{Date: date, Standings: standings, Par: par})
	}
	return days, nil
}

// Season ranks a server's season as of upTo.
func (d *Dailies) Season(ctx context.Context, guildID string, s Season, upTo Date) ([]SeasonStanding, error) {
	days, err := d.SeasonDays(ctx, guildID, s, upTo)
	if err != nil {
		return nil, err
	}
	return RankSeason(days), nil
}

// par is the par of a server's daily maze of a date, 0 when its maze was
// never fixed (nobody could have played it).
func (d *Dailies) par(ctx context.Context, guildID string, date Date) (int, error) {
	id, err := d.store.DailyMaze(ctx, guildID, date)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if !id.Plain() { // a daily on another grid or in a shape
		m, err := mazecore.GenerateGrid(id)
		if err != nil {
			return 0, fmt.Errorf("par of daily %s of %s: %w", date, guildID, err)
		}
		return play.ParOnGrid(m), nil
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		return 0, fmt.Errorf("par of daily %s of %s: %w", date, guildID, err)
	}
	return play.Par(m), nil
}
