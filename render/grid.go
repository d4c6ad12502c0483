package render

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/fogleman/gg"

	"mazebot/mazecore"
)

// A maze on any grid (mazecore.GridMaze: polar, hex, or cut to a shape) is
// drawn from its geometry: each cell's centre and the edges between cells
// (straight, or arcs of a polar grid's rings), in units of a cell's size,
// thin walls along the edges that no passage crosses. GridPNG and GridSVG
// draw any grid; GridText draws a shaped square maze in the text's tiles.

// ErrGridFormat is returned (wrapped) for a format that cannot draw a
// maze's grid; the message says which formats can.
var ErrGridFormat = errors.New("this format cannot draw the maze's grid")

// edge is a piece of a cell's outline: between cells a and b, or a and
// the outside when b is −1. A straight edge runs from (x1, y1) to (x2, y2);
// an arc (polar rings) is the circle of radius r around the grid's
// centre from angle t1 to t2, clockwise, angles from north.
type edge struct {
	a, b           int
	arc            bool
	x1, y1, x2, y2 float64
	r, t1, t2      float64
}

// gridGeometry lays a grid out in cell units: its size, each cell's
// centre, and the edges of its cells, each once.
type gridGeometry struct {
	w, h    float64
	centres []point
	edges   []edge
	cx, cy  float64 // a polar grid's centre
}

// newGridGeometry lays out g.
func newGridGeometry(g *mazecore.Grid) *gridGeometry {
	geo := &gridGeometry{centres: make([]point, g.Len())}
	switch g.Kind() {
	case mazecore.Polar:
		geo.polar(g)
	case mazecore.Hex:
		geo.hex(g)
	default:
		geo.square(g)
	}
	return geo
}

// add appends the edge between a and the cell at b (−1 outside), once:
// the cell with the smaller number adds a shared edge.
func (geo *gridGeometry) add(e edge) {
	if e.b >= 0 && e.b < e.a {
		return
	}
	geo.edges = append(geo.edges, e)
}

func (geo *gridGeometry) square(g *mazecore.Grid) {
	geo.w, geo.h = float64(g.Cols()), float64(g.Rows())
	for c := range g.Len() {
		cell := g.Cell(c)
		x, y := float64(cell.Col), float64(cell.Row)
		geo.centres[c] = point{x + 0.5, y + 0.5}
		geo.add(edge{a: c, b: g.At(cell.Row-1, cell.Col), x1: x, y1: y, x2: x + 1, y2: y})
		geo.add(edge{a: c, b: g.At(cell.Row, cell.Col+1), x1: x + 1, y1: y, x2: x + 1, y2: y + 1})
		geo.add(edge{a: c, b: g.At(cell.Row+1, cell.Col), x1: x, y1: y + 1, x2: x + 1, y2: y + 1})
		geo.add(edge{a: c, b: g.At(cell.Row, cell.Col-1), x1: x, y1: y, x2: x, y2: y + 1})
	}
}

// hex lays out flat-topped hexagons: a cell is 1 unit across its flats
// (rows are 1 apart), its corners 1/√3 from its centre; columns are 3/2
// of that apart, the odd ones half a row lower.
func (geo *gridGeometry) hex(g *mazecore.Grid) {
	s := 1 / math.Sqrt(3) // centre to corner
	geo.w, geo.h = s*(1.5*float64(g.Cols())+0.5), float64(g.Rows())+0.5
	// The corners at 0°, 60°, … clockwise from east (y grows down), and
	// for each side, from corner k to k+1, the neighbour beyond it: SE,
	// S, SW, NW, N, NE.
	var corner [6]point
	for k := range corner {
		t := float64(k) * math.Pi / 3
		corner[k] = point{s * math.Cos(t), s * math.Sin(t)}
	}
	for c := range g.Len() {
		cell := g.Cell(c)
		r, q := cell.Row, cell.Col
		x := s * (1 + 1.5*float64(q))
		y := float64(r) + 0.5
		north, south := r, r+1
		if q%2 == 1 {
			y += 0.5
		} else {
			north, south = r-1, r
		}
		geo.centres[c] = point{x, y}
		beyond := [6]int{g.At(south, q+1), g.At(r+1, q), g.At(south, q-1), g.At(north, q-1), g.At(r-1, q), g.At(north, q+1)}
		for k, b := range beyond {
			p, n := corner[k], corner[(k+1)%6]
			geo.add(edge{a: c, b: b, x1: x + p.x, y1: y + p.y, x2: x + n.x, y2: y + n.y})
		}
	}
}

