package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"testing"

	"mazebot/mazecore"
)

func TestGIF(t *testing.T) {
	t.Parallel()
	for _, a := range mazecore.Algorithms {
		for _, tt := range []struct {
			size, loops int
			opts        GIFOptions
		}{
			{21, 0, GIFOptions{}},
			{11, 0, GIFOptions{MaxFrames: 4, Scale: 3}},
			{GIFMaxSize, 0, GIFOptions{MaxFrames: 40}},
			{31, 0, GIFOptions{Solve: true}},
			{31, 100, GIFOptions{Solve: true}},
		} {
			t.Run(fmt.Sprintf("%v/%d/%d/loops%d", a, tt.size, tt.opts.MaxFrames, tt.loops), func(t *testing.T) {
				id := mazecore.ID{Algorithm: a, Width: tt.size, Height: tt.size, Seed: 6, Loops: tt.loops}
				var buf bytes.Buffer
				if err := GIF(&buf, id, tt.opts); err != nil {
					t.Fatal(err)
				}
				size := buf.Len()
				g, err := gif.DecodeAll(&buf)
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				maxFrames := tt.opts.MaxFrames
				if maxFrames == 0 {
					maxFrames = defaultGIFFrames
				}
				if n := len(g.Image); n < 2 || n > maxFrames {
					t.Fatalf("%d frames, want 2 to %d", n, maxFrames)
				}
				t.Logf("%d frames, %d bytes", len(g.Image), size)
				if got, want := g.Delay[len(g.Delay)-1], finalFrameDelay; got != want {
					t.Fatalf("final delay=%d, want %d", got, want)
				}

				// Composite the frames as a viewer does (no disposal).
				canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
				for _, frame := range g.Image {
					draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Over)
				}
				m, err := mazecore.Generate(id)
				if err != nil {
					t.Fatal(err)
				}
				geo := newAnimation(m, tt.opts.scale(m.Width(), m.Height())).g
				if w, h := geo.pictureSize(m); g.Config.Width != w || g.Config.Height != h {
					t.Fatalf("size=%d×%d, want %d×%d", g.Config.Width, g.Config.Height, w, h)
				}
				onPath := map[mazecore.Point]bool{}
				if tt.opts.Solve {
					for _, p := range mazecore.Solve(m) {
						onPath[p] = true
					}
				}
				for y := 0; y < m.Height(); y++ {
					for x := 0; x < m.Width(); x++ {
						p := mazecore.Point{X: x, Y: y}
						var want color.Color
						switch {
						case p == m.Start():
							want = gifPalette[gStart]
						case p == m.Goal():
							want = gifPalette[gGoal]
						case onPath[p]:
							want = gifPalette[gPath]
						case m.Wall(x, y):
							want = gifPalette[gWall]
						default:
							want = gifPalette[gFloor]
						}
						if got, want := tileColour(canvas, geo, x, y), color.RGBAModel.Convert(want); got != want {
							t.Fatalf("final tile (%d,%d)=%v, want %v (wall=%v)", x, y, got, want, m.Wall(x, y))
						}
					}
				}
			})
		}
	}
}

// mustGIF renders and decodes the GIF of id.
func mustGIF(t *testing.T, id mazecore.ID, opts GIFOptions) *gif.GIF {
	t.Helper()
	var buf bytes.Buffer
	if err := GIF(&buf, id, opts); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// paint draws frames of g one over the other, as a viewer shows them.
func paint(g *gif.GIF, frames []*image.Paletted) *image.Paletted {
	canvas := image.NewPaletted(image.Rect(0, 0, g.Config.Width, g.Config.Height), gifPalette)
	for _, frame := range frames {
		draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Src)
	}
	return canvas
}

// TestGIFShowsProgress checks that a middle frame is neither empty nor done:
// the animation really shows the generation.
func TestGIFShowsProgress(t *testing.T) {
	g := mustGIF(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1}, GIFOptions{MaxFrames: 20})
	canvas := paint(g, g.Image[:len(g.Image)/2])
	counts := map[uint8]int{}
	for _, px := range canvas.Pix {
		counts[px]++
	}
	for _, s := range []uint8{gUnvisited, gDug, gHead, gWall} {
		if counts[s] == 0 {
			t.Fatalf("half-way frame has no pixels of state %d: %v", s, counts)
		}
	}
	// Frames after the poster and the empty grid cover only what changed.
	if b := g.Image[2].Bounds(); b.Dx() >= g.Config.Width && b.Dy() >= g.Config.Height {
		t.Fatalf("third frame covers the whole picture (%v)", b)
	}
}

