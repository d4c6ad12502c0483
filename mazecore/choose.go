package mazecore

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Level is a wanted difficulty, relative to other mazes of the same
// algorithm, size and loops: an easy backtracking maze is among the easier
// backtracking mazes of its size, not easier than a binary tree.
type Level uint8

const (
	// AnyLevel takes the seed as it is: no choice, no cost.
	AnyLevel Level = iota
	Easy
	Medium
	Hard
)

// levels are the names and the percentiles Choose aims at: the middle of
// the easiest, the middle and the hardest third would be 1/6, 1/2 and 5/6;
// 15 % and 85 % sit a little further out so the levels differ more.
var levels = [...]struct {
	name       string
	percentile float64
}{
	AnyLevel: {"any", 0},
	Easy:     {"easy", 0.15},
	Medium:   {"medium", 0.50},
	Hard:     {"hard", 0.85},
}

// String returns the level's name, e.g. "easy".
func (l Level) String() string {
	if int(l) < len(levels) {
		return levels[l].name
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// LevelNames returns the names ParseLevel accepts, "any" last.
func LevelNames() []string {
	var names []string
	for _, l := range levels[1:] {
		names = append(names, l.name)
	}
	return append(names, levels[AnyLevel].name)
}

// ErrUnknownLevel is returned for a difficulty name ParseLevel does not know.
var ErrUnknownLevel = errors.New("unknown difficulty")

// ParseLevel accepts "easy", "medium", "hard" and "any", in any case.
func ParseLevel(name string) (Level, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for l, level := range levels {
		if level.name == key {
			return Level(l), nil
		}
	}
	return 0, fmt.Errorf("%w %q: choose one of %s", ErrUnknownLevel, name, strings.Join(LevelNames(), ", "))
}

// Candidates is how many seeds Choose measures. The candidate at rank
// ⌊p·32⌋ estimates the percentile p of all mazes of that algorithm and size
// to within about ±√(p(1−p)/32): ±6 points at 15 % and 85 %, ±9 at 50 %,
// so the three levels keep apart, for about 1 ms at 41×41. 16 would let
// them overlap (±9 and ±12.5 points); 64 would double the time to gain 30 %.
const Candidates = 32

// chooseSalt names the candidates' random stream: "choose" in ASCII.
const chooseSalt = 0x63686f6f7365

// candidateSeeds derives the candidates from a base seed. They are 32-bit,
// which keeps the IDs of chosen mazes as short as those of random ones.
func candidateSeeds(seed uint64) []uint64 {
	rng := stream(seed, chooseSalt)
	seeds := make([]uint64, Candidates)
	for i := range seeds {
		seeds[i] = rng.next() >> 32
	}
	return seeds
}

// Choose returns the ID of a maze of the wanted level: the same as id but
// for its seed, which is one of Candidates seeds derived from id.Seed, the
// one at the level's percentile among them when they are ordered by Rate's
// score (ties in candidate order). The result is an ordinary ID: it names
// that maze forever, and neither the level nor the base seed is needed to
// make it again. AnyLevel returns id unchanged.
func Choose(id ID, level Level) (ID, error) {
	if int(level) >= len(levels) {
		return ID{}, fmt.Errorf("choose %s: %w", level, ErrUnknownLevel)
	}
	if err := id.Validate(); err != nil {
		return ID{}, fmt.Errorf("choose %s: %w", level, err)
	}
	if level == AnyLevel {
		return id, nil
	}
	id.Seed = ranked(id)[level.rank()].seed
	return id, nil
}

// rank is the level's place among the Candidates, easiest first.
func (l Level) rank() int { return int(levels[l].percentile * Candidates) }

type candidate struct {
	seed  uint64
	score float64
}

// ranked rates the candidates of a valid id, easiest first.
func ranked(id ID) []candidate {
	list := make([]candidate, 0, Candidates)
	for _, seed := range candidateSeeds(id.Seed) {
		c := id
		c.Seed = seed
		m, _ := Generate(c) // id is valid, and so is c
		list = append(list, candidate{seed, Rate(m).Score})
	}
	slices.SortStableFunc(list, func(a, b candidate) int { return cmp.Compare(a.score, b.score) })
	return list
}

// ChooseGrid is Choose for a maze on any grid, rated by RateGrid: img is
// the picture an image shape was made from (nil for any other ID). A
// plain square ID is chosen by Choose, to the same seed. The grid is
// built once for all the candidates.
func ChooseGrid(id ID, level Level, img *Image) (ID, error) {
	if id.Plain() {
		return Choose(id, level)
	}
	if int(level) >= len(levels) {
		return ID{}, fmt.Errorf("choose %s: %w", level, ErrUnknownLevel)
	}
	if err := id.Validate(); err != nil {
		return ID{}, fmt.Errorf("choose %s: %w", level, err)
	}
	if id.Shape.Kind == ImageShape {
		if err := imageFits(id, img); err != nil {
			return ID{}, fmt.Errorf("choose %s: %w", level, err)
		}
	}
	if level == AnyLevel {
		return id, nil
	}
	grid, err := id.gridWith(img)
	if err != nil {
		return ID{}, fmt.Errorf("choose %s: %w", level, err)
	}
	list := make([]candidate, 0, Candidates)
	for _, seed := range candidateSeeds(id.Seed) {
		c := id
		c.Seed = seed
		list = append(list, candidate{seed, RateGrid(generateOn(c, grid, nil)).Score})
	}
	slices.SortStableFunc(list, func(a, b candidate) int { return cmp.Compare(a.score, b.score) })
	id.Seed = list[level.rank()].seed
	return id, nil
}
