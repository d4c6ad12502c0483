package mazecore

// RateGrid measures a maze on any grid as Rate measures a square one, so
// that a polar, hex or masked maze gets the same stars and the same
// difficulty levels: on a square maze's Graph it gives Rate's figures
// exactly (TestRateGridMatchesRate). Tiles are counted as on the square
// grid, a cell and the passage to the next each one tile, so Score and
// Rating keep their scale. A turn is a change of heading (heading says
// what one is on each grid).
func RateGrid(m *GridMaze) Difficulty {
	var d Difficulty
	path := m.Solve()
	d.Solution = 2*len(path) - 1
	turns := 0
	for i, cell := range path[:len(path)-1] { // start → goal, the goal aside
		ways := m.Degree(cell)
		if i > 0 {
			ways-- // the way back
			if heading(m.grid, path[i-1], cell) != heading(m.grid, cell, path[i+1]) {
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
	for cell := range m.grid.Len() {
		if m.Degree(cell) == 1 {
			d.DeadEnds++
		}
	}
	d.FalsePaths = 2 * gridFalsePaths(m, path)
	d.Score, d.Rating = score(d)
	return d
}

// heading names the way from cell a to its neighbour b, comparable
// between two steps of a walk: on square and hex grids the compass
// direction, on a polar grid in, out, clockwise or anticlockwise (the
// two outward neighbours where a ring splits are both "out", so walking
// outward through a split is no turn).
func heading(g *Grid, a, b int) int {
	ca, cb := g.Cell(a), g.Cell(b)
	dr, dc := cb.Row-ca.Row, cb.Col-ca.Col
	switch g.kind {
	case Polar:
		switch {
		case dr < 0:
			return 0
		case dr > 0:
			return 1
		case (dc+g.RingLen(ca.Row))%g.RingLen(ca.Row) == 1:
			return 2
		}
		return 3
	case Hex:
		// Odd columns sit half a cell lower: compare heights in half cells.
		ya, yb := 2*ca.Row+ca.Col&1, 2*cb.Row+cb.Col&1
		up := yb < ya
		switch {
		case dc == 0 && up:
			return 0
		case dc == 0:
			return 3
		case dc > 0 && up:
			return 1
		case dc > 0:
			return 2
		case up:
			return 5
		}
		return 4
	}
	switch {
	case dr < 0:
		return 0
	case dc > 0:
		return 1
	case dr > 0:
		return 2
	}
	return 3
}

// gridFalsePaths is falsePaths on any grid: the sum, over the regions of
// cells off the solution, of the most cells a wrong turn leads away from
// it, each region measured from the solution's cells it touches.
func gridFalsePaths(m *GridMaze, path []int) int {
	cells := m.grid.Len()
	onPath, found, reached := newBitset(cells), newBitset(cells), newBitset(cells)
	for _, c := range path {
		onPath.set(c)
	}
	var frontier, next, attached []int
	total := 0
	// Neighbours with their link bits, not Links: it allocates, and this
	// runs 32 times a choice over every cell.
	for _, c := range path {
		for k, next32 := range m.grid.Neighbours(c) {
			first := int(next32)
			if m.links[c]&(1<<k) == 0 || onPath.has(first) || found.has(first) {
				continue // a wall, the solution or a region already counted
			}
			// The region, and the solution's cells it touches.
			found.set(first)
			frontier, attached = append(frontier[:0], first), attached[:0]
			for len(frontier) > 0 {
				next = next[:0]
				for _, cell := range frontier {
					for k, n32 := range m.grid.Neighbours(cell) {
						n := int(n32)
						switch {
						case m.links[cell]&(1<<k) == 0:
						case onPath.has(n):
							attached = append(attached, n)
						case !found.has(n):
							found.set(n)
							next = append(next, n)
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
					for k, n32 := range m.grid.Neighbours(cell) {
						if n := int(n32); m.links[cell]&(1<<k) != 0 && found.has(n) && !reached.has(n) {
							reached.set(n)
							next = append(next, n)
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
