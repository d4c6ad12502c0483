package render

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"mazebot/mazecore"
)

// SVGOptions says what an SVG shows and how.
type SVGOptions struct {
	Path []mazecore.Point // the solution, drawn in <g id="solution">; nil for none
	// HidePath keeps the solution in the file but not in the picture:
	// its group has display="none", which an editor or a stylesheet
	// (#solution { display: inline }) undoes.
	HidePath bool
	Scale    int     // units (CSS pixels) a tile, as PNG's Scale; 0 picks PNGScale
	Palette  Palette // the zero Palette is Dark
	Style    Style   // StyleAuto is the palette's
	Title    string  // the picture's <title>; "" names the maze by its ID
}

// SVG draws m as an SVG laid out exactly as the PNG of the same options,
// in whole units: one <path> of the walls, a rectangle each horizontal run
// of wall tiles (id "walls"); the start and goal tiles (id "ends"); the
// markers (id "markers"); and, when opts.Path is given, the solution in
// a group of its own, <g id="solution">, which a stylesheet or an editor
// can hide to make the puzzle of the answer. Mazes over 2001 tiles a side
// are refused with ErrTooLarge.
func SVG(w io.Writer, m *mazecore.Maze, opts SVGOptions) error {
	v, err := newVector(m, opts.Scale, opts.Palette, opts.Style)
	if err != nil {
		return fmt.Errorf("svg: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	pw, ph := v.size()
	title := opts.Title
	if title == "" {
		id := m.ID()
		title = fmt.Sprintf("Maze %s: %s, %d×%d tiles, start top left, goal bottom right", id, id.Algorithm, id.Width, id.Height)
	}
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">`+"\n", pw, ph, pw, ph)
	bw.WriteString("<title>")
	if err := xml.EscapeText(bw, []byte(title)); err != nil {
		return err
	}
	bw.WriteString("</title>\n")
	c := v.pal.colours
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="%s"/>`+"\n", pw, ph, hex(c[kFloor]))
	bw.WriteString(`<g id="ends" shape-rendering="crispEdges">`)
	v.ends(func(x, y, w, h int, k kind) {
		fmt.Fprintf(bw, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x, y, w, h, hex(c[k]))
	})
	bw.WriteString("</g>\n")
	fmt.Fprintf(bw, `<path id="walls" fill="%s" shape-rendering="crispEdges" d="`, hex(c[kWall]))
	var buf []byte
	v.wallRuns(func(x, y, w, h int) {
		buf = append(buf[:0], 'M')
		buf = strconv.AppendInt(buf, int64(x), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(y), 10)
		buf = append(buf, 'h')
		buf = strconv.AppendInt(buf, int64(w), 10)
		buf = append(buf, 'v')
		buf = strconv.AppendInt(buf, int64(h), 10)
		buf = append(buf, 'h', '-')
		buf = strconv.AppendInt(buf, int64(w), 10)
		buf = append(buf, 'z')
		bw.Write(buf)
	})
	bw.WriteString("\"/>\n")
	bw.WriteString(`<g id="markers">`)
	for i, mk := range v.markers() {
		fill := hex(v.pal.markers[i])
		if !mk.goal {
			t := mk.triangle()
			fmt.Fprintf(bw, `<path fill="%s" d="M%s %sL%s %sL%s %sz"/>`, fill, num(t[0].x), num(t[0].y), num(t[1].x), num(t[1].y), num(t[2].x), num(t[2].y))
			continue
		}
		ctr, ring, width, dot := mk.target()
		fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="%s"/>`, num(ctr.x), num(ctr.y), num(ring), fill, num(width))
		fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, num(ctr.x), num(ctr.y), num(dot), fill)
	}
	bw.WriteString("</g>\n")
	if len(opts.Path) > 0 {
		hidden := ""
		if opts.HidePath {
			hidden = ` display="none"`
		}
		fmt.Fprintf(bw, `<g id="solution"%s fill="none" stroke="%s" stroke-width="%s" stroke-linecap="square" stroke-linejoin="miter">`, hidden, hex(c[kPath]), num(v.lw))
		for _, line := range v.strokes(opts.Path) {
			var d strings.Builder
			for i, p := range line {
				d.WriteByte("ML"[min(i, 1)])
				d.WriteString(num(p.x))
				d.WriteByte(' ')
				d.WriteString(num(p.y))
			}
			fmt.Fprintf(bw, `<path d="%s"/>`, d.String())
		}
		bw.WriteString("</g>\n")
	}
	bw.WriteString("</svg>\n")
	return bw.Flush() // a bufio.Writer keeps its first error: this reports it
}

// hex is c as #rrggbb.
func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// num is v as SVG writes a number: to a thousandth of a unit, no more
// digits than it needs.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) }
