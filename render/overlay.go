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

// marks holds the start, goal and overlay of a window, sorted by row and
// x with one mark per tile, so that a renderer walks a row and its marks
// together in O(width + marks) rather than looking every tile up. They
// are one slice, indexed by row, so a long path costs two allocations.
type marks struct {
	y0   int
	all  []mark
	rows []int32 // all[rows[i]:rows[i+1]] are the marks of row y0+i
}

// mark packs a tile's y and x, the precedence of its kind and the kind
// into one integer, so that sorting plain integers orders marks by row and
// x and, on one tile, puts the winning kind first.
type mark uint64

func newMark(x, y int, k kind) mark {
	return mark(uint64(y)<<40 | uint64(x)<<16 | uint64(0xff-precedence[k])<<8 | uint64(k))
}

func (mr mark) x() int     { return int(mr >> 16 & (1<<24 - 1)) }
func (mr mark) y() int     { return int(mr >> 40) }
func (mr mark) kind() kind { return kind(mr & 0xff) }

// newMarks collects the start, goal and overlay points that fall on floor
// tiles inside win (already clipped to the maze).
func newMarks(m *mazecore.Maze, ov Overlay, win Window) marks {
	mk := marks{y0: win.Y, all: make([]mark, 0, len(ov.Path)+len(ov.Trail)+3)}
	add := func(p mazecore.Point, k kind) {
		if p.X < win.X || p.Y < win.Y || p.X >= win.X+win.W || p.Y >= win.Y+win.H || m.Wall(p.X, p.Y) {
			return
		}
		mk.all = append(mk.all, newMark(p.X, p.Y, k))
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
	// A counting sort by row, then each row sorted: a path of a million
	// tiles spreads over a thousand rows.
	mk.rows = make([]int32, win.H+1)
	for _, mr := range mk.all {
		mk.rows[mr.y()-win.Y+1]++
	}
	for i := 1; i < len(mk.rows); i++ {
		mk.rows[i] += mk.rows[i-1]
	}
	sorted := make([]mark, len(mk.all))
	next := slices.Clone(mk.rows[:win.H])
	for _, mr := range mk.all {
		i := mr.y() - win.Y
		sorted[next[i]] = mr
		next[i]++
	}
	// Then one mark a tile, the winner: rows shrink, so rows moves too.
	out := sorted[:0]
	for i := range win.H {
		row := sorted[mk.rows[i]:mk.rows[i+1]]
		slices.Sort(row)
		mk.rows[i] = int32(len(out))
		for j, mr := range row {
			if j == 0 || mr>>16 != row[j-1]>>16 {
				out = append(out, mr)
			}
		}
	}
	mk.rows[win.H] = int32(len(out))
	mk.all = out
	return mk
}

// at returns the marks of row y.
func (mk marks) at(y int) []mark {
	if i := y - mk.y0; i >= 0 && i+1 < len(mk.rows) {
		return mk.all[mk.rows[i]:mk.rows[i+1]]
	}
	return nil
}
