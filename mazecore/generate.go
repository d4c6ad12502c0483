package mazecore

import "fmt"

// StepKind says what a generator did in one step, for animations.
type StepKind uint8

const (
	// Carved: a passage was opened from From to To; To is the new head.
	Carved StepKind = iota + 1
	// Backtracked: the head moved back from From to To along a passage.
	Backtracked
	// Restarted: the digger jumped to To, an already dug cell.
	Restarted
	// Visited: the generator looked at cell To (binary tree, sidewinder).
	Visited
)

// Step is one event of a generation, in cell coordinates.
type Step struct {
	Kind     StepKind
	From, To Point
}

// Observer receives each step of a generation as it happens.
type Observer func(Step)

// Generate builds the maze an ID names: the algorithm's perfect maze for the
// seed, then, if id.Loops > 0, braided (see ID.Loops) with random numbers of
// its own, so the perfect part is the same maze as with Loops 0.
func Generate(id ID) (*Maze, error) { return GenerateObserved(id, nil) }

// GenerateObserved is Generate with a callback for every step, used to
// animate generation. A nil observer costs one comparison a step.
func GenerateObserved(id ID, observe Observer) (*Maze, error) {
	if err := id.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", id.Algorithm, err)
	}
	m := newMaze(id)
	spec := id.Algorithm.spec()
	g := generator{maze: m, rng: newSource(id.Seed), observe: observe}
	if spec.visited {
		// One bit a cell: cheaper to test than the passages around a cell.
		g.visited = newBitset(id.Cells())
	}
	spec.generate(&g)
	if id.Loops > 0 {
		g.braid(id.Loops)
	}
	return m, nil
}

type generator struct {
	maze    *Maze
	rng     *source
	observe Observer
	visited bitset // only for algorithms whose spec asks for it
}

func (g *generator) point(cell int) Point {
	return Point{cell % g.maze.cols, cell / g.maze.cols}
}

func (g *generator) emit(kind StepKind, from, to int) {
	if g.observe != nil {
		g.observe(Step{Kind: kind, From: g.point(from), To: g.point(to)})
	}
}

// carve opens cell→d and reports it.
func (g *generator) carve(cell int, d Dir) int {
	next := g.maze.neighbour(cell, d)
	g.maze.carve(cell, d)
	g.emit(Carved, cell, next)
	return next
}

// binaryTree carves each cell north or east at random; the top row can only
// go east and the east column only north, which makes those two edges
// unbroken corridors.
func (g *generator) binaryTree() {
	m := g.maze
	for cy := 0; cy < m.rows; cy++ {
		for cx := 0; cx < m.cols; cx++ {
			cell := cy*m.cols + cx
			canNorth, canEast := cy > 0, cx < m.cols-1
			switch {
			case canNorth && canEast:
				if g.rng.intn(2) == 0 {
					g.carve(cell, North)
				} else {
					g.carve(cell, East)
				}
			case canNorth:
				g.carve(cell, North)
			case canEast:
				g.carve(cell, East)
			default:
				g.emit(Visited, cell, cell)
			}
		}
	}
}

// sidewinder works row by row: a run of cells is carved east; when the run
// closes, one passage north is carved from a random cell of the run (not its
// last cell, a common bug). The top row has no row above, so it is one
// corridor.
func (g *generator) sidewinder() {
	m := g.maze
	for cy := 0; cy < m.rows; cy++ {
		runStart := 0
		for cx := 0; cx < m.cols; cx++ {
			cell := cy*m.cols + cx
			atEastEdge := cx == m.cols-1
			closeRun := atEastEdge || (cy > 0 && g.rng.intn(2) == 0)
			if !closeRun {
				g.carve(cell, East)
				continue
			}
			if cy > 0 {
				member := runStart + g.rng.intn(cx-runStart+1)
				g.carve(cy*m.cols+member, North)
			} else {
				g.emit(Visited, cell, cell)
			}
			runStart = cx + 1
		}
	}
}

// dirStack is a stack of directions packed four to a byte: the explicit
// stack of the backtracker costs a quarter byte per cell at worst.
type dirStack struct {
	data []byte
	n    int
}

func (s *dirStack) push(d Dir) {
	if s.n&3 == 0 {
		s.data = append(s.data, 0)
	}
	shift := (s.n & 3) * 2
	s.data[s.n>>2] = s.data[s.n>>2]&^(3<<shift) | byte(d)<<shift
	s.n++
}

func (s *dirStack) pop() Dir {
	s.n--
	d := Dir(s.data[s.n>>2] >> ((s.n & 3) * 2) & 3)
	if s.n&3 == 0 {
		s.data = s.data[:s.n>>2]
	}
	return d
}

// openMoves fills moves with the directions from cell to unvisited cells,
// in Dirs order, and returns how many there are.
func (g *generator) openMoves(cell int, moves *[4]Dir) int {
	cols := g.maze.cols
	x, n := cell%cols, 0
	if cell >= cols && !g.visited.has(cell-cols) {
		moves[n] = North
		n++
	}
	if x < cols-1 && !g.visited.has(cell+1) {
		moves[n] = East
		n++
	}
	if cell+cols < cols*g.maze.rows && !g.visited.has(cell+cols) {
		moves[n] = South
		n++
	}
	if x > 0 && !g.visited.has(cell-1) {
		moves[n] = West
		n++
	}
	return n
}

// backtracking is randomized depth-first search with an explicit stack of
// the directions taken, so no recursion: a huge maze cannot overflow the
// goroutine stack. It starts at a random cell.
func (g *generator) backtracking() {
	m := g.maze
	cell := g.rng.intn(m.cols * m.rows)
	g.visited.set(cell)
	var stack dirStack
	var moves [4]Dir
	for {
		if n := g.openMoves(cell, &moves); n > 0 {
			d := moves[g.rng.intn(n)]
			cell = g.carve(cell, d)
			g.visited.set(cell)
			stack.push(d)
			continue
		}
		if stack.n == 0 {
			return
		}
		back := stack.pop().Opposite()
		prev := cell
		cell = m.neighbour(cell, back)
		g.emit(Backtracked, prev, cell)
	}
}

// digging is the hole-digging method for vast mazes: dig in a random open
// direction until stuck, then restart from a random already dug cell,
// dropping cells that have no move left. The dug list is allocated once at
// its largest size, 4 bytes a cell.
func (g *generator) digging() {
	m := g.maze
	cells := m.cols * m.rows
	dug := make([]uint32, 1, cells)
	cell := g.rng.intn(cells)
	dug[0] = uint32(cell)
	g.visited.set(cell)
	var moves [4]Dir
	for {
		if n := g.openMoves(cell, &moves); n > 0 {
			cell = g.carve(cell, moves[g.rng.intn(n)])
			g.visited.set(cell)
			dug = append(dug, uint32(cell))
			continue
		}
		for {
			if len(dug) == 0 {
				return
			}
			i := g.rng.intn(len(dug))
			candidate := int(dug[i])
			if g.openMoves(candidate, &moves) > 0 {
				g.emit(Restarted, cell, candidate)
				cell = candidate
				break
			}
			dug[i] = dug[len(dug)-1]
			dug = dug[:len(dug)-1]
		}
	}
}
