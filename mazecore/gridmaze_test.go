package mazecore

import (
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gridCases are IDs of every grid kind, bare and shaped, at a few sizes;
// the algorithm and seed are filled in by the tests.
func gridCases() []ID {
	heart := Shape{Kind: PresetShape, Preset: Heart, Version: presetVersion}
	text, _ := TextShapeOf("Maze 40")
	var ids []ID
	// In the order TestGridFingerprints froze them: a new preset goes at
	// the end.
	for _, p := range []Preset{Circle, Ring, Heart, Star, Diamond, Triangle} {
		ids = append(ids, ID{GridKind: Square, Width: 41, Height: 41, Shape: Shape{Kind: PresetShape, Preset: p, Version: presetVersion}})
	}
	w, h := TextSize(text.Text)
	return append(ids,
		ID{GridKind: Square, Width: 2*w + 1, Height: 2*h + 1, Shape: text},
		ID{GridKind: Square, Width: 4*w + 1, Height: 4*h + 1, Shape: text},
		ID{GridKind: Polar, Width: MinRings, Height: MinRings},
		ID{GridKind: Polar, Width: 12, Height: 12},
		ID{GridKind: Hex, Width: MinHexSide, Height: MinHexSide},
		ID{GridKind: Hex, Width: 15, Height: 11},
		ID{GridKind: Hex, Width: 25, Height: 25, Shape: heart},
		ID{GridKind: Hex, Width: 21, Height: 21, Shape: Shape{Kind: PresetShape, Preset: Hexagon, Version: presetVersion}},
		ID{GridKind: Square, Width: 41, Height: 41, Shape: Shape{Kind: PresetShape, Preset: Hexagon, Version: presetVersion}},
	)
}

// fitting returns the cases with each algorithm that runs on them.
func fitting(seeds int) []ID {
	var ids []ID
	for _, id := range gridCases() {
		for _, a := range Algorithms {
			if !a.Fits(id.GridKind, id.Shape.Kind != NoShape) {
				continue
			}
			for seed := range uint64(seeds) {
				id.Algorithm, id.Seed = a, seed*0x9e3779b97f4a7c15+7
				ids = append(ids, id)
			}
		}
	}
	return ids
}

func mustGenerateGrid(tb testing.TB, id ID) *GridMaze {
	tb.Helper()
	m, err := GenerateGrid(id)
	if err != nil {
		tb.Fatalf("GenerateGrid(%+v): %v", id, err)
	}
	return m
}

// TestGridPerfect checks every grid × algorithm: the cells form a
// spanning tree (cells − 1 passages, all reachable), every passage joins
// neighbours inside the grid, the ends are where the grid puts them and
// the solution is a shortest path between them.
func TestGridPerfect(t *testing.T) {
	for _, id := range fitting(6) {
		m := mustGenerateGrid(t, id)
		g := m.Grid()
		if got, want := m.Passages(), g.Len()-1; got != want {
			t.Fatalf("%v (%+v): %d passages, want %d (a spanning tree)", id, id, got, want)
		}
		dist := m.distances(0)
		for c, d := range dist {
			if d < 0 {
				t.Fatalf("%v: cell %d (%+v) cannot be reached", id, c, g.Cell(c))
			}
			for _, n := range m.Links(c) {
				if !slices.Contains(g.Neighbours(n), int32(c)) {
					t.Fatalf("%v: cells %d and %d are linked but not neighbours", id, c, n)
				}
			}
		}
		checkEnds(t, m)
	}
}

func checkEnds(t *testing.T, m *GridMaze) {
	t.Helper()
	id, g := m.ID(), m.Grid()
	if g.Kind() == Polar {
		if m.Goal() != 0 || g.Cell(m.Start()).Row != g.Rows()-1 {
			t.Fatalf("%v: start %+v, goal %+v: want the rim and the centre", id, g.Cell(m.Start()), g.Cell(m.Goal()))
		}
	} else if id.Loops == 0 {
		// The two ends of a longest path.
		longest := 0
		for _, d := range m.distances(m.farthest(0)) {
			longest = max(longest, int(d))
		}
		if got := m.distances(m.Start())[m.Goal()]; int(got) != longest {
			t.Fatalf("%v: start and goal %d apart, the longest path is %d", id, got, longest)
		}
	}
	path := m.Solve()
	if path[0] != m.Start() || path[len(path)-1] != m.Goal() {
		t.Fatalf("%v: the solution runs from %d to %d", id, path[0], path[len(path)-1])
	}
	for i := 1; i < len(path); i++ {
		if !m.Linked(path[i-1], path[i]) {
			t.Fatalf("%v: the solution steps through a wall at %d", id, i)
		}
	}
	if got, want := len(path)-1, int(m.distances(m.Start())[m.Goal()]); got != want {
		t.Fatalf("%v: the solution takes %d steps, the shortest %d", id, got, want)
	}
}

// TestGridMasksStayInside checks that a shaped maze has exactly the
// mask's cells.
func TestGridMasksStayInside(t *testing.T) {
	for _, id := range gridCases() {
		if id.Shape.Kind == NoShape {
			continue
		}
		id.Algorithm = Wilson
		m := mustGenerateGrid(t, id)
		cols, rows := id.Width, id.Height
		if id.GridKind == Square {
			cols, rows = cols/2, rows/2
		}
		mask, err := id.Shape.Mask(id.GridKind, cols, rows)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.Grid().Len(), mask.Count(); got != want {
			t.Fatalf("%v: %d cells, the mask has %d", id, got, want)
		}
		for c := range m.Grid().Len() {
			if cell := m.Grid().Cell(c); !mask.Has(cell.Col, cell.Row) {
				t.Fatalf("%v: cell %+v is outside the mask", id, cell)
			}
		}
	}
}

// TestSquareGridIsTheMaze runs the grid generators on the whole square
// grid: they draw as the square maze's own, so they make the maze of the
// same version 1 ID.
func TestSquareGridIsTheMaze(t *testing.T) {
	for _, a := range []Algorithm{Backtracking, Digging, Wilson} {
		for _, size := range []struct{ w, h int }{{5, 5}, {21, 21}, {41, 15}} {
			for seed := range uint64(20) {
				id := ID{Algorithm: a, Width: size.w, Height: size.h, Seed: seed}
				want := mustGenerate(t, id).Graph()
				grid, err := NewSquareGrid(size.w/2, size.h/2, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := &GridMaze{id: id, grid: grid, links: make([]uint8, grid.Len())}
				gen := gridGen{maze: got, grid: grid, rng: newSource(seed)}
				a.spec().onGrid(&gen)
				if !slices.Equal(got.links, want.links) {
					t.Fatalf("%v: the square grid's maze differs from the square maze's", id)
				}
			}
		}
	}
}

// TestGraphOfMaze checks Maze.Graph against Maze.Open.
func TestGraphOfMaze(t *testing.T) {
	m := mustGenerate(t, ID{Algorithm: Sidewinder, Width: 21, Height: 15, Seed: 3})
	g := m.Graph()
	if g.Start() != 0 || g.Goal() != g.Grid().Len()-1 || g.Passages() != g.Grid().Len()-1 {
		t.Fatalf("start %d goal %d passages %d", g.Start(), g.Goal(), g.Passages())
	}
	for c := range g.Grid().Len() {
		cell := g.Grid().Cell(c)
		if got, want := g.Linked(c, g.Grid().At(cell.Row, cell.Col+1)), m.Open(cell.Col, cell.Row, East); got != want {
			t.Fatalf("cell %+v east: %v, want %v", cell, got, want)
		}
	}
	if got, want := len(g.Solve()), (len(Solve(m))+1)/2; got != want {
		t.Fatalf("solution of %d cells, want %d", got, want)
	}
}

// TestRingSizes pins the cells of each ring: part of every polar ID.
func TestRingSizes(t *testing.T) {
	sizes := ringSizes(MaxRings)
	if got, want := sizes[:12], []int{1, 6, 12, 24, 24, 24, 48, 48, 48, 48, 48, 48}; !slices.Equal(got, want) {
		t.Fatalf("ring sizes %v, want %v", got, want)
	}
	total := 0
	for r, n := range sizes {
		total += n
		if r > 0 && n%sizes[r-1] != 0 {
			t.Fatalf("ring %d of %d cells does not subdivide ring %d of %d", r, n, r-1, sizes[r-1])
		}
	}
	if got, want := total, (ID{GridKind: Polar, Width: MaxRings, Height: MaxRings}).Cells(); got != want || got != 29659 {
		t.Fatalf("%d cells in %d rings, Cells() says %d, pinned 29659", got, MaxRings, want)
	}
}

// TestGridRefusals: algorithms that need rows and columns name those that
// fit; masks too small or in pieces say why.
func TestGridRefusals(t *testing.T) {
	heart, _ := ParseShape("heart")
	for _, id := range []ID{
		{Algorithm: BinaryTree, GridKind: Hex, Width: 9, Height: 9},
		{Algorithm: Sidewinder, GridKind: Square, Width: 41, Height: 41, Shape: heart},
	} {
		_, err := GenerateGrid(id)
		if !errors.Is(err, ErrAlgorithmDoesNotFit) || !strings.Contains(err.Error(), "backtracking, digging, wilson") {
			t.Fatalf("%+v: %v, want a refusal naming backtracking, digging, wilson", id, err)
		}
	}
	if _, err := GenerateGrid(ID{Algorithm: Sidewinder, GridKind: Polar, Width: 9, Height: 9}); err != nil {
		t.Fatalf("sidewinder on a polar grid: %v", err)
	}
	if _, err := Generate(ID{Algorithm: Backtracking, GridKind: Polar, Width: 9, Height: 9}); !errors.Is(err, ErrNotSquare) {
		t.Fatalf("Generate of a polar ID: %v, want ErrNotSquare", err)
	}
	for _, tc := range []struct {
		id   ID
		want string
	}{
		{ID{Algorithm: Wilson, GridKind: Square, Width: 11, Height: 11, Shape: heart}, "at least 50"},
		{ID{Algorithm: Wilson, GridKind: Polar, Width: 4, Height: 4}, "use 5 to 100 rings"},
		{ID{Algorithm: Wilson, GridKind: Polar, Width: 101, Height: 101}, "use 5 to 100 rings"},
		{ID{Algorithm: Wilson, GridKind: Polar, Width: 9, Height: 9, Shape: heart}, "takes no shape"},
		{ID{Algorithm: Wilson, GridKind: Hex, Width: 2, Height: 9}, "use 3 to 1001 cells"},
		{ID{Algorithm: Wilson, GridKind: Square, Width: 21, Height: 21, Shape: Shape{Kind: TextShape, Text: "HELLO", Version: fontVersion}}, "needs a maze of at least 29×8 cells"},
	} {
		_, err := GenerateGrid(tc.id)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%+v: %v, want an error saying %q", tc.id, err, tc.want)
		}
	}
	pieces := NewMask(20, 20, func(c, r int) bool { return c < 8 || c > 10 })
	if err := pieces.Check(Square); !errors.Is(err, ErrBadMask) || !strings.Contains(err.Error(), "2 separate pieces") {
		t.Fatalf("two pieces: %v", err)
	}
	// Cells touching at a corner are apart on a square grid, but a hex
	// cell's side neighbours include the column next to it.
	corner := NewMask(16, 16, func(c, r int) bool { return (c < 8) == (r < 8) })
	if err := corner.Check(Square); err == nil || !strings.Contains(err.Error(), "2 separate pieces") {
		t.Fatalf("two squares touching at a corner: %v", err)
	}
}

// TestTextShapes checks the font: every character, alone, is one piece
// with the bar, at the least size and larger; and texts it cannot draw
// are refused.
func TestTextShapes(t *testing.T) {
	for _, ch := range TextCharacters {
		s, err := TextShapeOf(strings.Repeat(string(ch), 3))
		if err != nil {
			t.Fatal(err)
		}
		w, h := TextSize(s.Text)
		for _, k := range []int{1, 2, 3} {
			mask := NewMask(w*k, h*k, func(c, r int) bool { return textBitmap(s.Text)[r/k][c/k] })
			if n, _ := mask.pieces(Square); n != 1 {
				t.Fatalf("%q at scale %d is %d pieces:\n%s", s.Text, k, n, mask)
			}
		}
	}
	if s, err := TextShapeOf("  hi   there "); err != nil || s.Text != "HI THERE" {
		t.Fatalf("TextShapeOf: %+v, %v", s, err)
	}
	for text, want := range map[string]string{
		"":                "empty",
		"   ":             "empty",
		"hello world 123": "at most 12",
		"Ünïcode":         "no 'Ü'",
		"a-b":             "no '-'",
	} {
		if _, err := TextShapeOf(text); !errors.Is(err, ErrBadMask) || !strings.Contains(err.Error(), want) {
			t.Fatalf("TextShapeOf(%q): %v, want %q", text, err, want)
		}
	}
}

// TestGridIDs round-trips version 3 IDs and checks that they make the same
// maze every time.
func TestGridIDs(t *testing.T) {
	for _, id := range fitting(2) {
		id.Loops = int(id.Seed % 3 * 30)
		text := id.String()
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) of %+v: %v", text, id, err)
		}
		if back != id {
			t.Fatalf("Parse(%q)=%+v, want %+v", text, back, id)
		}
		if len(text) > maxIDLength {
			t.Fatalf("%q is longer than %d characters", text, maxIDLength)
		}
		a, b := mustGenerateGrid(t, id), mustGenerateGrid(t, back)
		if !slices.Equal(a.links, b.links) || a.Start() != b.Start() || a.Goal() != b.Goal() {
			t.Fatalf("%s: two generations differ", text)
		}
	}
	if got, want := (ID{Algorithm: Backtracking, GridKind: Polar, Width: 20, Height: 20, Seed: 1<<32 - 1}).String(), 18; len(got) > want {
		t.Fatalf("a polar ID with a 32-bit seed is %d characters, want ≤ %d", len(got), want)
	}
	longest := ID{Algorithm: Wilson, GridKind: Square, Width: MaxSize, Height: MaxSize, Seed: 1<<64 - 1, Loops: 100,
		Shape: Shape{Kind: TextShape, Text: "WWWWWWWWWWWW", Version: fontVersion}}
	if got := len(longest.String()); got > maxIDLength {
		t.Fatalf("the longest ID is %d characters, over %d", got, maxIDLength)
	}
}

