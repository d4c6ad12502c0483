package mazecore

// Graph returns the maze as a maze on the square Grid (every cell, their
// neighbours north, east, south and west), its start the top-left cell
// and its goal the bottom-right one, as always.
func (m *Maze) Graph() *GridMaze {
	grid, _ := NewSquareGrid(m.cols, m.rows, nil)
	gm := &GridMaze{id: m.id, grid: grid, links: make([]uint8, grid.Len()), start: 0, goal: grid.Len() - 1}
	for c := range grid.Len() {
		if m.bits(c)&bitEast != 0 {
			gm.link(c, c+1)
		}
		if m.bits(c)&bitSouth != 0 {
			gm.link(c, c+m.cols)
		}
	}
	return gm
}

// braid removes loops% of the dead ends, as the square grid's braid does
// (braid.go) and from the same stream: the dead ends in a random order,
// each still one opening a wall to a neighbouring dead end when it has
// one, else to a random neighbour; the count exact but in the rare case
// where only dead ends are left to open to.
func (m *GridMaze) braid(loops int) {
	var ends []uint32
	for c := range m.grid.Len() {
		if m.Degree(c) == 1 {
			ends = append(ends, uint32(c))
		}
	}
	target, rng := braidOrder(m.id.Seed, ends, loops)
	if target == 0 {
		return
	}
	var toEnds, toOthers []int
	closed := func(c int) {
		toEnds, toOthers = toEnds[:0], toOthers[:0]
		for k, n := range m.grid.Neighbours(c) {
			switch {
			case m.links[c]&(1<<k) != 0:
			case m.Degree(int(n)) == 1:
				toEnds = append(toEnds, int(n))
			default:
				toOthers = append(toOthers, int(n))
			}
		}
	}
	removed, passed := 0, -1
	for _, end := range ends {
		if removed >= target {
			return
		}
		c := int(end)
		if m.Degree(c) != 1 {
			continue // an earlier opening joined it
		}
		closed(c)
		switch {
		case target-removed == 1 && len(toOthers) > 0:
			m.link(c, toOthers[rng.intn(len(toOthers))])
			removed++
		case target-removed == 1:
			if passed < 0 && len(toEnds) > 0 {
				passed = c
			}
		case len(toEnds) > 0:
			m.link(c, toEnds[rng.intn(len(toEnds))])
			removed += 2
		case len(toOthers) > 0:
			m.link(c, toOthers[rng.intn(len(toOthers))])
			removed++
		}
	}
	if removed < target && passed >= 0 {
		closed(passed)
		m.link(passed, toEnds[rng.intn(len(toEnds))])
	}
}
