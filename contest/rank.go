package contest

import (
	"slices"
	"time"
)

// Run is a member's best run in a contest: fastest, then fewest tiles,
// then earliest.
type Run struct {
	UserID     string
	Elapsed    time.Duration
	Tiles      int
	Clicks     int
	FinishedAt time.Time
}

// Standing is a run with its rank.
type Standing struct {
	Rank int
	Run
}

// Total sums a member's best daily runs over a range of days.
type Total struct {
	UserID  string
	Days    int           // days solved
	Elapsed time.Duration // sum of each day's best time
	Tiles   int           // sum of each day's best tiles
}

// TotalStanding is a total with its rank.
type TotalStanding struct {
	Rank int
	Total
}

// rank is the one ranking rule: order by the score (fastest first, then
// fewest tiles; totals put most days first), then by tieBreak, which only
// orders members who share a score: they share a rank, "1, 1, 3" style.
// The sort is stable, so the store's order breaks what tieBreak leaves
// tied. Times count to the millisecond, as stored.
func rank[T any](items []T, score func(T) [3]int64, tieBreak func(a, b T) int) []int {
	slices.SortStableFunc(items, func(a, b T) int {
		sa, sb := score(a), score(b)
		if c := slices.Compare(sa[:], sb[:]); c != 0 {
			return c
		}
		return tieBreak(a, b)
	})
	ranks := make([]int, len(items))
	for i := range items {
		if i > 0 && score(items[i]) == score(items[i-1]) {
			ranks[i] = ranks[i-1]
		} else {
			ranks[i] = i + 1
		}
	}
	return ranks
}

// Rank orders runs and gives each its rank; of two members with the same
// time and tiles, the earlier finisher is listed first.
func Rank(runs []Run) []Standing {
	runs = slices.Clone(runs)
	ranks := rank(runs,
		func(r Run) [3]int64 { return [3]int64{r.Elapsed.Milliseconds(), int64(r.Tiles)} },
		func(a, b Run) int { return a.FinishedAt.Compare(b.FinishedAt) })
	out := make([]Standing, len(runs))
	for i, r := range runs {
		out[i] = Standing{Rank: ranks[i], Run: r}
	}
	return out
}

// RankTotals orders totals by days solved, then total time, then total
// tiles, and gives each its rank; members who share a rank keep the
// store's order.
func RankTotals(totals []Total) []TotalStanding {
	totals = slices.Clone(totals)
	ranks := rank(totals,
		func(t Total) [3]int64 { return [3]int64{-int64(t.Days), t.Elapsed.Milliseconds(), int64(t.Tiles)} },
		func(Total, Total) int { return 0 })
	out := make([]TotalStanding, len(totals))
	for i, t := range totals {
		out[i] = TotalStanding{Rank: ranks[i], Total: t}
	}
	return out
}
