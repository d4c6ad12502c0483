package render

import (
	"fmt"
	"image/png"
	"io"
	"math"

	"github.com/fogleman/gg"

	"mazebot/mazecore"
)

// GridPlay says what a picture of a game on any grid shows: the maze as
// GridPNG draws it, the cells walked, the player, and a path when asked;
// the whole maze, or a window around the player.
type GridPlay struct {
	Player int   // the player's cell
	Trail  []int // the cells walked, in any order
	Path   []int // a path to draw through the cells' centres (the solution); nil for none
	// Around is the window's half side in cells, centred on the player;
	// 0 draws the whole maze.
	Around float64
	// Turn turns a polar maze's window about its centre so that the
	// player is straight above it: outward is then up and clockwise
	// right wherever the player is, as a game's buttons say.
	Turn    bool
	Scale   int     // pixels a cell in a window; 0 is 40
	Palette Palette // the zero Palette is Dark
}

// maxAround bounds a window, so that a window's picture stays small
// whatever the maze.
const maxAround = 20

// GridPlayPNG draws a game on m as a PNG (see GridPlay). A window is
// (2·Around+1) cells a side at most and draws only what falls in it, so
// its cost does not grow with the maze.
func GridPlayPNG(w io.Writer, m *mazecore.GridMaze, v GridPlay) error {
	g := m.Grid()
	if v.Player < 0 || v.Player >= g.Len() || v.Around < 0 || v.Around > maxAround {
		return fmt.Errorf("png: player at cell %d of %d, window %v: %w", v.Player, g.Len(), v.Around, ErrTooLarge)
	}
	geo := newGridGeometry(g)
	var (
		s          float64
		width, hgt int
		tf         func(point) point // cell units to pixels
		near       func(point) bool  // whether a point (cell units) may show
	)
	if v.Around == 0 {
		l, err := newGridLayout(m, v.Scale)
		if err != nil {
			return fmt.Errorf("png: %w", err)
		}
		s, width, hgt, tf = l.s, l.width, l.high, l.px
		near = func(point) bool { return true }
	} else {
		s = 40
		if v.Scale > 0 {
			s = float64(v.Scale)
		}
		side := int(math.Ceil((2*v.Around + 1) * s))
		width, hgt = side, side
		centre := geo.centres[v.Player]
		angle := 0.0
		if v.Turn && g.Kind() == mazecore.Polar && v.Player != 0 {
			angle = math.Atan2(centre.x-geo.cx, geo.cy-centre.y) // clockwise from north
		}
		sin, cos := math.Sin(-angle), math.Cos(-angle)
		rotate := func(p point) point {
			if angle == 0 {
				return p
			}
			dx, dy := p.x-geo.cx, p.y-geo.cy
			return point{geo.cx + dx*cos - dy*sin, geo.cy + dx*sin + dy*cos}
		}
		at := rotate(centre)
		tf = func(p point) point {
			q := rotate(p)
			return point{float64(side)/2 + (q.x-at.x)*s, float64(side)/2 + (q.y-at.y)*s}
		}
		reach := (v.Around + 1.5) * (v.Around + 1.5) * 2
		near = func(p point) bool {
			dx, dy := p.x-centre.x, p.y-centre.y
			return dx*dx+dy*dy <= reach
		}
	}
	pal := v.Palette.orDefault()
	c := pal.colours
	dc := gg.NewContext(width, hgt)
	if v.Around == 0 {
		dc.SetColor(c[kFloor])
		dc.Clear()
	} else {
		// A window shows what lies outside the maze, past its rim or its
		// shape, in the walls' colour.
		dc.SetColor(c[kWall])
		dc.Clear()
		dc.SetColor(c[kFloor])
		drawCellsFloor(dc, geo, m, tf, near)
	}
	stroke := func(width float64, k kind) {
		dc.SetColor(c[k])
		dc.SetLineWidth(width)
		dc.SetLineCapRound()
		dc.SetLineJoinRound()
		dc.Stroke()
	}
	// The trail: a line between each two walked cells with a passage
	// between them.
	walked := make(map[int]bool, len(v.Trail))
	for _, cell := range v.Trail {
		walked[cell] = true
	}
	for _, a := range v.Trail {
		for _, b := range m.Links(a) {
			if b > a && walked[b] && (near(geo.centres[a]) || near(geo.centres[b])) {
				p, q := tf(geo.centres[a]), tf(geo.centres[b])
				dc.MoveTo(p.x, p.y)
				dc.LineTo(q.x, q.y)
			}
		}
	}
	stroke(math.Max(2, s/3), kTrail)
	if len(v.Path) > 1 {
		for i, cell := range v.Path {
			p := tf(geo.centres[cell])
			if i == 0 {
				dc.MoveTo(p.x, p.y)
			} else {
				dc.LineTo(p.x, p.y)
			}
		}
		stroke(math.Max(1, s/4), kPath)
	}
	// The start a triangle and the goal a target, as the whole picture
	// marks them (turned with the window).
	drawMarkers(dc, markerShapes(geo.centres[m.Start()], geo.centres[m.Goal()]), tf, s, pal.markers[0], pal.markers[1])
	for i, e := range geo.walls(m) {
		if i%strokeBatch == 0 {
			stroke(math.Max(1, math.Round(s/8)), kWall)
		}
		var pts []point
		if e.arc {
			n := max(1, int(math.Ceil(e.r*(e.t2-e.t1)*s/3)))
			for k := 0; k <= n; k++ {
				t := e.t1 + (e.t2-e.t1)*float64(k)/float64(n)
				pts = append(pts, point{geo.cx + e.r*math.Sin(t), geo.cy - e.r*math.Cos(t)})
			}
		} else {
			pts = []point{{e.x1, e.y1}, {e.x2, e.y2}}
		}
		if !near(pts[0]) && !near(pts[len(pts)-1]) && !near(pts[len(pts)/2]) {
			continue
		}
		dc.NewSubPath()
		for _, p := range pts {
			q := tf(p)
			dc.LineTo(q.x, q.y)
		}
	}
	stroke(math.Max(1, math.Round(s/8)), kWall)
	p := tf(geo.centres[v.Player])
	dc.DrawCircle(p.x, p.y, s*0.32)
	dc.SetColor(c[kPlayer])
	dc.Fill()
	// A window goes out on every press: the fastest compression, as the
	// square pictures use. BenchmarkGridPlayWindow, the default level and
	// this alternating, medians of 3: a 9-ring window 36.2 → 30.1 ms for
	// 49,022 → 50,605 bytes, a 100-ring one 99.2 → 93.7 ms for 32,202 →
	// 37,435 bytes.
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, dc.Image())
}

