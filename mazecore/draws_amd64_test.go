package mazecore

import "testing"

// vectorDraws are the vector versions of the draws this processor runs;
// fillWindow and evenBits take only the widest, so each is checked here
// on its own.
func vectorDraws() (names []string, fills []func(uint64, *[aheadHalf]uint64) (uint64, uint64), tops []func(uint64) uint64) {
	if hasAVX512 {
		names = append(names, "AVX-512")
		fills = append(fills, fillDrawsAVX512)
		tops = append(tops, topBits32AVX512)
	}
	if hasAVX2 {
		names = append(names, "AVX2")
		fills = append(fills, fillDrawsAVX2)
		tops = append(tops, topBits32AVX2)
	}
	return names, fills, tops
}

// TestVectorDrawsAreSplitMix64: every vector version this processor has
// computes SplitMix64's draws and top bits, for states across the whole
// range, near zero and its multiples too.
func TestVectorDrawsAreSplitMix64(t *testing.T) {
	names, fills, tops := vectorDraws()
	t.Logf("vector draws here: %v", names)
	src := newSource(5)
	for i := range 3000 {
		state := src.next()
		if i%2 == 0 {
			state = uint64(i) * gamma
		}
		var want [aheadHalf]uint64
		wantTops, wantAfter := fillDraws(state, gamma, mixMul1, mixMul2, &want)
		want32, _ := topBits(state, gamma, mixMul1, mixMul2, 32)
		for k, name := range names {
			var got [aheadHalf]uint64
			gotTops, gotAfter := fills[k](state, &got)
			if got != want || gotTops != wantTops || gotAfter != wantAfter {
				t.Fatalf("%s, state %#x: fill differs from fillDraws (tops %#x, want %#x; after %#x, want %#x)",
					name, state, gotTops, wantTops, gotAfter, wantAfter)
			}
			if g := spread(uint32(tops[k](state))); g != want32 {
				t.Fatalf("%s, state %#x: top bits %#x spread, want %#x", name, state, g, want32)
			}
		}
	}
}