// polar lays out rings one unit deep around the centre cell (a disc of
// radius 1): ring r from radius r to r+1, its cells clockwise from north.
// Each cell adds its inner arc and its anticlockwise side; the rim's its
// outer arc too.
func (geo *gridGeometry) polar(g *mazecore.Grid) {
	rings := g.Rows()
	geo.w, geo.h = 2*float64(rings), 2*float64(rings)
	geo.cx, geo.cy = float64(rings), float64(rings)
	at := func(radius, t float64) point {
		return point{geo.cx + radius*math.Sin(t), geo.cy - radius*math.Cos(t)}
	}
	geo.centres[0] = point{geo.cx, geo.cy}
	for c := 1; c < g.Len(); c++ {
		cell := g.Cell(c)
		r, n := float64(cell.Row), g.RingLen(cell.Row)
		t1 := 2 * math.Pi * float64(cell.Col) / float64(n)
		t2 := 2 * math.Pi * float64(cell.Col+1) / float64(n)
		geo.centres[c] = at(r+0.5, (t1+t2)/2)
		inward := g.Neighbours(c)[0]
		geo.edges = append(geo.edges, edge{a: c, b: int(inward), arc: true, r: r, t1: t1, t2: t2})
		p, q := at(r, t1), at(r+1, t1)
		geo.edges = append(geo.edges, edge{a: c, b: g.At(cell.Row, (cell.Col+n-1)%n), x1: p.x, y1: p.y, x2: q.x, y2: q.y})
		if cell.Row == rings-1 {
			geo.edges = append(geo.edges, edge{a: c, b: -1, arc: true, r: r + 1, t1: t1, t2: t2})
		}
	}
}

// walls returns the edges no passage crosses.
func (geo *gridGeometry) walls(m *mazecore.GridMaze) []edge {
	var out []edge
	for _, e := range geo.edges {
		if e.b < 0 || !m.Linked(e.a, e.b) {
			out = append(out, e)
		}
	}
	return out
}

// GridOptions says what a picture of a maze on any grid shows and how.
type GridOptions struct {
	// Path is the cells of a path to draw as a line through their
	// centres, the solution as a rule; nil for none.
	Path []int
	// HidePath keeps an SVG's path in the file but not in the picture,
	// as SVGOptions.HidePath.
	HidePath bool
	Scale    int     // pixels (SVG: units) a cell; 0 picks GridScale
	Palette  Palette // the zero Palette is Dark
	Title    string  // an SVG's <title>; "" names the maze by its ID
}

// maxGridSide bounds a grid picture's side in pixels.
const maxGridSide = 8192

// GridScale is the automatic pixels a cell: about 1200 px a side, 4 to
// 32.
func GridScale(m *mazecore.GridMaze) int {
	geo := newGridGeometry(m.Grid())
	return gridScale(geo, 0)
}

func gridScale(geo *gridGeometry, scale int) int {
	if scale > 0 {
		return scale
	}
	return min(max(int(pngTargetSide/math.Max(geo.w, geo.h)), 4), 32)
}

// gridLayout is a picture's pixel geometry: the scale, the margin and the
// line width.
type gridLayout struct {
	geo         *gridGeometry
	s, margin   float64
	lw          float64
	width, high int
}

func newGridLayout(m *mazecore.GridMaze, scale int) (*gridLayout, error) {
	geo := newGridGeometry(m.Grid())
	return layoutAt(geo, float64(gridScale(geo, scale)))
}

