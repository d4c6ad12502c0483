package mazecore

// Stats describes a maze's shape and how hard it is to solve.
type Stats struct {
	Cells     int
	Junctions int // cells with three or four passages
	// LongestPath is the maze's diameter: the most tiles on a shortest path
	// between two cells, both ends included. It is exact for a perfect maze;
	// with loops it is the double-sweep estimate, a lower bound (the exact
	// figure needs a search from every cell).
	LongestPath int
	// Difficulty holds the solution's length in tiles (Solution), the dead
	// ends and the rest of Rate's measures.
	Difficulty
}

// DeadEndShare is DeadEnds as a fraction of Cells.
func (s Stats) DeadEndShare() float64 { return float64(s.DeadEnds) / float64(s.Cells) }

// Measure computes the statistics of m: Rate's measures and two more
// breadth-first searches for the longest path.
func Measure(m *Maze) Stats {
	s := Stats{Cells: m.cols * m.rows, Difficulty: Rate(m)}
	for cell := range s.Cells {
		if m.degree(cell) >= 3 {
			s.Junctions++
		}
	}
	// In a tree the farthest cell from any cell is one end of a diameter
	// (with loops, the second sweep is at least as long as the first).
	end, _ := farthest(m, 0)
	_, cells := farthest(m, end)
	s.LongestPath = 2*cells - 1
	return s
}

// farthest runs a breadth-first search from cell and returns the last cell
// reached and the number of cells on the path to it. A mark a cell keeps it
// finite on a maze with loops.
func farthest(m *Maze, cell int) (last, cells int) {
	seen := newBitset(m.cols * m.rows)
	seen.set(cell)
	step := m.steps()
	frontier, next := []uint32{uint32(cell)}, []uint32(nil)
	for len(frontier) > 0 {
		cells++
		last = int(frontier[len(frontier)-1])
		next = next[:0]
		for _, c := range frontier {
			exits := m.exits(int(c))
			for _, d := range Dirs {
				if n := int(c) + step[d]; exits&(1<<d) != 0 && !seen.has(n) {
					seen.set(n)
					next = append(next, uint32(n))
				}
			}
		}
		frontier, next = next, frontier
	}
	return last, cells
}
