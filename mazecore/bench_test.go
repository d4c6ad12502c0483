package mazecore

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkGenerate reports ns and bytes per cell, the figures the design
// targets (≤ 1 s and ≤ 1 byte a cell at 4000×4000 cells; digging ≤ 5).
func BenchmarkGenerate(b *testing.B) {
	for _, cells := range []int{1000, 4000} {
		for _, algo := range Algorithms {
			b.Run(fmt.Sprintf("%s/%dx%d", algo, cells, cells), func(b *testing.B) {
				id := ID{Algorithm: algo, Width: 2*cells + 1, Height: 2*cells + 1, Seed: 1}
				n := float64(cells * cells)
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for i := 0; i < b.N; i++ {
					if _, err := Generate(id); err != nil {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/cell")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/n, "B/cell")
			})
		}
	}
}

func BenchmarkSolve(b *testing.B) {
	for _, algo := range []Algorithm{Backtracking, Digging} {
		b.Run(fmt.Sprintf("%s/4000x4000", algo), func(b *testing.B) {
			m := mustGenerate(b, ID{Algorithm: algo, Width: 8001, Height: 8001, Seed: 1})
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if len(Solve(m)) == 0 {
					b.Fatal("no path")
				}
			}
		})
	}
}

// BenchmarkDifficulty is the cost of Rate alone, on a maze already made.
func BenchmarkDifficulty(b *testing.B) {
	for _, size := range []int{41, 201} {
		for _, algo := range []Algorithm{BinaryTree, Backtracking} {
			b.Run(fmt.Sprintf("%s/%dx%d", algo, size, size), func(b *testing.B) {
				m := mustGenerate(b, ID{Algorithm: algo, Width: size, Height: size, Seed: 1})
				b.ReportAllocs()
				for b.Loop() {
					Rate(m)
				}
			})
		}
	}
}

// BenchmarkChoose is the cost of a level: Candidates generations and
// ratings.
func BenchmarkChoose(b *testing.B) {
	for _, algo := range []Algorithm{BinaryTree, Backtracking} {
		b.Run(fmt.Sprintf("%s/41x41", algo), func(b *testing.B) {
			id := ID{Algorithm: algo, Width: 41, Height: 41, Seed: 1}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Choose(id, Hard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