// TestGridIDRejects: a version 3 spelling of an ID with another spelling,
// and fields out of range, are refused.
func TestGridIDRejects(t *testing.T) {
	sum := func(body ...byte) string { return encodeBase32(append(body, byte(crc32.ChecksumIEEE(body)>>24))) }
	for name, text := range map[string]string{
		"whole square":  sum(3<<4|3, 0, 9, 9, 1, 0, 0),
		"unknown grid":  sum(3<<4|3, 7, 9, 1, 0, 0),
		"unknown shape": sum(3<<4|3, 2, 9, 9, 1, 0, 9),
		"preset 0":      sum(3<<4|3, 2, 9, 9, 1, 0, 1, 0, 1),
		"preset v2":     sum(3<<4|3, 2, 9, 9, 1, 0, 1, 1, 2),
		"loops 101":     sum(3<<4|3, 1, 9, 1, 101, 0),
		"text short":    sum(3<<4|3, 0, 60, 20, 1, 0, 2, 1, 5, 'H', 'I'),
		"text lower":    sum(3<<4|3, 0, 60, 20, 1, 0, 2, 1, 2, 'h', 'i'),
		"text spaces":   sum(3<<4|3, 0, 60, 20, 1, 0, 2, 1, 3, 'H', ' ', ' '),
		"bt on hex":     sum(3<<4|1, 2, 9, 9, 1, 0, 0),
		"rings 106":     sum(3<<4|3, 1, 101, 1, 0, 0),
		"trailing":      sum(3<<4|3, 1, 9, 1, 0, 0, 0),
	} {
		if id, err := Parse(text); !errors.Is(err, ErrMalformedID) {
			t.Fatalf("%s: Parse(%q)=%+v, %v: want a malformed ID", name, text, id, err)
		}
	}
}

