package storetest

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"
)

func testSecret(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		calls := 0
		gen := func() ([]byte, error) { calls++; return []byte{byte(calls), 2, 3}, nil }
		first, err := s.Secret(t.Context(), "k", gen)
		ok(t, err)
		second, err := s.Secret(t.Context(), "k", gen)
		ok(t, err)
		if !bytes.Equal(first, []byte{1, 2, 3}) || !bytes.Equal(second, first) || calls != 1 {
			t.Fatalf("secrets %v, %v after %d generations, want the first kept", first, second, calls)
		}
		other, err := s.Secret(t.Context(), "other", gen)
		ok(t, err)
		if !bytes.Equal(other, []byte{2, 2, 3}) {
			t.Fatalf("Secret(other)=%v, want a value of its own, %v", other, []byte{2, 2, 3})
		}
	})
	// Every process ends up with the value of whichever stored first.
	t.Run("OKSameForEveryProcess", func(t *testing.T) {
		s, another := open(t)
		h := []Store{s, another(t), another(t)}
		var wg sync.WaitGroup
		got := make([][]byte, 12)
		errs := make([]error, len(got))
		for i := range got {
			wg.Go(func() {
				got[i], errs[i] = h[i%len(h)].Secret(t.Context(), "play-hmac", func() ([]byte, error) {
					time.Sleep(time.Millisecond) // widen the race
					return []byte{byte(i + 1)}, nil
				})
			})
		}
		wg.Wait()
		for i := range got {
			ok(t, errs[i])
			if !bytes.Equal(got[i], got[0]) {
				t.Fatalf("caller %d got %v, caller 0 got %v: want one secret", i, got[i], got[0])
			}
		}
	})
	t.Run("ErrGenerate", func(t *testing.T) {
		s := fresh(t, open)
		boom := errors.New("no entropy")
		if _, err := s.Secret(t.Context(), "k", func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
			t.Fatalf("err=%v, want %v", err, boom)
		}
		_, err := s.Secret(t.Context(), "k", func() ([]byte, error) { return nil, nil })
		wantRefused(t, "Secret of an empty value", err)
		// Neither failure stored anything.
		got, err := s.Secret(t.Context(), "k", func() ([]byte, error) { return []byte{7}, nil })
		ok(t, err)
		if !bytes.Equal(got, []byte{7}) {
			t.Fatalf("Secret=%v after failed generations, want the first good one, [7]", got)
		}
	})
}
