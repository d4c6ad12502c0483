package mazecore

import (
	"encoding/binary"
	"math/bits"
)

// digging is the hole-digging method for vast mazes: dig in a random open
// direction until stuck, then restart from a random already dug cell,
// dropping cells that have no move left. It digs in a digGrid, whose
// passages also tell which cells are dug, and the dug list holds the
// cells' places in it, so testing a candidate needs no division.
func (g *generator) digging() {
	m := g.maze
	grid := newDigGrid(m.cols, m.rows)
	rng := *g.rng
	p := grid.place(rng.intn(m.cols * m.rows))
	dug := newCellList((m.rows+4)*grid.stride, m.cols*m.rows)
	defer dug.free()
	dug.push(p)
	for carved := 1; ; {
		if free := grid.free(p); free != 0 {
			from := p
			p = grid.carve(p, freeDirs[free][rng.intn(int(freeCount[free]))])
			dug.push(p)
			if carved++; g.observe != nil || carved&progressEvery == 0 {
				g.report(grid.cellOf(from), grid.cellOf(p), carved)
			}
			continue
		}
		next, ok := dug.restart(&rng, grid)
		if !ok {
			break
		}
		if g.observe != nil {
			g.emit(Restarted, grid.cellOf(p), grid.cellOf(next))
		}
		p = next
	}
	*g.rng = rng
	// The passages newMaze made were never touched, so they hold no
	// memory; the grid's bytes take their place.
	m.passages = grid.intoPassages()
}

// digGrid is digging's maze while it is dug: each cell's east and south
// bits, as in Maze, on a grid wider and four rows taller. Place
// (y+3)·stride + x + 1 is cell (x, y); stride is cols+1 rounded up to a
// multiple of four, so that the cells above and below a cell sit at the
// same place in their bytes. Column 0 (which is also east of the row
// above's last cell), the columns after the maze's and the rows above and
// below it are the border; the two top rows are only read, as the rows
// above the border that a window from two cells west of a cell reaches.
//
// A cell is dug exactly when a passage touches it, so the grid needs no
// visited set beside it (at 4000×4000 cells that set is 2 MB, a sixth of
// digging's memory). The border's cells each have a passage that leads
// only into the border (the rows east, the columns south), so they count
// as dug: a move off the maze is never free, with no bounds test. The
// first cell is the one dug cell without a passage, until it is left.
type digGrid struct {
	cells      []byte
	stride     int
	cols, rows int
	step       [4]int // the place offsets of the moves, by Dir
	carveAt    [4]int // the cell whose bit a move opens: itself or the one north or west
}

// digSlack lets eight bytes be read from any cell's byte.
const digSlack = 8

func newDigGrid(cols, rows int) *digGrid {
	stride := (cols + 4) &^ 3
	// Room, too, for the Maze's slack once the grid holds its passages
	// (more than the grid in the smallest mazes).
	size := max((rows+4)*stride/4+digSlack, (cols*rows+3)/4+wordSlack)
	g := &digGrid{
		cells: make([]byte, size), stride: stride, cols: cols, rows: rows,
		step:    [4]int{North: -stride, East: 1, South: stride, West: -1},
		carveAt: [4]int{North: -stride, East: 0, South: 0, West: -1},
	}
	for x := range stride {
		g.open(2*stride+x, bitEast)
		g.open((rows+3)*stride+x, bitEast)
	}
	for y := 3; y < rows+3; y++ {
		g.open(y*stride, bitSouth)
		for x := cols + 1; x < stride; x++ {
			g.open(y*stride+x, bitSouth)
		}
	}
	return g
}

func (g *digGrid) open(p int, bit byte) { g.cells[p>>2] |= bit << ((p & 3) * 2) }

// place and cellOf convert between a cell of the maze and its place.
func (g *digGrid) place(cell int) int { return (cell/g.cols+3)*g.stride + cell%g.cols + 1 }
func (g *digGrid) cellOf(p int) int   { return (p/g.stride-3)*g.cols + p%g.stride - 1 }

// dugAround tells which neighbours of place p are dug, bit d for Dir d.
// A neighbour is dug when it has a passage east or south, or the cell west
// of it one east, or the cell north of it one south: the rows from two
// above p to the one below hold them all, each read from the cell two
// west of p's column on (bits 0-7: p-2, p-1, p, p+1 in p's row a, and in
// b above, c two above and d below). The west neighbour's bits fold into
// bit 0 of a|a>>2|a>>3|b>>3 and the east one's into bit 4; the north
// neighbour's into bit 0 of b>>2|b>>4|b>>5 with c>>5, the south bit of
// the cell above it; the south one's into bit 0 of d>>2|d>>4|d>>5 with
// a>>5, p's own south bit.
func dugAround(cells []byte, rowBytes, p int) uint64 {
	at, shift := (p-2)>>2, (p-2)&3*2
	a := uint64(binary.LittleEndian.Uint16(cells[at:])) >> shift
	b := uint64(binary.LittleEndian.Uint16(cells[at-rowBytes:])) >> shift
	c := uint64(binary.LittleEndian.Uint16(cells[at-2*rowBytes:])) >> shift
	d := uint64(binary.LittleEndian.Uint16(cells[at+rowBytes:])) >> shift
	westEast := a | a>>2 | a>>3 | b>>3
	north := b>>2 | b>>4 | b>>5 | c>>5
	south := a>>5 | d>>2 | d>>4 | d>>5
	return north&1 | (westEast>>4&1)<<East | (south&1)<<South | (westEast&1)<<West
}

