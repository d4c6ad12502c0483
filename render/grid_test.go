package render

import (
	"bytes"
	"errors"
	"image/png"
	"strings"
	"testing"
	"unicode/utf8"

	"mazebot/mazecore"
)

// gridGoldens are the mazes whose pictures are pinned: each grid kind and
// a few shapes.
var gridGoldens = []struct {
	name string
	id   mazecore.ID
}{
	{"polar", mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 8, Height: 8, Seed: 7}},
	{"polar-sidewinder", mazecore.ID{Algorithm: mazecore.Sidewinder, GridKind: mazecore.Polar, Width: 6, Height: 6, Seed: 3}},
	{"hex", mazecore.ID{Algorithm: mazecore.Wilson, GridKind: mazecore.Hex, Width: 11, Height: 9, Seed: 7}},
	{"heart", mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 14, Shape: mustShape("heart")}},
	{"star", mazecore.ID{Algorithm: mazecore.Digging, Width: 41, Height: 41, Seed: 5, Shape: mustShape("star")}},
	{"text", mazecore.ID{Algorithm: mazecore.Wilson, Width: 117, Height: 33, Seed: 1, Shape: mazecore.Shape{Kind: mazecore.TextShape, Text: "HI 40", Version: 1}}},
}

func mustShape(name string) mazecore.Shape {
	s, err := mazecore.ParseShape(name)
	if err != nil {
		panic(err)
	}
	return s
}

