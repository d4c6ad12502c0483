package mazecore

import "math"

// Difficulty measures how hard a maze is to solve from Start to Goal.
type Difficulty struct {
	// Solution is the number of tiles on the shortest path, both ends
	// included.
	Solution int
	// Decisions counts the cells on the solution (the goal aside) where more
	// than one way leads on: the places a solver must choose.
	Decisions int
	// DeadEnds counts the cells with one passage, in the whole maze.
	DeadEnds int
	// FalsePaths is the total length, in tiles, of the side branches that
	// leave the solution: for each region of cells off the solution that a
	// wrong turn leads into, the farthest it leads away from the solution.
	FalsePaths int
	// Turns is the share of the solution's inner cells where it turns.
	Turns float64
	// Score estimates the work of solving, in cells walked, from the
	// measures above (the package documentation says how and why); Rating
	// puts it on a scale of 1 (easy) to 5.
	Score  float64
	Rating int
}

// Rate measures m. It searches the cells three times (for the solution,
// then each region off it twice), in about a byte and a half a cell.
func Rate(m *Maze) Difficulty {
	var d Difficulty
	cells := m.cols * m.rows
	src, dst := 0, cells-1
	back := searchBack(m, src, dst)
	// The solution, from the goal back to the start.
	path := []uint32{uint32(dst)}
	step := m.steps()
	for cell := dst; back[cell] < 4; {
		cell += step[back[cell]]
		path = append(path, uint32(cell))
	}
	d.Solution = 2*len(path) - 1
	turns := 0
	for i := len(path) - 1; i > 0; i-- { // start → goal
		cell := int(path[i])
		ways := m.degree(cell)
		if i < len(path)-1 {
			ways-- // the way back
			if back[cell] != back[path[i-1]] {
				turns++
			}
		}
		if ways >= 2 {
			d.Decisions++
		}
	}
	if inner := len(path) - 2; inner > 0 {
		d.Turns = float64(turns) / float64(inner)
	}
	for cell := range cells {
		if m.degree(cell) == 1 {
			d.DeadEnds++
		}
	}
	d.FalsePaths = 2 * falsePaths(m, path)
	d.Score, d.Rating = score(d)
	return d
}

// falsePaths returns the sum, over the regions of cells off the solution,
// of each region's depth: the most cells a wrong turn can lead away from the
// solution, counted from the cell next to it. A region attached to the
// solution at several cells (a loop) counts once, measured from the nearest.
// Three bits a cell: a 100-million-cell maze from the command line must not
// need gigabytes to be rated.
func falsePaths(m *Maze, path []uint32) int {
	cells := m.cols * m.rows
	step := m.steps()
	onPath, found, reached := newBitset(cells), newBitset(cells), newBitset(cells)
	for _, c := range path {
		onPath.set(int(c))
	}
	var frontier, next, attached []uint32
	total := 0
	for _, c := range path {
		exits := m.exits(int(c))
		for _, d := range Dirs {
			first := int(c) + step[d]
			if exits&(1<<d) == 0 || onPath.has(first) || found.has(first) {
				continue // a wall, the solution or a region already counted
			}
			// The region, and the solution's cells it touches.
			found.set(first)
			frontier, attached = append(frontier[:0], uint32(first)), attached[:0]
			for len(frontier) > 0 {
				next = next[:0]
				for _, cell := range frontier {
					exits := m.exits(int(cell))
					for _, d := range Dirs {
						n := int(cell) + step[d]
						switch {
						case exits&(1<<d) == 0:
						case onPath.has(n):
							attached = append(attached, uint32(n))
						case !found.has(n):
							found.set(n)
							next = append(next, uint32(n))
						}
					}
				}
				frontier, next = next, frontier
			}
			// Its depth: the layers of a search into it from those cells.
			frontier = append(frontier[:0], attached...)
			for len(frontier) > 0 {
				next = next[:0]
				for _, cell := range frontier {
					exits := m.exits(int(cell))
					for _, d := range Dirs {
						if n := int(cell) + step[d]; exits&(1<<d) != 0 && found.has(n) && !reached.has(n) {
							reached.set(n)
							next = append(next, uint32(n))
						}
					}
				}
				if len(next) > 0 {
					total++
				}
				frontier, next = next, frontier
			}
		}
	}
	return total
}

// ratingSteps are the scores where ratings 2 to 5 begin: each doubles the
// one before, so each rating is about twice the work of the one below.
var ratingSteps = [4]float64{75, 150, 300, 600}

// score combines the measures into an estimate of the work of solving, in
// cells walked, and rates it: P·(1 + T) + √(D·F), explained in doc.go.
func score(d Difficulty) (float64, int) {
	path := float64(d.Solution+1) / 2 // cells
	s := path * (1 + d.Turns)
	if d.Decisions > 0 {
		s += math.Sqrt(float64(d.Decisions) * float64(d.FalsePaths) / 2)
	}
	rating := 1
	for _, step := range ratingSteps {
		if s >= step {
			rating++
		}
	}
	return s, rating
}
