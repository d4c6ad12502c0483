package mazecore

import (
	"encoding/binary"
	"math/bits"
)

// Point is a tile coordinate: X grows east, Y grows south.
type Point struct{ X, Y int }

// Dir is a compass direction between neighbouring cells.
type Dir uint8

// The four directions. Their order is part of the maze format: generators
// draw random indexes into lists built in this order, so reordering them
// would change every maze an ID has ever named.
const (
	North Dir = iota
	East
	South
	West
)

// Dirs lists the directions in their fixed order.
var Dirs = [4]Dir{North, East, South, West}

// Opposite returns the direction pointing back.
func (d Dir) Opposite() Dir { return (d + 2) & 3 }

// Delta returns the change in x and y for one step in d.
func (d Dir) Delta() (dx, dy int) {
	switch d {
	case North:
		return 0, -1
	case East:
		return 1, 0
	case South:
		return 0, 1
	default:
		return -1, 0
	}
}

func (d Dir) String() string {
	return [...]string{"north", "east", "south", "west"}[d&3]
}

// Maze is a generated maze. Only passages are stored: per cell one bit for
// "open to the east" and one for "open to the south", packed four cells a
// byte, so a 4000×4000-cell maze takes 4 MB.
type Maze struct {
	id         ID
	cols, rows int
	// passages has wordSlack bytes more than the cells need, always zero,
	// so that from any cell's byte on three 64-bit words can be read or
	// ORed.
	passages []byte
}

// The two bits of a cell, in the maze and in a PassageRow.
const (
	OpenEast  = 1 // the cell has a passage to the east
	OpenSouth = 2 // the cell has a passage to the south

	bitEast  = OpenEast
	bitSouth = OpenSouth
)

// wordSlack lets three 64-bit loads or stores start at any byte of
// passages.
const wordSlack = 23

func newMaze(id ID) *Maze {
	cols, rows := id.Width/2, id.Height/2
	cells := cols * rows
	return &Maze{id: id, cols: cols, rows: rows, passages: make([]byte, (cells+3)/4+wordSlack)}
}

// ID returns the ID that reproduces this maze.
func (m *Maze) ID() ID { return m.id }

// Width and Height are the size in tiles, outer walls included.
func (m *Maze) Width() int  { return 2*m.cols + 1 }
func (m *Maze) Height() int { return 2*m.rows + 1 }

// Cols and Rows are the size in cells.
func (m *Maze) Cols() int { return m.cols }
func (m *Maze) Rows() int { return m.rows }

// Start is the top-left cell's tile, Goal the bottom-right cell's.
func (m *Maze) Start() Point { return Point{1, 1} }
func (m *Maze) Goal() Point  { return Point{2*m.cols - 1, 2*m.rows - 1} }

func (m *Maze) bits(cell int) byte {
	return m.passages[cell>>2] >> ((cell & 3) * 2) & 3
}

func (m *Maze) setBit(cell int, bit byte) {
	m.passages[cell>>2] |= bit << ((cell & 3) * 2)
}

// orBits ORs w into the passages from cell on: bits 2k and 2k+1 of w are
// the east and south bits of cell+k. w must leave its top 6 bits clear, so
// that it fits the one word whatever cell's place in its byte: 29 cells.
func (m *Maze) orBits(cell int, w uint64) {
	i := cell >> 2
	word := binary.LittleEndian.Uint64(m.passages[i:])
	binary.LittleEndian.PutUint64(m.passages[i:], word|w<<((cell&3)*2))
}

// PassageRow copies the passages of cell row cy into dst, in the maze's own
// packing: cell cx in bits 2·(cx%4) (OpenEast) and 2·(cx%4)+1 (OpenSouth)
// of byte cx/4, the bits past the last cell zero. It returns the row,
// (Cols()+3)/4 bytes, in dst if it has room. Renderers draw from it through
// lookup tables, four cells a byte, rather than asking Open of each cell.
func (m *Maze) PassageRow(cy int, dst []byte) []byte {
	n := (m.cols + 3) / 4
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	if cy < 0 || cy >= m.rows {
		clear(dst)
		return dst
	}
	first := cy * m.cols
	src, shift := m.passages[first>>2:], uint(first&3)*2
	// Eight bytes at a time: the slack makes every load in range, and the
	// last word's extra bytes are dropped below.
	i := 0
	for ; i+8 <= n; i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])>>shift | uint64(src[i+8])<<(64-shift)
		binary.LittleEndian.PutUint64(dst[i:], w)
	}
	for ; i < n; i++ {
		dst[i] = byte(uint16(src[i])>>shift | uint16(src[i+1])<<(8-shift))
	}
	if tail := m.cols & 3; tail != 0 {
		dst[n-1] &= 1<<(2*tail) - 1
	}
	return dst
}

