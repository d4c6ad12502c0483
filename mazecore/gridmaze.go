package mazecore

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// GridMaze is a maze on any Grid: its cells, the passages between them,
// and the start and goal cells. Polar, hex and masked mazes exist only in
// this form; a square maze of ID version 1 or 2 becomes one through
// Maze.Graph.
type GridMaze struct {
	id   ID
	grid *Grid
	// links[c] has bit k set when cell c has a passage to its k-th
	// neighbour (Grid.Neighbours); no cell has more than eight.
	links       []uint8
	start, goal int
	// carved, while generating, hears of each passage opened
	// (GenerateGridObserved); nil otherwise.
	carved func(a, b int)
}

// ID returns the ID that reproduces this maze.
func (m *GridMaze) ID() ID { return m.id }

// Grid returns the maze's cells and their neighbours.
func (m *GridMaze) Grid() *Grid { return m.grid }

// Start and Goal are the cells a solver goes from and to.
func (m *GridMaze) Start() int { return m.start }
func (m *GridMaze) Goal() int  { return m.goal }

// Linked reports whether cells a and b have a passage between them.
func (m *GridMaze) Linked(a, b int) bool {
	k := m.grid.slotOf(a, b)
	return k >= 0 && m.links[a]&(1<<k) != 0
}

// Links returns the cells cell c has a passage to, in the grid's order.
func (m *GridMaze) Links(c int) []int {
	var out []int
	for k, n := range m.grid.Neighbours(c) {
		if m.links[c]&(1<<k) != 0 {
			out = append(out, int(n))
		}
	}
	return out
}

// Degree is the number of passages leaving cell c.
func (m *GridMaze) Degree(c int) int { return bits.OnesCount8(m.links[c]) }

// Passages counts the passages: Len()−1 in a perfect maze.
func (m *GridMaze) Passages() int {
	n := 0
	for _, l := range m.links {
		n += bits.OnesCount8(l)
	}
	return n / 2
}

// link opens the passage between neighbours a and b.
func (m *GridMaze) link(a, b int) {
	m.links[a] |= 1 << m.grid.slotOf(a, b)
	m.links[b] |= 1 << m.grid.slotOf(b, a)
	if m.carved != nil {
		m.carved(a, b)
	}
}

// ErrAlgorithmDoesNotFit is matched by every *FitError.
var ErrAlgorithmDoesNotFit = errors.New("algorithm does not fit the grid")

// FitError says that an algorithm cannot run on a grid, and which can.
type FitError struct {
	Algorithm Algorithm
	Grid      GridKind
	Masked    bool
}

func (e *FitError) Error() string {
	where := e.Grid.String() + " grid"
	if e.Masked {
		where = "shaped " + where
	}
	var fit []string
	for _, a := range Algorithms {
		if a.Fits(e.Grid, e.Masked) {
			fit = append(fit, a.String())
		}
	}
	return fmt.Sprintf("%s needs a grid of whole rows and columns and cannot make a %s maze: use %s", e.Algorithm, where, strings.Join(fit, ", "))
}

func (e *FitError) Is(target error) bool { return target == ErrAlgorithmDoesNotFit }

// Fits reports whether a can make mazes on a grid of kind, masked or not.
// Binary tree and sidewinder need rows and columns: they run on the
// whole square grid and, going inward and clockwise as in Buck's book,
// on the polar one; the others run anywhere.
func (a Algorithm) Fits(kind GridKind, masked bool) bool {
	s := a.spec()
	if s == nil {
		return false
	}
	if s.onGrid != nil {
		return true
	}
	return !masked && (kind == Square || kind == Polar && s.onPolar != nil)
}

// ErrNotSquare is returned by Generate for an ID whose maze is not on the
// whole square grid: GenerateGrid makes those.
var ErrNotSquare = errors.New("the maze is not on the whole square grid")

// GenerateGrid builds the maze an ID names on its grid, of any kind: a
// version 3 ID's polar, hex or shaped maze, or a square maze of version 1
// or 2 (generated as Generate does, then as a graph).
func GenerateGrid(id ID) (*GridMaze, error) {
	if err := id.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", id.Algorithm, err)
	}
	if id.Plain() {
		m, err := Generate(id)
		if err != nil {
			return nil, err
		}
		return m.Graph(), nil
	}
	return generateGrid(id, nil)
}