// TestGridBraid checks loops on every grid: the share of dead ends asked
// is opened (to one, but for dead ends with nothing to open to), and the
// maze stays connected.
func TestGridBraid(t *testing.T) {
	for _, id := range fitting(1) {
		perfect := mustGenerateGrid(t, id).Measure().DeadEnds
		for _, loops := range []int{25, 50, 100} {
			id.Loops = loops
			m := mustGenerateGrid(t, id)
			removed := perfect - m.Measure().DeadEnds
			want := (perfect*loops + 50) / 100
			if removed < want-m.stuckEnds() || removed > want+1 {
				t.Fatalf("%v: loops %d removed %d of %d dead ends, want %d", id, loops, removed, perfect, want)
			}
			for c, d := range m.distances(0) {
				if d < 0 {
					t.Fatalf("%v: cell %d cut off", id, c)
				}
			}
			checkEnds(t, m)
		}
	}
}

// stuckEnds counts the dead ends with no wall to open (a masked cell with
// one neighbour).
func (m *GridMaze) stuckEnds() int {
	n := 0
	for c := range m.grid.Len() {
		if m.Degree(c) == 1 && len(m.grid.Neighbours(c)) == 1 {
			n++
		}
	}
	return n
}

// TestGridFingerprints pins the mazes of version 3 IDs: a line per grid
// case and algorithm, hashing the links, start and goal of 8 seeds.
// Written once; never rewrite it.
func TestGridFingerprints(t *testing.T) {
	var sb strings.Builder
	for _, id := range gridCases() {
		for _, a := range Algorithms {
			if !a.Fits(id.GridKind, id.Shape.Kind != NoShape) {
				continue
			}
			id.Algorithm = a
			h := fnv.New64a()
			for seed := range uint64(8) {
				id.Seed, id.Loops = seed, int(seed%2)*40
				m := mustGenerateGrid(t, id)
				h.Write(m.links)
				fmt.Fprint(h, m.Start(), m.Goal())
			}
			id.Seed, id.Loops = 0, 0
			fmt.Fprintf(&sb, "%s %s %016x\n", id, a, h.Sum64())
		}
	}
	checkFrozen(t, filepath.Join("testdata", "golden", "v3", "fingerprints.txt"), sb.String())
}

