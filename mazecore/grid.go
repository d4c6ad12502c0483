package mazecore

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// GridKind names the shape of a grid's cells. The numbers are part of the
// maze ID format (version 3) and must never change.
type GridKind uint8

const (
	// Square cells in rows and columns: every maze of ID versions 1 and 2,
	// and the masked mazes of version 3.
	Square GridKind = 0
	// Polar (circular) cells in rings around a centre cell, each ring
	// subdivided as it grows (Buck, Mazes for Programmers, chapter 7).
	Polar GridKind = 1
	// Hex: hexagonal cells, flat sides up, in a rectangle of columns and
	// rows; odd columns sit half a cell lower than even ones.
	Hex GridKind = 2
)

var gridNames = [...]string{Square: "square", Polar: "polar", Hex: "hex"}

// GridKinds lists the grid kinds in a stable order.
var GridKinds = []GridKind{Square, Polar, Hex}

func (k GridKind) String() string {
	if int(k) < len(gridNames) {
		return gridNames[k]
	}
	return fmt.Sprintf("grid(%d)", uint8(k))
}

// Valid reports whether k is one of the grid kinds.
func (k GridKind) Valid() bool { return int(k) < len(gridNames) }

// ErrUnknownGrid is returned (wrapped) by ParseGrid for a name it does not
// know.
var ErrUnknownGrid = errors.New("unknown grid")

// GridNames returns the grid kinds' names: square, polar, hex.
func GridNames() []string { return gridNames[:] }

// ParseGrid accepts a grid kind's name in any case, and "circular",
// "circle", "theta", "hexagonal" and "sigma" (Theseus's and mazegen's
// names).
func ParseGrid(name string) (GridKind, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "square", "orthogonal", "gamma":
		return Square, nil
	case "polar", "circular", "theta":
		return Polar, nil
	case "hex", "hexagonal", "sigma":
		return Hex, nil
	}
	return 0, fmt.Errorf("%w %q: choose square, polar or hex", ErrUnknownGrid, name)
}

// Polar grids have from MinRings to MaxRings rings, the centre cell the
// first.
const (
	MinRings = 5
	MaxRings = 100
)

// Hex grids have from MinHexSide to MaxHexSide cells a side.
const (
	MinHexSide = 3
	MaxHexSide = 1001
)

// Cell is a cell's place in its grid: for square and hex grids its row
// and column, for a polar grid its ring (Row, 0 the centre) and its index
// in the ring (Col, clockwise from the top, east of north).
type Cell struct{ Row, Col int }

// Grid is a graph of cells with positions: which cells a maze has and
// which of them are neighbours. The cells are numbered 0 to Len()-1 in
// row (ring) order; each cell lists its neighbours in a fixed order that
// is part of the maze format (generators draw indexes into these lists):
//
//	square  north, east, south, west
//	hex     north, north-east, south-east, south, south-west, north-west
//	polar   inward, clockwise, anticlockwise, then outward ones clockwise
//
// A neighbour outside the grid or outside its mask is left out, so a
// list holds only cells of the grid. A Grid never changes once built.
type Grid struct {
	kind       GridKind
	cols, rows int // the bounding rectangle; polar: rows is the rings, cols the outer ring's cells
	cells      []Cell
	// slot maps a place (square and hex: row·cols + col; polar: ringStart
	// [ring] + index) to its cell number, or -1 outside the mask.
	slot      []int32
	ringStart []int32 // polar: the first place of each ring, and the count after the last
	// adjacency in compressed rows: the neighbours of cell c are
	// adj[adjStart[c]:adjStart[c+1]].
	adjStart []int32
	adj      []int32
}

// Kind is the grid's kind.
func (g *Grid) Kind() GridKind { return g.kind }

// Len is the number of cells.
func (g *Grid) Len() int { return len(g.cells) }

// Cols and Rows are the bounding rectangle of a square or hex grid, in
// cells; for a polar grid Rows is the number of rings and Cols the number
// of cells in the outer ring.
func (g *Grid) Cols() int { return g.cols }
func (g *Grid) Rows() int { return g.rows }

// Cell returns cell c's place.
func (g *Grid) Cell(c int) Cell { return g.cells[c] }

// Neighbours returns the cells next to cell c, in the grid's fixed order.
// The slice is the grid's own: do not change it.
func (g *Grid) Neighbours(c int) []int32 { return g.adj[g.adjStart[c]:g.adjStart[c+1]] }

// At returns the cell at a place, or -1 when the place is outside the
// grid or its mask. For a polar grid row is the ring and col the index.
func (g *Grid) At(row, col int) int {
	if row < 0 || col < 0 {
		return -1
	}
	if g.kind == Polar {
		if row >= g.rows || col >= g.RingLen(row) {
			return -1
		}
		return int(g.slot[int(g.ringStart[row])+col])
	}
	if row >= g.rows || col >= g.cols {
		return -1
	}
	return int(g.slot[row*g.cols+col])
}

// RingLen is the number of cells in ring r of a polar grid.
func (g *Grid) RingLen(r int) int { return int(g.ringStart[r+1] - g.ringStart[r]) }

