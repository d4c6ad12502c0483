package render

import (
	"bytes"
	"errors"
	"image/color"
	"image/png"
	"io"
	"slices"
	"testing"

	"mazebot/mazecore"
)

// TestRacePNG draws a race of two on every grid the Arena races (the
// square grid, as its Graph, polar, hex and shapes): the winner walked
// the solution, the runner-up the solution and a branch off it. A cell
// on the solution shows the winner's colour at its centre (her line is on
// top), a cell of the branch the runner-up's, a cell nobody walked the
// floor; and the pictures are pinned (testdata/race-*.png).
func TestRacePNG(t *testing.T) {
	winner, second := rgb(0xe69f00), rgb(0x56b4e9)
	mazes := []struct {
		name string
		m    *mazecore.GridMaze
	}{{"square", mustMaze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 11, Height: 11, Seed: 7}).Graph()}}
	for _, tc := range []struct {
		name string
		id   mazecore.ID
	}{gridGoldens[0], gridGoldens[2], gridGoldens[3]} {
		mazes = append(mazes, struct {
			name string
			m    *mazecore.GridMaze
		}{tc.name, mustGridMaze(t, tc.id)})
	}
	for _, tc := range mazes {
		t.Run(tc.name, func(t *testing.T) {
			m, g := tc.m, tc.m.Grid()
			path := m.Solve()
			branch := -1
			for _, c := range path[1 : len(path)-1] {
				for _, nb := range g.Neighbours(c) {
					b := int(nb)
					if b >= 0 && m.Linked(c, b) && !slices.Contains(path, b) && b != m.Start() && b != m.Goal() {
						branch = b
					}
				}
			}
			unwalked := -1
			for c := range g.Len() {
				if !slices.Contains(path, c) && c != branch {
					unwalked = c
					break
				}
			}
			if branch < 0 || unwalked < 0 {
				t.Fatalf("no branch off the solution (%d) or cell off it (%d)", branch, unwalked)
			}
			var out bytes.Buffer
			walks := []RaceWalk{{Cells: path, Colour: winner}, {Cells: append(slices.Clone(path), branch), Colour: second}}
			if err := RacePNG(&out, m, walks, GridOptions{Scale: 20}); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(out.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			l, err := newGridLayout(m, 20)
			if err != nil {
				t.Fatal(err)
			}
			at := func(c int) color.RGBA {
				p := l.px(l.geo.centres[c])
				r, gr, b, _ := img.At(int(p.x), int(p.y)).RGBA()
				return color.RGBA{uint8(r >> 8), uint8(gr >> 8), uint8(b >> 8), 0xff}
			}
			for name, want := range map[string]struct {
				cell   int
				colour color.RGBA
			}{
				"a cell of the solution": {path[len(path)/2], winner},
				"the runner-up's branch": {branch, second},
				"a cell nobody walked":   {unwalked, Dark.colours[kFloor]},
			} {
				if got := at(want.cell); got != want.colour {
					t.Errorf("%s (cell %d) is %v at its centre, want %v", name, want.cell, got, want.colour)
				}
			}
			goldenPicture(t, "race-"+tc.name+".png", out.Bytes())
		})
	}
}

// TestRacePNGRefusesTooMany: past maxRaceWalks the lines could not be
// told apart, and the picture is refused as too large, not drawn.
func TestRacePNGRefusesTooMany(t *testing.T) {
	m := mustGridMaze(t, gridGoldens[0].id)
	walks := make([]RaceWalk, maxRaceWalks+1)
	if err := RacePNG(&bytes.Buffer{}, m, walks, GridOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("%d walks: %v, want ErrTooLarge", len(walks), err)
	}
}

func mustMaze(t *testing.T, id mazecore.ID) *mazecore.Maze {
	t.Helper()
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// BenchmarkRacePNG draws a result card's picture of five racers' walks,
// each the solution, on a 100-ring polar maze (the largest the Arena
// races, 29,659 cells) and a 101×101 square one, at the automatic scale.
func BenchmarkRacePNG(b *testing.B) {
	colours := []color.RGBA{rgb(0xe69f00), rgb(0x56b4e9), rgb(0x009e73), rgb(0xf0e442), rgb(0x0072b2)}
	for _, tc := range []struct {
		name string
		id   mazecore.ID
	}{
		{"polar100", mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 100, Height: 100, Seed: 1}},
		{"square101", mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Square, Width: 101, Height: 101, Seed: 1}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m, err := mazecore.GenerateGrid(tc.id)
			if err != nil {
				b.Fatal(err)
			}
			walks := make([]RaceWalk, len(colours))
			for i, c := range colours {
				walks[i] = RaceWalk{Cells: m.Solve(), Colour: c}
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := RacePNG(io.Discard, m, walks, GridOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
