package mazecore

import "golang.org/x/sys/cpu"

// hasAVX512 says whether fillDrawsAVX512 runs here: VPMULLQ and VPMOVQ2M
// are AVX-512DQ, and x/sys/cpu also checks that the OS saves the
// registers.
var hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// fillDrawsAVX512 is fillDraws eight lanes at a time (draws_amd64.s).
//
//go:noescape
func fillDrawsAVX512(state uint64, d *[aheadHalf]uint64) (tops, after uint64)

// fillWindow is fillDraws, on AVX-512 where the CPU has it: sidewinder
// computes a draw per cell, and the eight lanes take a quarter of the time.
func fillWindow(state uint64, d *[aheadHalf]uint64) (tops, after uint64) {
	if hasAVX512 {
		return fillDrawsAVX512(state, d)
	}
	return fillDraws(state, gamma, mixMul1, mixMul2, d)
}
