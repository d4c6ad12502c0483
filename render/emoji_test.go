package render

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"mazebot/mazecore"
)

func TestDefaultTheme(t *testing.T) {
	fields := DefaultTheme.byKind()
	seen := map[string]bool{}
	for k, e := range fields {
		if got, want := utf8.RuneCountInString(e), 1; got != want {
			t.Fatalf("kind %d: %q has %d code points, want %d", k, e, got, want)
		}
		if strings.ContainsAny(e, ":\uFE0F") {
			t.Fatalf("kind %d: %q is a shortcode or has a variation selector", k, e)
		}
		if seen[e] {
			t.Fatalf("kind %d: %q is used twice", k, e)
		}
		seen[e] = true
	}
	if got, want := DefaultTheme.Wall, "🟫"; got != want {
		t.Fatalf("Wall=%q, want %q", got, want)
	}
	if got, want := DefaultTheme.Floor, "⬜"; got != want {
		t.Fatalf("Floor=%q, want %q", got, want)
	}
}

func TestFitsEmoji(t *testing.T) {
	for _, tt := range []struct {
		size, limit int
		want        bool
	}{
		{43, 2000, true}, // 43·43 + 42 newlines = 1891
		{45, 2000, false},
		{63, 4096, true},
		{65, 4096, false},
		{5, 2000, true},
	} {
		t.Run(fmt.Sprintf("%d/%d", tt.size, tt.limit), func(t *testing.T) {
			m := mustGenerate(t, mazecore.Sidewinder, tt.size, 1)
			if got, want := FitsEmoji(m, DefaultTheme, Window{}, tt.limit), tt.want; got != want {
				t.Fatalf("FitsEmoji=%v, want %v (length %d)", got, want, EmojiLength(m, DefaultTheme, Window{}))
			}
			s := EmojiString(m, DefaultTheme, Overlay{Path: mazecore.Solve(m)}, Window{})
			if got, want := utf8.RuneCountInString(s) <= tt.limit, tt.want; got != want {
				t.Fatalf("rendered grid fits=%v, want %v", got, want)
			}
		})
	}
}

func TestEmoji(t *testing.T) {
	for _, a := range mazecore.Algorithms {
		for _, tt := range []struct{ size, loops int }{{5, 0}, {21, 0}, {43, 0}, {21, 50}, {43, 100}} {
			t.Run(fmt.Sprintf("%v/%d/loops%d", a, tt.size, tt.loops), func(t *testing.T) {
				m := mustGenerateLoops(t, a, tt.size, 3, tt.loops)
				path := mazecore.Solve(m)
				for _, ov := range []Overlay{{}, {Path: path}, {Trail: path[:len(path)/2], Player: &path[len(path)/2]}} {
					s := EmojiString(m, DefaultTheme, ov, Window{})
					if got, want := EmojiLength(m, DefaultTheme, Window{}), utf8.RuneCountInString(s); got != want {
						t.Fatalf("EmojiLength=%d, want %d", got, want)
					}
					if strings.HasSuffix(s, "\n") {
						t.Fatal("grid ends with a newline")
					}
					rows := strings.Split(s, "\n")
					if got, want := len(rows), m.Height(); got != want {
						t.Fatalf("rows=%d, want %d", got, want)
					}
					for y, row := range rows {
						if got, want := utf8.RuneCountInString(row), m.Width(); got != want {
							t.Fatalf("row %d has %d emoji, want %d", y, got, want)
						}
						for x, r := range []rune(row) {
							if got, want := string(r) == DefaultTheme.Wall, m.Wall(x, y); got != want {
								t.Fatalf("tile (%d,%d) wall emoji=%v, Wall=%v", x, y, got, want)
							}
						}
					}
				}
			})
		}
	}
}

// emojiAt returns the emoji of tile (x, y) in a DefaultTheme grid.
func emojiAt(s string, x, y int) string {
	return string([]rune(strings.Split(s, "\n")[y])[x])
}

