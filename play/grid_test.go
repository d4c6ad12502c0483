package play

import (
	"errors"
	"slices"
	"testing"

	"mazebot/mazecore"
)

func mustShape(t *testing.T, name string) mazecore.Shape {
	t.Helper()
	s, err := mazecore.ParseShape(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// gridMazes are mazes on every other grid than the whole square one, by
// every algorithm that runs there, perfect and with loops.
func gridMazes(t *testing.T) []*mazecore.GridMaze {
	t.Helper()
	ids := []mazecore.ID{
		{GridKind: mazecore.Polar, Width: 8, Height: 8},
		{GridKind: mazecore.Hex, Width: 9, Height: 7},
		{GridKind: mazecore.Hex, Width: 12, Height: 12, Shape: mustShape(t, "hexagon")},
		{GridKind: mazecore.Square, Width: 25, Height: 25, Shape: mustShape(t, "heart")},
	}
	var out []*mazecore.GridMaze
	for _, id := range ids {
		for _, algo := range mazecore.Algorithms {
			if !algo.Fits(id.GridKind, id.Shape.Kind != mazecore.NoShape) {
				continue
			}
			for _, loops := range []int{0, 30} {
				id.Algorithm, id.Loops, id.Seed = algo, loops, uint64(loops+7)
				m, err := mazecore.GenerateGrid(id)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, m)
			}
		}
	}
	return out
}

// TestToward pins the cell each way leads to on hex and polar grids,
// where the layout decides it.
func TestToward(t *testing.T) {
	hex, err := mazecore.NewHexGrid(6, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	polar, err := mazecore.NewPolarGrid(6) // rings of 1, 6, 12, 24, 24, 24 cells
	if err != nil {
		t.Fatal(err)
	}
	square, err := mazecore.NewSquareGrid(4, 4, mazecore.NewMask(4, 4, func(col, row int) bool { return col != 1 || row != 1 }))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    *mazecore.Grid
		from mazecore.Cell
		way  Way
		want mazecore.Cell // Row −1: no cell
	}{
		{"HexEvenNorth", hex, mazecore.Cell{Row: 2, Col: 2}, WayNorth, mazecore.Cell{Row: 1, Col: 2}},
		{"HexEvenNorthEast", hex, mazecore.Cell{Row: 2, Col: 2}, WayNorthEast, mazecore.Cell{Row: 1, Col: 3}},
		{"HexEvenSouthEast", hex, mazecore.Cell{Row: 2, Col: 2}, WaySouthEast, mazecore.Cell{Row: 2, Col: 3}},
		{"HexEvenSouthWest", hex, mazecore.Cell{Row: 2, Col: 2}, WaySouthWest, mazecore.Cell{Row: 2, Col: 1}},
		{"HexOddNorthEast", hex, mazecore.Cell{Row: 2, Col: 3}, WayNorthEast, mazecore.Cell{Row: 2, Col: 4}},
		{"HexOddSouthEast", hex, mazecore.Cell{Row: 2, Col: 3}, WaySouthEast, mazecore.Cell{Row: 3, Col: 4}},
		{"HexOddNorthWest", hex, mazecore.Cell{Row: 2, Col: 3}, WayNorthWest, mazecore.Cell{Row: 2, Col: 2}},
		{"HexOutside", hex, mazecore.Cell{Row: 0, Col: 0}, WayNorthWest, mazecore.Cell{Row: -1}},
		{"HexNoEast", hex, mazecore.Cell{Row: 2, Col: 2}, WayEast, mazecore.Cell{Row: -1}},
		{"PolarOutSplit", polar, mazecore.Cell{Row: 1, Col: 2}, WayOut, mazecore.Cell{Row: 2, Col: 4}},
		{"PolarOutClockwiseSplit", polar, mazecore.Cell{Row: 1, Col: 2}, WayOutClockwise, mazecore.Cell{Row: 2, Col: 5}},
		{"PolarInFromSplit", polar, mazecore.Cell{Row: 2, Col: 5}, WayIn, mazecore.Cell{Row: 1, Col: 2}},
		{"PolarOutNoSplit", polar, mazecore.Cell{Row: 3, Col: 7}, WayOut, mazecore.Cell{Row: 4, Col: 7}},
		{"PolarOutClockwiseNoSplit", polar, mazecore.Cell{Row: 3, Col: 7}, WayOutClockwise, mazecore.Cell{Row: -1}},
		{"PolarClockwiseWraps", polar, mazecore.Cell{Row: 1, Col: 5}, WayClockwise, mazecore.Cell{Row: 1, Col: 0}},
		{"PolarAnticlockwiseWraps", polar, mazecore.Cell{Row: 1, Col: 0}, WayAnticlockwise, mazecore.Cell{Row: 1, Col: 5}},
		{"PolarInToCentre", polar, mazecore.Cell{Row: 1, Col: 4}, WayIn, mazecore.Cell{Row: 0, Col: 0}},
		{"PolarNoWayFromCentre", polar, mazecore.Cell{Row: 0, Col: 0}, WayOut, mazecore.Cell{Row: -1}},
		{"PolarRimNoOut", polar, mazecore.Cell{Row: 5, Col: 3}, WayOut, mazecore.Cell{Row: -1}},
		{"SquareEast", square, mazecore.Cell{Row: 0, Col: 0}, WayEast, mazecore.Cell{Row: 0, Col: 1}},
		{"SquareIntoTheMaskHole", square, mazecore.Cell{Row: 0, Col: 1}, WaySouth, mazecore.Cell{Row: -1}},
		{"SquareNoDiagonal", square, mazecore.Cell{Row: 0, Col: 0}, WaySouthEast, mazecore.Cell{Row: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := -1
			if tc.want.Row >= 0 {
				want = tc.g.At(tc.want.Row, tc.want.Col)
			}
			if got := Toward(tc.g, tc.g.At(tc.from.Row, tc.from.Col), tc.way); got != want {
				t.Fatalf("%v of %+v is cell %d, want %d (%+v)", tc.way, tc.from, got, want, tc.want)
			}
		})
	}
}

// TestWaysReachEveryNeighbour: on every grid, the ways from a cell lead
// to exactly its neighbours, each by one way, and back (the polar
// centre, the goal, aside).
func TestWaysReachEveryNeighbour(t *testing.T) {
	grids := map[string]func() (*mazecore.Grid, error){
		"polar": func() (*mazecore.Grid, error) { return mazecore.NewPolarGrid(12) },
		"hex":   func() (*mazecore.Grid, error) { return mazecore.NewHexGrid(9, 8, nil) },
		"hexMasked": func() (*mazecore.Grid, error) {
			return mazecore.ID{GridKind: mazecore.Hex, Width: 12, Height: 12, Shape: mustShape(t, "star")}.Grid()
		},
		"squareHeart": func() (*mazecore.Grid, error) {
			return mazecore.ID{GridKind: mazecore.Square, Width: 25, Height: 25, Shape: mustShape(t, "heart")}.Grid()
		},
	}
	for name, build := range grids {
		t.Run(name, func(t *testing.T) {
			g, err := build()
			if err != nil {
				t.Fatal(err)
			}
			for c := range g.Len() {
				if g.Kind() == mazecore.Polar && c == 0 {
					continue
				}
				var reached []int
				for _, w := range Ways(g.Kind()) {
					n := Toward(g, c, w)
					if n < 0 {
						continue
					}
					reached = append(reached, n)
					centre := g.Kind() == mazecore.Polar && n == 0
					if back := slices.IndexFunc(Ways(g.Kind()), func(v Way) bool { return Toward(g, n, v) == c }); back < 0 && !centre {
						t.Fatalf("cell %d goes %v to %d, and no way leads back", c, w, n)
					}
				}
				var want []int
				for _, n := range g.Neighbours(c) {
					want = append(want, int(n))
				}
				slices.Sort(reached)
				slices.Sort(want)
				if !slices.Equal(reached, want) {
					t.Fatalf("cell %d %+v: the ways reach %v, its neighbours are %v", c, g.Cell(c), reached, want)
				}
			}
		})
	}
}

// TestGridRun checks every move from every cell of mazes on every grid: a
// run steps through passages only, never stops inside a corridor and
// never runs past a junction, a dead end, the start or the goal.
func TestGridRun(t *testing.T) {
	for _, m := range gridMazes(t) {
		t.Run(m.ID().String(), func(t *testing.T) {
			isStop := func(c int) bool { return c == m.Start() || c == m.Goal() || m.Degree(c) != 2 }
			for c := range m.Grid().Len() {
				for _, w := range Ways(m.Grid().Kind()) {
					steps := gridRun(m, c, w)
					n := Toward(m.Grid(), c, w)
					if n < 0 || !m.Linked(c, n) {
						if steps != nil {
							t.Fatalf("run from %d %v through a wall: %v", c, w, steps)
						}
						continue
					}
					prev := c
					for i, s := range steps {
						if !m.Linked(prev, s) {
							t.Fatalf("run from %d %v: step %d to %d is not through a passage from %d", c, w, i, s, prev)
						}
						if i < len(steps)-1 && isStop(s) {
							t.Fatalf("run from %d %v went past a stop at %d", c, w, s)
						}
						prev = s
					}
					if !isStop(steps[len(steps)-1]) {
						t.Fatalf("run from %d %v stopped inside a corridor at %d", c, w, steps[len(steps)-1])
					}
					if len(steps) > 1 && steps[1] == c {
						t.Fatalf("run from %d %v came back", c, w)
					}
				}
			}
		})
	}
}

// TestPlayGridSolution plays the solution of every grid maze: it reaches
// the goal, in par clicks for a perfect maze, walking the shortest path.
func TestPlayGridSolution(t *testing.T) {
	for _, m := range gridMazes(t) {
		t.Run(m.ID().String(), func(t *testing.T) {
			g, err := NewOnGrid(m, Record{UserID: "u1"}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if g.Cell() != m.Start() || g.Grid() != m || g.Maze() != nil {
				t.Fatalf("a new game at cell %d, want the start %d", g.Cell(), m.Start())
			}
			path := m.Solve()
			for out := Moved; out == Moved; {
				i := slices.Index(path, g.Cell())
				if i < 0 || i == len(path)-1 {
					t.Fatalf("the player at %d is off the solution", g.Cell())
				}
				w, ok := WayTo(m.Grid(), path[i], path[i+1])
				if !ok || !g.CanGoWay(w) {
					t.Fatalf("cell %d: no open way to %d", path[i], path[i+1])
				}
				if out, err = g.Apply(Action{Kind: Move, Way: w, Seq: g.Seq}, t0); err != nil {
					t.Fatal(err)
				}
				if out != Moved && out != Finished {
					t.Fatalf("outcome %v at cell %d", out, path[i])
				}
			}
			if g.Status != Won || g.Cell() != m.Goal() {
				t.Fatalf("status %v at %d, want won at the goal %d", g.Status, g.Cell(), m.Goal())
			}
			if g.Tiles != g.Shortest() || g.Shortest() != len(path)-1 {
				t.Fatalf("walked %d cells, the shortest path is %d steps", g.Tiles, len(path)-1)
			}
			if m.ID().Loops == 0 && g.Clicks != g.Par() {
				t.Fatalf("%d clicks on a perfect maze, par %d", g.Clicks, g.Par())
			}
			if got := g.WalkedCells(); len(got) != len(path) {
				t.Fatalf("trail of %d cells, want the path's %d", len(got), len(path))
			}
			if g.Clicks >= len(path)-1 && len(path) > 3 {
				t.Fatalf("%d clicks for %d steps: moves must run along corridors", g.Clicks, len(path)-1)
			}
		})
	}
}

func TestApplyOnGrid(t *testing.T) {
	m, err := mazecore.GenerateGrid(mazecore.ID{GridKind: mazecore.Hex, Width: 9, Height: 9, Algorithm: mazecore.Backtracking, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	blocked := func(g *Game) Way {
		for _, w := range Ways(mazecore.Hex) {
			if !g.CanGoWay(w) {
				return w
			}
		}
		t.Fatal("no wall round the start")
		return 0
	}
	t.Run("OKBlocked", func(t *testing.T) {
		g, _ := NewOnGrid(m, Record{}, t0)
		if out, err := g.Apply(Action{Kind: Move, Way: blocked(g)}, t0); err != nil || out != Blocked || g.Seq != 0 || g.Clicks != 0 {
			t.Fatalf("outcome %v, err %v, seq %d", out, err, g.Seq)
		}
	})
	t.Run("OKSquareWayOnHex", func(t *testing.T) {
		g, _ := NewOnGrid(m, Record{}, t0)
		if out, _ := g.Apply(Action{Kind: Move, Way: WayEast}, t0); out != Blocked {
			t.Fatalf("east on a hex grid: %v, want Blocked", out)
		}
	})
	t.Run("OKDirIgnored", func(t *testing.T) {
		g, _ := NewOnGrid(m, Record{}, t0)
		if g.CanGo(mazecore.North) {
			t.Fatal("CanGo answers for a game on a hex grid")
		}
	})
}

func TestResumeOnGrid(t *testing.T) {
	m, err := mazecore.GenerateGrid(mazecore.ID{GridKind: mazecore.Polar, Width: 7, Height: 7, Algorithm: mazecore.Wilson, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewOnGrid(m, Record{UserID: "u1"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	rec := g.Record
	rec.Trail = slices.Clone(rec.Trail)
	t.Run("OK", func(t *testing.T) {
		r, err := ResumeOnGrid(m, rec)
		if err != nil || r.Cell() != m.Start() {
			t.Fatalf("resumed at %d (%v), want the start %d", r.Cell(), err, m.Start())
		}
	})
	for name, change := range map[string]func(r *Record){
		"ErrBetweenCells": func(r *Record) { r.Pos.X++ },
		"ErrPastTheRing":  func(r *Record) { r.Pos = mazecore.Point{X: 2*m.Grid().RingLen(1) + 1, Y: 3} },
		"ErrTrail":        func(r *Record) { r.Trail = append(r.Trail, 0) },
		"ErrOtherMaze":    func(r *Record) { r.MazeID.Seed++ },
	} {
		t.Run(name, func(t *testing.T) {
			r := rec
			change(&r)
			if _, err := ResumeOnGrid(m, r); !errors.Is(err, ErrBadState) {
				t.Fatalf("err=%v, want ErrBadState", err)
			}
		})
	}
}
