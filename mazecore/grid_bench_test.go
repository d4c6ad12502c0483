package mazecore

import (
	"fmt"
	"testing"
)

// BenchmarkGenerateGrid makes a 100-ring polar maze (29,659 cells), a
// 501-wide hex maze and a 1001² (tiles) circle-masked one with every
// algorithm that fits, beside the whole square grid of about the same
// number of cells, reporting ns a cell.
func BenchmarkGenerateGrid(b *testing.B) {
	circle := Shape{Kind: PresetShape, Preset: Circle, Version: presetVersion}
	for _, base := range []ID{
		{GridKind: Polar, Width: MaxRings, Height: MaxRings},
		{GridKind: Square, Width: 345, Height: 345}, // 172² = 29,584 cells
		{GridKind: Hex, Width: 501, Height: 501},
		{GridKind: Square, Width: 1003, Height: 1003}, // 501² cells
		{GridKind: Square, Width: 1001, Height: 1001, Shape: circle},
	} {
		for _, algo := range Algorithms {
			if !algo.Fits(base.GridKind, base.Shape.Kind != NoShape) {
				continue
			}
			id := base
			id.Algorithm, id.Seed = algo, 1
			name := fmt.Sprintf("%s%s/%s/%dx%d", base.GridKind, base.Shape, algo, base.Width, base.Height)
			b.Run(name, func(b *testing.B) {
				var cells int
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					m, err := GenerateGrid(id)
					if err != nil {
						b.Fatal(err)
					}
					cells = m.Grid().Len()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cells), "ns/cell")
			})
		}
	}
}

// BenchmarkGridFigures is the table of docs/mazes.md: for each grid (the
// whole square one, a circle cut from it, polar, hex) at three sizes and
// each algorithm that runs there, the time to generate a maze (ns/op, a
// new seed each time) and the share of cells that are dead ends
// (dead-end-%) in the first figureMazes of those mazes, measured
// untimed.
//
//	go test ./mazecore -run '^$' -bench GridFigures -benchtime 0.2s -count 5
func BenchmarkGridFigures(b *testing.B) {
	circle := Shape{Kind: PresetShape, Preset: Circle, Version: presetVersion}
	for _, base := range []ID{
		{GridKind: Square, Width: 41, Height: 41},
		{GridKind: Square, Width: 201, Height: 201},
		{GridKind: Square, Width: 1001, Height: 1001},
		{GridKind: Square, Width: 41, Height: 41, Shape: circle},
		{GridKind: Square, Width: 201, Height: 201, Shape: circle},
		{GridKind: Square, Width: 1001, Height: 1001, Shape: circle},
		{GridKind: Polar, Width: 10, Height: 10},
		{GridKind: Polar, Width: 50, Height: 50},
		{GridKind: Polar, Width: MaxRings, Height: MaxRings},
		{GridKind: Hex, Width: 20, Height: 20},
		{GridKind: Hex, Width: 100, Height: 100},
		{GridKind: Hex, Width: 500, Height: 500},
	} {
		for _, algo := range Algorithms {
			if !algo.Fits(base.GridKind, base.Shape.Kind != NoShape) {
				continue
			}
			id := base
			id.Algorithm = algo
			name := fmt.Sprintf("%s%s/%dx%d/%s", base.GridKind, base.Shape, base.Width, base.Height, algo)
			b.Run(name, func(b *testing.B) {
				var deadEnds, cells int
				for i := 0; i < b.N; i++ {
					id.Seed = uint64(i)
					var m *GridMaze
					var sq *Maze
					var err error
					if id.Plain() {
						sq, err = Generate(id)
					} else {
						m, err = GenerateGrid(id)
					}
					if err != nil {
						b.Fatal(err)
					}
					if i < figureMazes {
						b.StopTimer()
						if sq != nil {
							m = sq.Graph()
						}
						s := m.Measure()
						deadEnds += s.DeadEnds
						cells += s.Cells
						b.StartTimer()
					}
				}
				b.ReportMetric(100*float64(deadEnds)/float64(cells), "dead-end-%")
			})
		}
	}
}

// figureMazes is how many mazes of each benchmark BenchmarkGridFigures
// measures: enough for a share within a point at the smallest size, and
// few enough that measuring is not most of the run.
const figureMazes = 20
