package mazecore

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
	"testing"
)

// fingerprintSizes are the sizes the fingerprints cover: the smallest maze,
// rectangles both ways, the sizes Discord uses and two big ones.
var fingerprintSizes = []struct{ w, h int }{
	{5, 5}, {5, 21}, {21, 5}, {7, 9}, {21, 21}, {41, 15}, {31, 31}, {41, 41}, {101, 101}, {201, 101},
}

// fingerprintSeeds are the seeds hashed for each size: small ones and a few
// that use all 64 bits.
func fingerprintSeeds() []uint64 {
	seeds := make([]uint64, 0, 43)
	for s := uint64(0); s < 40; s++ {
		seeds = append(seeds, s)
	}
	return append(seeds, 1<<32-1, 1<<40+3, 1<<64-1)
}

// fingerprints hashes the tiles of every (algorithm, size, seed) above, one
// line per algorithm and size.
func fingerprints(tb testing.TB) string {
	var sb strings.Builder
	for _, algo := range Algorithms {
		for _, size := range fingerprintSizes {
			h := fnv.New64a()
			for _, seed := range fingerprintSeeds() {
				id := ID{Algorithm: algo, Width: size.w, Height: size.h, Seed: seed}
				h.Write([]byte(tileText(mustGenerate(tb, id))))
			}
			fmt.Fprintf(&sb, "%s %dx%d %016x\n", algo, size.w, size.h, h.Sum64())
		}
	}
	return sb.String()
}

// TestFingerprints pins the perfect mazes of many IDs at once, beyond the
// four golden mazes: a hash of the tiles of 43 seeds for each algorithm and
// size. Like the golden files it was written once, before any later change
// to generation, and must never be rewritten.
func TestFingerprints(t *testing.T) {
	checkFrozen(t, filepath.Join("testdata", "golden", "fingerprints.txt"), fingerprints(t))
}