// TestGridDeadEnds prints the dead-end share of 200 mazes per grid and
// algorithm (go test -v), beside the published figures for the square
// grid, and checks Wilson's on the square grid against them.
func TestGridDeadEnds(t *testing.T) {
	grids := []ID{
		{GridKind: Square, Width: 41, Height: 41},
		{GridKind: Square, Width: 41, Height: 41, Shape: Shape{Kind: PresetShape, Preset: Circle, Version: presetVersion}},
		{GridKind: Polar, Width: 12, Height: 12},
		{GridKind: Hex, Width: 20, Height: 20},
	}
	published := map[Algorithm]string{BinaryTree: "25%", Sidewinder: "27%", Backtracking: "10%", Digging: "—", Wilson: "29%"}
	for _, base := range grids {
		for _, a := range Algorithms {
			if !a.Fits(base.GridKind, base.Shape.Kind != NoShape) {
				continue
			}
			id, sum := base, 0.0
			id.Algorithm = a
			for seed := range uint64(200) {
				id.Seed = seed
				sum += mustGenerateGrid(t, id).Measure().DeadEndShare()
			}
			share := 100 * sum / 200
			t.Logf("%-6s %-8s %-13s dead ends %5.1f%%   square grid, published: %s", base.GridKind, base.Shape, a, share, published[a])
			if base.Plain() && a == Wilson && (share < 27.9 || share > 30.9) {
				t.Fatalf("Wilson's on the square grid: %.1f%% dead ends, published 29.4%%", share)
			}
		}
	}
}