// ErrOtherGrid is returned by GenerateGridOn for a maze whose ID differs
// from the ID of the maze whose grid it was given in more than the seed.
var ErrOtherGrid = errors.New("the maze is not of the grid's kind")

// GenerateGridOn builds the maze id names on the grid of like, a maze
// whose ID is id but for its seed: an image's maze of another seed is
// made without its image, which like's grid already holds (a Grid never
// changes, so the two share it). A square maze of version 1 or 2 is
// generated as GenerateGrid does.
func GenerateGridOn(id ID, like *GridMaze) (*GridMaze, error) {
	if err := id.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", id.Algorithm, err)
	}
	if like == nil {
		return nil, fmt.Errorf("generate %s on no maze's grid: %w", id, ErrOtherGrid)
	}
	reseeded := like.id
	reseeded.Seed = id.Seed
	if reseeded != id {
		return nil, fmt.Errorf("generate %s on the grid of %s: %w", id, like.id, ErrOtherGrid)
	}
	if id.Plain() {
		return GenerateGrid(id)
	}
	return generateOn(id, like.grid, nil), nil
}

// generateGrid makes the maze of a validated version 3 ID, the shape's
// image img when it is one.
func generateGrid(id ID, img *Image) (*GridMaze, error) { return generateGridObserved(id, img, nil) }

// GenerateGridObserved is GenerateGrid, or GenerateGridImage when img is
// not nil, calling carved with each passage as it is opened, in order:
// the algorithm's, then the loops'. The maze is the same as without.
// GIF animates a generation from them.
func GenerateGridObserved(id ID, img *Image, carved func(a, b int)) (*GridMaze, error) {
	if err := id.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", id.Algorithm, err)
	}
	if id.Plain() {
		cols := id.Width / 2
		m, err := GenerateObserved(id, func(s Step) {
			if s.Kind == Carved {
				carved(s.From.Y*cols+s.From.X, s.To.Y*cols+s.To.X)
			}
		})
		if err != nil {
			return nil, err
		}
		return m.Graph(), nil
	}
	if id.Shape.Kind == ImageShape {
		if err := imageFits(id, img); err != nil {
			return nil, err
		}
	}
	return generateGridObserved(id, img, carved)
}

func generateGridObserved(id ID, img *Image, carved func(a, b int)) (*GridMaze, error) {
	if err := id.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", id.Algorithm, err)
	}
	grid, err := id.gridWith(img)
	if err != nil {
		return nil, fmt.Errorf("generate %s: %w", id.Algorithm, err)
	}
	return generateOn(id, grid, carved), nil
}

// generateOn makes the maze of a validated version 3 ID on its grid,
// already built (a Grid never changes, so candidates share one).
func generateOn(id ID, grid *Grid, carved func(a, b int)) *GridMaze {
	m := &GridMaze{id: id, grid: grid, links: make([]uint8, grid.Len()), carved: carved}
	defer func() { m.carved = nil }()
	gen := gridGen{maze: m, grid: grid, rng: newSource(id.Seed)}
	spec := id.Algorithm.spec()
	if id.GridKind == Polar && spec.onPolar != nil {
		spec.onPolar(&gen)
	} else {
		spec.onGrid(&gen)
	}
	m.placeEnds()
	if id.Loops > 0 {
		m.braid(id.Loops)
	}
	return m
}

// Grid builds the grid an ID's maze lies on, its mask applied (an
// image's shape needs GridWithImage).
func (id ID) Grid() (*Grid, error) { return id.gridWith(nil) }

// GridWithImage is Grid for an ID whose shape is img's.
func (id ID) GridWithImage(img *Image) (*Grid, error) { return id.gridWith(img) }

func (id ID) gridWith(img *Image) (*Grid, error) {
	switch id.GridKind {
	case Polar:
		return NewPolarGrid(id.Width)
	case Hex, Square:
		var mask *Mask
		cols, rows := id.Width, id.Height
		if id.GridKind == Square {
			cols, rows = id.Width/2, id.Height/2
		}
		if id.Shape.Kind != NoShape {
			var err error
			if mask, err = id.Shape.maskWith(id.GridKind, cols, rows, img); err != nil {
				return nil, err
			}
		}
		if id.GridKind == Hex {
			return NewHexGrid(cols, rows, mask)
		}
		return NewSquareGrid(cols, rows, mask)
	}
	return nil, fmt.Errorf("%w number %d", ErrUnknownGrid, id.GridKind)
}

