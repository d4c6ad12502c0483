package mazecore

// Stats describes a maze's shape.
type Stats struct {
	Cells     int
	DeadEnds  int // cells with one passage
	Junctions int // cells with three or four passages
	// LongestPath is the maze's diameter: the most tiles on a shortest path
	// between two cells, both ends included. It is exact for a perfect maze;
	// with loops it is the double-sweep estimate, a lower bound (the exact
	// figure needs a search from every cell).
	LongestPath int
	// Solution is the number of tiles on the path from Start to Goal.
	Solution int
}

// DeadEndShare is DeadEnds as a fraction of Cells.
func (s Stats) DeadEndShare() float64 { return float64(s.DeadEnds) / float64(s.Cells) }

// Measure computes the statistics of m.
func Measure(m *Maze) Stats {
	s := Stats{Cells: m.cols * m.rows}
	for cy := 0; cy < m.rows; cy++ {
		for cx := 0; cx < m.cols; cx++ {
			switch m.Degree(cx, cy) {
			case 1:
				s.DeadEnds++
			case 3, 4:
				s.Junctions++
			}
		}
	}
	// In a tree the farthest cell from any cell is one end of a diameter
	// (with loops, the second sweep is at least as long as the first).
	end, _ := farthest(m, 0)
	_, cells := farthest(m, end)
	s.LongestPath = 2*cells - 1
	s.Solution = len(Solve(m))
	return s
}

// farthest runs a breadth-first search from cell and returns the last cell
// reached and the number of cells on the path to it. A mark a cell keeps it
// finite on a maze with loops.
func farthest(m *Maze, cell int) (last, cells int) {
	seen := newBitset(m.cols * m.rows)
	seen.set(cell)
	frontier, next := []uint32{uint32(cell)}, []uint32(nil)
	for len(frontier) > 0 {
		cells++
		last = int(frontier[len(frontier)-1])
		next = next[:0]
		for _, c := range frontier {
			for _, d := range Dirs {
				if !m.openIndex(int(c), d) {
					continue
				}
				if n := m.neighbour(int(c), d); !seen.has(n) {
					seen.set(n)
					next = append(next, uint32(n))
				}
			}
		}
		frontier, next = next, frontier
	}
	return last, cells
}