// FuzzParseGrid: any text either parses to an ID that spells itself the
// same and makes its maze (or says clearly why its shape cannot be
// drawn), or is refused as malformed; never a panic.
func FuzzParseGrid(f *testing.F) {
	for _, id := range fitting(1) {
		f.Add(id.String())
	}
	f.Add(ID{Algorithm: Digging, Width: 21, Height: 21, Shape: ImageShapeOf(NewImage(3, 3, func(x, y int) bool { return true }))}.String())
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrMalformedID) {
				t.Fatalf("Parse(%q): %v is not ErrMalformedID", s, err)
			}
			return
		}
		if got := id.String(); got != strings.ToLower(strings.TrimSpace(s)) {
			t.Fatalf("Parse(%q).String()=%q", s, got)
		}
		if id.Cells() > 100_000 {
			return
		}
		if _, err := GenerateGrid(id); err != nil && !errors.Is(err, ErrBadMask) && !errors.Is(err, ErrNeedsImage) {
			t.Fatalf("GenerateGrid(%q): %v", s, err)
		}
	})
}

// FuzzTextShape: any text is drawn as one piece at its least size, or
// refused as a mask error; never a panic.
func FuzzTextShape(f *testing.F) {
	for _, s := range []string{"HELLO", "maze 2026", "i", "  a  b ", "ÀÉ", "WWWWWWWWWWWWW"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := TextShapeOf(text)
		if err != nil {
			if !errors.Is(err, ErrBadMask) {
				t.Fatalf("TextShapeOf(%q): %v is not ErrBadMask", text, err)
			}
			return
		}
		w, h := TextSize(s.Text)
		if _, err := s.Mask(Square, 2*w, 2*h); err != nil && !strings.Contains(err.Error(), "at least 50") {
			t.Fatalf("%q: %v", s.Text, err)
		}
	})
}

