package mazecore

import "math/bits"

// source is mazebot's own pseudo-random generator (SplitMix64). It is written
// out here rather than taken from math/rand so that a maze ID yields the same
// maze forever: no Go release can change these numbers. Golden files pin it.
type source struct{ state uint64 }

func newSource(seed uint64) *source { return &source{state: seed} }

func (s *source) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a uniform number in [0, n) by Lemire's multiply-and-reject
// method, which avoids modulo bias. n must be > 0.
func (s *source) intn(n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(s.next(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(s.next(), bound)
		}
	}
	return int(hi)
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
