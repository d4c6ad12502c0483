package arena

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// A room races any grid: the whole square grid's maze (a *mazecore.Maze,
// whose games are Play's square games, tile by tile), or any other (a
// polar, hex or shaped *mazecore.GridMaze, whose games move a play.Way
// from cell to cell). A state holds one of the two; these helpers take
// both, one of them nil, so that every caller says nothing twice.

// errNeedsStore: an image's shape is kept in the store, which a pure
// apply cannot read; such a maze is raced when launched (open builds it
// through Config.Grids), not picked in the lobby.
var errNeedsStore = errors.New("an image's maze is built from the store")

// buildMaze makes the maze id names, without I/O: the whole square grid's
// as a Maze, any other as a GridMaze.
func buildMaze(id mazecore.ID) (*mazecore.Maze, *mazecore.GridMaze, error) {
	switch {
	case id.Plain():
		m, err := mazecore.Generate(id)
		return m, nil, err
	case id.Shape.Kind == mazecore.ImageShape:
		return nil, nil, errNeedsStore
	}
	g, err := mazecore.GenerateGrid(id)
	return nil, g, err
}

// startPos is where a racer stands before their game: the start, as the
// protocol writes a place (on another grid a cell (col, row) is
// (2·col+1, 2·row+1), as play's records).
func startPos(m *mazecore.Maze, g *mazecore.GridMaze) (x, y int) {
	if g != nil {
		c := g.Grid().Cell(g.Start())
		return 2*c.Col + 1, 2*c.Row + 1
	}
	s := m.Start()
	return s.X, s.Y
}

// newGame puts a racer on the start.
func newGame(m *mazecore.Maze, g *mazecore.GridMaze, rec play.Record, now time.Time) (*play.Game, error) {
	if g != nil {
		return play.NewOnGrid(g, rec, now)
	}
	return play.New(m, rec, now)
}

// resumeGame rebuilds a racer's game a sync carried.
func resumeGame(m *mazecore.Maze, g *mazecore.GridMaze, rec play.Record) (*play.Game, error) {
	if g != nil {
		return play.ResumeOnGrid(g, rec)
	}
	return play.Resume(m, rec)
}

// ways are the protocol's directions as play's ways on another grid, and
// squareDirs those of the whole square grid.
var (
	ways = map[Direction]play.Way{
		North: play.WayNorth, NorthEast: play.WayNorthEast, East: play.WayEast, SouthEast: play.WaySouthEast,
		South: play.WaySouth, SouthWest: play.WaySouthWest, West: play.WayWest, NorthWest: play.WayNorthWest,
		In: play.WayIn, Out: play.WayOut, OutClockwise: play.WayOutClockwise, Clockwise: play.WayClockwise, Anticlockwise: play.WayAnticlockwise,
	}
	squareDirs = map[Direction]mazecore.Dir{North: mazecore.North, East: mazecore.East, South: mazecore.South, West: mazecore.West}
)

// moveAction is a move in direction d as play takes it on the maze,
// false when the maze's grid has no such direction (north-east on a
// square, in on a hex).
func moveAction(m *mazecore.Maze, g *mazecore.GridMaze, d Direction) (play.Action, bool) {
	if g == nil {
		dir, ok := squareDirs[d]
		return play.Action{Kind: play.Move, Dir: dir}, ok
	}
	w, ok := ways[d]
	if !ok {
		return play.Action{}, false
	}
	for _, fits := range play.Ways(g.Grid().Kind()) {
		if fits == w {
			return play.Action{Kind: play.Move, Way: w}, true
		}
	}
	return play.Action{}, false
}

// drawn is the state's maze as the client draws it, made once a maze.
func (st *state) drawn() json.RawMessage {
	if st.drawing == nil || st.drawingOf != st.Maze {
		st.drawing, st.drawingOf = mazeJSON(st.maze, st.grid), st.Maze
	}
	return st.drawing
}

