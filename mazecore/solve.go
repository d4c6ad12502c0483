package mazecore

import "fmt"

// Solve returns the shortest path from Start to Goal as tiles, both ends
// included.
func Solve(m *Maze) []Point {
	path, _ := ShortestPath(m, m.Start(), m.Goal())
	return path
}

// ShortestPath returns the shortest path between two floor tiles as tiles,
// both ends included. It searches breadth first over cells, keeping one byte
// per cell (the direction back to the parent), and returns an error when a
// point is not a cell tile (odd coordinates inside the maze).
func ShortestPath(m *Maze, from, to Point) ([]Point, error) {
	for _, p := range []Point{from, to} {
		if p.X%2 != 1 || p.Y%2 != 1 || p.X >= m.Width() || p.Y >= m.Height() || p.X < 0 || p.Y < 0 {
			return nil, fmt.Errorf("shortest path: %v is not a cell tile", p)
		}
	}
	cols := m.cols
	src := from.Y/2*cols + from.X/2
	dst := to.Y/2*cols + to.X/2
	back := searchBack(m, src, dst)
	// Walk back from dst once to size the path, then again to fill it from
	// the end: the path of a huge maze is millions of tiles.
	steps := 0
	for cell := dst; back[cell] < 4; cell = m.neighbour(cell, Dir(back[cell])) {
		steps++
	}
	path := make([]Point, 0, 2*steps+1)
	cell := dst
	for {
		x, y := cell%cols, cell/cols
		path = append(path, Point{2*x + 1, 2*y + 1})
		d := back[cell]
		if d >= 4 {
			break
		}
		dx, dy := Dir(d).Delta()
		path = append(path, Point{2*x + 1 + dx, 2*y + 1 + dy})
		cell = m.neighbour(cell, Dir(d))
	}
	if cell != src {
		return nil, fmt.Errorf("shortest path: %v is not reachable from %v", to, from)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, nil
}

// searchBack searches breadth first from src until dst is reached and
// returns, for each cell seen, the direction back to its parent (4 for src,
// unseen for a cell not reached): one byte a cell.
func searchBack(m *Maze, src, dst int) []byte {
	back := make([]byte, m.cols*m.rows)
	for i := range back {
		back[i] = unseen
	}
	back[src] = 4 // the root: seen, no parent
	queue := ring{buf: make([]uint32, 1024)}
	queue.push(uint32(src))
	step := m.steps()
	for queue.n > 0 && back[dst] == unseen {
		cell := int(queue.pop())
		exits := m.exits(cell)
		for _, d := range Dirs {
			if next := cell + step[d]; exits&(1<<d) != 0 && back[next] == unseen {
				back[next] = byte(d.Opposite())
				queue.push(uint32(next))
			}
		}
	}
	return back
}

// unseen marks a cell searchBack did not reach.
const unseen = 0xff

// ring is a growable FIFO queue of cells: a BFS frontier stays small, so
// the queue never holds the whole maze. Its size is a power of two (start
// it with one), so wrapping around is a mask.
type ring struct {
	buf     []uint32
	head, n int
}

func (r *ring) push(v uint32) {
	if r.n == len(r.buf) {
		grown := make([]uint32, 2*len(r.buf))
		k := copy(grown, r.buf[r.head:])
		copy(grown[k:], r.buf[:r.head])
		r.buf, r.head = grown, 0
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

func (r *ring) pop() uint32 {
	v := r.buf[r.head]
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return v
}
