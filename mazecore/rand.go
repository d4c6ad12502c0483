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
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
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

// evenBits returns n draws of intn(2), the k-th in bit 2k: the top bit of
// a draw, as Lemire's method never draws again for a power of two. It is a
// function of its own so that its loop has the registers to itself.
//
//go:noinline
func (s *source) evenBits(n int) uint64 {
	state := s.state
	var w uint64
	for k := range uint(n) {
		state += gamma
		w |= mixTop(state) << (2 * k & 63)
	}
	s.state = state
	return w
}

// mixTop is mix(z)>>63: the last step of mix leaves the top bit alone.
func mixTop(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	return (z ^ (z >> 27)) * 0x94d049bb133111eb >> 63
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
	state := a.src.state
	var tops uint64
	d := a.draws[half*aheadHalf : (half+1)*aheadHalf]
	for i := range d {
		state += gamma
		z := mix(state)
		d[i] = z
		tops |= z >> 63 << i
	}
	a.src.state = state
	a.tops[half] = tops
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

// ones counts the draws from pos on whose top bit is 1, up to 64, from
// the masks t0, t1.
func ones(t0, t1 uint64, pos int) int {
	return bits.TrailingZeros64(^(t0>>pos | t1<<(aheadHalf-pos)))
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