// layoutAt lays geo out at s pixels a cell unit.
func layoutAt(geo *gridGeometry, s float64) (*gridLayout, error) {
	l := &gridLayout{geo: geo, s: s, margin: math.Max(4, s/2), lw: math.Max(1, math.Round(s/8))}
	l.width = int(math.Ceil(geo.w*s + 2*l.margin))
	l.high = int(math.Ceil(geo.h*s + 2*l.margin))
	if l.width > maxGridSide || l.high > maxGridSide {
		return nil, fmt.Errorf("%w: %d×%d pixels, over %d a side", ErrTooLarge, l.width, l.high, maxGridSide)
	}
	return l, nil
}

// px converts cell units to pixels.
func (l *gridLayout) px(p point) point { return point{l.margin + p.x*l.s, l.margin + p.y*l.s} }

// GridPNG draws m as a PNG: the floor, thin walls along the edges no
// passage crosses (the outline of the shape included), the start and
// goal marked in their cells as a triangle and a target (green and red
// in the colour themes, told apart by shape in print, as a square maze's
// are), and the path as a line through the cells' centres.
func GridPNG(w io.Writer, m *mazecore.GridMaze, opts GridOptions) error {
	l, err := newGridLayout(m, opts.Scale)
	if err != nil {
		return fmt.Errorf("png: %w", err)
	}
	c := opts.Palette.orDefault().colours
	dc := gg.NewContext(l.width, l.high)
	dc.SetColor(c[kFloor])
	dc.Clear()
	l.strokePath(dc, opts.Path, c[kPath])
	l.strokeWalls(dc, l.geo.walls(m), c[kWall])
	markers := opts.Palette.orDefault().markers
	l.markers(dc, m, markers[0], markers[1])
	return png.Encode(w, dc.Image())
}

// strokePath draws a path as a line through its cells' centres, a
// quarter of a cell wide, in colour c; nothing for fewer than two cells.
func (l *gridLayout) strokePath(dc *gg.Context, path []int, c color.Color) {
	if len(path) < 2 {
		return
	}
	for i, cell := range path {
		p := l.px(l.geo.centres[cell])
		if i == 0 {
			dc.MoveTo(p.x, p.y)
		} else {
			dc.LineTo(p.x, p.y)
		}
	}
	dc.SetColor(c)
	dc.SetLineWidth(math.Max(1, l.s/4))
	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	dc.Stroke()
}

// strokeWalls strokes edges in colour c at the layout's line width.
func (l *gridLayout) strokeWalls(dc *gg.Context, edges []edge, c color.Color) {
	dc.SetColor(c)
	dc.SetLineWidth(l.lw)
	dc.SetLineCapRound()
	for i, e := range edges {
		if i%strokeBatch == 0 {
			dc.Stroke()
		}
		l.edgePath(dc, e)
	}
	dc.Stroke()
}

// edgePath adds edge e to dc's path as a subpath of its own.
func (l *gridLayout) edgePath(dc *gg.Context, e edge) {
	dc.NewSubPath()
	if e.arc {
		// As straight pieces about 3 px long: gg's DrawArc lays
		// sixteen curves on every arc, however short, and a
		// 100-ring maze has 30,000 arcs.
		ctr := l.px(point{l.geo.cx, l.geo.cy})
		r := e.r * l.s
		n := max(1, int(math.Ceil(r*(e.t2-e.t1)/3)))
		for k := 0; k <= n; k++ {
			t := e.t1 + (e.t2-e.t1)*float64(k)/float64(n)
			dc.LineTo(ctr.x+r*math.Sin(t), ctr.y-r*math.Cos(t))
		}
		return
	}
	a, b := l.px(point{e.x1, e.y1}), l.px(point{e.x2, e.y2})
	dc.MoveTo(a.x, a.y)
	dc.LineTo(b.x, b.y)
}

// strokeBatch is how many walls GridPNG strokes at once: freetype's
// rasterizer looks cells up in a list that grows with the path, so one
// path of a 100-ring maze's 30,000 walls took a second, most of it there.
const strokeBatch = 256