func mustGridMaze(t *testing.T, id mazecore.ID) *mazecore.GridMaze {
	t.Helper()
	m, err := mazecore.GenerateGrid(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGridGoldens(t *testing.T) {
	for _, tc := range gridGoldens {
		t.Run(tc.name, func(t *testing.T) {
			m := mustGridMaze(t, tc.id)
			opts := GridOptions{Path: m.Solve(), Scale: 12}
			var png, svg bytes.Buffer
			if err := GridPNG(&png, m, opts); err != nil {
				t.Fatal(err)
			}
			goldenPicture(t, "grid-"+tc.name+".png", png.Bytes())
			if err := GridSVG(&svg, m, opts); err != nil {
				t.Fatal(err)
			}
			golden(t, "grid-"+tc.name+".svg", svg.Bytes())
			var text bytes.Buffer
			err := GridText(&text, m, opts.Path)
			if tc.id.GridKind != mazecore.Square {
				if !errors.Is(err, ErrGridFormat) || !strings.Contains(err.Error(), "use png, svg, gif or pdf") {
					t.Fatalf("GridText of a %s maze: %v, want ErrGridFormat naming png, svg, gif and pdf", tc.id.GridKind, err)
				}
				for name, write := range map[string]func() error{
					"emoji":    func() error { return GridEmoji(&bytes.Buffer{}, m, DefaultTheme, nil) },
					"terminal": func() error { return GridTerminal(&bytes.Buffer{}, m, nil) },
				} {
					if err := write(); !errors.Is(err, ErrGridFormat) || !strings.HasPrefix(err.Error(), name+": ") {
						t.Fatalf("%s of a %s maze: %v, want ErrGridFormat", name, tc.id.GridKind, err)
					}
				}
				if n := GridEmojiLength(m, DefaultTheme); n != 0 {
					t.Fatalf("a %s maze's emoji length is %d, want 0", tc.id.GridKind, n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "grid-"+tc.name+".txt", text.Bytes())
			if tc.id.Width > 41 {
				return // the text's emoji would pin nothing more
			}
			var emoji, term bytes.Buffer
			if err := GridEmoji(&emoji, m, DefaultTheme, opts.Path); err != nil {
				t.Fatal(err)
			}
			golden(t, "grid-"+tc.name+".emoji", emoji.Bytes())
			if err := GridTerminal(&term, m, opts.Path); err != nil {
				t.Fatal(err)
			}
			golden(t, "grid-"+tc.name+".terminal", term.Bytes())
		})
	}
}

// TestGridWalls checks the geometry: every pair of neighbours shares
// exactly one edge, and the walls drawn are the edges less one for each
// passage.
func TestGridWalls(t *testing.T) {
	for _, tc := range gridGoldens {
		m := mustGridMaze(t, tc.id)
		g := m.Grid()
		geo := newGridGeometry(g)
		shared := map[[2]int]int{}
		for _, e := range geo.edges {
			if e.b >= 0 {
				shared[[2]int{min(e.a, e.b), max(e.a, e.b)}]++
			}
		}
		pairs := 0
		for c := range g.Len() {
			for _, n := range g.Neighbours(c) {
				if int(n) > c {
					pairs++
					if got := shared[[2]int{c, int(n)}]; got != 1 {
						t.Fatalf("%s: cells %d and %d share %d edges, want 1", tc.name, c, n, got)
					}
				}
			}
		}
		if len(shared) != pairs {
			t.Fatalf("%s: %d shared edges for %d neighbour pairs", tc.name, len(shared), pairs)
		}
		if got, want := len(geo.walls(m)), len(geo.edges)-m.Passages(); got != want {
			t.Fatalf("%s: %d walls drawn, want %d edges less %d passages", tc.name, got, len(geo.edges), m.Passages())
		}
	}
}

// TestGridText checks the text of a shaped maze against its graph: a
// floor tile for each cell and passage, '~' outside, the shape's border
// walled.
func TestGridText(t *testing.T) {
	m := mustGridMaze(t, gridGoldens[3].id) // the heart
	var buf bytes.Buffer
	if err := GridText(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	g := m.Grid()
	floors := strings.Count(buf.String(), " ") + 2 // S and G
	if want := g.Len() + m.Passages(); floors != want {
		t.Fatalf("%d floor tiles, want %d cells and passages", floors, want)
	}
	if rows[0][0] != '~' || !strings.Contains(buf.String(), "~#") {
		t.Fatalf("the corner is %q, want '~' outside the heart", rows[0][0])
	}
	for y, row := range rows {
		for x := range row {
			if row[x] == ' ' && (x == 0 || y == 0 || row[x-1] == '~' || rows[y-1][x] == '~') {
				t.Fatalf("floor tile (%d, %d) touches the outside", x, y)
			}
		}
	}
}

// TestGridEmoji checks a shaped maze's emoji grid against its text, tile
// for tile: the background square outside the shape, the theme's emoji
// inside; its length is what GridEmojiLength says, which FitsGridEmoji
// holds to Discord's 2000 code points.
func TestGridEmoji(t *testing.T) {
	m := mustGridMaze(t, gridGoldens[3].id) // the heart, 41×41 tiles
	var text, emoji bytes.Buffer
	if err := GridText(&text, m, m.Solve()); err != nil {
		t.Fatal(err)
	}
	if err := GridEmoji(&emoji, m, DefaultTheme, m.Solve()); err != nil {
		t.Fatal(err)
	}
	spell := map[rune]string{'~': DefaultTheme.Outside, '#': DefaultTheme.Wall, ' ': DefaultTheme.Floor,
		'.': DefaultTheme.Path, 'S': DefaultTheme.Start, 'G': DefaultTheme.Goal, '\n': "\n"}
	var want strings.Builder
	for _, r := range strings.TrimSuffix(text.String(), "\n") {
		want.WriteString(spell[r])
	}
	if emoji.String() != want.String() {
		t.Fatal("the emoji grid is not the text spelt in emoji")
	}
	if got, n := GridEmojiLength(m, DefaultTheme), utf8.RuneCount(emoji.Bytes()); got != n {
		t.Fatalf("GridEmojiLength %d, the grid has %d code points", got, n)
	}
	if n := GridEmojiLength(m, DefaultTheme); !FitsGridEmoji(m, DefaultTheme, 2000) || n != 41*42-1 {
		t.Fatalf("a 41×41 heart takes %d code points and does not fit 2000", n)
	}
	// A text's tiles, 117×33 of them, do not.
	if text := mustGridMaze(t, gridGoldens[5].id); FitsGridEmoji(text, DefaultTheme, 2000) {
		t.Fatal("a 117×33 text fits 2000 code points")
	}
}

// TestGridTerminal: the tiles outside the shape are the terminal's own
// background (a reset), never a colour, and every line ends reset.
func TestGridTerminal(t *testing.T) {
	m := mustGridMaze(t, gridGoldens[3].id)
	var buf bytes.Buffer
	if err := GridTerminal(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 41 {
		t.Fatalf("%d lines, want 41", len(lines))
	}
	// The heart's top corner is outside: the line starts with a reset,
	// not a background colour.
	if !strings.HasPrefix(lines[0], "\x1b[0m  ") || !strings.Contains(lines[20], "\x1b[48;5;236m") {
		t.Fatalf("line 0 %q, want the outside as a reset", lines[0][:20])
	}
	for i, l := range lines {
		if !strings.HasSuffix(l, "\x1b[0m") {
			t.Fatalf("line %d does not end reset", i)
		}
	}
}

// BenchmarkGridPNG draws a 100-ring polar maze, a 501-wide hex maze and
// a 1001² (tiles) circle-masked one beside the whole square grid of about
// as many cells, reporting ns a cell:
//
//	go test ./render -run '^$' -bench GridPNG -benchtime 3x -count 3
func BenchmarkGridPNG(b *testing.B) {
	for _, tc := range []struct {
		name string
		id   mazecore.ID
	}{
		{"polar-100", mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 100, Height: 100, Seed: 1}},
		{"square-345", mazecore.ID{Algorithm: mazecore.Backtracking, Width: 345, Height: 345, Seed: 1}}, // 172² = 29,584 cells
		{"hex-501", mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Hex, Width: 501, Height: 501, Seed: 1}},
		{"square-1003", mazecore.ID{Algorithm: mazecore.Backtracking, Width: 1003, Height: 1003, Seed: 1}}, // 501² cells
		{"circle-1001", mazecore.ID{Algorithm: mazecore.Backtracking, Width: 1001, Height: 1001, Seed: 1, Shape: mustShape("circle")}},
		{"square-887", mazecore.ID{Algorithm: mazecore.Backtracking, Width: 887, Height: 887, Seed: 1}}, // 443² ≈ π/4 of 500²
	} {
		m, err := mazecore.GenerateGrid(tc.id)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if err := GridPNG(&bytes.Buffer{}, m, GridOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(m.Grid().Len()), "ns/cell")
		})
	}
}

// TestGridMarkersByShape: in print, where start and goal share a colour,
// the PNG tells them apart by shape: the start a triangle pointing east
// (inked at its middle, blank above its tip), the goal a target (inked
// dot and ring, blank between them).
func TestGridMarkersByShape(t *testing.T) {
	for _, tc := range gridGoldens[:4] {
		m := mustGridMaze(t, tc.id)
		var buf bytes.Buffer
		if err := GridPNG(&buf, m, GridOptions{Scale: 40, Palette: Print}); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		l, err := newGridLayout(m, 40)
		if err != nil {
			t.Fatal(err)
		}
		inked := func(p point) bool {
			q := l.px(p)
			r, _, _, _ := img.At(int(q.x), int(q.y)).RGBA()
			return r < 0x4000
		}
		s, g := l.geo.centres[m.Start()], l.geo.centres[m.Goal()]
		mk := markerShapes(s, g)
		for _, probe := range []struct {
			what string
			at   point
			ink  bool
		}{
			{"the start's middle", point{s.x - 0.1, s.y}, true},
			{"above the start's tip", point{s.x + 0.2, s.y - 0.2}, false},
			{"the goal's dot", g, true},
			{"the goal's ring", point{g.x + mk[1].ring, g.y}, true},
			{"between the goal's dot and ring", point{g.x + (mk[1].dot+mk[1].ring-mk[1].width/2)/2, g.y}, false},
		} {
			if inked(probe.at) != probe.ink {
				t.Fatalf("%s: %s inked %v, want %v", tc.name, probe.what, !probe.ink, probe.ink)
			}
		}
	}
}
