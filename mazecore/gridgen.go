package mazecore

// gridGen runs a generation algorithm on any grid. Every algorithm draws
// from the ID's seed in the order written here, which is part of the maze
// format: a version 3 ID makes the same maze forever.
type gridGen struct {
	maze *GridMaze
	grid *Grid
	rng  *source
}

// unvisited gathers into buf the neighbours of c not yet in seen, in the
// grid's order.
func (g *gridGen) unvisited(c int, seen bitset, buf *[8]int32) []int32 {
	free := buf[:0]
	for _, n := range g.grid.Neighbours(c) {
		if !seen.has(int(n)) {
			free = append(free, n)
		}
	}
	return free
}

// backtracking is the recursive backtracker: from a random cell, carve to
// a random unvisited neighbour; stuck, step back to the last cell that
// has one.
func (g *gridGen) backtracking() {
	n := g.grid.Len()
	seen := newBitset(n)
	first := g.rng.intn(n)
	seen.set(first)
	stack := []int32{int32(first)}
	var buf [8]int32
	for len(stack) > 0 {
		c := int(stack[len(stack)-1])
		free := g.unvisited(c, seen, &buf)
		if len(free) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		next := int(free[g.rng.intn(len(free))])
		g.maze.link(c, next)
		seen.set(next)
		stack = append(stack, int32(next))
	}
}

// digging digs from a random cell in a random free direction until stuck,
// then restarts from a random dug cell, dropping from the list the cells
// found to have no free neighbour left.
func (g *gridGen) digging() {
	n := g.grid.Len()
	seen := newBitset(n)
	c := g.rng.intn(n)
	seen.set(c)
	dug := []int32{int32(c)}
	var buf [8]int32
	for {
		if free := g.unvisited(c, seen, &buf); len(free) > 0 {
			next := int(free[g.rng.intn(len(free))])
			g.maze.link(c, next)
			seen.set(next)
			dug = append(dug, int32(next))
			c = next
			continue
		}
		for c = -1; c < 0 && len(dug) > 0; {
			i := g.rng.intn(len(dug))
			if len(g.unvisited(int(dug[i]), seen, &buf)) > 0 {
				c = int(dug[i])
				break
			}
			dug[i] = dug[len(dug)-1]
			dug = dug[:len(dug)-1]
		}
		if c < 0 {
			return
		}
	}
}

// wilson is Wilson's algorithm (see wilsonOn) on the grid.
func (g *gridGen) wilson() {
	wilsonOn(g.grid.Len(), g.rng, func(c int, _ *[8]int32) []int32 { return g.grid.Neighbours(c) }, g.maze.link)
}

// wilsonOn makes a uniform spanning tree of a graph of n cells by
// Wilson's algorithm: a random cell starts the tree; then from each cell
// not in it, in order, a random walk runs until it meets the tree, and the
// walk with its loops erased joins it. Each cell remembers only the way
// its walk last left it, so following those from the walk's start traces
// the loop-erased walk. Every spanning tree is equally likely, whatever
// the order of the starting cells. neighbours lists a cell's neighbours
// in a fixed order (into buf if it needs room), link opens a passage.
func wilsonOn(n int, rng *source, neighbours func(c int, buf *[8]int32) []int32, link func(a, b int)) {
	in := newBitset(n)
	next := make([]int32, n)
	in.set(rng.intn(n))
	var buf [8]int32
	for start := range n {
		for c := start; !in.has(c); {
			ns := neighbours(c, &buf)
			next[c] = ns[rng.intn(len(ns))]
			c = int(next[c])
		}
		for c := start; !in.has(c); c = int(next[c]) {
			in.set(c)
			link(c, int(next[c]))
		}
	}
}

// binaryTreePolar is the binary tree on a polar grid, as Buck adapts it:
// each cell but the centre carves inward or clockwise, at random; the
// last cell of each ring (clockwise, just before the top) only inward,
// so that no ring closes into a loop.
func (g *gridGen) binaryTreePolar() {
	for c := 1; c < g.grid.Len(); c++ {
		ns := g.grid.Neighbours(c) // inward, clockwise, ...
		cell := g.grid.Cell(c)
		if cell.Col == g.grid.RingLen(cell.Row)-1 || g.rng.intn(2) == 0 {
			g.maze.link(c, int(ns[0]))
		} else {
			g.maze.link(c, int(ns[1]))
		}
	}
}

// sidewinderPolar is sidewinder on a polar grid: ring by ring outward, a
// run of cells is carved clockwise; when it closes (at random, or at the
// ring's last cell) a random cell of the run carves inward.
func (g *gridGen) sidewinderPolar() {
	var run []int
	for c := 1; c < g.grid.Len(); c++ {
		run = append(run, c)
		cell := g.grid.Cell(c)
		if cell.Col == g.grid.RingLen(cell.Row)-1 || g.rng.intn(2) == 0 {
			member := run[g.rng.intn(len(run))]
			g.maze.link(member, int(g.grid.Neighbours(member)[0]))
			run = run[:0]
		} else {
			g.maze.link(c, int(g.grid.Neighbours(c)[1]))
		}
	}
}

// wilson is Wilson's algorithm (wilsonOn) on the square grid, the
// neighbours in Dirs order as the square Grid lists them.
func (g *generator) wilson() {
	m := g.maze
	step := m.steps()
	wilsonOn(m.cols*m.rows, g.rng, func(c int, buf *[8]int32) []int32 {
		ns := buf[:0]
		for _, d := range Dirs {
			if n := m.neighbour(c, d); n >= 0 {
				ns = append(ns, int32(n))
			}
		}
		return ns
	}, func(a, b int) {
		for _, d := range Dirs {
			if a+step[d] == b {
				m.carve(a, d)
				if g.observe != nil {
					g.emit(Carved, a, b)
				}
				return
			}
		}
	})
}
