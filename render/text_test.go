package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"mazebot/mazecore"
)

// parseText reads Text output back into a wall grid, checking its shape.
func parseText(t *testing.T, m *mazecore.Maze, text string) [][]bool {
	t.Helper()
	if !strings.HasSuffix(text, "\n") {
		t.Fatal("text does not end with a newline")
	}
	rows := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if got, want := len(rows), m.Height(); got != want {
		t.Fatalf("rows=%d, want %d", got, want)
	}
	walls := make([][]bool, len(rows))
	for y, row := range rows {
		if got, want := len(row), m.Width(); got != want {
			t.Fatalf("row %d is %d characters, want %d", y, got, want)
		}
		walls[y] = make([]bool, len(row))
		for x := range row {
			switch row[x] {
			case '#':
				walls[y][x] = true
			case ' ', 'S', 'G', '.', 'o', '@':
			default:
				t.Fatalf("tile (%d,%d) is %q", x, y, row[x])
			}
		}
	}
	return walls
}

func TestText(t *testing.T) {
	for _, a := range mazecore.Algorithms {
		for _, size := range []int{5, 21, 51} {
			t.Run(fmt.Sprintf("%v/%d", a, size), func(t *testing.T) {
				m := mustGenerate(t, a, size, 11)
				path := mazecore.Solve(m)
				for _, ov := range []Overlay{{}, {Path: path, Trail: path[:2], Player: &path[2]}} {
					var buf bytes.Buffer
					if err := Text(&buf, m, ov); err != nil {
						t.Fatal(err)
					}
					walls := parseText(t, m, buf.String())
					for y := range walls {
						for x := range walls[y] {
							if got, want := walls[y][x], m.Wall(x, y); got != want {
								t.Fatalf("tile (%d,%d) wall=%v, want %v", x, y, got, want)
							}
						}
					}
					rows := strings.Split(buf.String(), "\n")
					if got, want := rows[1][1], byte('S'); got != want {
						t.Fatalf("start=%q, want %q", got, want)
					}
					if got, want := rows[m.Goal().Y][m.Goal().X], byte('G'); got != want {
						t.Fatalf("goal=%q, want %q", got, want)
					}
				}
			})
		}
	}
}

func TestTextOverlay(t *testing.T) {
	m := mustGenerate(t, mazecore.Digging, 21, 2)
	path := mazecore.Solve(m)
	var buf bytes.Buffer
	if err := Text(&buf, m, Overlay{Path: path, Trail: path[:3], Player: &path[3]}); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(buf.String(), "\n")
	at := func(p mazecore.Point) byte { return rows[p.Y][p.X] }
	for i, p := range path {
		want := byte('.')
		switch {
		case i == 3:
			want = '@'
		case i == 0:
			want = 'S'
		case i < 3:
			want = 'o'
		case i == len(path)-1:
			want = 'G'
		}
		if got := at(p); got != want {
			t.Fatalf("path tile %d %v=%q, want %q", i, p, got, want)
		}
	}
	if got, want := strings.Count(buf.String(), "."), len(path)-4-1; got != want {
		t.Fatalf("%d solution tiles, want %d", got, want)
	}
}

// TestTextGolden pins, per algorithm, a fixed maze ID and its solution:
// a change here means old maze IDs now name different mazes.
func TestTextGolden(t *testing.T) {
	for _, a := range mazecore.Algorithms {
		t.Run(a.String(), func(t *testing.T) {
			id := mazecore.ID{Algorithm: a, Width: 21, Height: 15, Seed: 2024}
			m, err := mazecore.Generate(id)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			fmt.Fprintf(&buf, "%s\n", id)
			if err := Text(&buf, m, Overlay{Path: mazecore.Solve(m)}); err != nil {
				t.Fatal(err)
			}
			golden(t, fmt.Sprintf("text-%s-21x15-seed2024.golden", a), buf.Bytes())
		})
	}
}

func TestTerminal(t *testing.T) {
	m := mustGenerate(t, mazecore.Sidewinder, 21, 1)
	var buf bytes.Buffer
	if err := Terminal(&buf, m, Overlay{Path: mazecore.Solve(m)}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if got, want := len(lines), m.Height(); got != want {
		t.Fatalf("lines=%d, want %d", got, want)
	}
	for y, line := range lines {
		if !strings.HasSuffix(line, "\x1b[0m") {
			t.Fatalf("line %d does not end with a reset: %q", y, line)
		}
		// Drop the escape sequences: what is left is two spaces a tile.
		plain := line
		for strings.Contains(plain, "\x1b[") {
			i := strings.Index(plain, "\x1b[")
			j := strings.IndexByte(plain[i:], 'm')
			plain = plain[:i] + plain[i+j+1:]
		}
		if got, want := plain, strings.Repeat("  ", m.Width()); got != want {
			t.Fatalf("line %d without colours=%q, want %d spaces", y, got, 2*m.Width())
		}
	}
	for _, c := range []int{terminalColours[kWall], terminalColours[kFloor], terminalColours[kStart], terminalColours[kGoal], terminalColours[kPath]} {
		if seq := fmt.Sprintf("\x1b[48;5;%dm", c); !strings.Contains(buf.String(), seq) {
			t.Fatalf("colour %d is never used", c)
		}
	}
}