// placeEnds sets the start and goal of a perfect maze: on a polar grid the
// goal is the centre and the start the cell of the outer rim farthest
// from it; elsewhere they are the two ends of the maze's longest path,
// the start the one first in row order.
func (m *GridMaze) placeEnds() {
	if m.grid.kind == Polar {
		dist := m.distances(0)
		rim := m.grid.rows - 1
		first := int(m.grid.ringStart[rim])
		m.goal, m.start = 0, first
		for c := first; c < m.grid.Len(); c++ {
			if dist[c] > dist[m.start] {
				m.start = c
			}
		}
		return
	}
	a := m.farthest(0)
	b := m.farthest(a)
	m.start, m.goal = min(a, b), max(a, b)
}

// distances returns each cell's distance in steps from cell from (−1 for
// cells it cannot reach).
func (m *GridMaze) distances(from int) []int32 {
	dist := make([]int32, m.grid.Len())
	for i := range dist {
		dist[i] = -1
	}
	dist[from] = 0
	queue := []int32{int32(from)}
	for i := 0; i < len(queue); i++ {
		c := int(queue[i])
		for k, n := range m.grid.Neighbours(c) {
			if m.links[c]&(1<<k) != 0 && dist[n] < 0 {
				dist[n] = dist[c] + 1
				queue = append(queue, n)
			}
		}
	}
	return dist
}

// farthest returns the cell farthest from cell from, the first in order
// of equals.
func (m *GridMaze) farthest(from int) int {
	dist := m.distances(from)
	best := from
	for c, d := range dist {
		if d > dist[best] {
			best = c
		}
	}
	return best
}

// Solve returns the shortest path from start to goal as cells, both ends
// included.
func (m *GridMaze) Solve() []int {
	path, _ := m.ShortestPath(m.start, m.goal)
	return path
}

// ShortestPath returns the cells of a shortest path from cell a to cell b,
// both included, or an error when b cannot be reached from a.
func (m *GridMaze) ShortestPath(a, b int) ([]int, error) {
	if a < 0 || b < 0 || a >= m.grid.Len() || b >= m.grid.Len() {
		return nil, fmt.Errorf("shortest path: cell %d or %d is not in the maze", a, b)
	}
	dist := m.distances(b)
	if dist[a] < 0 {
		return nil, fmt.Errorf("shortest path: cell %d is not reachable from %d", b, a)
	}
	// Walk from a downhill to b: each step goes to a linked cell one
	// nearer, the first in the grid's order.
	path := []int{a}
	for c := a; c != b; {
		for k, n := range m.grid.Neighbours(c) {
			if m.links[c]&(1<<k) != 0 && dist[n] == dist[c]-1 {
				c = int(n)
				break
			}
		}
		path = append(path, c)
	}
	return path, nil
}

// GridStats describes a maze on any grid.
type GridStats struct {
	Cells     int
	DeadEnds  int // cells with one passage
	Junctions int // cells with three passages or more
	// Solution is the number of cells on the shortest path from start to
	// goal, both ends included.
	Solution int
	// Decisions counts the cells on the solution (the goal aside) where
	// more than one way leads on.
	Decisions int
	// Par is the fewest runs that reach the goal, a run going on until a
	// cell that is not a corridor (as Play's buttons move).
	Par int
}

// DeadEndShare is DeadEnds as a fraction of Cells.
func (s GridStats) DeadEndShare() float64 { return float64(s.DeadEnds) / float64(s.Cells) }

// Measure computes the statistics of m.
func (m *GridMaze) Measure() GridStats {
	s := GridStats{Cells: m.grid.Len()}
	for c := range s.Cells {
		switch d := m.Degree(c); {
		case d == 1:
			s.DeadEnds++
		case d >= 3:
			s.Junctions++
		}
	}
	path := m.Solve()
	s.Solution = len(path)
	for i, c := range path[:len(path)-1] {
		ways := m.Degree(c)
		if i > 0 {
			ways-- // the way back
		}
		if ways >= 2 {
			s.Decisions++
		}
		if i == 0 || m.Degree(c) != 2 {
			s.Par++
		}
	}
	return s
}
