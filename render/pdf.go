package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"mazebot/mazecore"
)

// Paper is a page size.
type Paper uint8

const (
	A4     Paper = iota // 210 × 297 mm, the default
	Letter              // 8.5 × 11 in
)

var paperNames = [...]string{A4: "a4", Letter: "letter"}

func (p Paper) String() string {
	if int(p) < len(paperNames) {
		return paperNames[p]
	}
	return fmt.Sprintf("Paper(%d)", p)
}

// PaperNames lists the page sizes: a4, letter.
func PaperNames() []string { return append([]string(nil), paperNames[:]...) }

// ParsePaper returns the page size of that name (any case); "" is A4.
func ParsePaper(name string) (Paper, error) {
	if name == "" {
		return A4, nil
	}
	return named("paper", name, []Paper{A4, Letter}, Paper.String)
}

// PDFOptions says how a PDF lays a maze out.
type PDFOptions struct {
	Paper   Paper
	Palette Palette // the zero Palette is Print here: a PDF is for paper
	Style   Style   // StyleAuto is the palette's: lines for Print
	Title   string  // the first line of each page; "" names the algorithm and size
	// Date is the document's creation date; zero leaves a fixed one, so
	// the same maze makes the same file.
	Date time.Time
}

// PDFMaxSize is the largest side, in tiles, PDF lays out: 401 tiles fill
// the width of an A4 page at half a millimetre a tile, about as small as
// a pencil can follow.
const PDFMaxSize = 401

// pdfEpoch is the creation date of a PDF made without one.
var pdfEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// PDF writes m as a two-page PDF: page 1 the maze with its title and
// maze ID, page 2 the same with the solution. The maze is drawn in
// vectors as SVG lays it out, as large as the page allows inside 15 mm
// margins. Mazes over PDFMaxSize tiles a side are refused with
// ErrTooLarge.
func PDF(w io.Writer, m *mazecore.Maze, opts PDFOptions) error {
	if m.Width() > PDFMaxSize || m.Height() > PDFMaxSize {
		return fmt.Errorf("pdf of %d×%d tiles: %w (at most %d×%d: smaller would not print)",
			m.Width(), m.Height(), ErrTooLarge, PDFMaxSize, PDFMaxSize)
	}
	pal := opts.Palette
	if pal.name == "" {
		pal = Print
	}
	v, err := newVector(m, 10, pal, opts.Style)
	if err != nil {
		return fmt.Errorf("pdf: %w", err)
	}
	id := m.ID()
	title := opts.Title
	if title == "" {
		name := id.Algorithm.String()
		title = fmt.Sprintf("%s%s maze, %d×%d", strings.ToUpper(name[:1]), name[1:], id.Width, id.Height)
	}
	path := mazecore.Solve(m)
	pw, ph := v.size()
	return pdfDocument(w, opts, id, title, fmt.Sprintf("%d tiles", len(path)), func(doc *fpdf.Fpdf, page int, box [4]float64) {
		k := min(box[2]/float64(pw), box[3]/float64(ph))
		draw := pdfPen{doc: doc, k: k, x0: box[0] + (box[2]-k*float64(pw))/2, y0: box[1]}
		draw.maze(v)
		if page == 1 {
			draw.solution(v, path)
		}
	})
}

// pdfDocument writes a maze's two pages, as PDF and GridPDF lay them
// out: each its heading (title, then "· solution" on page 2), a line
// with the maze ID (on page 2 the solution's length, way), a footer with
// the command that makes the maze again, and the maze, which draw puts
// in box (x, y, width and height in millimetres: inside 15 mm margins,
// below the heading's 18 mm and above the footer's 8).
func pdfDocument(w io.Writer, opts PDFOptions, id mazecore.ID, title, way string, draw func(doc *fpdf.Fpdf, page int, box [4]float64)) error {
	size := map[Paper]string{A4: "A4", Letter: "Letter"}[opts.Paper]
	if size == "" {
		return fmt.Errorf("pdf: unknown paper %v", opts.Paper)
	}
	doc := fpdf.New("P", "mm", size, "")
	date := opts.Date
	if date.IsZero() {
		date = pdfEpoch
	}
	doc.SetCreationDate(date)
	doc.SetModificationDate(date)
	doc.SetCompression(true)
	doc.SetCatalogSort(true) // fonts in a fixed order, not a map's
	doc.SetAutoPageBreak(false, 0)
	tr := doc.UnicodeTranslatorFromDescriptor("") // cp1252: "×" and "·"
	doc.SetTitle(title, true)
	doc.SetCreator("mazebot", true)
	for page, heading := range []string{title, title + " · solution"} {
		doc.AddPage()
		pageW, pageH := doc.GetPageSize()
		doc.SetFont("Helvetica", "B", 16)
		doc.SetXY(pdfMargin, pdfMargin)
		doc.CellFormat(pageW-2*pdfMargin, 8, tr(heading), "", 1, "L", false, 0, "")
		doc.SetFont("Helvetica", "", 10)
		doc.SetX(pdfMargin)
		line := fmt.Sprintf("Maze ID %s · start at the triangle, find the way to the target", id)
		if page == 1 {
			line = fmt.Sprintf("Maze ID %s · the shortest way, %s", id, way)
		}
		doc.CellFormat(pageW-2*pdfMargin, 6, tr(line), "", 1, "L", false, 0, "")
		foot := fmt.Sprintf("mazebot maze --id %s · page %d of 2", id, page+1)
		doc.SetXY(pdfMargin, pageH-pdfMargin-5)
		doc.SetFont("Helvetica", "", 8)
		doc.CellFormat(pageW-2*pdfMargin, 5, tr(foot), "", 0, "C", false, 0, "")
		draw(doc, page, pdfBox(pageW, pageH))
	}
	if err := doc.Output(w); err != nil {
		return fmt.Errorf("pdf: %w", err)
	}
	return nil
}

