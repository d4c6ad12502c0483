package render

import (
	"math"

	"mazebot/mazecore"
)

// geometry places the tiles of a picture: tile x (or y) covers pixels
// [start(x), start(x)+size(x)). Walls sit at even coordinates and cells at
// odd ones, so the line style is a geometry whose even tiles are
// narrower. off is the margin around the maze, which holds the start and
// goal markers; every picture format (PNG, GIF, SVG, PDF) lays its tiles
// out this way.
type geometry struct{ wall, cell, off int }

func uniform(scale int) geometry { return geometry{scale, scale, 0} }

func (g geometry) size(x int) int  { return [2]int{g.wall, g.cell}[x&1] }
func (g geometry) start(x int) int { return g.off + x/2*(g.wall+g.cell) + x&1*g.wall }

// Marker sizes: a marker is at least a cell and at least markerShare per
// mille of the maze's longer side, so that it covers about 14×14 pixels
// of a picture shown 400 px wide, whatever the maze's size (a tile of a
// 1001-tile maze is then 0.4 px). It is never under minMarker pixels,
// below which a triangle and a ring look alike.
const (
	markerShare = 40
	minMarker   = 5
)

// newGeometry lays out m at scale pixels a tile (block) or, in the line
// style, 2·scale pixels a cell and a wall together, the wall a quarter of
// scale: a line picture is about as big as a block one.
func newGeometry(m *mazecore.Maze, scale int, style Style) (geometry, int) {
	g := uniform(scale)
	if style == StyleLine {
		g.wall = max(1, (scale+2)/4)
		g.cell = 2*scale - g.wall
	}
	side := max(g.start(m.Width()), g.start(m.Height()))
	d := max(g.cell, minMarker, (side*markerShare+999)/1000)
	g.off = d + 2*markerGap(d)
	return g, d
}

// markerGap is the floor between a marker and the picture's edge, and
// between it and the maze.
func markerGap(d int) int { return max(1, d/6) }

// pictureSize is the size in pixels of a picture laid out by g.
func (g geometry) pictureSize(m *mazecore.Maze) (w, h int) {
	return g.start(m.Width()) + g.off, g.start(m.Height()) + g.off
}

// marker is where the start's or the goal's marker goes: a d×d box from
// (x, y), in the margin beside the maze at the tile's row, so it hides
// nothing of the maze. The start's is a triangle pointing into the maze
// (west margin), the goal's a target, a ring around a dot (east margin):
// told apart by shape, whatever the colours look like.
type marker struct {
	goal bool
	x, y int
	d    int
}

// markersOf returns the start's and the goal's markers of m in g. The
// start is the top-left cell and the goal the bottom-right one, so the
// west and east margins are the nearest.
func markersOf(m *mazecore.Maze, g geometry, d int) [2]marker {
	row := func(p mazecore.Point) int { return g.start(p.Y) + g.size(p.Y)/2 - d/2 }
	gap := markerGap(d)
	w, _ := g.pictureSize(m)
	return [2]marker{
		{x: gap, y: row(m.Start()), d: d},
		{goal: true, x: w - gap - d, y: row(m.Goal()), d: d},
	}
}

// Target proportions, of the radius: the ring from ringInner to 1, the
// dot to dotRadius.
const (
	ringInner = 0.62
	dotRadius = 0.30
)

// covers reports whether the marker covers the pixel (i, j) of its box,
// sampled at the pixel's centre: markers are drawn without antialiasing,
// so they take no colours but their own and a paletted picture stays
// small.
func (mk marker) covers(i, j int) bool {
	d := float64(mk.d)
	x, y := float64(i)+0.5, float64(j)+0.5
	if !mk.goal {
		// Tip at the east, base along the west side.
		return math.Abs(y-d/2) <= (1-x/d)*d/2
	}
	r := math.Hypot(x-d/2, y-d/2) / (d / 2)
	return r <= dotRadius || (r >= ringInner && r <= 1)
}

// mask is the marker's covered pixels, row by row.
func (mk marker) mask() []bool {
	m := make([]bool, mk.d*mk.d)
	for j := range mk.d {
		for i := range mk.d {
			m[j*mk.d+i] = mk.covers(i, j)
		}
	}
	return m
}
