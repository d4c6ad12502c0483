package render

import (
	"fmt"

	"mazebot/mazecore"
)

// SVGMaxSize is the largest side, in tiles, SVG draws: an SVG of 2001
// tiles is about 20 MB of rectangles, and a bigger one is no use.
const SVGMaxSize = 2001

// vector is a maze laid out for a vector format (SVG, PDF) exactly as the
// PNG of the same options lays it out, in its pixels as units: walls as
// runs of wall tiles, a rectangle each, the start and goal tiles, the
// markers, the solution as strokes through the tiles' centres.
type vector struct {
	m   *mazecore.Maze
	g   geometry
	d   int // the markers' size
	pal Palette
	lw  float64 // the solution's width
}

func newVector(m *mazecore.Maze, scale int, pal Palette, style Style) (*vector, error) {
	if m.Width() > SVGMaxSize || m.Height() > SVGMaxSize {
		return nil, fmt.Errorf("%d×%d tiles: %w (vector pictures take at most %d×%d)",
			m.Width(), m.Height(), ErrTooLarge, SVGMaxSize, SVGMaxSize)
	}
	if scale <= 0 {
		scale = PNGScale(m)
	}
	pal = pal.orDefault()
	g, d := newGeometry(m, min(scale, maxPNGScale), style.resolve(pal))
	// The PNG's line width, so both pictures agree.
	return &vector{m: m, g: g, d: d, pal: pal, lw: float64(lineWidth(g.cell))}, nil
}

// size is the picture's size in units.
func (v *vector) size() (w, h int) { return v.g.pictureSize(v.m) }

// wallRuns calls rect with each horizontal run of wall tiles, row by row:
// a rectangle at (x, y), w×h units.
func (v *vector) wallRuns(rect func(x, y, w, h int)) {
	m, g := v.m, v.g
	rows, tiles := newTileRows(m, byte(kFloor), byte(kWall)), newRow(m)
	for y := range m.Height() {
		rows.fill(tiles[:cap(tiles)], y)
		for x := 0; x < m.Width(); {
			if tiles[x] != byte(kWall) {
				x++
				continue
			}
			end := x
			for end < m.Width() && tiles[end] == byte(kWall) {
				end++
			}
			rect(g.start(x), g.start(y), g.start(end)-g.start(x), g.size(y))
			x = end
		}
	}
}

// ends calls rect with the start's and the goal's tiles and their
// colours, when the palette fills them.
func (v *vector) ends(rect func(x, y, w, h int, k kind)) {
	if v.pal.colours[kStart] == v.pal.colours[kFloor] {
		return // print: the markers say it
	}
	for _, e := range []struct {
		p mazecore.Point
		k kind
	}{{v.m.Start(), kStart}, {v.m.Goal(), kGoal}} {
		rect(v.g.start(e.p.X), v.g.start(e.p.Y), v.g.size(e.p.X), v.g.size(e.p.Y), e.k)
	}
}

// point is a position in units.
type point struct{ x, y float64 }

// strokes returns path as lines through its tiles' centres, one a run of
// adjacent floor tiles, each line only its ends and turns.
func (v *vector) strokes(path []mazecore.Point) [][]point {
	var out [][]point
	var line []point
	var last mazecore.Point
	flush := func() {
		if len(line) > 1 {
			out = append(out, line)
		}
		line = nil
	}
	for _, p := range path {
		if v.m.Wall(p.X, p.Y) {
			flush()
			continue
		}
		c := point{float64(v.g.start(p.X)) + float64(v.g.size(p.X))/2, float64(v.g.start(p.Y)) + float64(v.g.size(p.Y))/2}
		if len(line) > 0 && !adjacent(last, p) {
			flush()
		}
		if n := len(line); n >= 2 && straight(line[n-2], line[n-1], c) {
			line[n-1] = c // straight on: the line's end moves on
		} else {
			line = append(line, c)
		}
		last = p
	}
	flush()
	return out
}

// straight reports whether b lies on the line from a on to c, as
// consecutive steps along a row or a column do.
func straight(a, b, c point) bool {
	return (a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y)
}

// markers returns the start's and the goal's markers.
func (v *vector) markers() [2]marker { return markersOf(v.m, v.g, v.d) }

// triangle is the start marker's corners: the base along its box's west
// side, the tip at the east, as marker.covers has it.
func (mk marker) triangle() [3]point {
	x, y, d := float64(mk.x), float64(mk.y), float64(mk.d)
	return [3]point{{x, y}, {x + d, y + d/2}, {x, y + d}}
}

// target is the goal marker's centre, the ring's middle radius and width,
// and the dot's radius, as marker.covers has them.
func (mk marker) target() (c point, ring, width, dot float64) {
	r := float64(mk.d) / 2
	return point{float64(mk.x) + r, float64(mk.y) + r}, r * (1 + ringInner) / 2, r * (1 - ringInner), r * dotRadius
}
