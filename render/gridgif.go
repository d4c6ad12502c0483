package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"io"
	"math"

	"github.com/fogleman/gg"

	"mazebot/mazecore"
)

// GridGIFMaxUnits is the largest side, in cells, of a maze on any grid
// that GridGIF animates (a polar grid is two cells a ring across): as
// GIFMaxSize's 101 tiles, beyond it the cells are too small to follow.
const GridGIFMaxUnits = 100

// GridGIF writes an animated GIF of the generation of the maze id names
// on its grid (img is the image of an image's shape, else nil), as GIF
// does for the whole square grid: the finished maze first (a poster, its
// solution if asked), then the empty grid, every cell grey, then cells
// turning light blue as passages open, the last one carved amber, the
// loops' passages last, and the finished maze again, held. The start is
// a triangle and the goal a target, in their cells. Each frame holds only
// the rectangle that changed. A grid wider or taller than
// GridGIFMaxUnits cells is refused with ErrTooLarge.
func GridGIF(w io.Writer, id mazecore.ID, img *mazecore.Image, opts GIFOptions) error {
	if err := id.Validate(); err != nil {
		return fmt.Errorf("gif: %w", err)
	}
	grid, err := id.GridWithImage(img)
	if err != nil {
		return fmt.Errorf("gif: %w", err)
	}
	if err := GridFits("gif", grid); err != nil {
		return err
	}
	geo := newGridGeometry(grid)
	opts, err = opts.withDefaults()
	if err != nil {
		return err
	}
	var carved [][2]int32
	m, err := mazecore.GenerateGridObserved(id, img, func(a, b int) { carved = append(carved, [2]int32{int32(a), int32(b)}) })
	if err != nil {
		return fmt.Errorf("gif: %w", err)
	}
	s := float64(opts.Scale)
	if s <= 0 {
		s = math.Min(math.Max(math.Floor(gifTargetSide/math.Max(geo.w, geo.h)), 4), 32)
	}
	l, err := layoutAt(geo, s)
	if err != nil {
		return fmt.Errorf("gif: %w", err)
	}
	a := newGridAnimation(m, l)
	anim := &gif.GIF{Config: image.Config{ColorModel: gifPalette, Width: l.width, Height: l.high}}
	add := func(img *image.Paletted, delay int) {
		anim.Image = append(anim.Image, img)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	var path []int
	if opts.Solve {
		path = m.Solve()
	}
	poster := a.poster(path)
	add(poster, posterDelay)
	add(a.empty(), max(opts.Delay, firstFrameDelay))
	per := max(1, (len(carved)+opts.MaxFrames-4)/(opts.MaxFrames-3))
	for i := 0; i < len(carved); i += per {
		add(a.carve(carved[i:min(i+per, len(carved))]), opts.Delay)
	}
	add(poster, finalFrameDelay)
	if err := gif.EncodeAll(w, anim); err != nil {
		return fmt.Errorf("encode gif: %w", err)
	}
	return nil
}

// GridFits refuses, with ErrTooLarge and the limit, a grid too wide or
// tall for format: gif (GridGIFMaxUnits cells across) or pdf
// (GridPDFMaxUnits); the other formats draw any grid mazecore makes.
func GridFits(format string, g *mazecore.Grid) error {
	limit, verb, instead := 0, "", ""
	switch format {
	case "gif":
		limit, verb, instead = GridGIFMaxUnits, "animates", "png"
	case "pdf":
		limit, verb, instead = GridPDFMaxUnits, "prints", "svg or png"
	default:
		return nil
	}
	var side float64
	switch g.Kind() {
	case mazecore.Polar:
		if rings := g.Rows(); 2*rings > limit {
			return fmt.Errorf("%s %s polar mazes of at most %d rings, not %d: %w; use %s", format, verb, limit/2, rings, ErrTooLarge, instead)
		}
		return nil
	case mazecore.Hex:
		side = math.Max((1.5*float64(g.Cols())+0.5)/math.Sqrt(3), float64(g.Rows())+0.5)
	default:
		side = float64(max(g.Cols(), g.Rows()))
	}
	if side > float64(limit) {
		return fmt.Errorf("%s %s mazes of at most %d cells a side, not %.0f: %w; use %s", format, verb, limit, math.Ceil(side), ErrTooLarge, instead)
	}
	return nil
}

// gridAnimation is a generation in progress, drawn on one canvas: the
// cells reached, the passages opened so far, the head.
type gridAnimation struct {
	m        *mazecore.GridMaze
	l        *gridLayout
	dc       *gg.Context
	open     map[[2]int32]bool // passages opened so far, smaller cell first
	edgesOf  [][]int32         // each cell's edges, indexes into l.geo.edges
	outlines [][]point         // each cell's outline, in pixels
	head     int               // the cell carved last, −1 before the first
}

func newGridAnimation(m *mazecore.GridMaze, l *gridLayout) *gridAnimation {
	g := m.Grid()
	a := &gridAnimation{m: m, l: l, open: map[[2]int32]bool{}, edgesOf: make([][]int32, g.Len()), outlines: make([][]point, g.Len()), head: -1}
	for i, e := range l.geo.edges {
		a.edgesOf[e.a] = append(a.edgesOf[e.a], int32(i))
		if e.b >= 0 {
			a.edgesOf[e.b] = append(a.edgesOf[e.b], int32(i))
		}
	}
	for c := range g.Len() {
		a.outlines[c] = l.outline(g, c)
	}
	a.dc = gg.NewContext(l.width, l.high)
	return a
}

// poster draws the finished maze, with path when it is not nil.
func (a *gridAnimation) poster(path []int) *image.Paletted {
	l := a.l
	dc := gg.NewContext(l.width, l.high)
	dc.SetColor(gifPalette[gFloor])
	dc.Clear()
	l.strokePath(dc, path, gifPalette[gPath])
	l.strokeWalls(dc, l.geo.walls(a.m), gifPalette[gWall])
	l.markers(dc, a.m, gifPalette[gStart], gifPalette[gGoal])
	return paletted(dc.Image(), image.Rect(0, 0, l.width, l.high))
}

// empty draws the grid before the first passage: every cell grey, every
// edge a wall.
func (a *gridAnimation) empty() *image.Paletted {
	dc := a.dc
	dc.SetColor(gifPalette[gFloor])
	dc.Clear()
	for c := range a.outlines {
		a.fillCell(c, gUnvisited)
	}
	a.l.strokeWalls(a.dc, a.l.geo.edges, gifPalette[gWall])
	return paletted(dc.Image(), image.Rect(0, 0, a.l.width, a.l.high))
}

// carve opens a batch of passages: their cells turn light blue, the last
// one carved amber, and their walls are drawn again as they now stand.
// It returns the rectangle that changed.
func (a *gridAnimation) carve(batch [][2]int32) *image.Paletted {
	var changed []int
	if a.head >= 0 {
		changed = append(changed, a.head)
	}
	for _, p := range batch {
		a.open[[2]int32{min(p[0], p[1]), max(p[0], p[1])}] = true
		changed = append(changed, int(p[0]), int(p[1]))
	}
	a.head = int(batch[len(batch)-1][1])
	var walls []edge
	dirty := image.Rectangle{}
	for _, c := range changed {
		state := gDug
		if c == a.head {
			state = gHead
		}
		a.fillCell(c, state)
		for _, i := range a.edgesOf[c] {
			e := a.l.geo.edges[i]
			if e.b < 0 || !a.open[[2]int32{int32(min(e.a, e.b)), int32(max(e.a, e.b))}] {
				walls = append(walls, e)
			}
		}
		dirty = dirty.Union(a.bounds(c))
	}
	a.l.strokeWalls(a.dc, walls, gifPalette[gWall])
	return paletted(a.dc.Image(), dirty.Intersect(image.Rect(0, 0, a.l.width, a.l.high)))
}

// fillCell fills cell c's outline in a GIF state's colour.
func (a *gridAnimation) fillCell(c int, state uint8) {
	for i, p := range a.outlines[c] {
		if i == 0 {
			a.dc.MoveTo(p.x, p.y)
		} else {
			a.dc.LineTo(p.x, p.y)
		}
	}
	a.dc.ClosePath()
	a.dc.SetColor(gifPalette[state])
	a.dc.Fill()
}

// bounds is the pixels cell c and its walls may touch.
func (a *gridAnimation) bounds(c int) image.Rectangle {
	pad := a.l.lw + 2
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range a.outlines[c] {
		x0, y0, x1, y1 = math.Min(x0, p.x), math.Min(y0, p.y), math.Max(x1, p.x), math.Max(y1, p.y)
	}
	return image.Rect(int(x0-pad), int(y0-pad), int(math.Ceil(x1+pad)), int(math.Ceil(y1+pad)))
}

// paletted is the part r of a picture in the GIF's palette, each pixel
// its nearest colour.
func paletted(src image.Image, r image.Rectangle) *image.Paletted {
	img := image.NewPaletted(r, gifPalette)
	draw.Draw(img, r, src, r.Min, draw.Src)
	return img
}

// markers draws the start as a triangle pointing east and the goal as a
// target (a ring and its dot) in their cells, told apart by shape as the
// square maze's are.
func (l *gridLayout) markers(dc *gg.Context, m *mazecore.GridMaze, start, goal color.Color) {
	drawMarkers(dc, markerShapes(l.geo.centres[m.Start()], l.geo.centres[m.Goal()]), l.px, l.s, start, goal)
}

// drawMarkers draws the markers in pixels: px places a point of cell
// units and s is a cell's size in pixels.
func drawMarkers(dc *gg.Context, mk [2]gridMarker, px func(point) point, s float64, start, goal color.Color) {
	for i, t := range mk {
		if i == 0 {
			for k, p := range t.triangle {
				q := px(p)
				if k == 0 {
					dc.MoveTo(q.x, q.y)
				} else {
					dc.LineTo(q.x, q.y)
				}
			}
			dc.ClosePath()
			dc.SetColor(start)
			dc.Fill()
			continue
		}
		c := px(t.centre)
		dc.SetColor(goal)
		dc.SetLineWidth(t.width * s)
		dc.DrawCircle(c.x, c.y, t.ring*s)
		dc.Stroke()
		dc.DrawCircle(c.x, c.y, t.dot*s)
		dc.Fill()
	}
}

// gridMarker is a marker in cell units: the start's triangle, or the
// goal's target (its centre, the ring's middle radius and width, the
// dot's radius).
type gridMarker struct {
	triangle         [3]point
	centre           point
	ring, width, dot float64
}

// markerShapes places the start's triangle and the goal's target on the
// cells' centres, 0.6 of a cell across: inside any cell of any grid.
func markerShapes(start, goal point) [2]gridMarker {
	const d = 0.6
	r := d / 2
	return [2]gridMarker{
		{triangle: [3]point{{start.x - r, start.y - r}, {start.x + r, start.y}, {start.x - r, start.y + r}}},
		{centre: goal, ring: r * (1 + ringInner) / 2, width: r * (1 - ringInner), dot: r * dotRadius},
	}
}

// outline is cell c's outline in pixels, corner by corner (arcs as
// pieces about 3 pixels long).
func (l *gridLayout) outline(g *mazecore.Grid, c int) []point {
	geo := l.geo
	var out []point
	add := func(p point) { out = append(out, l.px(p)) }
	arc := func(r, t1, t2 float64) {
		n := max(1, int(math.Ceil(r*l.s*math.Abs(t2-t1)/3)))
		for k := 0; k <= n; k++ {
			t := t1 + (t2-t1)*float64(k)/float64(n)
			add(point{geo.cx + r*math.Sin(t), geo.cy - r*math.Cos(t)})
		}
	}
	cell := g.Cell(c)
	switch g.Kind() {
	case mazecore.Polar:
		if c == 0 {
			arc(1, 0, 2*math.Pi)
			break
		}
		n := float64(g.RingLen(cell.Row))
		t1, t2 := 2*math.Pi*float64(cell.Col)/n, 2*math.Pi*float64(cell.Col+1)/n
		arc(float64(cell.Row), t1, t2)
		arc(float64(cell.Row+1), t2, t1)
	case mazecore.Hex:
		s, ctr := 1/math.Sqrt(3), geo.centres[c]
		for k := range 6 {
			t := float64(k) * math.Pi / 3
			add(point{ctr.x + s*math.Cos(t), ctr.y + s*math.Sin(t)})
		}
	default:
		x, y := float64(cell.Col), float64(cell.Row)
		for _, p := range []point{{x, y}, {x + 1, y}, {x + 1, y + 1}, {x, y + 1}} {
			add(p)
		}
	}
	return out
}