// Open reports whether cell (cx, cy) has a passage in direction d. Cells
// outside the maze and passages through the outer wall are never open.
func (m *Maze) Open(cx, cy int, d Dir) bool {
	if cx < 0 || cy < 0 || cx >= m.cols || cy >= m.rows {
		return false
	}
	switch d {
	case North:
		return cy > 0 && m.bits((cy-1)*m.cols+cx)&bitSouth != 0
	case East:
		return m.bits(cy*m.cols+cx)&bitEast != 0
	case South:
		return m.bits(cy*m.cols+cx)&bitSouth != 0
	default:
		return cx > 0 && m.bits(cy*m.cols+cx-1)&bitEast != 0
	}
}

// openIndex is Open for a cell index, the generators' hot path.
func (m *Maze) openIndex(cell int, d Dir) bool {
	switch d {
	case North:
		return cell >= m.cols && m.bits(cell-m.cols)&bitSouth != 0
	case East:
		return m.bits(cell)&bitEast != 0
	case South:
		return m.bits(cell)&bitSouth != 0
	default:
		return cell%m.cols > 0 && m.bits(cell-1)&bitEast != 0
	}
}

// carve opens the passage from cell in direction d. The caller guarantees the
// neighbour exists.
func (m *Maze) carve(cell int, d Dir) {
	switch d {
	case North:
		m.setBit(cell-m.cols, bitSouth)
	case East:
		m.setBit(cell, bitEast)
	case South:
		m.setBit(cell, bitSouth)
	default:
		m.setBit(cell-1, bitEast)
	}
}

// neighbour returns the index of the cell next to cell in direction d, or -1
// at the border.
func (m *Maze) neighbour(cell int, d Dir) int {
	x := cell % m.cols
	switch d {
	case North:
		if cell < m.cols {
			return -1
		}
		return cell - m.cols
	case East:
		if x == m.cols-1 {
			return -1
		}
		return cell + 1
	case South:
		if cell+m.cols >= m.cols*m.rows {
			return -1
		}
		return cell + m.cols
	default:
		if x == 0 {
			return -1
		}
		return cell - 1
	}
}

// Degree is the number of passages leaving cell (cx, cy).
func (m *Maze) Degree(cx, cy int) int {
	n := 0
	for _, d := range Dirs {
		if m.Open(cx, cy, d) {
			n++
		}
	}
	return n
}

// exits returns the directions open from cell, bit d for Dir d: the
// searches' hot path, with no division. West needs no column test: carving
// never opens the outer wall, so the east bit of a row's last cell (the
// cell before the next row's first) is never set.
func (m *Maze) exits(cell int) uint8 {
	b := m.bits(cell)
	e := (b&bitEast)<<East | (b&bitSouth)>>1<<South
	if cell >= m.cols && m.bits(cell-m.cols)&bitSouth != 0 {
		e |= 1 << North
	}
	if cell > 0 && m.bits(cell-1)&bitEast != 0 {
		e |= 1 << West
	}
	return e
}

// steps are the index offsets to the neighbour in each direction.
func (m *Maze) steps() [4]int { return [4]int{North: -m.cols, East: 1, South: m.cols, West: -1} }

// degree is Degree for a cell index.
func (m *Maze) degree(cell int) int { return bits.OnesCount8(m.exits(cell)) }

// Wall reports whether tile (x, y) is a wall. Tiles outside the maze are
// walls, so callers can probe neighbours without bounds checks.
func (m *Maze) Wall(x, y int) bool {
	if x <= 0 || y <= 0 || x >= m.Width()-1 || y >= m.Height()-1 {
		return true
	}
	oddX, oddY := x%2 == 1, y%2 == 1
	switch {
	case oddX && oddY:
		return false
	case !oddX && !oddY:
		return true
	case !oddX: // between (x/2-1, y/2) and its east neighbour
		return !m.Open(x/2-1, y/2, East)
	default: // between (x/2, y/2-1) and its south neighbour
		return !m.Open(x/2, y/2-1, South)
	}
}
