package render

import (
	"errors"
	"slices"

	"mazebot/mazecore"
)

// ErrTooLarge is returned (wrapped) when a maze or a scale would make an
// image too big for its format: callers pick another format or size.
var ErrTooLarge = errors.New("too large to render")

// Overlay is what is drawn on top of the maze, in tile coordinates. Points on
// walls or outside the maze are ignored: an overlay only ever marks floor.
type Overlay struct {
	Path   []mazecore.Point // the solution, in order from start to goal
	Trail  []mazecore.Point // tiles a player has walked
	Player *mazecore.Point  // where the player stands
}

func (ov Overlay) empty() bool {
	return len(ov.Path) == 0 && len(ov.Trail) == 0 && ov.Player == nil
}

// kind is what a tile shows. The four kinds every maze has come first so
// that a PNG of a plain maze can use a four-colour (2-bit) palette.
type kind uint8

const (
	kFloor kind = iota
	kWall
	kStart
	kGoal
	kPath
	kTrail
	kPlayer
	numKinds
)

// precedence orders the overlay kinds: the higher one wins on a tile.
var precedence = [numKinds]uint8{kFloor: 0, kWall: 0, kPath: 1, kTrail: 2, kStart: 3, kGoal: 3, kPlayer: 4}

// marks holds the start, goal and overlay of a window row by row, each row
// sorted by x with one mark per tile, so that a renderer walks a row and its
// marks together in O(width + marks) rather than looking every tile up.
type marks struct {
	y0   int
	rows [][]mark
}

// mark packs a tile's x, the precedence of its kind and the kind into one
// integer, so that sorting plain integers orders a row by x and, on one
// tile, puts the winning kind first.
type mark uint64

func newMark(x int, k kind) mark {
	return mark(uint64(x)<<16 | uint64(0xff-precedence[k])<<8 | uint64(k))
}

func (mr mark) x() int     { return int(mr >> 16) }
func (mr mark) kind() kind { return kind(mr & 0xff) }

// newMarks collects the start, goal and overlay points that fall on floor
// tiles inside win (already clipped to the maze).
func newMarks(m *mazecore.Maze, ov Overlay, win Window) marks {
	mk := marks{y0: win.Y, rows: make([][]mark, win.H)}
	add := func(p mazecore.Point, k kind) {
		if p.X < win.X || p.Y < win.Y || p.X >= win.X+win.W || p.Y >= win.Y+win.H || m.Wall(p.X, p.Y) {
			return
		}
		mk.rows[p.Y-win.Y] = append(mk.rows[p.Y-win.Y], newMark(p.X, k))
	}
	for _, p := range ov.Path {
		add(p, kPath)
	}
	for _, p := range ov.Trail {
		add(p, kTrail)
	}
	add(m.Start(), kStart)
	add(m.Goal(), kGoal)
	if ov.Player != nil {
		add(*ov.Player, kPlayer)
	}
	for i, row := range mk.rows {
		slices.Sort(row)
		mk.rows[i] = slices.CompactFunc(row, func(a, b mark) bool { return a.x() == b.x() })
	}
	return mk
}

// at returns the marks of row y.
func (mk marks) at(y int) []mark {
	if i := y - mk.y0; i >= 0 && i < len(mk.rows) {
		return mk.rows[i]
	}
	return nil
}

// row fills dst with the kinds of tiles (x0, y) … (x0+len(dst)-1, y).
func (mk marks) row(m *mazecore.Maze, y, x0 int, dst []kind) {
	if x0 == 0 && len(dst) == m.Width() {
		fullRow(m, y, dst)
	} else {
		for i := range dst {
			if m.Wall(x0+i, y) {
				dst[i] = kWall
			} else {
				dst[i] = kFloor
			}
		}
	}
	for _, mr := range mk.at(y) {
		if i := mr.x() - x0; i >= 0 && i < len(dst) {
			dst[i] = mr.kind()
		}
	}
}

// fullRow fills dst with the walls and floor of row y, asking the maze only
// about the tiles between cells: cell tiles (odd x and y) are always floor
// and pillars (even x and y) always walls. It is what keeps a 2001-tile PNG
// fast.
func fullRow(m *mazecore.Maze, y int, dst []kind) {
	if y%2 == 1 {
		cy := y / 2
		dst[0] = kWall
		for cx := 0; cx < m.Cols(); cx++ {
			dst[2*cx+1] = kFloor
			dst[2*cx+2] = kWall
			if m.Open(cx, cy, mazecore.East) {
				dst[2*cx+2] = kFloor
			}
		}
		return
	}
	for i := range dst {
		dst[i] = kWall
	}
	if y == 0 || y == m.Height()-1 {
		return
	}
	cy := y/2 - 1
	for cx := 0; cx < m.Cols(); cx++ {
		if m.Open(cx, cy, mazecore.South) {
			dst[2*cx+1] = kFloor
		}
	}
}
