package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"mazebot/mazecore"
)

// gridGoldens are the mazes whose pictures are pinned: each grid kind and
// a few shapes.
var gridGoldens = []struct {
	name string
	id   mazecore.ID
}{
	{"polar", mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 8, Height: 8, Seed: 7}},
	{"polar-sidewinder", mazecore.ID{Algorithm: mazecore.Sidewinder, GridKind: mazecore.Polar, Width: 6, Height: 6, Seed: 3}},
	{"hex", mazecore.ID{Algorithm: mazecore.Wilson, GridKind: mazecore.Hex, Width: 11, Height: 9, Seed: 7}},
	{"heart", mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 14, Shape: mustShape("heart")}},
	{"star", mazecore.ID{Algorithm: mazecore.Digging, Width: 41, Height: 41, Seed: 5, Shape: mustShape("star")}},
	{"text", mazecore.ID{Algorithm: mazecore.Wilson, Width: 117, Height: 33, Seed: 1, Shape: mazecore.Shape{Kind: mazecore.TextShape, Text: "HI 40", Version: 1}}},
}

func mustShape(name string) mazecore.Shape {
	s, err := mazecore.ParseShape(name)
	if err != nil {
		panic(err)
	}
	return s
}

func mustGridMaze(t *testing.T, id mazecore.ID) *mazecore.GridMaze {
	t.Helper()
	m, err := mazecore.GenerateGrid(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGridGoldens(t *testing.T) {
	for _, tc := range gridGoldens {
		t.Run(tc.name, func(t *testing.T) {
			m := mustGridMaze(t, tc.id)
			opts := GridOptions{Path: m.Solve(), Scale: 12}
			var png, svg bytes.Buffer
			if err := GridPNG(&png, m, opts); err != nil {
				t.Fatal(err)
			}
			goldenPicture(t, "grid-"+tc.name+".png", png.Bytes())
			if err := GridSVG(&svg, m, opts); err != nil {
				t.Fatal(err)
			}
			golden(t, "grid-"+tc.name+".svg", svg.Bytes())
			var text bytes.Buffer
			err := GridText(&text, m, opts.Path)
			if tc.id.GridKind != mazecore.Square {
				if !errors.Is(err, ErrGridFormat) || !strings.Contains(err.Error(), "use png or svg") {
					t.Fatalf("GridText of a %s maze: %v, want ErrGridFormat naming png and svg", tc.id.GridKind, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "grid-"+tc.name+".txt", text.Bytes())
		})
	}
}

// TestGridWalls checks the geometry: every pair of neighbours shares
// exactly one edge, and the walls drawn are the edges less one for each
// passage.
func TestGridWalls(t *testing.T) {
	for _, tc := range gridGoldens {
		m := mustGridMaze(t, tc.id)
		g := m.Grid()
		geo := newGridGeometry(g)
		shared := map[[2]int]int{}
		for _, e := range geo.edges {
			if e.b >= 0 {
				shared[[2]int{min(e.a, e.b), max(e.a, e.b)}]++
			}
		}
		pairs := 0
		for c := range g.Len() {
			for _, n := range g.Neighbours(c) {
				if int(n) > c {
					pairs++
					if got := shared[[2]int{c, int(n)}]; got != 1 {
						t.Fatalf("%s: cells %d and %d share %d edges, want 1", tc.name, c, n, got)
					}
				}
			}
		}
		if len(shared) != pairs {
			t.Fatalf("%s: %d shared edges for %d neighbour pairs", tc.name, len(shared), pairs)
		}
		if got, want := len(geo.walls(m)), len(geo.edges)-m.Passages(); got != want {
			t.Fatalf("%s: %d walls drawn, want %d edges less %d passages", tc.name, got, len(geo.edges), m.Passages())
		}
	}
}

// TestGridText checks the text of a shaped maze against its graph: a
// floor tile for each cell and passage, '~' outside, the shape's border
// walled.
func TestGridText(t *testing.T) {
	m := mustGridMaze(t, gridGoldens[3].id) // the heart
	var buf bytes.Buffer
	if err := GridText(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	g := m.Grid()
	floors := strings.Count(buf.String(), " ") + 2 // S and G
	if want := g.Len() + m.Passages(); floors != want {
		t.Fatalf("%d floor tiles, want %d cells and passages", floors, want)
	}
	if rows[0][0] != '~' || !strings.Contains(buf.String(), "~#") {
		t.Fatalf("the corner is %q, want '~' outside the heart", rows[0][0])
	}
	for y, row := range rows {
		for x := range row {
			if row[x] == ' ' && (x == 0 || y == 0 || row[x-1] == '~' || rows[y-1][x] == '~') {
				t.Fatalf("floor tile (%d, %d) touches the outside", x, y)
			}
		}
	}
}

func BenchmarkGridPNG(b *testing.B) {
	for _, id := range []mazecore.ID{
		{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 100, Height: 100, Seed: 1},
		{Algorithm: mazecore.Backtracking, Width: 345, Height: 345, Seed: 1},
	} {
		m, err := mazecore.GenerateGrid(id)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(id.GridKind.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := GridPNG(&bytes.Buffer{}, m, GridOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