// GridSVG draws m as GridPNG does, in an SVG: the walls one <path> (id
// "walls", arcs as arcs), the path in <g id="solution">, hidden by
// opts.HidePath, and over it the start's triangle and the goal's target
// (<g id="ends">).
func GridSVG(w io.Writer, m *mazecore.GridMaze, opts GridOptions) error {
	l, err := newGridLayout(m, opts.Scale)
	if err != nil {
		return fmt.Errorf("svg: %w", err)
	}
	pal := opts.Palette.orDefault()
	c := pal.colours
	bw := bufio.NewWriterSize(w, 64<<10)
	title := opts.Title
	if title == "" {
		id := m.ID()
		title = fmt.Sprintf("Maze %s: %s, %s grid %s, %d cells", id, id.Algorithm, id.GridKind, id.Shape, m.Grid().Len())
	}
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">`+"\n", l.width, l.high, l.width, l.high)
	bw.WriteString("<title>")
	if err := xml.EscapeText(bw, []byte(title)); err != nil {
		return err
	}
	bw.WriteString("</title>\n")
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="%s"/>`+"\n", l.width, l.high, hex(c[kFloor]))
	fmt.Fprintf(bw, `<path id="walls" fill="none" stroke="%s" stroke-width="%s" stroke-linecap="round" d="`, hex(c[kWall]), num(l.lw))
	for _, e := range l.geo.walls(m) {
		if e.arc {
			ctr := point{l.geo.cx, l.geo.cy}
			a := l.px(point{ctr.x + e.r*math.Sin(e.t1), ctr.y - e.r*math.Cos(e.t1)})
			b := l.px(point{ctr.x + e.r*math.Sin(e.t2), ctr.y - e.r*math.Cos(e.t2)})
			large := 0
			if e.t2-e.t1 > math.Pi {
				large = 1
			}
			fmt.Fprintf(bw, "M%s %sA%s %s 0 %d 1 %s %s", num(a.x), num(a.y), num(e.r*l.s), num(e.r*l.s), large, num(b.x), num(b.y))
			continue
		}
		a, b := l.px(point{e.x1, e.y1}), l.px(point{e.x2, e.y2})
		fmt.Fprintf(bw, "M%s %sL%s %s", num(a.x), num(a.y), num(b.x), num(b.y))
	}
	bw.WriteString("\"/>\n")
	if len(opts.Path) > 1 {
		hidden := ""
		if opts.HidePath {
			hidden = ` display="none"`
		}
		fmt.Fprintf(bw, `<g id="solution"%s fill="none" stroke="%s" stroke-width="%s" stroke-linecap="round" stroke-linejoin="round"><path d="`, hidden, hex(c[kPath]), num(math.Max(1, l.s/4)))
		for i, cell := range opts.Path {
			p := l.px(l.geo.centres[cell])
			fmt.Fprintf(bw, "%c%s %s", "ML"[min(i, 1)], num(p.x), num(p.y))
		}
		bw.WriteString("\"/></g>\n")
	}
	mk := markerShapes(l.geo.centres[m.Start()], l.geo.centres[m.Goal()])
	bw.WriteString(`<g id="ends"><polygon points="`)
	for i, q := range mk[0].triangle {
		p := l.px(q)
		fmt.Fprintf(bw, "%s%s,%s", " "[:min(i, 1)], num(p.x), num(p.y))
	}
	goal := l.px(mk[1].centre)
	fmt.Fprintf(bw, `" fill="%s"/><circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="%s"/><circle cx="%s" cy="%s" r="%s" fill="%s"/></g>`+"\n",
		hex(pal.markers[0]), num(goal.x), num(goal.y), num(mk[1].ring*l.s), hex(pal.markers[1]), num(mk[1].width*l.s),
		num(goal.x), num(goal.y), num(mk[1].dot*l.s), hex(pal.markers[1]))
	bw.WriteString("</svg>\n")
	return bw.Flush()
}