// drawCellsFloor fills the cells that may show with the floor.
func drawCellsFloor(dc *gg.Context, geo *gridGeometry, m *mazecore.GridMaze, tf func(point) point, near func(point) bool) {
	g := m.Grid()
	for cell := range g.Len() {
		if !near(geo.centres[cell]) {
			continue
		}
		dc.NewSubPath()
		for _, p := range cellOutline(geo, g, cell) {
			q := tf(p)
			dc.LineTo(q.x, q.y)
		}
		dc.ClosePath()
	}
	// Filled and stroked a little wider, so that no seam shows between
	// cells.
	dc.SetLineWidth(2)
	dc.FillPreserve()
	dc.Stroke()
}

// cellOutline is the corners of a cell, in cell units: a square, a
// hexagon, or a polar cell's two arcs (the centre cell a disc).
func cellOutline(geo *gridGeometry, g *mazecore.Grid, c int) []point {
	ctr := geo.centres[c]
	switch g.Kind() {
	case mazecore.Hex:
		s := 1 / math.Sqrt(3)
		var pts []point
		for k := range 6 {
			t := float64(k) * math.Pi / 3
			pts = append(pts, point{ctr.x + s*math.Cos(t), ctr.y + s*math.Sin(t)})
		}
		return pts
	case mazecore.Polar:
		cell := g.Cell(c)
		arc := func(r, t1, t2 float64) []point {
			n := 8
			var pts []point
			for k := 0; k <= n; k++ {
				t := t1 + (t2-t1)*float64(k)/float64(n)
				pts = append(pts, point{geo.cx + r*math.Sin(t), geo.cy - r*math.Cos(t)})
			}
			return pts
		}
		if cell.Row == 0 {
			return arc(1, 0, 2*math.Pi)
		}
		n := float64(g.RingLen(cell.Row))
		t1, t2 := 2*math.Pi*float64(cell.Col)/n, 2*math.Pi*float64(cell.Col+1)/n
		r := float64(cell.Row)
		inner, outer := arc(r, t1, t2), arc(r+1, t2, t1)
		return append(inner, outer...)
	}
	return []point{{ctr.x - 0.5, ctr.y - 0.5}, {ctr.x + 0.5, ctr.y - 0.5}, {ctr.x + 0.5, ctr.y + 0.5}, {ctr.x - 0.5, ctr.y + 0.5}}
}
