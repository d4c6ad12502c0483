package mazecore

import (
	"errors"
	"slices"
	"testing"
)

// TestRateGridMatchesRate: on a square maze's graph RateGrid gives Rate's
// figures exactly, for every algorithm, so stars and levels on other
// grids are on the square grid's scale. With loops the shortest path may
// be another of equal length, so only what does not depend on it is held.
func TestRateGridMatchesRate(t *testing.T) {
	for _, algo := range Algorithms {
		for _, size := range [][2]int{{5, 5}, {21, 21}, {41, 27}} {
			for seed := range uint64(8) {
				for _, loops := range []int{0, 40} {
					m := mustGenerate(t, ID{Algorithm: algo, Width: size[0], Height: size[1], Seed: seed, Loops: loops})
					want, got := Rate(m), RateGrid(m.Graph())
					if loops > 0 {
						want, got = Difficulty{Solution: want.Solution, DeadEnds: want.DeadEnds}, Difficulty{Solution: got.Solution, DeadEnds: got.DeadEnds}
					}
					if got != want {
						t.Fatalf("%v: RateGrid %+v, Rate %+v", m.ID(), got, want)
					}
				}
			}
		}
	}
}

// TestRateGridOnGrids rates every grid × algorithm: the figures agree
// with the maze's own measures, and the rating is on the scale.
func TestRateGridOnGrids(t *testing.T) {
	ratings := map[int]int{}
	for _, id := range fitting(3) {
		m := mustGenerateGrid(t, id)
		d, s := RateGrid(m), m.Measure()
		if d.Solution != 2*s.Solution-1 || d.DeadEnds != s.DeadEnds || d.Decisions != s.Decisions {
			t.Fatalf("%v: rated %+v, measured %+v", id, d, s)
		}
		if d.Turns < 0 || d.Turns > 1 || d.Rating < 1 || d.Rating > len(ratingSteps)+1 || d.FalsePaths < 0 || d.FalsePaths > 2*s.Cells {
			t.Fatalf("%v: %+v out of range", id, d)
		}
		ratings[d.Rating]++
	}
	t.Logf("ratings over the grid cases: %v", ratings)
	if len(ratings) < 3 {
		t.Fatalf("ratings %v: want at least three different ratings over mazes of many sizes", ratings)
	}
}

// TestHeading: each of a cell's neighbours has its own heading, in the
// grid's order for square and hex grids; on a polar grid the outward
// neighbours share one.
func TestHeading(t *testing.T) {
	square, _ := NewSquareGrid(5, 5, nil)
	hex, _ := NewHexGrid(5, 5, nil)
	polar, _ := NewPolarGrid(8)
	for _, tc := range []struct {
		grid *Grid
		cell int
		want []int
	}{
		{square, square.At(2, 2), []int{0, 1, 2, 3}},
		{hex, hex.At(2, 2), []int{0, 1, 2, 3, 4, 5}},
		{hex, hex.At(2, 3), []int{0, 1, 2, 3, 4, 5}},
		// In, clockwise, anticlockwise, then out (two where ring 4 splits).
		{polar, polar.At(3, 4), []int{0, 2, 3, 1}},
		{polar, polar.At(1, 0), []int{0, 2, 3, 1, 1}},
	} {
		var got []int
		for _, n := range tc.grid.Neighbours(tc.cell) {
			got = append(got, heading(tc.grid, tc.cell, int(n)))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v cell %v: headings %v, want %v", tc.grid.Kind(), tc.grid.Cell(tc.cell), got, tc.want)
		}
	}
}

