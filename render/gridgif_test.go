package render

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"image/gif"
	"math"
	"testing"

	"mazebot/mazecore"
)

// TestGridGIF animates a maze of each grid and shapes: the frames are the
// poster, the empty grid, one a batch of passages and the poster again;
// composited as a viewer shows them, the frames up to the last batch
// leave every cell carved and a wall exactly on each edge no passage
// crosses; the poster marks the start and goal in their colours.
func TestGridGIF(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   mazecore.ID
		opts GIFOptions
	}{
		{"polar", gridGoldens[0].id, GIFOptions{Scale: 16}},
		{"polar-sidewinder-loops", mazecore.ID{Algorithm: mazecore.Sidewinder, GridKind: mazecore.Polar, Width: 9, Height: 9, Seed: 3, Loops: 60}, GIFOptions{Scale: 16, Solve: true}},
		{"hex", gridGoldens[2].id, GIFOptions{Scale: 16, MaxFrames: 20}},
		{"heart", gridGoldens[3].id, GIFOptions{Scale: 16}},
		{"hexagon", mazecore.ID{Algorithm: mazecore.Digging, GridKind: mazecore.Hex, Width: 15, Height: 15, Seed: 2, Shape: mustShape("hexagon")}, GIFOptions{Scale: 16, MaxFrames: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := GridGIF(&buf, tc.id, nil, tc.opts); err != nil {
				t.Fatal(err)
			}
			g, err := gif.DecodeAll(&buf)
			if err != nil {
				t.Fatal(err)
			}
			m := mustGridMaze(t, tc.id)
			l, err := layoutAt(newGridGeometry(m.Grid()), float64(tc.opts.Scale))
			if err != nil {
				t.Fatal(err)
			}
			if g.Config.Width != l.width || g.Config.Height != l.high {
				t.Fatalf("%d×%d pixels, want %d×%d", g.Config.Width, g.Config.Height, l.width, l.high)
			}
			maxFrames := tc.opts.MaxFrames
			if maxFrames == 0 {
				maxFrames = defaultGIFFrames
			}
			per := max(1, (m.Passages()+maxFrames-4)/(maxFrames-3))
			if got, want := len(g.Image), 3+(m.Passages()+per-1)/per; got != want || got > maxFrames {
				t.Fatalf("%d frames, want %d (%d passages, %d a frame, at most %d)", got, want, m.Passages(), per, maxFrames)
			}
			last := len(g.Image) - 1
			if !bytes.Equal(g.Image[0].Pix, g.Image[last].Pix) || g.Image[0].Bounds() != g.Image[last].Bounds() || g.Delay[0] != posterDelay || g.Delay[last] != finalFrameDelay {
				t.Fatal("the first and last frames are not the finished maze")
			}
			canvas := image.NewPaletted(image.Rect(0, 0, l.width, l.high), gifPalette)
			for _, frame := range g.Image[1:last] {
				draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Src)
			}
			at := func(img *image.Paletted, p point) uint8 {
				q := l.px(p)
				return img.ColorIndexAt(int(math.Floor(q.x)), int(math.Floor(q.y)))
			}
			for c, centre := range l.geo.centres {
				if s := at(canvas, centre); s != gDug && s != gHead {
					t.Fatalf("cell %d's centre is in state %d after the generation, want carved", c, s)
				}
			}
			walled := func(s uint8) bool { return s == gWall || s == gUnvisited } // a wall's edge blends into grey
			for _, e := range l.geo.edges {
				mid := point{(e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2}
				if e.arc {
					t := (e.t1 + e.t2) / 2
					mid = point{l.geo.cx + e.r*math.Sin(t), l.geo.cy - e.r*math.Cos(t)}
				}
				wall := e.b < 0 || !m.Linked(e.a, e.b)
				if s := at(canvas, mid); walled(s) != wall {
					t.Fatalf("edge %d–%d: state %d at its middle, want a wall %v", e.a, e.b, s, wall)
				}
			}
			poster := g.Image[0]
			mk := markerShapes(l.geo.centres[m.Start()], l.geo.centres[m.Goal()])
			tri := mk[0].triangle
			if s := at(poster, point{(tri[0].x + tri[1].x + tri[2].x) / 3, (tri[0].y + tri[1].y + tri[2].y) / 3}); s != gStart {
				t.Fatalf("the start triangle's middle is state %d, want the start's", s)
			}
			if s := at(poster, l.geo.centres[m.Goal()]); s != gGoal {
				t.Fatalf("the goal's dot is state %d, want the goal's", s)
			}
			onPath := map[int]bool{}
			if tc.opts.Solve {
				for _, c := range m.Solve() {
					onPath[c] = true
				}
			}
			for c, centre := range l.geo.centres {
				if c == m.Start() || c == m.Goal() {
					continue
				}
				want := uint8(gFloor)
				if onPath[c] {
					want = gPath
				}
				if s := at(poster, centre); s != want {
					t.Fatalf("cell %d's centre on the poster is state %d, want %d", c, s, want)
				}
			}
		})
	}
}

// TestGridGIFRefusals: a grid too wide to follow is ErrTooLarge, an
// algorithm that does not fit is refused as GenerateGrid refuses it.
func TestGridGIFRefusals(t *testing.T) {
	big := mazecore.ID{Algorithm: mazecore.Wilson, GridKind: mazecore.Polar, Width: 51, Height: 51, Seed: 1}
	if err := GridGIF(&bytes.Buffer{}, big, nil, GIFOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a 51-ring polar GIF: %v, want ErrTooLarge", err)
	}
	big.Width, big.Height = 50, 50
	var buf bytes.Buffer
	if err := GridGIF(&buf, big, nil, GIFOptions{}); err != nil {
		t.Fatalf("a 50-ring polar GIF: %v", err)
	}
	cfg, err := gif.DecodeConfig(&buf)
	if err != nil || cfg.Width > 2*gifTargetSide {
		t.Fatalf("a 50-ring polar GIF: %v, %d pixels wide", err, cfg.Width)
	}
	bt := mazecore.ID{Algorithm: mazecore.BinaryTree, GridKind: mazecore.Hex, Width: 9, Height: 9, Seed: 1}
	if err := GridGIF(&bytes.Buffer{}, bt, nil, GIFOptions{}); !errors.Is(err, mazecore.ErrAlgorithmDoesNotFit) {
		t.Fatalf("binary tree on hex: %v, want ErrAlgorithmDoesNotFit", err)
	}
}
