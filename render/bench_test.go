package render_test

// Benchmarks of the stages of issue 17, on the public API only, so that the
// same file runs against older code (bench/benchcmp.sh copies it there).

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"mazebot/mazecore"
	"mazebot/render"
)

func generate(b *testing.B, a mazecore.Algorithm, size int) *mazecore.Maze {
	b.Helper()
	m, err := mazecore.Generate(mazecore.ID{Algorithm: a, Width: size, Height: size, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkText is the command line's text of a 4000×4000-cell maze (64 MB).
func BenchmarkText(b *testing.B) {
	m := generate(b, mazecore.BinaryTree, 8001)
	b.SetBytes(int64(m.Width()+1) * int64(m.Height()))
	for b.Loop() {
		if err := render.Text(io.Discard, m, render.Overlay{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTerminal(b *testing.B) {
	m := generate(b, mazecore.Backtracking, 2001)
	for b.Loop() {
		if err := render.Terminal(io.Discard, m, render.Overlay{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmojiGrid(b *testing.B) {
	for _, size := range []int{41, 2001} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			m := generate(b, mazecore.Backtracking, size)
			ov := render.Overlay{Path: mazecore.Solve(m)}
			b.ReportAllocs()
			for b.Loop() {
				if err := render.Emoji(io.Discard, m, render.DefaultTheme, ov, render.Window{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPNGSolution is a PNG with the solution at the automatic scale:
// 201 tiles draw the line at 5 px a tile, 1001 colour tiles at 2 px.
func BenchmarkPNGSolution(b *testing.B) {
	for _, size := range []int{201, 1001} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			m := generate(b, mazecore.Backtracking, size)
			opts := render.PNGOptions{Overlay: render.Overlay{Path: mazecore.Solve(m)}}
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := render.PNG(&buf, m, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "png-bytes")
		})
	}
}

// BenchmarkGIFAnimation is the GIF of a maze's generation with its
// solution, at the default size and frames.
func BenchmarkGIFAnimation(b *testing.B) {
	for _, size := range []int{21, 101} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: size, Height: size, Seed: 1}
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := render.GIF(&buf, id, render.GIFOptions{Solve: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "gif-bytes")
		})
	}
}
