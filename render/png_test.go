package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"mazebot/mazecore"
)

// decodePNG renders m and decodes the result, checking its size.
func decodePNG(tb testing.TB, m *mazecore.Maze, opts PNGOptions) (image.Image, int) {
	tb.Helper()
	var buf bytes.Buffer
	if err := PNG(&buf, m, opts); err != nil {
		tb.Fatalf("PNG: %v", err)
	}
	n := buf.Len()
	img, err := png.Decode(&buf)
	if err != nil {
		tb.Fatalf("decode: %v", err)
	}
	w, h := opts.Size(m)
	if got, want := img.Bounds(), image.Rect(0, 0, w, h); got != want {
		tb.Fatalf("bounds=%v, want %v", got, want)
	}
	return img, n
}

// tileColour is the colour at the centre pixel of tile (x, y) laid out
// by g.
func tileColour(img image.Image, g geometry, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(g.start(x)+g.size(x)/2, g.start(y)+g.size(y)/2)).(color.RGBA)
}

// geom is the geometry of the PNG of m with opts.
func geom(m *mazecore.Maze, opts PNGOptions) geometry {
	g, _ := opts.geometry(m)
	return g
}

// pngColours are the default palette's.
var pngColours = Dark.colours

func TestPNGScale(t *testing.T) {
	for _, tt := range []struct{ size, want int }{
		{5, 24}, {21, 24}, {43, 24}, {101, 11}, {201, 5}, {401, 2}, {1001, 2}, {1025, 1}, {2001, 1},
	} {
		m := mustGenerate(t, mazecore.BinaryTree, tt.size, 1)
		if got, want := PNGScale(m), tt.want; got != want {
			t.Fatalf("PNGScale(%d tiles)=%d, want %d", tt.size, got, want)
		}
	}
}

func TestPNG(t *testing.T) {
	for _, a := range mazecore.Algorithms {
		// Scale 0 (24 px) and 5 draw with gg, 1 and 2 paletted.
		for _, scale := range []int{0, 1, 2, 5} {
			t.Run(fmt.Sprintf("%v/scale%d", a, scale), func(t *testing.T) {
				// Odd scales with loops: a maze with loops draws the same way.
				m := mustGenerateLoops(t, a, 21, 4, 60*(scale%2))
				if scale == 0 {
					scale = PNGScale(m)
				}
				img, _ := decodePNG(t, m, PNGOptions{Scale: scale})
				g := geom(m, PNGOptions{Scale: scale})
				for y := 0; y < m.Height(); y++ {
					for x := 0; x < m.Width(); x++ {
						want := pngColours[kFloor]
						switch {
						case m.Wall(x, y):
							want = pngColours[kWall]
						case x == m.Start().X && y == m.Start().Y:
							want = pngColours[kStart]
						case x == m.Goal().X && y == m.Goal().Y:
							want = pngColours[kGoal]
						}
						if got := tileColour(img, g, x, y); got != want {
							t.Fatalf("tile (%d,%d)=%v, want %v (wall=%v)", x, y, got, want, m.Wall(x, y))
						}
					}
				}
			})
		}
	}
}

func TestPNGOverlay(t *testing.T) {
	m := mustGenerate(t, mazecore.Backtracking, 31, 8)
	path := mazecore.Solve(m)
	trail := path[len(path)/3 : len(path)/2]
	player := path[len(path)/2]
	ov := Overlay{Path: path, Trail: trail, Player: &player}
	for _, scale := range []int{1, 3, 4, 16} {
		t.Run(fmt.Sprintf("scale%d", scale), func(t *testing.T) {
			img, _ := decodePNG(t, m, PNGOptions{Overlay: ov, Scale: scale})
			g := geom(m, PNGOptions{Scale: scale})
			want := map[mazecore.Point]color.RGBA{}
			for _, p := range path {
				want[p] = pngColours[kPath]
			}
			for _, p := range trail {
				want[p] = pngColours[kTrail]
			}
			want[m.Start()] = pngColours[kStart]
			want[m.Goal()] = pngColours[kGoal]
			want[player] = pngColours[kPlayer]
			for p, c := range want {
				if got := tileColour(img, g, p.X, p.Y); got != c {
					t.Fatalf("tile %v=%v, want %v", p, got, c)
				}
			}
			// Tiles off the path keep their wall or floor colour.
			for y := 0; y < m.Height(); y++ {
				for x := 0; x < m.Width(); x++ {
					if _, ok := want[mazecore.Point{X: x, Y: y}]; ok {
						continue
					}
					c := pngColours[kFloor]
					if m.Wall(x, y) {
						c = pngColours[kWall]
					}
					if got := tileColour(img, g, x, y); got != c {
						t.Fatalf("tile (%d,%d)=%v, want %v", x, y, got, c)
					}
				}
			}
		})
	}
}

func TestPNGTooLarge(t *testing.T) {
	m := mustGenerate(t, mazecore.BinaryTree, 2001, 1)
	for _, scale := range []int{12, 1 << 20, 1 << 40} {
		if err := PNG(&bytes.Buffer{}, m, PNGOptions{Scale: scale}); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("scale %d: err=%v, want ErrTooLarge", scale, err)
		}
	}
}