// mazeJSON is a maze as the client draws it (MazeGrid).
func mazeJSON(m *mazecore.Maze, g *mazecore.GridMaze) json.RawMessage {
	var v MazeGrid
	if g == nil {
		v = squareGrid(m)
	} else {
		v = cellGrid(g)
	}
	raw, _ := json.Marshal(v)
	return raw
}

// squareGrid is the whole square grid's maze: one string a row of tiles.
func squareGrid(m *mazecore.Maze) MazeGrid {
	rows := make([]string, m.Height())
	b := make([]byte, m.Width())
	for y := range m.Height() {
		for x := range m.Width() {
			b[x] = '.'
			if m.Wall(x, y) {
				b[x] = '#'
			}
		}
		rows[y] = string(b)
	}
	s, g := m.Start(), m.Goal()
	return MazeGrid{ID: m.ID().String(), Layout: LayoutTiles, W: m.Width(), H: m.Height(), Rows: rows,
		Start: [2]int{s.X, s.Y}, Goal: [2]int{g.X, g.Y}, Par: play.Par(m)}
}

// forward are the ways whose passages Links carries, a bit each per
// cell: every passage is one of these from exactly one of its two cells
// (a square cell's north and west, a hex cell's north, north-east and
// south-east, a polar cell's in and clockwise).
func forward(kind mazecore.GridKind) []play.Way {
	switch kind {
	case mazecore.Hex:
		return []play.Way{play.WayNorth, play.WayNorthEast, play.WaySouthEast}
	case mazecore.Polar:
		return []play.Way{play.WayIn, play.WayClockwise}
	}
	return []play.Way{play.WayNorth, play.WayWest}
}

// cellGrid is a maze on another grid as its kind, its size, its mask and
// its passages, which the client lays out as mazecore does: a 100-ring
// polar maze (29,659 cells) is some 10 kB, where its cells' corners
// would be megabytes.
func cellGrid(m *mazecore.GridMaze) MazeGrid {
	grid := m.Grid()
	kind := grid.Kind()
	v := MazeGrid{ID: m.ID().String(), Par: play.ParOnGrid(m)}
	switch kind {
	case mazecore.Polar:
		v.Layout, v.W, v.H = LayoutPolar, grid.Rows(), grid.Rows()
		for r := range grid.Rows() {
			v.Rings = append(v.Rings, grid.RingLen(r))
		}
	case mazecore.Hex:
		v.Layout, v.W, v.H = LayoutHex, grid.Cols(), grid.Rows()
	default:
		v.Layout, v.W, v.H = LayoutSquare, grid.Cols(), grid.Rows()
	}
	if kind != mazecore.Polar && grid.Len() < grid.Cols()*grid.Rows() {
		mask := make([]byte, (grid.Cols()*grid.Rows()+7)/8)
		for c := range grid.Len() {
			cell := grid.Cell(c)
			i := cell.Row*grid.Cols() + cell.Col
			mask[i/8] |= 1 << (i % 8)
		}
		v.Mask = base64.StdEncoding.EncodeToString(mask)
	}
	ways := forward(kind)
	links := make([]byte, (grid.Len()*len(ways)+7)/8)
	for c := range grid.Len() {
		for k, w := range ways {
			if n := play.Toward(grid, c, w); n >= 0 && m.Linked(c, n) {
				i := c*len(ways) + k
				links[i/8] |= 1 << (i % 8)
			}
		}
	}
	v.Links = base64.StdEncoding.EncodeToString(links)
	at := func(c int) [2]int {
		cell := grid.Cell(c)
		return [2]int{2*cell.Col + 1, 2*cell.Row + 1}
	}
	v.Start, v.Goal = at(m.Start()), at(m.Goal())
	return v
}

// raceable checks that a maze fits a room: up to MaxSide a side (rings,
// cells across or tiles), and no more cells than a game takes.
func raceable(id mazecore.ID) error {
	if err := id.Validate(); err != nil {
		return err
	}
	if id.Width > MaxSide || id.Height > MaxSide {
		return fmt.Errorf("maze %s: larger than %d", id, MaxSide)
	}
	return nil
}
