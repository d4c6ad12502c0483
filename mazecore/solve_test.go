package mazecore

import (
	"fmt"
	"testing"
)

// TestSolveAgreesWithTileBFS compares the solver with an independent
// breadth-first search over tiles, on perfect mazes and on mazes with loops,
// where more than one path leads to the goal and only a BFS finds the
// shortest.
func TestSolveAgreesWithTileBFS(t *testing.T) {
	for _, algo := range Algorithms {
		for _, size := range braidSizes {
			for _, loops := range []int{0, 30, 100} {
				t.Run(fmt.Sprintf("%s/%dx%d/loops%d", algo, size.w, size.h, loops), func(t *testing.T) {
					rng := newSource(uint64(size.w*size.h + loops))
					for seed := uint64(0); seed < 10; seed++ {
						m := mustGenerate(t, ID{Algorithm: algo, Width: size.w, Height: size.h, Seed: seed, Loops: loops})
						checkShortest(t, m, m.Start(), m.Goal(), Solve(m))
						from := Point{2*rng.intn(m.Cols()) + 1, 2*rng.intn(m.Rows()) + 1}
						to := Point{2*rng.intn(m.Cols()) + 1, 2*rng.intn(m.Rows()) + 1}
						path, err := ShortestPath(m, from, to)
						if err != nil {
							t.Fatal(err)
						}
						checkShortest(t, m, from, to, path)
					}
				})
			}
		}
	}
}

// checkShortest checks that path is a walk from 'from' to 'to' as short as
// tileBFS says the shortest is.
func checkShortest(t *testing.T, m *Maze, from, to Point, path []Point) {
	t.Helper()
	if got, want := len(path)-1, tileBFS(m, from)[to.Y*m.Width()+to.X]; got != want {
		t.Fatalf("%v: path %v → %v has %d steps, BFS says %d", m.ID(), from, to, got, want)
	}
	checkPath(t, m, path, from, to)
}

func checkPath(t *testing.T, m *Maze, path []Point, from, to Point) {
	t.Helper()
	if len(path) == 0 || path[0] != from || path[len(path)-1] != to {
		t.Fatalf("%v: path runs %v → %v, want %v → %v", m.ID(), path[0], path[len(path)-1], from, to)
	}
	for i, p := range path {
		if m.Wall(p.X, p.Y) {
			t.Fatalf("%v: step %d at %v is a wall", m.ID(), i, p)
		}
		if i > 0 {
			q := path[i-1]
			if dx, dy := p.X-q.X, p.Y-q.Y; dx*dx+dy*dy != 1 {
				t.Fatalf("%v: step %d jumps from %v to %v", m.ID(), i, q, p)
			}
		}
	}
}

func TestShortestPathBetweenCells(t *testing.T) {
	m := mustGenerate(t, ID{Algorithm: Digging, Width: 31, Height: 21, Seed: 9})
	from, to := Point{29, 1}, Point{1, 19}
	path, err := ShortestPath(m, from, to)
	if err != nil {
		t.Fatal(err)
	}
	checkShortest(t, m, from, to, path)
	if _, err := ShortestPath(m, Point{2, 1}, to); err == nil {
		t.Fatal("ShortestPath from a passage tile succeeded, want an error")
	}
	if _, err := ShortestPath(m, from, Point{31, 1}); err == nil {
		t.Fatal("ShortestPath to a tile outside succeeded, want an error")
	}
}

func TestMeasure(t *testing.T) {
	for _, loops := range []int{0, 40, 100} {
		t.Run(fmt.Sprintf("loops%d", loops), func(t *testing.T) {
			m := mustGenerate(t, ID{Algorithm: Backtracking, Width: 25, Height: 17, Seed: 3, Loops: loops})
			checkMeasure(t, m)
		})
	}
}

func checkMeasure(t *testing.T, m *Maze) {
	t.Helper()
	s := Measure(m)
	if got, want := s.Solution, len(Solve(m)); got != want {
		t.Fatalf("Solution=%d, want %d", got, want)
	}
	// The diameter by brute force: the largest tile distance between cells.
	longest, fromFirst := 0, 0
	for cy := 0; cy < m.Rows(); cy++ {
		for cx := 0; cx < m.Cols(); cx++ {
			dist := tileBFS(m, Point{2*cx + 1, 2*cy + 1})
			for y := 1; y < m.Height(); y += 2 {
				for x := 1; x < m.Width(); x += 2 {
					longest = max(longest, dist[y*m.Width()+x]+1)
					if cx == 0 && cy == 0 {
						fromFirst = max(fromFirst, dist[y*m.Width()+x]+1)
					}
				}
			}
		}
	}
	if m.ID().Loops == 0 && s.LongestPath != longest {
		t.Fatalf("LongestPath=%d, brute force says %d", s.LongestPath, longest)
	}
	// With loops, the double sweep lies between the first sweep and the truth.
	if s.LongestPath > longest || s.LongestPath < fromFirst {
		t.Fatalf("LongestPath=%d, want from %d to %d", s.LongestPath, fromFirst, longest)
	}
	dead, junctions := 0, 0
	for y := 1; y < m.Height(); y += 2 {
		for x := 1; x < m.Width(); x += 2 {
			open := 0
			for _, d := range []Point{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
				if !m.Wall(x+d.X, y+d.Y) {
					open++
				}
			}
			switch {
			case open == 1:
				dead++
			case open >= 3:
				junctions++
			}
		}
	}
	if s.DeadEnds != dead || s.Junctions != junctions || s.Cells != m.Cols()*m.Rows() {
		t.Fatalf("Measure=%+v, want %d dead ends, %d junctions, %d cells", s, dead, junctions, m.Cols()*m.Rows())
	}
}