// TestGIFShowsBraid checks that the walls the braid opens are opened in
// the animation, after the generation, and not only on the final frame.
func TestGIFShowsBraid(t *testing.T) {
	for _, a := range mazecore.Algorithms {
		g := mustGIF(t, mazecore.ID{Algorithm: a, Width: 21, Height: 21, Seed: 2, Loops: 100}, GIFOptions{MaxFrames: 30})
		canvas := paint(g, g.Image[:len(g.Image)-1])
		braided := mustGenerateLoops(t, a, 21, 2, 100)
		perfect := mustGenerate(t, a, 21, 2)
		geo, opened := newAnimation(braided, GIFOptions{}.scale(21, 21)).g, 0
		for y := 0; y < braided.Height(); y++ {
			for x := 0; x < braided.Width(); x++ {
				if !perfect.Wall(x, y) || braided.Wall(x, y) {
					continue
				}
				opened++
				if s := canvas.ColorIndexAt(geo.start(x)+geo.cell/2, geo.start(y)+geo.cell/2); s == gWall || s == gUnvisited {
					t.Fatalf("%v: wall (%d,%d) the braid opens is state %d before the final frame", a, x, y, s)
				}
			}
		}
		if opened == 0 {
			t.Fatalf("%v: the braid opened no wall", a)
		}
	}
}

func TestGIFErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		id   mazecore.ID
		opts GIFOptions
		is   error
	}{
		{"ErrTooLarge", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: GIFMaxSize + 2, Height: 21, Seed: 1}, GIFOptions{}, ErrTooLarge},
		{"ErrTooTall", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 1001, Seed: 1}, GIFOptions{}, ErrTooLarge},
		{"ErrEvenSize", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 20, Height: 21, Seed: 1}, GIFOptions{}, mazecore.ErrSizeOutOfRange},
		{"ErrAlgorithm", mazecore.ID{Algorithm: 9, Width: 21, Height: 21}, GIFOptions{}, mazecore.ErrUnknownAlgorithm},
		{"ErrMaxFrames", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21}, GIFOptions{MaxFrames: 2}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := GIF(&buf, tt.id, tt.opts)
			if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Fatalf("err=%v, want %v", err, tt.is)
			}
			if got, want := buf.Len(), 0; got != want {
				t.Fatalf("wrote %d bytes before failing", got)
			}
		})
	}
}

func BenchmarkGIF(b *testing.B) {
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 51, Height: 51, Seed: 1}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := GIF(&buf, id, GIFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "gif-bytes")
}

// TestGIFPoster checks that the first frame alone is the finished maze,
// markers included, as a viewer with autoplay off shows it: the same
// picture as the last frame, whole.
func TestGIFPoster(t *testing.T) {
	for _, solve := range []bool{false, true} {
		id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 31, Height: 21, Seed: 5}
		g := mustGIF(t, id, GIFOptions{Solve: solve})
		poster, last := g.Image[0], g.Image[len(g.Image)-1]
		if got, want := poster.Bounds(), image.Rect(0, 0, g.Config.Width, g.Config.Height); got != want {
			t.Fatalf("poster covers %v, want the whole picture %v", got, want)
		}
		if got, want := g.Delay[0], posterDelay; got != want {
			t.Fatalf("poster delay=%d, want %d", got, want)
		}
		if !bytes.Equal(poster.Pix, paint(g, g.Image).Pix) || !bytes.Equal(poster.Pix, last.Pix) {
			t.Fatal("the poster is not the finished maze")
		}
		counts := map[uint8]int{}
		for _, px := range poster.Pix {
			counts[px]++
		}
		for _, s := range []uint8{gFloor, gWall, gStart, gGoal} {
			if counts[s] == 0 {
				t.Fatalf("poster has no pixels of state %d", s)
			}
		}
		if got := counts[gPath] > 0; got != solve {
			t.Fatalf("poster shows the solution=%v, want %v", got, solve)
		}
		for _, s := range []uint8{gUnvisited, gDug, gDone, gHead} {
			if counts[s] != 0 {
				t.Fatalf("poster has %d pixels of the generation's state %d", counts[s], s)
			}
		}
	}
}

// TestGIFHead checks that the head of a 101-tile maze, 4 px a tile, is
// drawn at least minHeadPixels wide.
func TestGIFHead(t *testing.T) {
	g := mustGIF(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: GIFMaxSize, Height: GIFMaxSize, Seed: 1}, GIFOptions{MaxFrames: 20})
	canvas := paint(g, g.Image[:len(g.Image)/2])
	minX, maxX := canvas.Bounds().Max.X, -1
	for y := range canvas.Bounds().Dy() {
		for x := range canvas.Bounds().Dx() {
			if canvas.ColorIndexAt(x, y) == gHead {
				minX, maxX = min(minX, x), max(maxX, x)
			}
		}
	}
	if w := maxX - minX + 1; w < minHeadPixels {
		t.Fatalf("the head is %d px wide, want ≥ %d", w, minHeadPixels)
	}
}