// TestChooseGrid: on other grids and shapes a level is a candidate at its
// rank by RateGrid, the same every time, the three levels three seeds
// rising in score; a plain square ID is chosen as Choose chooses.
func TestChooseGrid(t *testing.T) {
	heart, _ := ParseShape("heart")
	for _, base := range []ID{
		{Algorithm: Backtracking, GridKind: Polar, Width: 12, Height: 12, Seed: 99},
		{Algorithm: Wilson, GridKind: Hex, Width: 15, Height: 11, Seed: 5, Loops: 10},
		{Algorithm: Digging, GridKind: Square, Width: 31, Height: 31, Seed: 7, Shape: heart},
	} {
		if got, err := ChooseGrid(base, AnyLevel, nil); err != nil || got != base {
			t.Fatalf("ChooseGrid(any)=%+v,%v, want the ID unchanged", got, err)
		}
		var scores []float64
		for _, level := range []Level{Easy, Medium, Hard} {
			id, err := ChooseGrid(base, level, nil)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := ChooseGrid(base, level, nil); again != id {
				t.Fatalf("ChooseGrid(%v) twice: %v, then %v", level, id, again)
			}
			if want := base; !slices.Contains(candidateSeeds(base.Seed), id.Seed) || func() bool { want.Seed = id.Seed; return id != want }() {
				t.Fatalf("ChooseGrid(%v)=%+v: want %+v with a candidate's seed", level, id, base)
			}
			scores = append(scores, RateGrid(mustGenerateGrid(t, id)).Score)
		}
		if !(scores[0] < scores[1] && scores[1] < scores[2]) {
			t.Fatalf("%v: easy, medium, hard scored %v, want rising", base, scores)
		}
	}
	plain := ID{Algorithm: Sidewinder, Width: 21, Height: 21, Seed: 3}
	want, _ := Choose(plain, Hard)
	if got, err := ChooseGrid(plain, Hard, nil); err != nil || got != want {
		t.Fatalf("ChooseGrid of a plain ID %v,%v, want Choose's %v", got, err, want)
	}
	disc := NewImage(40, 30, func(x, y int) bool { return (x-20)*(x-20)+(y-15)*(y-15)*16/9 <= 15*15 })
	image := ID{Algorithm: Digging, GridKind: Square, Width: 41, Height: 31, Seed: 4, Shape: ImageShapeOf(disc)}
	if _, err := ChooseGrid(image, Easy, nil); !errors.Is(err, ErrNeedsImage) {
		t.Fatalf("ChooseGrid of an image shape without its image: %v, want ErrNeedsImage", err)
	}
	if id, err := ChooseGrid(image, Hard, disc); err != nil || id.Shape != image.Shape || !slices.Contains(candidateSeeds(image.Seed), id.Seed) {
		t.Fatalf("ChooseGrid of an image shape with its image: %+v, %v", id, err)
	}
	if _, err := ChooseGrid(ID{Algorithm: Digging, GridKind: Polar, Width: 500, Height: 500}, Easy, nil); err == nil {
		t.Fatal("ChooseGrid of an invalid ID succeeded")
	}
}

// BenchmarkChooseGrid times a level's choice at the largest sizes /maze
// takes one (views.DifficultyMaxCells, 10,000 cells) beside the square
// grid's 201×201 (100×100 cells), which Choose makes.
func BenchmarkChooseGrid(b *testing.B) {
	heart, _ := ParseShape("heart")
	for _, tc := range []struct {
		name string
		id   ID
	}{
		{"square-201", ID{Algorithm: Backtracking, Width: 201, Height: 201, Seed: 1}},
		{"heart-241", ID{Algorithm: Backtracking, Width: 241, Height: 241, Seed: 1, Shape: heart}},
		{"polar-56", ID{Algorithm: Backtracking, GridKind: Polar, Width: 56, Height: 56, Seed: 1}},
		{"hex-100", ID{Algorithm: Backtracking, GridKind: Hex, Width: 100, Height: 100, Seed: 1}},
		{"hex-100-wilson", ID{Algorithm: Wilson, GridKind: Hex, Width: 100, Height: 100, Seed: 1}},
	} {
		grid, err := tc.id.Grid()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ChooseGrid(tc.id, Hard, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(grid.Len()), "cells")
		})
	}
}