// TestImageShapes: an image's ID holds its hash, makes the same maze again
// from the same image, and refuses another image or none.
func TestImageShapes(t *testing.T) {
	disc := NewImage(40, 30, func(x, y int) bool { return (x-20)*(x-20)+(y-15)*(y-15)*16/9 <= 15*15 })
	if got, want := fmt.Sprintf("%x", disc.Hash()), "8aadf1a8359217b1779ccbc9e40a97dd"; got != want {
		t.Fatalf("hash %s, pinned %s: an image's hash is part of its IDs", got, want)
	}
	kept, err := ImageFromBits(40, 30, disc.Bits())
	if err != nil || kept.Hash() != disc.Hash() {
		t.Fatalf("ImageFromBits(Bits()): %v, hash %x, want %x", err, kept.Hash(), disc.Hash())
	}
	for _, bad := range []struct{ w, h, n int }{{40, 30, 149}, {0, 30, 0}, {MaxImageSide + 1, 1, 513}} {
		if _, err := ImageFromBits(bad.w, bad.h, make([]byte, bad.n)); err == nil {
			t.Fatalf("ImageFromBits(%d, %d, %d bytes) took them", bad.w, bad.h, bad.n)
		}
	}
	id := ID{Algorithm: Wilson, GridKind: Square, Width: 61, Height: 45, Seed: 9, Shape: ImageShapeOf(disc)}
	text := id.String()
	back, err := Parse(text)
	if err != nil || back != id || len(text) > maxIDLength {
		t.Fatalf("Parse(%q)=%+v, %v: want %+v", text, back, err, id)
	}
	a, err := GenerateGridImage(back, disc)
	if err != nil {
		t.Fatal(err)
	}
	if a.Passages() != a.Grid().Len()-1 {
		t.Fatalf("%d passages for %d cells", a.Passages(), a.Grid().Len())
	}
	b, _ := GenerateGridImage(id, NewImage(40, 30, func(x, y int) bool { return (x-20)*(x-20)+(y-15)*(y-15)*16/9 <= 15*15 }))
	if !slices.Equal(a.links, b.links) {
		t.Fatal("the same image made another maze")
	}
	other := NewImage(40, 30, func(x, y int) bool { return x > 2 })
	for _, img := range []*Image{nil, other} {
		if _, err := GenerateGridImage(id, img); !errors.Is(err, ErrNeedsImage) {
			t.Fatalf("another image: %v, want ErrNeedsImage", err)
		}
	}
	if _, err := GenerateGrid(id); !errors.Is(err, ErrNeedsImage) {
		t.Fatalf("no image: %v, want ErrNeedsImage", err)
	}
	two := NewImage(40, 30, func(x, y int) bool { return x < 15 || x > 25 })
	_, err = ID{Algorithm: Wilson, Width: 61, Height: 45, Shape: ImageShapeOf(two)}.GridWithImage(two)
	if !errors.Is(err, ErrBadMask) || !strings.Contains(err.Error(), "2 separate pieces") {
		t.Fatalf("an image in two pieces: %v", err)
	}
}

