package storetest

import (
	"sync"
	"testing"
	"time"
)

func testIdentifyTurns(t *testing.T, open opener) {
	const window = 5 * time.Second
	// A bucket's turns are window apart; buckets don't share them.
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		start := at(0)
		for i, tc := range []struct {
			bucket   int
			after    time.Duration
			wantTurn bool
			wantFree time.Duration // after start
		}{
			{0, 0, true, window},
			{0, time.Second, false, window},
			{1, time.Second, true, time.Second + window},
			{0, window - time.Millisecond, false, window},
			{0, window, true, 2 * window},
			{0, window + time.Second, false, 2 * window},
		} {
			free, turn, err := s.ClaimIdentify(t.Context(), tc.bucket, start.Add(tc.after), window)
			ok(t, err)
			if turn != tc.wantTurn || !free.Equal(start.Add(tc.wantFree)) {
				t.Fatalf("claim %d (bucket %d at +%v): turn %v free +%v, want turn %v free +%v", i, tc.bucket, tc.after, turn, free.Sub(start), tc.wantTurn, tc.wantFree)
			}
		}
	})
	// However many processes start at once, one identifies per turn.
	t.Run("OKRace", func(t *testing.T) {
		h := handles(t, open)
		for round := range rounds {
			var (
				wg    sync.WaitGroup
				mu    sync.Mutex
				won   int
				start = make(chan struct{})
			)
			when := at(0).Add(time.Duration(round) * window)
			for i := range racers {
				wg.Go(func() {
					<-start
					_, turn, err := h[i%len(h)].ClaimIdentify(t.Context(), 7, when, window)
					if err != nil {
						t.Errorf("round %d, racer %d: %v", round, i, err)
						return
					}
					if turn {
						mu.Lock()
						won++
						mu.Unlock()
					}
				})
			}
			close(start)
			wg.Wait()
			if t.Failed() {
				t.FailNow()
			}
			if won != 1 {
				t.Fatalf("round %d: %d of %d racers got the turn, want exactly one", round, won, racers)
			}
		}
	})
	t.Run("ErrNegativeBucket", func(t *testing.T) {
		s := fresh(t, open)
		_, _, err := s.ClaimIdentify(t.Context(), -1, at(0), window)
		wantRefused(t, "ClaimIdentify of bucket -1", err)
	})
}