// pdfMargin is a page's margins, in millimetres.
const pdfMargin = 15.0

// pdfBox is where the maze goes on a page of pageW×pageH millimetres:
// x, y, width and height.
func pdfBox(pageW, pageH float64) [4]float64 {
	const top = pdfMargin + 18
	return [4]float64{pdfMargin, top, pageW - 2*pdfMargin, pageH - top - pdfMargin - 8}
}

// pdfPen draws a vector's units on a page: k millimetres a unit, from
// (x0, y0).
type pdfPen struct {
	doc    *fpdf.Fpdf
	k      float64
	x0, y0 float64
}

func (p pdfPen) fill(c [3]uint8) { p.doc.SetFillColor(int(c[0]), int(c[1]), int(c[2])) }

func (p pdfPen) x(u float64) float64 { return p.x0 + p.k*u }
func (p pdfPen) y(u float64) float64 { return p.y0 + p.k*u }

// maze draws the floor, the start and goal tiles, the walls and the
// markers.
func (p pdfPen) maze(v *vector) {
	c := v.pal.colours
	rgbOf := func(k kind) [3]uint8 { return [3]uint8{c[k].R, c[k].G, c[k].B} }
	pw, ph := v.size()
	p.fill(rgbOf(kFloor))
	p.doc.Rect(p.x(0), p.y(0), p.k*float64(pw), p.k*float64(ph), "F")
	v.ends(func(x, y, w, h int, k kind) {
		p.fill(rgbOf(k))
		p.doc.Rect(p.x(float64(x)), p.y(float64(y)), p.k*float64(w), p.k*float64(h), "F")
	})
	p.fill(rgbOf(kWall))
	v.wallRuns(func(x, y, w, h int) {
		p.doc.Rect(p.x(float64(x)), p.y(float64(y)), p.k*float64(w), p.k*float64(h), "F")
	})
	for i, mk := range v.markers() {
		m := v.pal.markers[i]
		p.fill([3]uint8{m.R, m.G, m.B})
		p.doc.SetDrawColor(int(m.R), int(m.G), int(m.B))
		if !mk.goal {
			t := mk.triangle()
			p.doc.Polygon([]fpdf.PointType{{X: p.x(t[0].x), Y: p.y(t[0].y)}, {X: p.x(t[1].x), Y: p.y(t[1].y)}, {X: p.x(t[2].x), Y: p.y(t[2].y)}}, "F")
			continue
		}
		ctr, ring, width, dot := mk.target()
		p.doc.SetLineWidth(p.k * width)
		p.doc.Circle(p.x(ctr.x), p.y(ctr.y), p.k*ring, "D")
		p.doc.Circle(p.x(ctr.x), p.y(ctr.y), p.k*dot, "F")
	}
}

// solution strokes path over the maze.
func (p pdfPen) solution(v *vector, path []mazecore.Point) {
	c := v.pal.colours[kPath]
	p.doc.SetDrawColor(int(c.R), int(c.G), int(c.B))
	p.doc.SetLineWidth(p.k * v.lw)
	p.doc.SetLineCapStyle("square")
	p.doc.SetLineJoinStyle("miter")
	for _, line := range v.strokes(path) {
		for i, q := range line {
			if i == 0 {
				p.doc.MoveTo(p.x(q.x), p.y(q.y))
			} else {
				p.doc.LineTo(p.x(q.x), p.y(q.y))
			}
		}
		p.doc.DrawPath("D")
	}
}
