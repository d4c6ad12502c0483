package play

import (
	"fmt"
	"time"

	"mazebot/mazecore"
)

// A game on any other grid than the whole square one (a polar or hex
// maze, or one cut to a shape: a mazecore.GridMaze) is played as a square
// one is, with the same record: its moves go a Way, and run, as on the
// square grid, along the corridor to the next junction. Its record's Pos
// is its cell's place written as a tile would be, (2·col+1, 2·row+1), a
// polar cell's col its index in its ring and row its ring; its trail has
// one bit a cell, in the grid's order, and Tiles counts the cells walked.

// Way is the direction of a move on a grid: north, east, south and west
// on square cells; north and south and the four diagonals on hexagonal
// ones (flat sides up); in, out, clockwise and anticlockwise round a
// polar grid's rings, where a cell whose ring splits outward has two ways
// out, Out to the anticlockwise one of its two outer cells and
// OutClockwise to the other.
type Way uint8

// The ways. Numbers are not stored: buttons carry their own letters.
const (
	WayNorth Way = iota + 1
	WayNorthEast
	WayEast
	WaySouthEast
	WaySouth
	WaySouthWest
	WayWest
	WayNorthWest
	WayIn
	WayOut
	WayOutClockwise
	WayClockwise
	WayAnticlockwise
)

var wayNames = [...]string{
	WayNorth: "north", WayNorthEast: "north-east", WayEast: "east", WaySouthEast: "south-east",
	WaySouth: "south", WaySouthWest: "south-west", WayWest: "west", WayNorthWest: "north-west",
	WayIn: "in", WayOut: "out", WayOutClockwise: "out clockwise", WayClockwise: "clockwise", WayAnticlockwise: "anticlockwise",
}

func (w Way) String() string {
	if w > 0 && int(w) < len(wayNames) {
		return wayNames[w]
	}
	return fmt.Sprintf("way(%d)", uint8(w))
}

// Ways lists the ways a grid of kind is played in.
func Ways(kind mazecore.GridKind) []Way {
	switch kind {
	case mazecore.Hex:
		return []Way{WayNorthWest, WayNorth, WayNorthEast, WaySouthWest, WaySouth, WaySouthEast}
	case mazecore.Polar:
		return []Way{WayAnticlockwise, WayOut, WayOutClockwise, WayIn, WayClockwise}
	}
	return []Way{WayWest, WayNorth, WaySouth, WayEast}
}

// Toward returns the cell next to cell c of g in way w, or −1 when there
// is none (outside the grid or its shape, or a way the grid has not).
func Toward(g *mazecore.Grid, c int, w Way) int {
	cell := g.Cell(c)
	r, q := cell.Row, cell.Col
	switch g.Kind() {
	case mazecore.Square:
		switch w {
		case WayNorth:
			return g.At(r-1, q)
		case WayEast:
			return g.At(r, q+1)
		case WaySouth:
			return g.At(r+1, q)
		case WayWest:
			return g.At(r, q-1)
		}
	case mazecore.Hex:
		// As mazecore lays hex cells out: an even column's diagonal
		// neighbours sit half a row higher than an odd one's.
		north, south := r, r+1
		if q%2 == 0 {
			north, south = r-1, r
		}
		switch w {
		case WayNorth:
			return g.At(r-1, q)
		case WayNorthEast:
			return g.At(north, q+1)
		case WaySouthEast:
			return g.At(south, q+1)
		case WaySouth:
			return g.At(r+1, q)
		case WaySouthWest:
			return g.At(south, q-1)
		case WayNorthWest:
			return g.At(north, q-1)
		}
	case mazecore.Polar:
		if r == 0 {
			return -1 // the centre is the goal: no way leads on from it
		}
		n := g.RingLen(r)
		switch w {
		case WayIn:
			return g.At(r-1, q/(n/g.RingLen(r-1)))
		case WayClockwise:
			return g.At(r, (q+1)%n)
		case WayAnticlockwise:
			return g.At(r, (q+n-1)%n)
		}
		if r+1 >= g.Rows() {
			return -1
		}
		out := g.RingLen(r+1) / n
		switch {
		case w == WayOut:
			return g.At(r+1, q*out)
		case w == WayOutClockwise && out > 1:
			return g.At(r+1, q*out+1)
		}
	}
	return -1
}

// Splits reports whether a polar cell's ring splits outward there: it
// then has two ways out.
func Splits(g *mazecore.Grid, c int) bool {
	cell := g.Cell(c)
	return g.Kind() == mazecore.Polar && cell.Row > 0 && cell.Row+1 < g.Rows() && g.RingLen(cell.Row+1) > g.RingLen(cell.Row)
}

// WayTo returns the way from cell a to its neighbour b, false when b is
// not next to a.
func WayTo(g *mazecore.Grid, a, b int) (Way, bool) {
	for _, w := range Ways(g.Kind()) {
		if Toward(g, a, w) == b {
			return w, true
		}
	}
	return 0, false
}

// gridRun returns the cells a move from cell from in way w walks, in
// order, from excluded: through the passage, then on while each cell
// reached has exactly two passages, stopping on a junction, a dead end,
// the start or the goal, as corridorRun does on the square grid. It
// returns nil when a wall (or the grid's edge) blocks w.
func gridRun(m *mazecore.GridMaze, from int, w Way) []int {
	next := Toward(m.Grid(), from, w)
	if next < 0 || !m.Linked(from, next) {
		return nil
	}
	var steps []int
	prev, cur := from, next
	// Bounded as corridorRun is, against a malformed maze.
	for range m.Grid().Len() {
		steps = append(steps, cur)
		if cur == m.Goal() || cur == m.Start() || m.Degree(cur) != 2 {
			break
		}
		links := m.Links(cur)
		on := links[0]
		if on == prev {
			on = links[1]
		}
		prev, cur = cur, on
	}
	return steps
}

