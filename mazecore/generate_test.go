package mazecore

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestGeneratePerfect(t *testing.T) {
	for _, algo := range Algorithms {
		for _, size := range testSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", algo, size.w, size.h), func(t *testing.T) {
				for seed := uint64(0); seed < 60; seed++ {
					m := mustGenerate(t, ID{Algorithm: algo, Width: size.w, Height: size.h, Seed: seed})
					checkPerfect(t, m)
				}
			})
		}
	}
}

func checkPerfect(t *testing.T, m *Maze) {
	t.Helper()
	id := m.ID()
	if got, want := m.Width(), id.Width; got != want {
		t.Fatalf("%v: Width()=%d, want %d", id, got, want)
	}
	if got, want := m.Height(), id.Height; got != want {
		t.Fatalf("%v: Height()=%d, want %d", id, got, want)
	}
	cells := m.Cols() * m.Rows()
	if got, want := passages(m), cells-1; got != want {
		t.Fatalf("%v: %d passages, want cells-1 = %d", id, got, want)
	}
	// Closed outer wall, read from the passage bits themselves.
	for cy := 0; cy < m.Rows(); cy++ {
		if m.Open(m.Cols()-1, cy, East) || m.Open(0, cy, West) {
			t.Fatalf("%v: outer wall open in row %d", id, cy)
		}
	}
	for cx := 0; cx < m.Cols(); cx++ {
		if m.Open(cx, m.Rows()-1, South) || m.Open(cx, 0, North) {
			t.Fatalf("%v: outer wall open in column %d", id, cx)
		}
	}
	for x := 0; x < m.Width(); x++ {
		if !m.Wall(x, 0) || !m.Wall(x, m.Height()-1) {
			t.Fatalf("%v: border tile in column %d is floor", id, x)
		}
	}
	// Every cell reachable from the start.
	dist := tileBFS(m, m.Start())
	for cy := 0; cy < m.Rows(); cy++ {
		for cx := 0; cx < m.Cols(); cx++ {
			if dist[(2*cy+1)*m.Width()+2*cx+1] < 0 {
				t.Fatalf("%v: cell (%d,%d) unreachable", id, cx, cy)
			}
		}
	}
}

func TestBinaryTreeSignature(t *testing.T) {
	for seed := uint64(0); seed < 100; seed++ {
		for _, size := range testSizes {
			m := mustGenerate(t, ID{Algorithm: BinaryTree, Width: size.w, Height: size.h, Seed: seed})
			checkNorthRowOpen(t, m)
			for cy := 1; cy < m.Rows(); cy++ {
				if !m.Open(m.Cols()-1, cy, North) {
					t.Fatalf("%v: east column broken at row %d", m.ID(), cy)
				}
			}
			for cy := 0; cy < m.Rows(); cy++ {
				for cx := 0; cx < m.Cols(); cx++ {
					if m.Degree(cx, cy) == 4 {
						t.Fatalf("%v: 4-way junction at (%d,%d)", m.ID(), cx, cy)
					}
				}
			}
		}
	}
}

// checkNorthRowOpen fails unless the top row of cells is one corridor, as
// binary tree and sidewinder carve it: north of it is the outer wall, so
// each of its cells can only open east.
func checkNorthRowOpen(t *testing.T, m *Maze) {
	t.Helper()
	for cx := 0; cx < m.Cols()-1; cx++ {
		if !m.Open(cx, 0, East) {
			t.Fatalf("%v: north row broken at column %d", m.ID(), cx)
		}
	}
}

func TestSidewinderSignature(t *testing.T) {
	notAtEnd := 0
	for seed := uint64(0); seed < 100; seed++ {
		for _, size := range testSizes {
			m := mustGenerate(t, ID{Algorithm: Sidewinder, Width: size.w, Height: size.h, Seed: seed})
			checkNorthRowOpen(t, m)
			for cy := 1; cy < m.Rows(); cy++ {
				runStart := 0
				for cx := 0; cx < m.Cols(); cx++ {
					if m.Open(cx, cy, East) {
						continue
					}
					ups, at := 0, -1
					for x := runStart; x <= cx; x++ {
						if m.Open(x, cy, North) {
							ups, at = ups+1, x
						}
					}
					if ups != 1 {
						t.Fatalf("%v: run %d..%d of row %d has %d passages north, want 1", m.ID(), runStart, cx, cy, ups)
					}
					if at != cx {
						notAtEnd++
					}
					runStart = cx + 1
				}
			}
		}
	}
	if notAtEnd == 0 {
		t.Fatal("every run's passage north is at the run's end: the passage must come from a random cell")
	}
}

func TestDeadEndShare(t *testing.T) {
	// Wilson's uniform spanning trees: 29.4% (Buck, Mazes for Programmers,
	// the dead-end counts of chapter 10, as for Aldous-Broder).
	want := map[Algorithm]float64{BinaryTree: 25.0, Sidewinder: 27.4, Backtracking: 10.5, Digging: 11.0, Wilson: 29.4}
	for _, algo := range Algorithms {
		t.Run(algo.String(), func(t *testing.T) {
			var sum float64
			const mazes = 200
			for seed := uint64(0); seed < mazes; seed++ {
				sum += Measure(mustGenerate(t, ID{Algorithm: algo, Width: 41, Height: 41, Seed: seed})).DeadEndShare()
			}
			got := 100 * sum / mazes
			if math.Abs(got-want[algo]) > 1.5 {
				t.Fatalf("mean dead-end share %.2f%%, want %.1f%% ± 1.5", got, want[algo])
			}
		})
	}
}