func TestEmojiOverlay(t *testing.T) {
	m := mustGenerate(t, mazecore.Backtracking, 21, 5)
	path := mazecore.Solve(m)
	start, goal := m.Start(), m.Goal()
	mid := path[len(path)/2]
	wall := mazecore.Point{X: 0, Y: 0}
	for _, tt := range []struct {
		name string
		ov   Overlay
		at   mazecore.Point
		want string
	}{
		{"Path", Overlay{Path: path}, mid, DefaultTheme.Path},
		{"StartOverPath", Overlay{Path: path}, start, DefaultTheme.Start},
		{"GoalOverPath", Overlay{Path: path}, goal, DefaultTheme.Goal},
		{"TrailOverPath", Overlay{Path: path, Trail: []mazecore.Point{mid}}, mid, DefaultTheme.Trail},
		{"StartOverTrail", Overlay{Trail: []mazecore.Point{start}}, start, DefaultTheme.Start},
		{"PlayerOverStart", Overlay{Player: &start}, start, DefaultTheme.Player},
		{"PlayerOverAll", Overlay{Path: path, Trail: path, Player: &mid}, mid, DefaultTheme.Player},
		{"NoOverlayOnWalls", Overlay{Path: []mazecore.Point{wall}, Player: &wall}, wall, DefaultTheme.Wall},
		{"OutsideIgnored", Overlay{Path: []mazecore.Point{{X: -1, Y: 3}, {X: 99, Y: 99}}}, start, DefaultTheme.Start},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := EmojiString(m, DefaultTheme, tt.ov, Window{})
			if got, want := emojiAt(s, tt.at.X, tt.at.Y), tt.want; got != want {
				t.Fatalf("tile %v=%q, want %q", tt.at, got, want)
			}
		})
	}
}

func TestEmojiTheme(t *testing.T) {
	m := mustGenerate(t, mazecore.Digging, 15, 2)
	path := mazecore.Solve(m)
	t.Run("PartialThemeFallsBack", func(t *testing.T) {
		s := EmojiString(m, Theme{Wall: "🧱"}, Overlay{}, Window{})
		if got, want := emojiAt(s, 0, 0), "🧱"; got != want {
			t.Fatalf("wall=%q, want %q", got, want)
		}
		if got, want := emojiAt(s, 1, 1), DefaultTheme.Start; got != want {
			t.Fatalf("start=%q, want %q", got, want)
		}
	})
	t.Run("LengthIsAnUpperBound", func(t *testing.T) {
		// A variation selector makes the path emoji two code points long.
		theme := Theme{Path: "\u2B50\uFE0F", Wall: "\u2B1B\uFE0F"}
		bound := EmojiLength(m, theme, Window{})
		for _, ov := range []Overlay{{}, {Path: path}, {Path: path, Player: &path[3]}} {
			if got := utf8.RuneCountInString(EmojiString(m, theme, ov, Window{})); got > bound {
				t.Fatalf("grid has %d code points, EmojiLength said at most %d", got, bound)
			}
		}
		if got, want := utf8.RuneCountInString(EmojiString(m, theme, Overlay{Path: path}, Window{})), bound; got >= want+m.Width()*m.Height()/2 {
			t.Fatalf("bound %d is far from the real %d", want, got)
		}
	})
}

