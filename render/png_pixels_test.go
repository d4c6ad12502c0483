package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"testing"

	"mazebot/mazecore"
)

// TestPNGPixels draws pictures of every kind, overlays odd and ordinary,
// and compares their pixels with the pictures PNG drew at 4bc7a29
// (refPicture): the PNG bytes may differ, the picture must not.
func TestPNGPixels(t *testing.T) {
	t.Parallel()
	// Every scale's line width and dots, up to 13; the automatic largest.
	scales := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 24}
	sizes, auto := []int{5, 7, 21, 31}, []int{41, 101, 201, 401, 1001}
	if testing.Short() || raceDetector {
		// Both parities, the first detailed scale, the dots that reach
		// past their tile (5, 9), the disc with a ring.
		scales, sizes, auto = []int{1, 2, 4, 5, 8, 9, 24}, []int{7, 21}, []int{101, 201}
	}
	for _, a := range mazecore.Algorithms {
		for _, size := range sizes {
			m := mustGenerateLoops(t, a, size, uint64(size), 30*(size%3))
			for _, tc := range pixelOverlays(m) {
				for _, scale := range scales {
					t.Run(fmt.Sprintf("%v/%d/%s/scale%d", a, size, tc.name, scale), func(t *testing.T) {
						comparePixels(t, m, tc.ov, scale)
					})
				}
			}
		}
	}
	// The sizes Discord and the command line see, at the automatic scale.
	for _, size := range auto {
		m := mustGenerate(t, mazecore.Backtracking, size, 3)
		path := mazecore.Solve(m)
		for _, ov := range []Overlay{{}, {Path: path}} {
			t.Run(fmt.Sprintf("auto/%d/%d", size, len(ov.Path)), func(t *testing.T) {
				comparePixels(t, m, ov, PNGScale(m))
			})
		}
	}
}

type namedOverlay struct {
	name string
	ov   Overlay
}

// pixelOverlays are overlays for m: none, the solution, a player on it
// with a trail, and the odd ones: isolated points (dots), a path with
// gaps, through walls and off the maze, revisiting tiles, a player on a
// wall or the start.
func pixelOverlays(m *mazecore.Maze) []namedOverlay {
	path := mazecore.Solve(m)
	mid := path[len(path)/2]
	start := m.Start()
	wall := mazecore.Point{X: 0, Y: 0}
	var dots, gaps []mazecore.Point
	for i, p := range path {
		if i%3 == 0 {
			dots = append(dots, p)
		}
		if i%5 != 2 {
			gaps = append(gaps, p)
		}
	}
	odd := append([]mazecore.Point{{X: -3, Y: 1}, wall, {X: m.Width(), Y: 1}}, path[:len(path)/2]...)
	odd = append(odd, wall)
	odd = append(odd, path[len(path)/4:]...) // back over tiles already drawn
	return []namedOverlay{
		{"none", Overlay{}},
		{"solution", Overlay{Path: path}},
		{"player", Overlay{Path: path, Trail: path[:len(path)/2], Player: &mid}},
		{"trail", Overlay{Trail: path[len(path)/3:], Player: &mid}},
		{"dots", Overlay{Path: dots, Player: &dots[len(dots)/2]}},
		{"gaps", Overlay{Path: gaps, Trail: gaps[:3]}},
		{"odd", Overlay{Path: odd, Player: &start}},
		{"playerOnWall", Overlay{Path: path[:1], Player: &wall}},
	}
}

func comparePixels(t *testing.T, m *mazecore.Maze, ov Overlay, scale int) {
	t.Helper()
	var buf bytes.Buffer
	opts := PNGOptions{Overlay: ov, Scale: scale}
	if err := PNG(&buf, m, opts); err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	g, d := opts.geometry(m)
	maze := image.Rect(g.off, g.off, g.start(m.Width()), g.start(m.Height()))
	sub, ok := got.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		t.Fatalf("decoded %T has no SubImage", got)
	}
	if diff := pixelDiff(sub.SubImage(maze), translate(refPicture(m, ov, scale), maze.Min)); diff != "" {
		t.Fatal(diff)
	}
	if diff := marginDiff(got, m, g, d, Dark); diff != "" {
		t.Fatal(diff)
	}
}

// translate moves img's origin to at.
func translate(img image.Image, at image.Point) image.Image {
	out := image.NewRGBA(img.Bounds().Add(at))
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

// marginDiff describes the first pixel of the margin around the maze of
// img that is neither floor nor a start or goal marker's pixel where
// markersOf puts it, "" if none.
func marginDiff(img image.Image, m *mazecore.Maze, g geometry, d int, pal Palette) string {
	want := func(x, y int) color.RGBA {
		for i, mk := range markersOf(m, g, d) {
			if x >= mk.x && y >= mk.y && x < mk.x+mk.d && y < mk.y+mk.d && mk.covers(x-mk.x, y-mk.y) {
				return pal.markers[i]
			}
		}
		return pal.colours[kFloor]
	}
	maze := image.Rect(g.off, g.off, g.start(m.Width()), g.start(m.Height()))
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if (image.Point{x, y}).In(maze) {
				continue
			}
			if got, w := color.RGBAModel.Convert(img.At(x, y)), want(x, y); got != w {
				return fmt.Sprintf("margin pixel (%d,%d) is %v, want %v", x, y, got, w)
			}
		}
	}
	return ""
}

// pixelDiff describes the first pixel where a and b differ, "" if none.
func pixelDiff(a, b image.Image) string {
	if a.Bounds() != b.Bounds() {
		return fmt.Sprintf("bounds %v, want %v", a.Bounds(), b.Bounds())
	}
	r := a.Bounds()
	atA, atB := rgba64At(a), rgba64At(b)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ca, cb := atA(x, y), atB(x, y); ca != cb {
				return fmt.Sprintf("pixel (%d,%d) is %v, want %v", x, y, ca, cb)
			}
		}
	}
	return ""
}

// rgba64At reads img's pixels as 16-bit RGBA without At's allocation of
// a color for each, which made the pixel tests' comparisons a quarter of
// their time under -race. Every image the tests decode or draw has it.
func rgba64At(img image.Image) func(x, y int) color.RGBA64 {
	if f, ok := img.(image.RGBA64Image); ok {
		return f.RGBA64At
	}
	return func(x, y int) color.RGBA64 { return color.RGBA64Model.Convert(img.At(x, y)).(color.RGBA64) }
}
