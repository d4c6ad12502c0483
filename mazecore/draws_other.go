//go:build !amd64

package mazecore

// hasAVX512 and hasAVX2 are false off amd64, where fillWindow is plain Go.
const hasAVX512, hasAVX2 = false, false

func fillWindow(state uint64, d *[aheadHalf]uint64) (tops, after uint64) {
	return fillDraws(state, gamma, mixMul1, mixMul2, d)
}

func closeWindowFast(draws *[2 * aheadHalf]uint64, p []byte, closes uint64, pos, c, run, cols int) (east, north uint64, next, rare int) {
	return closeWindow(draws, p, closes, pos, c, run, cols)
}

func (l *cellList) restart(rng *source, grid *digGrid) (int, bool) {
	return l.restartGo(rng, grid, -1)
}

func (s *source) evenBits(n int) uint64 { return s.evenBitsGo(n) }