// free is the moves from p to cells not dug yet, bit d for Dir d.
func (g *digGrid) free(p int) uint8 { return 15 &^ uint8(dugAround(g.cells, g.stride/4, p)) }

// carve opens the passage from p in direction d and returns the place it
// leads to. Its tables make it branch-free: the direction is random.
func (g *digGrid) carve(p int, d Dir) int {
	g.open(p+g.carveAt[d], carveOf[d])
	return p + g.step[d]
}

// carveOf is which bit a move opens, in the cell carveAt says (digGrid's
// and walk's alike).
var carveOf = [4]byte{North: bitSouth, East: bitEast, South: bitSouth, West: bitEast}

// intoPassages turns the grid into a Maze's passages in its own memory,
// which digging's memory at its peak cannot spare twice: row y moves from
// place (y+3)·stride+1 to cell y·cols, sixteen cells at a time. Every
// cell moves to a lower bit than it came from and the rows go in order,
// so no bits are overwritten before they are read.
func (g *digGrid) intoPassages() []byte {
	for y := range g.rows {
		from, to := (y+3)*g.stride+1, y*g.cols
		for x := 0; x < g.cols; x += 16 {
			n := min(16, g.cols-x)
			in := from + x
			bits := binary.LittleEndian.Uint64(g.cells[in>>2:]) >> ((in & 3) * 2) & (1<<(2*n) - 1)
			at, shift := (to+x)>>2, ((to+x)&3)*2
			word := binary.LittleEndian.Uint64(g.cells[at:])
			binary.LittleEndian.PutUint64(g.cells[at:], word&^((1<<(2*n)-1)<<shift)|bits<<shift)
		}
	}
	cells := g.cols * g.rows
	n := (cells+3)/4 + wordSlack
	// The bits after the last cell are zero, as Maze's are.
	if cells&3 != 0 {
		g.cells[cells>>2] &= 1<<((cells&3)*2) - 1
	}
	clear(g.cells[(cells+3)/4 : n])
	return g.cells[:n:n]
}

// restartGo draws dug cells until one has a free move, and returns it,
// dropping those that have none; false when the list runs out, or after
// probes draws if probes ≥ 0. Nearly all its time is the cache misses of
// each draw, on the list and then on the grid's rows around the cell, and
// what hides them is the processor running ahead into the next draws
// (nine in ten find no move): the fewer instructions a draw, the more
// draws fit in its window and the more misses overlap. So the loop keeps
// everything in registers. Loading the next draws' cells ahead measured
// no faster: Go has no prefetch instruction, and the extra loads compete
// with the ones that matter. On amd64, restart is restartAsm, which
// prefetches.
func (l *cellList) restartGo(rng *source, grid *digGrid, probes int) (int, bool) {
	data, width, mask, n := l.data, l.width, l.mask, l.n
	cells, rowBytes := grid.cells, grid.stride/4
	state := rng.state
	for ; n > 0 && probes != 0; probes-- {
		i, lo := bits.Mul64(mix(state+gamma), uint64(n))
		if lo < uint64(n) {
			// Lemire's method may draw again: the slow way, out of the loop.
			src := source{state}
			i, state = uint64(src.intn(n)), src.state-gamma
		}
		state += gamma
		k := width * int(i)
		entry := data[k : k+4 : k+4]
		c := int(binary.LittleEndian.Uint32(entry) & mask)
		if dugAround(cells, rowBytes, c) != 15 {
			l.n, rng.state = n, state
			return c, true
		}
		n--
		k = width * n
		last := binary.LittleEndian.Uint32(data[k:k+4:k+4]) & mask
		binary.LittleEndian.PutUint32(entry, binary.LittleEndian.Uint32(entry)&^mask|last)
	}
	l.n, rng.state = n, state
	return 0, false
}

// cellList is digging's list of dug cells, each in as few bytes as the
// largest value needs: three up to 16 Mi (about 4090×4090 cells), else
// four. The list is a quarter smaller in memory and in cache misses,
// which is where digging spends its time: it probes the list at random.
// Its room is reserved at the start (reserve), touched only as far as
// the list grows.
type cellList struct {
	data   []byte
	width  int
	mask   uint32
	n      int
	free   func() // gives data back
	mapped bool   // data is mapped from the OS (reserve)
}

// reserveMapped is the size from which reserve maps its bytes on Linux.
const reserveMapped = 1 << 20

func newCellList(limit, capacity int) *cellList {
	l := &cellList{width: 4, mask: 1<<32 - 1}
	if limit <= 1<<24 {
		l.width, l.mask = 3, 1<<24-1
	}
	// One byte more: a 3-byte entry is read and written as 4 bytes.
	l.data, l.free, l.mapped = reserve(l.width*capacity + 1)
	return l
}

func (l *cellList) set(i, v int) {
	b := l.data[l.width*i:]
	binary.LittleEndian.PutUint32(b, binary.LittleEndian.Uint32(b)&^l.mask|uint32(v))
}

func (l *cellList) push(v int) {
	l.set(l.n, v)
	l.n++
}
