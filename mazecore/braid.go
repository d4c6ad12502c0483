package mazecore

// braidSalt names the braid's random stream (see stream): "braid" in ASCII.
const braidSalt = 0x6272616964

// braid removes loops% of the dead ends of the perfect maze just generated,
// rounded to the nearest whole dead end, by opening one wall of each, as in
// the braid algorithm of Jamis Buck's Mazes for Programmers (chapter 9): the
// dead ends are taken in a random order, and each one still a dead end opens
// the wall to a neighbour that is itself a dead end when it has one (which
// removes two dead ends with one opening), else to a random neighbour.
//
// The count removed is exact: when only one more dead end is to go, a dead
// end whose only closed neighbours are dead ends is passed over for one that
// can open to a neighbour that is not, so the last opening removes one dead
// end rather than two. Only if no dead end left can do that (tiny mazes) is
// the count one over. Openings are reported to the observer as Carved steps
// after the generation's.
func (g *generator) braid(loops int) {
	m := g.maze
	cells := m.cols * m.rows
	var ends []uint32
	for cell := range cells {
		if m.degree(cell) == 1 {
			ends = append(ends, uint32(cell))
		}
	}
	target, rng := braidOrder(m.id.Seed, ends, loops)
	if target == 0 {
		return
	}
	removed, passed := 0, -1
	for _, end := range ends {
		if removed >= target {
			return
		}
		cell := int(end)
		if m.degree(cell) != 1 {
			continue // an earlier opening joined it
		}
		w := m.closedWalls(cell)
		switch {
		case target-removed == 1 && w.nOthers > 0:
			g.carve(cell, w.toOthers[rng.intn(w.nOthers)])
			removed++
		case target-removed == 1:
			if passed < 0 {
				passed = cell
			}
		case w.nEnds > 0:
			g.carve(cell, w.toEnds[rng.intn(w.nEnds)])
			removed += 2
		default:
			g.carve(cell, w.toOthers[rng.intn(w.nOthers)])
			removed++
		}
	}
	if removed < target && passed >= 0 {
		// Every dead end left has only dead ends to open to: one too many
		// beats one too few.
		w := m.closedWalls(passed)
		g.carve(passed, w.toEnds[rng.intn(w.nEnds)])
	}
}

// braidOrder returns how many dead ends braiding removes, loops% of ends
// rounded to the nearest, and, when that is not 0, shuffles ends into the
// order it takes them, with the stream it then draws from: the same for
// every grid.
func braidOrder(seed uint64, ends []uint32, loops int) (target int, rng *source) {
	target = (len(ends)*loops + 50) / 100
	if target == 0 {
		return 0, nil
	}
	rng = stream(seed, braidSalt)
	for i := len(ends) - 1; i > 0; i-- {
		j := rng.intn(i + 1)
		ends[i], ends[j] = ends[j], ends[i]
	}
	return target, rng
}

// walls are the closed walls of a cell, by what lies behind them, in Dirs
// order.
type walls struct {
	toEnds, toOthers [4]Dir
	nEnds, nOthers   int
}

func (m *Maze) closedWalls(cell int) walls {
	var w walls
	for _, d := range Dirs {
		next := m.neighbour(cell, d)
		switch {
		case next < 0 || m.openIndex(cell, d):
		case m.degree(next) == 1:
			w.toEnds[w.nEnds] = d
			w.nEnds++
		default:
			w.toOthers[w.nOthers] = d
			w.nOthers++
		}
	}
	return w
}
