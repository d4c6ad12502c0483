package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"mazebot/mazecore"
)

func readPNG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func sameColour(a color.Color, b color.RGBA) bool {
	r, g, bl, _ := a.RGBA()
	return uint8(r>>8) == b.R && uint8(g>>8) == b.G && uint8(bl>>8) == b.B
}

// TestGridPlayWindow: a window is centred on the player, of its size
// whatever the maze, and a polar window turns so that outward is up.
func TestGridPlayWindow(t *testing.T) {
	m := mustGridMaze(t, mazecore.ID{Algorithm: mazecore.Wilson, GridKind: mazecore.Polar, Width: 10, Height: 10, Seed: 2})
	g := m.Grid()
	rim := g.Rows() - 1
	east := g.At(rim, g.RingLen(rim)/4) // at three o'clock
	draw := func(v GridPlay) image.Image {
		var buf bytes.Buffer
		if err := GridPlayPNG(&buf, m, v); err != nil {
			t.Fatal(err)
		}
		return readPNG(t, buf.Bytes())
	}
	const s, around = 20, 3
	for _, turn := range []bool{true, false} {
		img := draw(GridPlay{Player: east, Trail: []int{east}, Around: around, Turn: turn, Scale: s})
		side := int(math.Ceil((2*around + 1) * s))
		if b := img.Bounds(); b.Dx() != side || b.Dy() != side {
			t.Fatalf("window of %v, want %d px a side", b, side)
		}
		mid := side / 2
		if !sameColour(img.At(mid, mid), Dark.colours[kPlayer]) {
			t.Fatalf("turn %v: the window's centre is %v, not the player", turn, img.At(mid, mid))
		}
		// 1.7 cells up from a cell of the rim is outside the maze when the
		// window turns, the rim then above the player; unturned, up is
		// along the rim, inside.
		above := img.At(mid, mid-int(1.7*s))
		if outside := sameColour(above, Dark.colours[kWall]); outside != turn {
			t.Fatalf("turn %v: 1.7 cells above the player on the rim at 3 o'clock is %v, want outside the maze %v", turn, above, turn)
		}
	}
	if img := draw(GridPlay{Player: east}); img.Bounds().Dx() < 100 {
		t.Fatalf("the whole maze drawn %v", img.Bounds())
	}
	for _, v := range []GridPlay{{Player: -1, Around: 3}, {Player: g.Len(), Around: 3}, {Player: 0, Around: maxAround + 1}} {
		if err := GridPlayPNG(&bytes.Buffer{}, m, v); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("%+v: err %v, want ErrTooLarge", v, err)
		}
	}
}

// BenchmarkGridPlayWindow draws a game's window on a 100-ring polar maze
// and on a 9-ring one, and reports its size:
//
//	go test ./render -run '^$' -bench GridPlayWindow -count 5
func BenchmarkGridPlayWindow(b *testing.B) {
	for _, rings := range []int{9, 100} {
		m, err := mazecore.GenerateGrid(mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: rings, Height: rings, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		path := m.Solve()
		b.Run(m.ID().String(), func(b *testing.B) {
			for b.Loop() {
				var buf bytes.Buffer
				if err := GridPlayPNG(&buf, m, GridPlay{Player: path[len(path)/2], Trail: path[:len(path)/2], Around: 5, Turn: true}); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(buf.Len()), "bytes")
			}
		})
	}
}

// markerProbe is a point near a marker (cell units, from the marker's
// cell's centre) and whether it is inked.
type markerProbe struct {
	what string
	at   point
	ink  bool
}

// TestGridPlayMarkersByShape: a game's window marks the start as a
// triangle and the goal as a target, as the whole picture does, so that
// in print, where they share a colour, they are told apart by shape.
func TestGridPlayMarkersByShape(t *testing.T) {
	m := mustGridMaze(t, mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Hex, Width: 7, Height: 7, Seed: 3})
	geo := newGridGeometry(m.Grid())
	const s, around = 40.0, 3
	mk := markerShapes(geo.centres[m.Start()], geo.centres[m.Goal()])
	for _, tc := range []struct {
		end    int // the marker's cell; the player stands next to it
		probes []markerProbe
	}{
		{m.Start(), []markerProbe{
			{"the start's middle", point{-0.1, 0}, true},
			{"above the start's tip", point{0.2, -0.2}, false},
		}},
		{m.Goal(), []markerProbe{
			{"the goal's dot", point{0, 0}, true},
			{"the goal's ring", point{mk[1].ring, 0}, true},
			{"between the goal's dot and ring", point{(mk[1].dot + mk[1].ring - mk[1].width/2) / 2, 0}, false},
		}},
	} {
		player := m.Links(tc.end)[0]
		var buf bytes.Buffer
		if err := GridPlayPNG(&buf, m, GridPlay{Player: player, Trail: []int{player}, Around: around, Scale: s, Palette: Print}); err != nil {
			t.Fatal(err)
		}
		img := readPNG(t, buf.Bytes())
		side := math.Ceil((2*around + 1) * s)
		at, end := geo.centres[player], geo.centres[tc.end]
		for _, probe := range tc.probes {
			x := side/2 + (end.x+probe.at.x-at.x)*s
			y := side/2 + (end.y+probe.at.y-at.y)*s
			r, _, _, _ := img.At(int(x), int(y)).RGBA()
			if inked := r < 0x4000; inked != probe.ink {
				t.Fatalf("%s inked %v, want %v", probe.what, inked, probe.ink)
			}
		}
	}
}
