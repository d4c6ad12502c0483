package mazecore

import "math/bits"

// source is mazebot's own pseudo-random generator (SplitMix64). It is written
// out here rather than taken from math/rand so that a maze ID yields the same
// maze forever: no Go release can change these numbers. Golden files pin it.
type source struct{ state uint64 }

// gamma is SplitMix64's increment: the state after k draws is seed + k·gamma,
// which lets a window of draws be computed ahead (see ahead).
const gamma = 0x9e3779b97f4a7c15

func newSource(seed uint64) *source { return &source{state: seed} }

func (s *source) next() uint64 {
	s.state += gamma
	return mix(s.state)
}

// mix is SplitMix64's output function of a state.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * mixMul1
	z = (z ^ (z >> 27)) * mixMul2
	return z ^ (z >> 31)
}

// intn returns a uniform number in [0, n) by Lemire's multiply-and-reject
// method, which avoids modulo bias. n must be > 0. It draws again while the
// product's low half is below 2⁶⁴ mod n, which is below n: the division
// that finds it runs once in 2⁶⁴/n draws. Written as one loop, it is small
// enough for the compiler to inline into the generators' loops.
func (s *source) intn(n int) int {
	bound := uint64(n)
	for {
		hi, lo := bits.Mul64(s.next(), bound)
		if lo >= bound || lo >= -bound%bound {
			return int(hi)
		}
	}
}

// evenBitsGo is evenBits (draws_amd64.go) in Go, for any n ≤ 32.
func (s *source) evenBitsGo(n int) uint64 {
	var w uint64
	w, s.state = topBits(s.state, gamma, mixMul1, mixMul2, n)
	return w
}

// topBits returns the top bits of the n draws after state, the k-th in bit
// 2k, and the state after them. Out of line with its constants as
// arguments, as fillDraws, so that its loop has the registers to itself.
//
//go:noinline
func topBits(state, g, m1, m2 uint64, n int) (w, after uint64) {
	for k := range uint(n) {
		state += g
		z := (state ^ (state >> 30)) * m1
		w |= (z ^ (z >> 27)) * m2 >> 63 << (2 * k & 63)
	}
	return w, state
}

// stream returns a source for a purpose other than generation (braiding,
// candidate seeds), derived from seed and a salt that names the purpose. Its
// numbers are independent of the generation's, so drawing them changes
// nothing the generator draws: a maze without loops stays bit-identical.
func stream(seed, salt uint64) *source {
	// One SplitMix64 output is a strong 64-bit mix of seed^salt; starting
	// there keeps the new sequence far from seed + k·γ, the generator's.
	return newSource(newSource(seed ^ salt).next())
}

// ahead reads a source through a window of its next draws, computed 64 at
// a time with the top bit of each gathered in a mask. Sidewinder spends a
// draw's top bit on each cell's "close the run?", and a second draw on a
// run that closes: from the mask it finds the next close with one count of
// trailing ones, where drawing cell by cell costs a branch that the CPU
// mispredicts every other cell. The reader keeps its place, pos, in a
// local variable (below aheadHalf between steps), and the masks too.
type ahead struct {
	draws [2 * aheadHalf]uint64
	tops  [2]uint64 // bit i of tops[h] is draws[h·64+i]>>63
	src   source    // the source after draws[len(draws)-1]
}

const aheadHalf = 64

func newAhead(src source) *ahead {
	a := &ahead{src: src}
	a.fill(0)
	a.fill(1)
	return a
}

func (a *ahead) fill(half int) {
	d := (*[aheadHalf]uint64)(a.draws[half*aheadHalf:])
	a.tops[half], a.src.state = fillWindow(a.src.state, d)
}

// The multipliers of mix.
const (
	mixMul1 = 0xbf58476d1ce4e5b9
	mixMul2 = 0x94d049bb133111eb
)

// fillDraws writes the 64 draws after state into d, two at a time, and
// returns their top bits and the state after them. The constants come as
// arguments, so that they stay in registers: the compiler would load each
// again for every draw, and it keeps the function out of line for it.
//
//go:noinline
func fillDraws(state, g, m1, m2 uint64, d *[aheadHalf]uint64) (tops, after uint64) {
	for i := 0; i < len(d); i += 2 {
		s0 := state + g
		s1 := s0 + g
		state = s1
		z0 := (s0 ^ (s0 >> 30)) * m1
		z1 := (s1 ^ (s1 >> 30)) * m1
		z0 = (z0 ^ (z0 >> 27)) * m2
		z1 = (z1 ^ (z1 >> 27)) * m2
		z0 ^= z0 >> 31
		z1 ^= z1 >> 31
		d[i], d[i+1] = z0, z1
		// Shifted in from the top, the first draw's bit ends at bit 0.
		tops = tops>>2 | z0>>1&(1<<62) | z1&(1<<63)
	}
	return tops, state
}

// slide moves the window on by halves until pos is in its first half,
// and returns pos in the moved window.
func (a *ahead) slide(pos int) int {
	for pos >= aheadHalf {
		copy(a.draws[:aheadHalf], a.draws[aheadHalf:])
		a.tops[0] = a.tops[1]
		a.fill(1)
		pos -= aheadHalf
	}
	return pos
}

// intn is source.intn on the draws from i on, without consuming them: it
// returns the number and how many draws it took. Sidewinder multiplies the
// first draw itself and calls intn only when Lemire's method may reject
// it, once in 2⁶⁴/n draws.
func (a *ahead) intn(i int, n uint64) (v uint64, used int) {
	for j := i; ; j++ {
		hi, lo := bits.Mul64(a.at(j), n)
		if lo >= n || lo >= -n%n {
			return hi, j - i + 1
		}
	}
}

// at returns draw i of the window, computing it when it lies beyond.
func (a *ahead) at(i int) uint64 {
	if i < len(a.draws) {
		return a.draws[i]
	}
	return mix(a.src.state + uint64(i-len(a.draws)+1)*gamma)
}

// source returns the source whose next draw is draws[pos].
func (a *ahead) source(pos int) source {
	return source{state: a.src.state - uint64(len(a.draws)-pos)*gamma}
}
