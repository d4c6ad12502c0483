package render

import (
	"encoding/binary"

	"mazebot/mazecore"
)

// tileRows draws a maze a row of tiles at a time from its packed passage
// rows (mazecore.PassageRow): a byte holds four cells, and a table turns
// it into the eight tiles east of its first cell's west wall in one 64-bit
// store. Every format draws its rows this way, in its own two values for
// floor and wall: ' ' and '#' for text, kinds for the rest.
type tileRows struct {
	m      *mazecore.Maze
	wall   byte
	cell   [256]uint64 // tiles 8i+1 … 8i+8 of a row of cells, from byte i
	below  [256]uint64 // the same tiles of the row of walls under it
	packed []byte
}

// rowSlack is how far past a row's last tile fill may write: the last
// byte of a passage row stands for up to three cells more than the row has.
const rowSlack = 7

func newTileRows(m *mazecore.Maze, floor, wall byte) *tileRows {
	t := &tileRows{m: m, wall: wall}
	for b := range 256 {
		var cell, below uint64
		for k := range 4 {
			east, south := wall, wall
			if b>>(2*k)&mazecore.OpenEast != 0 {
				east = floor
			}
			if b>>(2*k)&mazecore.OpenSouth != 0 {
				south = floor
			}
			cell |= (uint64(floor) | uint64(east)<<8) << (16 * k)
			below |= (uint64(south) | uint64(wall)<<8) << (16 * k)
		}
		t.cell[b], t.below[b] = cell, below
	}
	return t
}

// fill writes the tiles of row y into dst[:Width], which needs rowSlack
// bytes of room beyond.
func (t *tileRows) fill(dst []byte, y int) {
	m := t.m
	w := m.Width()
	dst = dst[:w+rowSlack]
	if y <= 0 || y >= m.Height()-1 {
		for i := range dst[:w] {
			dst[i] = t.wall
		}
		return
	}
	table := &t.cell
	if y%2 == 0 {
		table = &t.below
	}
	t.packed = m.PassageRow((y-1)/2, t.packed)
	dst[0] = t.wall
	// Each step proves its 8 bytes in range, so the loop needs no other
	// check: fill runs for every row of every format.
	out := dst[1:]
	for _, b := range t.packed {
		if len(out) < 8 {
			panic("render: tileRows.fill: dst is shorter than the row and its slack")
		}
		binary.LittleEndian.PutUint64(out[:8], table[b])
		out = out[8:]
	}
}

// newRow returns a row of tiles for m with the room fill needs.
func newRow(m *mazecore.Maze) []byte { return make([]byte, m.Width(), m.Width()+rowSlack) }

// mark writes the marks of row y over dst, a row of tiles from x0 on, each
// as its value in values.
func (mk marks) mark(dst []byte, y, x0 int, values *[numKinds]byte) {
	for _, mr := range mk.at(y) {
		if i := mr.x() - x0; i >= 0 && i < len(dst) {
			dst[i] = values[mr.kind()]
		}
	}
}

// identity is mark's values for a row of kinds.
var identity = func() (v [numKinds]byte) {
	for k := range v {
		v[k] = byte(k)
	}
	return v
}()