func TestWindow(t *testing.T) {
	m := mustGenerate(t, mazecore.Sidewinder, 41, 9)
	whole := strings.Split(EmojiString(m, DefaultTheme, Overlay{}, Window{}), "\n")
	for _, tt := range []struct {
		name       string
		win        Window
		wantW      int
		wantH      int
		wantX0     int
		wantY0     int
		wantLength int
	}{
		{"Inside", Window{X: 3, Y: 4, W: 15, H: 15}, 15, 15, 3, 4, 15*15 + 14},
		{"Corner", Window{X: 0, Y: 0, W: 5, H: 7}, 5, 7, 0, 0, 5*7 + 6},
		{"Wide", Window{X: 10, Y: 0, W: 31, H: 1}, 31, 1, 10, 0, 31},
		{"ClippedRight", Window{X: 35, Y: 35, W: 15, H: 15}, 6, 6, 35, 35, 6*6 + 5},
		{"ClippedLeft", Window{X: -5, Y: -2, W: 10, H: 5}, 5, 3, 0, 0, 5*3 + 2},
		{"Outside", Window{X: 50, Y: 0, W: 5, H: 5}, 0, 0, 0, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := EmojiString(m, DefaultTheme, Overlay{}, tt.win)
			if got, want := EmojiLength(m, DefaultTheme, tt.win), tt.wantLength; got != want {
				t.Fatalf("EmojiLength=%d, want %d", got, want)
			}
			if got, want := utf8.RuneCountInString(s), tt.wantLength; got != want {
				t.Fatalf("rendered %d code points, want %d", got, want)
			}
			if tt.wantH == 0 {
				if s != "" || FitsEmoji(m, DefaultTheme, tt.win, 2000) {
					t.Fatalf("empty window rendered %q / fits", s)
				}
				return
			}
			rows := strings.Split(s, "\n")
			if got, want := len(rows), tt.wantH; got != want {
				t.Fatalf("rows=%d, want %d", got, want)
			}
			for i, row := range rows {
				if got, want := row, string([]rune(whole[tt.wantY0+i])[tt.wantX0:tt.wantX0+tt.wantW]); got != want {
					t.Fatalf("row %d=%q, want %q", i, got, want)
				}
			}
		})
	}
}

func TestWindowAround(t *testing.T) {
	m := mustGenerate(t, mazecore.Backtracking, 41, 1)
	small := mustGenerate(t, mazecore.Backtracking, 11, 1)
	for _, tt := range []struct {
		name string
		m    *mazecore.Maze
		p    mazecore.Point
		w, h int
		want Window
	}{
		{"Centre", m, mazecore.Point{X: 21, Y: 21}, 15, 15, Window{14, 14, 15, 15}},
		{"TopLeft", m, mazecore.Point{X: 1, Y: 1}, 15, 15, Window{0, 0, 15, 15}},
		{"BottomRight", m, mazecore.Point{X: 39, Y: 39}, 15, 15, Window{26, 26, 15, 15}},
		{"NearTop", m, mazecore.Point{X: 21, Y: 3}, 15, 15, Window{14, 0, 15, 15}},
		{"EvenSize", m, mazecore.Point{X: 21, Y: 21}, 10, 6, Window{16, 18, 10, 6}},
		{"BiggerThanMaze", small, mazecore.Point{X: 5, Y: 5}, 15, 15, Window{0, 0, 11, 11}},
		{"Degenerate", small, mazecore.Point{X: 5, Y: 5}, 0, -3, Window{5, 5, 1, 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := WindowAround(tt.m, tt.p, tt.w, tt.h), tt.want; got != want {
				t.Fatalf("WindowAround=%+v, want %+v", got, want)
			}
			s := EmojiString(tt.m, DefaultTheme, Overlay{Player: &tt.p}, tt.want)
			if got, want := utf8.RuneCountInString(s), tt.want.W*tt.want.H+tt.want.H-1; got != want {
				t.Fatalf("window has %d code points, want %d", got, want)
			}
			if !strings.Contains(s, DefaultTheme.Player) {
				t.Fatal("the player is not in its window")
			}
		})
	}
}

func BenchmarkEmoji(b *testing.B) {
	m := mustGenerate(b, mazecore.Backtracking, 43, 1)
	ov := Overlay{Path: mazecore.Solve(m)}
	b.Run("43", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if s := EmojiString(m, DefaultTheme, ov, Window{}); s == "" {
				b.Fatal("empty")
			}
		}
	})
}