func TestLongestPathBacktrackingVsDigging(t *testing.T) {
	mean := func(algo Algorithm) float64 {
		var sum float64
		const mazes = 20
		for seed := uint64(0); seed < mazes; seed++ {
			sum += float64(Measure(mustGenerate(t, ID{Algorithm: algo, Width: 201, Height: 201, Seed: seed})).LongestPath)
		}
		return sum / mazes
	}
	bt, dig := mean(Backtracking), mean(Digging)
	if bt < 2*dig {
		t.Fatalf("mean longest path: backtracking %.0f, digging %.0f; want backtracking ≥ 2× digging", bt, dig)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for _, algo := range Algorithms {
		id := ID{Algorithm: algo, Width: 31, Height: 23, Seed: 42}
		a, b := tileText(mustGenerate(t, id)), tileText(mustGenerate(t, id))
		if a != b {
			t.Fatalf("%v: two generations differ", id)
		}
		other := tileText(mustGenerate(t, ID{Algorithm: algo, Width: 31, Height: 23, Seed: 43}))
		if a == other {
			t.Fatalf("%v: seeds 42 and 43 give the same maze", algo)
		}
	}
}

func TestGenerateRejectsInvalid(t *testing.T) {
	for _, id := range []ID{
		{Algorithm: 0, Width: 21, Height: 21},
		{Algorithm: 9, Width: 21, Height: 21},
		{Algorithm: Sidewinder, Width: 3, Height: 21},
		{Algorithm: Sidewinder, Width: 21, Height: 20},
		{Algorithm: Sidewinder, Width: 21, Height: MaxSize + 2},
	} {
		if _, err := Generate(id); err == nil {
			t.Fatalf("Generate(%+v) succeeded, want an error", id)
		}
	}
	for _, loops := range []int{-1, MaxLoops + 1} {
		id := ID{Algorithm: Sidewinder, Width: 21, Height: 21, Loops: loops}
		if _, err := Generate(id); !errors.Is(err, ErrLoopsOutOfRange) {
			t.Fatalf("Generate(%+v) err=%v, want ErrLoopsOutOfRange", id, err)
		}
	}
}

func TestObserverSeesEveryCarve(t *testing.T) {
	for _, algo := range Algorithms {
		id := ID{Algorithm: algo, Width: 21, Height: 15, Seed: 5, Loops: 40}
		carved := 0
		m, err := GenerateObserved(id, func(s Step) {
			if s.Kind == Carved {
				carved++
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := carved, passages(m); got != want {
			t.Fatalf("%v: observer saw %d carves, maze has %d passages", algo, got, want)
		}
	}
}

func TestNormalizeSize(t *testing.T) {
	for _, tc := range []struct {
		in, max, want int
		rounded, err  bool
	}{
		{21, 1001, 21, false, false},
		{20, 1001, 21, true, false},
		{5, 1001, 5, false, false},
		{4, 1001, 0, false, true},
		{1000, 1001, 1001, true, false},
		{1002, 1001, 0, false, true},
		{1003, 1001, 0, false, true},
		{-7, 1001, 0, false, true},
	} {
		got, rounded, err := NormalizeSize(tc.in, tc.max)
		if (err != nil) != tc.err {
			t.Fatalf("NormalizeSize(%d, %d) err=%v, want error %v", tc.in, tc.max, err, tc.err)
		}
		if err != nil {
			var se *SizeError
			if !errors.Is(err, ErrSizeOutOfRange) || !errors.As(err, &se) || se.Max != tc.max || se.Min != MinSize {
				t.Fatalf("NormalizeSize(%d, %d) err=%v, want a *SizeError naming %d..%d", tc.in, tc.max, err, MinSize, tc.max)
			}
			continue
		}
		if got != tc.want || rounded != tc.rounded {
			t.Fatalf("NormalizeSize(%d, %d)=%d,%v, want %d,%v", tc.in, tc.max, got, rounded, tc.want, tc.rounded)
		}
	}
}

func TestParseAlgorithm(t *testing.T) {
	for in, want := range map[string]Algorithm{
		"binary-tree": BinaryTree, "Binary Tree": BinaryTree, "bt": BinaryTree, "binarytree": BinaryTree,
		"sidewinder": Sidewinder, "SIDEWINDER": Sidewinder,
		"backtracking": Backtracking, "backtrack": Backtracking, "recursive_backtracker": Backtracking,
		"digging": Digging, "dig": Digging,
	} {
		got, err := ParseAlgorithm(in)
		if err != nil || got != want {
			t.Fatalf("ParseAlgorithm(%q)=%v,%v, want %v", in, got, err, want)
		}
	}
	_, err := ParseAlgorithm("prim")
	if !errors.Is(err, ErrUnknownAlgorithm) {
		t.Fatalf("ParseAlgorithm(prim) err=%v, want ErrUnknownAlgorithm", err)
	}
	for _, name := range AlgorithmNames() {
		if !strings.Contains(err.Error(), name) {
			t.Fatalf("error %q does not list %s", err, name)
		}
	}
}
