package mazecore

// Stats describes a maze's shape.
type Stats struct {
	Cells     int
	DeadEnds  int // cells with one passage
	Junctions int // cells with three or four passages
	// LongestPath is the maze's diameter: the most tiles on any path between
	// two cells, both ends included.
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
	// In a tree the farthest cell from any cell is one end of a diameter.
	end, _ := farthest(m, 0)
	_, cells := farthest(m, end)
	s.LongestPath = 2*cells - 1
	s.Solution = len(Solve(m))
	return s
}

// farthest runs a breadth-first search over the tree from cell and returns
// the last cell reached and the number of cells on the path to it. Because a
// perfect maze has no loops, remembering the direction each cell was entered
// from replaces a visited array.
func farthest(m *Maze, cell int) (last, cells int) {
	type entry struct {
		cell int
		from Dir
	}
	const none = Dir(4)
	frontier := []entry{{cell, none}}
	var next []entry
	for len(frontier) > 0 {
		cells++
		last = frontier[len(frontier)-1].cell
		next = next[:0]
		for _, e := range frontier {
			for _, d := range Dirs {
				if d != e.from && m.openIndex(e.cell, d) {
					next = append(next, entry{m.neighbour(e.cell, d), d.Opposite()})
				}
			}
		}
		frontier, next = next, frontier
	}
	return last, cells
}