// TestGenerateGridOn: the maze of another seed made on a maze's grid is
// the one its ID names, passage for passage, an image's without the
// image; a maze that differs from the grid's in more than the seed is
// refused.
func TestGenerateGridOn(t *testing.T) {
	disc := NewImage(40, 30, func(x, y int) bool { return (x-20)*(x-20)+(y-15)*(y-15)*16/9 <= 15*15 })
	onDisc := ID{Algorithm: Wilson, Width: 61, Height: 45, Seed: 9, Shape: ImageShapeOf(disc)}
	hexDisc := ID{Algorithm: Backtracking, GridKind: Hex, Width: 31, Height: 23, Seed: 9, Loops: 30, Shape: ImageShapeOf(disc)}
	t.Run("OK", func(t *testing.T) {
		for _, id := range append(fitting(1), onDisc, hexDisc, ID{Algorithm: Sidewinder, Width: 21, Height: 15, Seed: 3, Loops: 40}) {
			generate := func(id ID) (*GridMaze, error) {
				if id.Shape.Kind == ImageShape {
					return GenerateGridImage(id, disc)
				}
				return GenerateGrid(id)
			}
			like, err := generate(id)
			if err != nil {
				t.Fatal(err)
			}
			next := id
			next.Seed = id.Seed*31 + 1
			got, err := GenerateGridOn(next, like)
			if err != nil {
				t.Fatalf("%s on the grid of %s: %v", next, id, err)
			}
			want, err := generate(next)
			if err != nil {
				t.Fatal(err)
			}
			if got.ID() != next || !slices.Equal(got.links, want.links) || got.start != want.start || got.goal != want.goal {
				t.Fatalf("%s on the grid of %s: not the maze its ID names", next, id)
			}
			if !id.Plain() && got.Grid() != like.Grid() {
				t.Fatalf("%s on the grid of %s: a grid of its own", next, id)
			}
			if slices.Equal(got.links, like.links) {
				t.Fatalf("%s on the grid of %s: the same passages as the old seed's", next, id)
			}
		}
	})
	t.Run("ErrOtherGrid", func(t *testing.T) {
		like, err := GenerateGridImage(onDisc, disc)
		if err != nil {
			t.Fatal(err)
		}
		ring := NewImage(40, 30, func(x, y int) bool { return x > 2 })
		for _, change := range []func(*ID){
			func(id *ID) { id.Algorithm = Backtracking },
			func(id *ID) { id.Width, id.Height = 41, 31 },
			func(id *ID) { id.Loops = 10 },
			func(id *ID) { id.GridKind, id.Width, id.Height = Hex, 31, 23 },
			func(id *ID) { id.Shape = ImageShapeOf(ring) },
			func(id *ID) { id.Shape = Shape{Kind: PresetShape, Preset: Heart, Version: presetVersion} },
		} {
			other := onDisc
			other.Seed = 10
			change(&other)
			if _, err := GenerateGridOn(other, like); !errors.Is(err, ErrOtherGrid) {
				t.Fatalf("%s on the grid of %s: %v, want ErrOtherGrid", other, onDisc, err)
			}
		}
		if _, err := GenerateGridOn(onDisc, nil); !errors.Is(err, ErrOtherGrid) {
			t.Fatalf("on no maze: %v, want ErrOtherGrid", err)
		}
		bad := onDisc
		bad.Loops = MaxLoops + 1
		if _, err := GenerateGridOn(bad, like); !errors.Is(err, ErrLoopsOutOfRange) {
			t.Fatalf("an invalid ID: %v, want ErrLoopsOutOfRange", err)
		}
	})
}

// TestGenerateGridObserved: every grid × algorithm, with loops and
// without, and a plain square maze: the observed maze is GenerateGrid's,
// and the passages heard are its passages, each once.
func TestGenerateGridObserved(t *testing.T) {
	ids := append(fitting(1), ID{Algorithm: Sidewinder, Width: 21, Height: 15, Seed: 3, Loops: 40})
	for i, id := range ids {
		if i%3 == 0 {
			id.Loops = 50
		}
		var heard [][2]int
		m, err := GenerateGridObserved(id, nil, func(a, b int) { heard = append(heard, [2]int{a, b}) })
		if err != nil {
			t.Fatal(err)
		}
		want := mustGenerateGrid(t, id)
		if fmt.Sprint(m.links, m.start, m.goal) != fmt.Sprint(want.links, want.start, want.goal) {
			t.Fatalf("%+v: the observed maze differs from GenerateGrid's", id)
		}
		seen := map[[2]int]bool{}
		for _, p := range heard {
			key := [2]int{min(p[0], p[1]), max(p[0], p[1])}
			if !m.Linked(p[0], p[1]) || seen[key] {
				t.Fatalf("%+v: passage %v heard but not in the maze, or twice", id, p)
			}
			seen[key] = true
		}
		if len(heard) != m.Passages() {
			t.Fatalf("%+v: %d passages heard, the maze has %d", id, len(heard), m.Passages())
		}
	}
}