func TestPNGHuge(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("renders a 2001×2001-tile maze")
	}
	for _, a := range mazecore.Algorithms {
		t.Run(a.String(), func(t *testing.T) {
			m := mustGenerate(t, a, 2001, 1)
			start := time.Now()
			img, n := decodePNG(t, m, PNGOptions{Overlay: Overlay{Path: mazecore.Solve(m)}})
			t.Logf("%d bytes, %v including decode", n, time.Since(start))
			if n >= 10<<20 {
				t.Fatalf("PNG is %d bytes, want < 10 MiB", n)
			}
			for _, p := range []mazecore.Point{{X: 0, Y: 0}, {X: 1000, Y: 999}, m.Goal()} {
				want := pngColours[kFloor]
				switch {
				case m.Wall(p.X, p.Y):
					want = pngColours[kWall]
				case p == m.Goal():
					want = pngColours[kGoal]
				}
				if got := tileColour(img, geom(m, PNGOptions{}), p.X, p.Y); got != want {
					t.Fatalf("tile %v=%v, want %v", p, got, want)
				}
			}
		})
	}
}

func BenchmarkPNG(b *testing.B) {
	for _, size := range []int{201, 2001} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			m := mustGenerate(b, mazecore.Backtracking, size, 1)
			opts := PNGOptions{Overlay: Overlay{Path: mazecore.Solve(m)}}
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := PNG(&buf, m, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "png-bytes")
		})
	}
}

// TestPNGStyles draws every palette in both styles at scales that colour
// tiles (1–3) and that draw a line (5, 24): every tile's centre is its
// colour, walls thin in the line style, and the solution runs through
// every tile of the path, thin walls between cells included.
func TestPNGStyles(t *testing.T) {
	for _, p := range palettes {
		for _, style := range []Style{StyleBlock, StyleLine} {
			for _, scale := range []int{1, 2, 3, 5, 24} {
				t.Run(fmt.Sprintf("%s/%s/scale%d", p, style, scale), func(t *testing.T) {
					m := mustGenerateLoops(t, mazecore.Digging, 21, 9, 20)
					path := mazecore.Solve(m)
					opts := PNGOptions{Overlay: Overlay{Path: path}, Scale: scale, Palette: p, Style: style}
					img, _ := decodePNG(t, m, opts)
					g := geom(m, opts)
					if style == StyleLine && scale > 1 && g.wall >= g.cell {
						t.Fatalf("line style: walls %d px, cells %d px", g.wall, g.cell)
					}
					onPath := map[mazecore.Point]bool{}
					for _, q := range path {
						onPath[q] = true
					}
					for y := range m.Height() {
						for x := range m.Width() {
							q := mazecore.Point{X: x, Y: y}
							want := p.colours[kFloor]
							switch {
							case m.Wall(x, y):
								want = p.colours[kWall]
							case q == m.Start():
								want = p.colours[kStart]
							case q == m.Goal():
								want = p.colours[kGoal]
							case onPath[q]:
								want = p.colours[kPath]
							}
							if got := tileColour(img, g, x, y); got != want {
								t.Fatalf("tile (%d,%d)=%v, want %v", x, y, got, want)
							}
						}
					}
				})
			}
		}
	}
}

func TestParsePaletteAndStyle(t *testing.T) {
	for _, name := range []string{"dark", "Light", "PRINT", ""} {
		p, err := ParsePalette(name)
		if err != nil {
			t.Fatalf("ParsePalette(%q): %v", name, err)
		}
		if want := strings.ToLower(name); want != "" && p.String() != want {
			t.Fatalf("ParsePalette(%q)=%s", name, p)
		}
	}
	if p, _ := ParsePalette(""); p != Dark || (Palette{}).String() != "dark" {
		t.Fatal(`ParsePalette("") or the zero Palette is not Dark`)
	}
	if _, err := ParsePalette("neon"); !errors.Is(err, ErrUnknownName) || !strings.Contains(err.Error(), "dark, light, print") {
		t.Fatalf("ParsePalette(neon): err=%v, want ErrUnknownName listing the themes", err)
	}
	for name, want := range map[string]Style{"block": StyleBlock, "LINE": StyleLine, "auto": StyleAuto, "": StyleAuto} {
		if got, err := ParseStyle(name); err != nil || got != want {
			t.Fatalf("ParseStyle(%q)=%v,%v, want %v", name, got, err, want)
		}
	}
	if _, err := ParseStyle("dotted"); !errors.Is(err, ErrUnknownName) || !strings.Contains(err.Error(), "block, line") {
		t.Fatalf("ParseStyle(dotted): err=%v", err)
	}
	// Auto is the palette's: print is drawn with lines.
	for p, want := range map[Palette]Style{Dark: StyleBlock, Light: StyleBlock, Print: StyleLine, {}: StyleBlock} {
		if got := StyleAuto.resolve(p); got != want {
			t.Fatalf("auto in %s is %v, want %v", p, got, want)
		}
	}
}
