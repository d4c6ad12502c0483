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