// ParOnGrid is Par for a maze on any grid: the runs that follow its
// shortest path from start to goal.
func ParOnGrid(m *mazecore.GridMaze) int {
	path := m.Solve()
	clicks := 0
	for i := 0; i < len(path)-1; clicks++ {
		w, _ := WayTo(m.Grid(), path[i], path[i+1])
		steps := gridRun(m, path[i], w)
		if len(steps) == 0 {
			break // not a path of m; never for Solve's
		}
		i += len(steps)
	}
	return clicks
}

// MaxCells is the most cells a game on a grid takes: as many as the
// tiles of the largest square maze Play takes, so its trail is no longer.
const MaxCells = MaxSide * MaxSide

// cellPos is cell c's place written as a tile.
func cellPos(g *mazecore.Grid, c int) mazecore.Point {
	cell := g.Cell(c)
	return mazecore.Point{X: 2*cell.Col + 1, Y: 2*cell.Row + 1}
}

// posCell is the cell at a place written as a tile, or −1.
func posCell(g *mazecore.Grid, p mazecore.Point) int {
	if p.X%2 != 1 || p.Y%2 != 1 {
		return -1
	}
	return g.At((p.Y-1)/2, (p.X-1)/2)
}

// NewOnGrid puts a player on the start of m, a maze on any grid, as New
// does on a square one.
func NewOnGrid(m *mazecore.GridMaze, rec Record, now time.Time) (*Game, error) {
	if n := m.Grid().Len(); n > MaxCells {
		return nil, fmt.Errorf("%d cells: %w", n, ErrTooBig)
	}
	g := &Game{Record: rec, grid: m, trail: newCellTrail(m)}
	g.MazeID, g.Pos, g.Clicks, g.Tiles, g.Seq, g.Status = m.ID(), cellPos(m.Grid(), m.Start()), 0, 0, 0, Playing
	g.StartedAt, g.UpdatedAt, g.FinishedAt = now, now, time.Time{}
	g.trail.markCell(m.Start())
	g.Trail = g.trail.bits
	return g, nil
}

// ResumeOnGrid rebuilds a stored game on its maze on any grid, checking
// that they fit.
func ResumeOnGrid(m *mazecore.GridMaze, rec Record) (*Game, error) {
	if m.ID() != rec.MazeID || posCell(m.Grid(), rec.Pos) < 0 || rec.Clicks < 0 || rec.Tiles < 0 {
		return nil, fmt.Errorf("game %d: player at %v with %d clicks, %d tiles: %w", rec.ID, rec.Pos, rec.Clicks, rec.Tiles, ErrBadState)
	}
	if want := cellTrailBytes(m); len(rec.Trail) != want {
		return nil, fmt.Errorf("game %d: %w: trail of %d bytes, want %d for %d cells", rec.ID, ErrBadState, len(rec.Trail), want, m.Grid().Len())
	}
	return &Game{Record: rec, grid: m, trail: trail{bits: rec.Trail, width: m.Grid().Len()}}, nil
}

func cellTrailBytes(m *mazecore.GridMaze) int { return (m.Grid().Len() + 7) / 8 }

func newCellTrail(m *mazecore.GridMaze) trail {
	return trail{bits: make([]byte, cellTrailBytes(m)), width: m.Grid().Len()}
}

// A cell trail is a trail one row long, a bit a cell.
func (t trail) markCell(c int) { t.mark(mazecore.Point{X: c}) }

// Grid is the maze a game on any grid is played on; nil for a game on
// the whole square grid (Maze).
func (g *Game) Grid() *mazecore.GridMaze { return g.grid }

// Cell is the player's cell in a game on any grid.
func (g *Game) Cell() int { return posCell(g.grid.Grid(), g.Pos) }

// CanGoWay reports whether the player's cell in a game on any grid has
// a passage in way w.
func (g *Game) CanGoWay(w Way) bool {
	c := g.Cell()
	n := Toward(g.grid.Grid(), c, w)
	return n >= 0 && g.grid.Linked(c, n)
}

// WalkedCells lists the cells walked in a game on any grid, in the
// grid's order.
func (g *Game) WalkedCells() []int {
	pts := g.trail.points()
	out := make([]int, len(pts))
	for i, p := range pts {
		out[i] = p.X
	}
	return out
}

// Par is the clicks of a perfect run on the game's maze, whatever its
// grid.
func (g *Game) Par() int {
	if g.grid != nil {
		return ParOnGrid(g.grid)
	}
	return Par(g.maze)
}

// Shortest is the steps of the shortest path from start to goal, in
// tiles on the whole square grid and in cells on any other: what a
// perfect run's Tiles would be.
func (g *Game) Shortest() int {
	if g.grid != nil {
		return len(g.grid.Solve()) - 1
	}
	return ShortestTiles(g.maze)
}

// moveOnGrid plays a Move of a game on any grid: the Blocked outcome,
// or the cells walked, marked.
func (g *Game) moveOnGrid(w Way) []int {
	steps := gridRun(g.grid, g.Cell(), w)
	for _, c := range steps {
		g.trail.markCell(c)
	}
	if len(steps) > 0 {
		g.Pos = cellPos(g.grid.Grid(), steps[len(steps)-1])
	}
	return steps
}
