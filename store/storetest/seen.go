package storetest

import (
	"fmt"
	"testing"

	"mazebot/play"
)

func testSeen(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		for i, tc := range []struct {
			id   string
			want bool
		}{{"1001", true}, {"1001", false}, {"1002", true}, {"1001", false}} {
			got, err := s.FirstSeen(t.Context(), tc.id, at(i))
			ok(t, err)
			if got != tc.want {
				t.Fatalf("call %d: FirstSeen(%s)=%v, want %v", i, tc.id, got, tc.want)
			}
		}
	})
	// An id seen by one process is not new to another.
	t.Run("OKEveryProcess", func(t *testing.T) {
		h := handles(t, open)
		first, err := h[0].FirstSeen(t.Context(), "2001", at(0))
		ok(t, err)
		again, err := h[1].FirstSeen(t.Context(), "2001", at(1))
		ok(t, err)
		if !first || again {
			t.Fatalf("FirstSeen on two handles = %v, %v; want true, false", first, again)
		}
	})
	// However many processes receive one interaction at once, one runs it.
	t.Run("OKRace", func(t *testing.T) {
		raceOne(t, handles(t, open), func(s Store, round, i int) error {
			first, err := s.FirstSeen(t.Context(), fmt.Sprintf("30%02d", round), at(i))
			if err == nil && !first {
				return play.ErrConflict // another racer saw it first
			}
			return err
		})
	})
	// ForgetSeen deletes what was seen strictly before the cut, and a
	// forgotten id is new again.
	t.Run("OKForget", func(t *testing.T) {
		s := fresh(t, open)
		for i, id := range []string{"4000", "4010", "4020"} {
			_, err := s.FirstSeen(t.Context(), id, at(10*i))
			ok(t, err)
		}
		n, err := s.ForgetSeen(t.Context(), at(10))
		ok(t, err)
		if n != 1 {
			t.Fatalf("ForgetSeen(at 10 ms) deleted %d, want 1 (the id seen at 0 ms)", n)
		}
		for _, tc := range []struct {
			id   string
			want bool
		}{{"4000", true}, {"4010", false}, {"4020", false}} {
			got, err := s.FirstSeen(t.Context(), tc.id, at(30))
			ok(t, err)
			if got != tc.want {
				t.Fatalf("after ForgetSeen, FirstSeen(%s)=%v, want %v", tc.id, got, tc.want)
			}
		}
		n, err = s.ForgetSeen(t.Context(), at(0))
		ok(t, err)
		if n != 0 {
			t.Fatalf("ForgetSeen(at 0 ms) deleted %d, want 0", n)
		}
		n, err = s.ForgetSeen(t.Context(), forever)
		ok(t, err)
		if n != 3 {
			t.Fatalf("ForgetSeen(forever) deleted %d, want all 3", n)
		}
	})
	t.Run("ErrEmptyID", func(t *testing.T) {
		s := fresh(t, open)
		_, err := s.FirstSeen(t.Context(), "", at(0))
		wantRefused(t, "FirstSeen of an empty id", err)
	})
}