// ringSizes returns the cells of each of n rings: one in the centre, and
// in each ring after, the ring before's count times the whole number
// nearest to how many cells as wide as a ring is deep fit in one of its
// cells' arc (Buck's rule): ring r's circumference is 2πr ring depths,
// so that number is 2πr/previous. It starts at 6 in ring 1 and keeps the
// cells of every ring about square. The counts are part of the maze
// format; TestRingSizes pins them.
func ringSizes(n int) []int {
	sizes := make([]int, n)
	sizes[0] = 1
	for r := 1; r < n; r++ {
		prev := sizes[r-1]
		sizes[r] = prev * int(math.Round(2*math.Pi*float64(r)/float64(prev)))
	}
	return sizes
}

// NewPolarGrid builds a polar grid of rings rings, the centre cell the
// first.
func NewPolarGrid(rings int) (*Grid, error) {
	if rings < MinRings || rings > MaxRings {
		return nil, &SizeError{Got: rings, Min: MinRings, Max: MaxRings, Unit: "rings"}
	}
	sizes := ringSizes(rings)
	g := &Grid{kind: Polar, rows: rings, cols: sizes[rings-1], ringStart: make([]int32, rings+1)}
	for r, n := range sizes {
		g.ringStart[r+1] = g.ringStart[r] + int32(n)
		for i := range n {
			g.cells = append(g.cells, Cell{r, i})
		}
	}
	g.slot = make([]int32, len(g.cells))
	for i := range g.slot {
		g.slot[i] = int32(i)
	}
	g.link(func(c Cell, add func(row, col int)) {
		r, i := c.Row, c.Col
		if r == 0 {
			for j := range sizes[1] {
				add(1, j)
			}
			return
		}
		n := sizes[r]
		ratio := n / sizes[r-1]
		add(r-1, i/ratio)
		add(r, (i+1)%n)
		add(r, (i+n-1)%n)
		if r+1 < rings {
			out := sizes[r+1] / n
			for j := range out {
				add(r+1, i*out+j)
			}
		}
	})
	return g, nil
}

// NewHexGrid builds a hex grid of cols × rows cells, with the cells of
// mask only when mask is not nil (mask.Cols() and Rows() must be cols and
// rows).
func NewHexGrid(cols, rows int, mask *Mask) (*Grid, error) {
	for _, side := range []int{cols, rows} {
		if side < MinHexSide || side > MaxHexSide {
			return nil, &SizeError{Got: side, Min: MinHexSide, Max: MaxHexSide, Unit: "cells"}
		}
	}
	g := rectGrid(Hex, cols, rows, mask)
	g.link(func(c Cell, add func(row, col int)) {
		r, q := c.Row, c.Col
		// The rows of the diagonal neighbours: an even column's sit half
		// a row higher than an odd one's.
		north, south := r, r+1
		if q%2 == 0 {
			north, south = r-1, r
		}
		add(r-1, q)
		add(north, q+1)
		add(south, q+1)
		add(r+1, q)
		add(south, q-1)
		add(north, q-1)
	})
	return g, nil
}

// NewSquareGrid builds a square grid of cols × rows cells, with the cells
// of mask only when mask is not nil. Unmasked, it is the graph of every
// maze of ID versions 1 and 2 (see Maze.Graph).
func NewSquareGrid(cols, rows int, mask *Mask) (*Grid, error) {
	const maxCells = (MaxSize - 1) / 2
	for _, side := range []int{cols, rows} {
		if side < 2 || side > maxCells {
			return nil, &SizeError{Got: side, Min: 2, Max: maxCells, Unit: "cells"}
		}
	}
	g := rectGrid(Square, cols, rows, mask)
	g.link(func(c Cell, add func(row, col int)) {
		add(c.Row-1, c.Col)
		add(c.Row, c.Col+1)
		add(c.Row+1, c.Col)
		add(c.Row, c.Col-1)
	})
	return g, nil
}

// rectGrid lays out the cells of a rectangle (of mask, when there is one).
func rectGrid(kind GridKind, cols, rows int, mask *Mask) *Grid {
	g := &Grid{kind: kind, cols: cols, rows: rows, slot: make([]int32, cols*rows)}
	for r := range rows {
		for q := range cols {
			if mask != nil && !mask.Has(q, r) {
				g.slot[r*cols+q] = -1
				continue
			}
			g.slot[r*cols+q] = int32(len(g.cells))
			g.cells = append(g.cells, Cell{r, q})
		}
	}
	return g
}

// link fills the adjacency from each cell's neighbours' places, as each
// calls add in the grid's order; places outside the grid are left out.
func (g *Grid) link(neighbours func(c Cell, add func(row, col int))) {
	g.adjStart = make([]int32, len(g.cells)+1)
	g.adj = make([]int32, 0, 4*len(g.cells))
	for c, cell := range g.cells {
		neighbours(cell, func(row, col int) {
			if n := g.At(row, col); n >= 0 {
				g.adj = append(g.adj, int32(n))
			}
		})
		g.adjStart[c+1] = int32(len(g.adj))
	}
}

// slotOf returns the place in c's neighbour list of cell n, or -1.
func (g *Grid) slotOf(c, n int) int {
	for k, x := range g.Neighbours(c) {
		if int(x) == n {
			return k
		}
	}
	return -1
}
