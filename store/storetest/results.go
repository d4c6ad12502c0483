package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/play"
)

// testResults: what a won game records, read back through the rankings.
func testResults(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		day := contest.MakeDate(2026, 3, 1)
		win(t, s, play.Result{
			UserID: "u1", GuildID: "g1", Contest: daily("g1", day),
			Clicks: 12, Tiles: 57, Elapsed: 83*time.Second + 250*time.Millisecond, FinishedAt: at(0),
		})
		win(t, s, play.Result{UserID: "u2", GuildID: "g1", Clicks: 1, Tiles: 1, Elapsed: time.Second, FinishedAt: at(1)}) // no contest
		want := []contest.Run{{UserID: "u1", Elapsed: 83*time.Second + 250*time.Millisecond, Tiles: 57, Clicks: 12, FinishedAt: at(0)}}
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", day), want)
	})

	// Elapsed and finish times are kept to the millisecond: what is finer
	// is dropped, not rounded.
	t.Run("OKMilliseconds", func(t *testing.T) {
		s := fresh(t, open)
		g := newGame()
		g = mustCreateGame(t, s, g)
		g = won(g, at(0).Add(1500*time.Microsecond+999))
		ok(t, s.SaveGame(t.Context(), g))
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), []contest.Run{
			{UserID: "u1", Elapsed: time.Millisecond, Tiles: g.Tiles, Clicks: g.Clicks, FinishedAt: at(1)},
		})
		if got := read(t, s.Game, g.ID).FinishedAt; got != at(1) {
			t.Fatalf("FinishedAt=%v, want %v", got, at(1))
		}
		wantTotals(t, s, "g1", date(30), date(30), []contest.Total{{UserID: "u1", Days: 1, Elapsed: time.Millisecond, Tiles: g.Tiles}})
	})

	t.Run("OKNone", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), nil)
		runs, err := s.EventRuns(ctx, contest.EventKey(1), forever)
		ok(t, err)
		wantRuns(t, "EventRuns", runs, nil)
		wantTotals(t, s, "g1", contest.FirstDate, contest.LastDate, nil)
		dates, err := s.SolvedDates(ctx, "g1", "u1", contest.LastDate)
		ok(t, err)
		if len(dates) != 0 {
			t.Fatalf("SolvedDates=%v, want none", dates)
		}
	})

	// Many writers at once through the pools of two handles: the store
	// queues them rather than failing one ("database is locked"), and
	// every game and result lands.
	t.Run("OKConcurrentWrites", func(t *testing.T) {
		const writers, each = 20, 10
		h := handles(t, open)
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			ids  []int64
			errs []error
		)
		for w := range writers {
			wg.Go(func() {
				for i := range each {
					g, err := saveWin(t.Context(), h[w%len(h)], play.Result{
						UserID: fmt.Sprintf("u%02d", w), GuildID: "g1", Contest: daily("g1", date(1+i)),
						Clicks: 1, Tiles: 10, Elapsed: time.Duration(i+1) * time.Second, FinishedAt: at(1000 * i),
					})
					mu.Lock()
					if err != nil {
						errs = append(errs, err)
					} else {
						ids = append(ids, g.ID)
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			t.Error(err)
		}
		if t.Failed() {
			t.FailNow()
		}
		slices.Sort(ids)
		if got, want := len(slices.Compact(ids)), writers*each; got != want {
			t.Fatalf("distinct game IDs=%v, want %v", got, want)
		}
		totals, err := h[0].Totals(t.Context(), "g1", date(1), date(each))
		ok(t, err)
		if len(totals) != writers {
			t.Fatalf("Totals=%+v, want %d members", totals, writers)
		}
		sum := time.Duration(each*(each+1)/2) * time.Second
		for _, tot := range totals {
			if tot.Days != each || tot.Elapsed != sum || tot.Tiles != 10*each {
				t.Fatalf("Total=%+v, want %d days, %v, %d tiles", tot, each, sum, 10*each)
			}
		}
	})
}
