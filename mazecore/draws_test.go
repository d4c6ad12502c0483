package mazecore

import "testing"

// TestFillWindowIsFillDraws: the draws and top bits the vector version
// computes are SplitMix64's, for states across the whole range.
func TestFillWindowIsFillDraws(t *testing.T) {
	t.Logf("AVX-512: %v", hasAVX512)
	src := newSource(7)
	for i := range 2000 {
		state := src.next()
		if i%2 == 0 {
			state = uint64(i) * gamma // near zero and its multiples too
		}
		var got, want [aheadHalf]uint64
		gotTops, gotAfter := fillWindow(state, &got)
		wantTops, wantAfter := fillDraws(state, gamma, mixMul1, mixMul2, &want)
		if got != want || gotTops != wantTops || gotAfter != wantAfter {
			t.Fatalf("state %#x: fillWindow differs from fillDraws (tops %#x, want %#x; after %#x, want %#x)",
				state, gotTops, wantTops, gotAfter, wantAfter)
		}
	}
}

func BenchmarkFillWindow(b *testing.B) {
	var d [aheadHalf]uint64
	b.Run("go", func(b *testing.B) {
		var state uint64
		for b.Loop() {
			_, state = fillDraws(state, gamma, mixMul1, mixMul2, &d)
		}
	})
	b.Run("window", func(b *testing.B) {
		var state uint64
		for b.Loop() {
			_, state = fillWindow(state, &d)
		}
	})
}
