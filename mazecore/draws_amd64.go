package mazecore

import "golang.org/x/sys/cpu"

// hasAVX512 says whether the vector draws (fillDrawsAVX512,
// topBits32AVX512) run here: VPMULLQ and VPMOVQ2M are AVX-512DQ, and
// x/sys/cpu also checks that the OS saves the registers.
var hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// hasAVX2 says whether the four-lane draws (fillDrawsAVX2, topBits32AVX2)
// run here, for processors without AVX-512.
var hasAVX2 = cpu.X86.HasAVX2

// fillDrawsAVX512 is fillDraws eight lanes at a time (draws_amd64.s).
//
//go:noescape
func fillDrawsAVX512(state uint64, d *[aheadHalf]uint64) (tops, after uint64)

// fillDrawsAVX2 is fillDraws four lanes at a time, twice (draws_amd64.s).
//
//go:noescape
func fillDrawsAVX2(state uint64, d *[aheadHalf]uint64) (tops, after uint64)

// fillWindow is fillDraws, in vectors where the CPU has them: sidewinder
// computes a draw per cell, and AVX-512's eight lanes take a fifth of the
// time, AVX2's four less than half.
func fillWindow(state uint64, d *[aheadHalf]uint64) (tops, after uint64) {
	if hasAVX512 {
		return fillDrawsAVX512(state, d)
	}
	if hasAVX2 {
		return fillDrawsAVX2(state, d)
	}
	return fillDraws(state, gamma, mixMul1, mixMul2, d)
}

// closeWindowAsm is closeWindow in assembly (draws_amd64.s).
//
//go:noescape
func closeWindowAsm(draws *[2 * aheadHalf]uint64, p []byte, closes uint64, pos, c, run, cols int) (east, north uint64, next, rare int)

// closeOutside is closeWindowAsm's rare when a member's passage would fall
// outside p, which cannot happen: closeWindow then does the work again,
// and reports it as Go reports an index out of range.
const closeOutside = -2

// closeWindowFast is closeWindow. The compiled loop moves its values
// between registers and the stack around MULQ's fixed registers; the
// assembly keeps them all in registers, which makes sidewinder a seventh
// faster.
func closeWindowFast(draws *[2 * aheadHalf]uint64, p []byte, closes uint64, pos, c, run, cols int) (east, north uint64, next, rare int) {
	east, north, next, rare = closeWindowAsm(draws, p, closes, pos, c, run, cols)
	if rare == closeOutside {
		return closeWindow(draws, p, closes, pos, c, run, cols)
	}
	return east, north, next, rare
}

// restartAsm is cellList.restartGo's loop with prefetches (draws_amd64.s).
//
//go:noescape
func restartAsm(data *byte, width, mask, n int, state uint64, cells *byte, rowBytes int) (c, left int, after uint64, status int)

// restartAsm's outcomes.
const (
	restartFound = iota
	restartEmpty
	restartRare
	restartMore
)

// restart is restartGo, in assembly that fetches the next draws' cells
// while it probes: digging spends most of its time waiting for them.
func (l *cellList) restart(rng *source, grid *digGrid) (int, bool) {
	for {
		c, n, state, status := restartAsm(&l.data[0], l.width, int(l.mask), l.n, rng.state, &grid.cells[0], grid.stride/4)
		l.n, rng.state = n, state
		switch status {
		case restartFound:
			return c, true
		case restartEmpty:
			return 0, false
		case restartMore:
			continue
		}
		// Lemire's method may draw again: this draw in Go.
		if c, ok := l.restartGo(rng, grid, 1); ok || l.n == 0 {
			return c, ok
		}
	}
}

// topBits32AVX512 is the top bits of the 32 draws after state, bit k for
// draw k (draws_amd64.s).
//
//go:noescape
func topBits32AVX512(state uint64) (tops uint64)

// topBits32AVX2 is topBits32AVX512 on four lanes (draws_amd64.s).
//
//go:noescape
func topBits32AVX2(state uint64) (tops uint64)

// evenBits returns n ≤ 32 draws of intn(2), the k-th in bit 2k: the top
// bit of a draw, as Lemire's method never draws again for a power of two.
// Binary tree spends a draw on each cell; with AVX-512 or AVX2, 32 at once.
func (s *source) evenBits(n int) uint64 {
	var tops uint64
	switch {
	case hasAVX512:
		tops = topBits32AVX512(s.state)
	case hasAVX2:
		tops = topBits32AVX2(s.state)
	default:
		return s.evenBitsGo(n)
	}
	s.state += uint64(n) * gamma
	return spread(uint32(tops & (1<<n - 1)))
}
