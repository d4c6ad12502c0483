package storetest

import (
	"testing"
	"time"

	"mazebot/play"
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
	// A turn written by a clock running ahead is taken over by a claim
	// more than a window before it; one within the window is waited for.
	t.Run("OKTurnFromTheFuture", func(t *testing.T) {
		s := fresh(t, open)
		ahead := at(0).Add(2 * time.Minute)
		_, turn, err := s.ClaimIdentify(t.Context(), 0, ahead, window)
		ok(t, err)
		if !turn {
			t.Fatal("the first claim got no turn")
		}
		near := ahead.Add(-window + time.Millisecond)
		if free, turn, err := s.ClaimIdentify(t.Context(), 0, near, window); err != nil || turn || !free.Equal(ahead.Add(window)) {
			t.Fatalf("a claim within the window of a turn ahead: turn %v free %v (%v), want to wait for it", turn, free, err)
		}
		if free, turn, err := s.ClaimIdentify(t.Context(), 0, at(0), window); err != nil || !turn || !free.Equal(at(0).Add(window)) {
			t.Fatalf("a claim 2 minutes before the turn: turn %v free %v (%v), want the turn now", turn, free, err)
		}
	})
	// However many processes start at once, one identifies per turn.
	t.Run("OKRace", func(t *testing.T) {
		raceOne(t, handles(t, open), func(s Store, round, _ int) error {
			_, turn, err := s.ClaimIdentify(t.Context(), 7, at(0).Add(time.Duration(round)*window), window)
			if err == nil && !turn {
				return play.ErrConflict // another racer's turn
			}
			return err
		})
	})
	t.Run("ErrNegativeBucket", func(t *testing.T) {
		s := fresh(t, open)
		_, _, err := s.ClaimIdentify(t.Context(), -1, at(0), window)
		wantRefused(t, "ClaimIdentify of bucket -1", err)
	})
}
