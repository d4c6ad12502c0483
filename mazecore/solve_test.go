package mazecore

import (
	"fmt"
	"testing"
)

func TestSolveAgreesWithTileBFS(t *testing.T) {
	for _, algo := range Algorithms {
		for _, size := range testSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", algo, size.w, size.h), func(t *testing.T) {
				for seed := uint64(0); seed < 20; seed++ {
					m := mustGenerate(t, ID{Algorithm: algo, Width: size.w, Height: size.h, Seed: seed})
					path := Solve(m)
					dist := tileBFS(m, m.Start())
					goal := m.Goal()
					if got, want := len(path)-1, dist[goal.Y*m.Width()+goal.X]; got != want {
						t.Fatalf("%v: path has %d steps, BFS says %d", m.ID(), got, want)
					}
					checkPath(t, m, path, m.Start(), goal)
				}
			})
		}
	}
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
	if got, want := len(path)-1, tileBFS(m, from)[to.Y*m.Width()+to.X]; got != want {
		t.Fatalf("path has %d steps, BFS says %d", got, want)
	}
	checkPath(t, m, path, from, to)
	if _, err := ShortestPath(m, Point{2, 1}, to); err == nil {
		t.Fatal("ShortestPath from a passage tile succeeded, want an error")
	}
	if _, err := ShortestPath(m, from, Point{31, 1}); err == nil {
		t.Fatal("ShortestPath to a tile outside succeeded, want an error")
	}
}

func TestMeasure(t *testing.T) {
	m := mustGenerate(t, ID{Algorithm: Backtracking, Width: 25, Height: 17, Seed: 3})
	s := Measure(m)
	if got, want := s.Solution, len(Solve(m)); got != want {
		t.Fatalf("Solution=%d, want %d", got, want)
	}
	// The diameter by brute force: the largest tile distance between cells.
	longest := 0
	for cy := 0; cy < m.Rows(); cy++ {
		for cx := 0; cx < m.Cols(); cx++ {
			dist := tileBFS(m, Point{2*cx + 1, 2*cy + 1})
			for y := 1; y < m.Height(); y += 2 {
				for x := 1; x < m.Width(); x += 2 {
					longest = max(longest, dist[y*m.Width()+x]+1)
				}
			}
		}
	}
	if got, want := s.LongestPath, longest; got != want {
		t.Fatalf("LongestPath=%d, brute force says %d", got, want)
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
	if s.DeadEnds != dead || s.Junctions != junctions || s.Cells != 12*8 {
		t.Fatalf("Measure=%+v, want %d dead ends, %d junctions, 96 cells", s, dead, junctions)
	}
}
