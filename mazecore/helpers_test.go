package mazecore

import (
	"strings"
	"testing"
)

// mustGenerate builds a maze or stops the test.
func mustGenerate(tb testing.TB, id ID) *Maze {
	tb.Helper()
	m, err := Generate(id)
	if err != nil {
		tb.Fatalf("Generate(%+v): %v", id, err)
	}
	return m
}

// passages counts the open passages: cells − 1 in a perfect maze, one more
// for each loop.
func passages(m *Maze) int {
	n := 0
	for cell := 0; cell < m.cols*m.rows; cell++ {
		b := m.bits(cell)
		n += int(b&1) + int(b>>1)
	}
	return n
}

// tileText draws a maze as '#' and ' ' straight from Wall, independently of
// the render package, for golden files.
func tileText(m *Maze) string {
	var sb strings.Builder
	for y := 0; y < m.Height(); y++ {
		for x := 0; x < m.Width(); x++ {
			if m.Wall(x, y) {
				sb.WriteByte('#')
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// tileBFS is an independent breadth-first search over tiles (not cells),
// returning the distance in tiles from 'from' to every tile, -1 if unreached.
func tileBFS(m *Maze, from Point) []int {
	w, h := m.Width(), m.Height()
	dist := make([]int, w*h)
	for i := range dist {
		dist[i] = -1
	}
	dist[from.Y*w+from.X] = 0
	queue := []Point{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, d := range []Point{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			q := Point{p.X + d.X, p.Y + d.Y}
			if m.Wall(q.X, q.Y) || dist[q.Y*w+q.X] >= 0 {
				continue
			}
			dist[q.Y*w+q.X] = dist[p.Y*w+p.X] + 1
			queue = append(queue, q)
		}
	}
	return dist
}

var testSizes = []struct{ w, h int }{{5, 5}, {5, 21}, {21, 5}, {7, 9}, {21, 21}, {41, 15}, {31, 31}}
