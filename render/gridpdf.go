package render

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/go-pdf/fpdf"

	"mazebot/mazecore"
)

// GridPDFMaxUnits is the largest side, in cells, of a maze on any grid
// that GridPDF lays out (a polar grid is two cells a ring across): about
// a millimetre a cell across an A4 page, as PDFMaxSize's 401 tiles are.
const GridPDFMaxUnits = 200

// GridPDF writes a maze on any grid as PDF writes a square one: page 1
// the maze with its title and maze ID, page 2 the same with the solution
// as a line through the cells; thin walls along the cells' edges (a polar
// grid's rings as arcs), the start a triangle and the goal a target. A
// grid wider or taller than GridPDFMaxUnits cells is refused with
// ErrTooLarge.
func GridPDF(w io.Writer, m *mazecore.GridMaze, opts PDFOptions) error {
	if err := GridFits("pdf", m.Grid()); err != nil {
		return err
	}
	geo := newGridGeometry(m.Grid())
	pal := opts.Palette
	if pal.name == "" {
		pal = Print
	}
	id := m.ID()
	title := opts.Title
	if title == "" {
		name := id.Algorithm.String()
		title = fmt.Sprintf("%s%s maze, %s", strings.ToUpper(name[:1]), name[1:], gridTitle(id, m.Grid().Len()))
	}
	path := m.Solve()
	return pdfDocument(w, opts, id, title, fmt.Sprintf("%d cells", len(path)), func(doc *fpdf.Fpdf, page int, box [4]float64) {
		pen := gridPage(geo, box)
		pen.doc = doc
		pen.maze(m, pal)
		if page == 1 {
			pen.solution(path, pal)
		}
	})
}

// gridPage places the maze in a page's box (pdfBox): as large as fits,
// centred across.
func gridPage(geo *gridGeometry, box [4]float64) gridPen {
	k := min(box[2]/geo.w, box[3]/geo.h)
	return gridPen{geo: geo, k: k, x0: box[0] + (box[2]-k*geo.w)/2, y0: box[1]}
}

// gridTitle names a grid's maze for a title: "polar, 12 rings",
// "hex, 11×9 cells", "heart, 400 cells".
func gridTitle(id mazecore.ID, cells int) string {
	switch {
	case id.GridKind == mazecore.Polar:
		return fmt.Sprintf("polar, %d rings", id.Width)
	case id.Shape.Kind != mazecore.NoShape:
		return fmt.Sprintf("%s %s, %d cells", id.GridKind, id.Shape, cells)
	case id.GridKind == mazecore.Hex:
		return fmt.Sprintf("hex, %d×%d cells", id.Width, id.Height)
	}
	return fmt.Sprintf("%d×%d", id.Width, id.Height)
}

// gridPen draws a grid's cell units on a page: k millimetres a unit,
// from (x0, y0).
type gridPen struct {
	doc    *fpdf.Fpdf
	geo    *gridGeometry
	k      float64
	x0, y0 float64
}

func (p gridPen) at(q point) (float64, float64) { return p.x0 + p.k*q.x, p.y0 + p.k*q.y }

// maze draws the walls, then the markers.
func (p gridPen) maze(m *mazecore.GridMaze, pal Palette) {
	c := pal.colours[kWall]
	p.doc.SetDrawColor(int(c.R), int(c.G), int(c.B))
	// A tenth of a cell, and never under a fine pen's 0.15 mm.
	p.doc.SetLineWidth(math.Max(0.15, p.k/10))
	p.doc.SetLineCapStyle("round")
	p.doc.SetLineJoinStyle("round")
	for _, e := range p.geo.walls(m) {
		if e.arc {
			// As straight pieces at most half a millimetre long.
			n := max(1, int(math.Ceil(e.r*p.k*(e.t2-e.t1)/0.5)))
			for i := 0; i <= n; i++ {
				t := e.t1 + (e.t2-e.t1)*float64(i)/float64(n)
				x, y := p.at(point{p.geo.cx + e.r*math.Sin(t), p.geo.cy - e.r*math.Cos(t)})
				if i == 0 {
					p.doc.MoveTo(x, y)
				} else {
					p.doc.LineTo(x, y)
				}
			}
		} else {
			p.doc.MoveTo(p.at(point{e.x1, e.y1}))
			p.doc.LineTo(p.at(point{e.x2, e.y2}))
		}
	}
	p.doc.DrawPath("D")
	mk := markerShapes(p.geo.centres[m.Start()], p.geo.centres[m.Goal()])
	s := pal.markers[0]
	p.doc.SetFillColor(int(s.R), int(s.G), int(s.B))
	var tri []fpdf.PointType
	for _, q := range mk[0].triangle {
		x, y := p.at(q)
		tri = append(tri, fpdf.PointType{X: x, Y: y})
	}
	p.doc.Polygon(tri, "F")
	g := pal.markers[1]
	p.doc.SetFillColor(int(g.R), int(g.G), int(g.B))
	p.doc.SetDrawColor(int(g.R), int(g.G), int(g.B))
	p.doc.SetLineWidth(p.k * mk[1].width)
	x, y := p.at(mk[1].centre)
	p.doc.Circle(x, y, p.k*mk[1].ring, "D")
	p.doc.Circle(x, y, p.k*mk[1].dot, "F")
}

// solution strokes the path through its cells' centres.
func (p gridPen) solution(path []int, pal Palette) {
	c := pal.colours[kPath]
	p.doc.SetDrawColor(int(c.R), int(c.G), int(c.B))
	p.doc.SetLineWidth(p.k / 4)
	for i, cell := range path {
		x, y := p.at(p.geo.centres[cell])
		if i == 0 {
			p.doc.MoveTo(x, y)
		} else {
			p.doc.LineTo(x, y)
		}
	}
	p.doc.DrawPath("D")
}
