package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"slices"

	"github.com/fogleman/gg"

	"mazebot/mazecore"
)

const (
	// maxPNGScale is the largest pixels-per-tile PNGScale picks: a 21-tile
	// maze is then 504 px wide, readable in a Discord preview.
	maxPNGScale = 24
	// pngTargetSide is the image side PNGScale aims at for mid-sized mazes.
	pngTargetSide = 1200
	// maxPNGPixels bounds the pixels of a PNG: enough for the command
	// line's 20001-tile mazes at 1 px. The picture is written a row at a
	// time, so this bounds the file, not the memory.
	maxPNGPixels = 1 << 29
	// maxDetailedPixels bounds the pictures that show the solution as a
	// line and the player as a disc, which look better than coloured
	// tiles; bigger ones colour tiles.
	maxDetailedPixels = 1 << 23
	// minDetailedScale: below 4 px a tile, a line is no clearer than
	// coloured tiles.
	minDetailedScale = 4
)

// PNGOptions says what a PNG shows and how.
type PNGOptions struct {
	Overlay
	Scale   int     // pixels per tile (StyleLine: a cell and a wall are 2·Scale); 0 picks PNGScale
	Palette Palette // the colours; the zero Palette is Dark
	Style   Style   // walls as blocks or lines; StyleAuto is the palette's
}

// PNGScale is the automatic pixels-per-tile: up to 24 for small mazes, then
// about 1200 px per side, at least 2 px a tile up to 1024 tiles, then 1.
func PNGScale(m *mazecore.Maze) int {
	side := max(m.Width(), m.Height())
	s := pngTargetSide / side
	if s < 2 && 2*side <= 2048 {
		s = 2
	}
	return min(max(s, 1), maxPNGScale)
}

// PNGSize returns the pixel size of the PNG of m at scale (0 = PNGScale)
// in the default palette and style: the maze and the margin around it
// that holds the start and goal markers.
func PNGSize(m *mazecore.Maze, scale int) (w, h int) {
	return PNGOptions{Scale: scale}.Size(m)
}

// Size returns the pixel size of the PNG of m with these options.
func (o PNGOptions) Size(m *mazecore.Maze) (w, h int) {
	g, _ := o.geometry(m)
	return g.pictureSize(m)
}

func (o PNGOptions) geometry(m *mazecore.Maze) (geometry, int) {
	scale := o.Scale
	if scale <= 0 {
		scale = PNGScale(m)
	}
	return newGeometry(m, scale, o.Style.resolve(o.Palette))
}

// PNG draws m as a PNG in the palette's colours: walls, floor, the start
// and goal filled (but in Print) and marked beside the maze by a triangle
// and a target at least a 25th of its side, the solution, the trail and
// the player as a disc. Up to about 8 megapixels at 4 px a cell or more,
// the solution is a line and the player a disc drawn with gg; beyond,
// every overlay is coloured tiles, which keeps a 2001-tile maze fast and
// small.
//
// The picture is drawn and written a row of pixels at a time, straight in
// palette indexes (see pngWriter), so memory stays a few rows whatever its
// size.
func PNG(w io.Writer, m *mazecore.Maze, opts PNGOptions) error {
	if opts.Scale > 1<<15 {
		return fmt.Errorf("png of %d×%d tiles at %d px a tile: %w (at most %d pixels)",
			m.Width(), m.Height(), opts.Scale, ErrTooLarge, maxPNGPixels)
	}
	g, d := opts.geometry(m)
	if pw, ph := g.pictureSize(m); pw*ph > maxPNGPixels {
		return fmt.Errorf("png of %d×%d tiles at %d×%d px: %w (at most %d pixels)",
			m.Width(), m.Height(), pw, ph, ErrTooLarge, maxPNGPixels)
	}
	p := newPicture(m, opts.Overlay, opts.Palette.orDefault(), g, d)
	if err := p.encode(w); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	return nil
}

// picture is a PNG being drawn, as data the row loops read: the palette
// (a colour per kind, then the shades gg's antialiasing adds), the
// geometry, the tiles drawn whole and, in the detailed style, the line of
// the solution and the shapes drawn over it all.
type picture struct {
	m       *mazecore.Maze
	palette []color.RGBA
	geom    geometry
	width   int   // pixels
	height  int   // pixels
	tiles   marks // the overlay drawn as whole tiles, over the line
	line    lines // the solution, detailed only
	lw      int   // the line's width
	// dots, when the line has dots, holds every pixel of the line and the
	// floor and walls under it, and under the same as palette indexes when
	// they fit (see drawDots).
	dots      *image.RGBA
	under     []byte
	sprites   []sprite
	lastIndex int // index's cache
}

// sprite is a rectangle of pixels drawn over the rows: the start and goal
// markers (one colour where mask is set) and the player's disc, which gg
// drew (pix).
type sprite struct {
	x, y, w, h int
	pix        []color.RGBA // w·h, row by row; nil for a marker
	colour     color.RGBA   // a marker's
	mask       []bool       // a marker's pixels; nil: all of them
	idx        []byte       // w·h palette indexes, once encode knows them
}

// paint draws row py of the picture's pixels of s over row.
func (s *sprite) paint(row []byte, py int) {
	r := py - s.y
	src, dst := s.idx[r*s.w:(r+1)*s.w], row[s.x:s.x+s.w]
	if s.mask == nil {
		copy(dst, src)
		return
	}
	for i, on := range s.mask[r*s.w : (r+1)*s.w] {
		if on {
			dst[i] = src[i]
		}
	}
}

func newPicture(m *mazecore.Maze, ov Overlay, pal Palette, geom geometry, d int) *picture {
	colours := pal.colours
	p := &picture{m: m, geom: geom, palette: colours[:]}
	p.width, p.height = geom.pictureSize(m)
	whole := Window{}.clip(m)
	if ov.empty() {
		// Floor, walls, start and goal: four colours pack into 2 bits a
		// pixel, where any overlay needs 4. The markers are drawn in
		// these colours too.
		p.palette = p.palette[:4]
	}
	for i, mk := range markersOf(m, geom, d) {
		p.sprites = append(p.sprites, sprite{x: mk.x, y: mk.y, w: mk.d, h: mk.d, colour: pal.markers[i], mask: mk.mask()})
	}
	if detailed := geom.cell >= minDetailedScale && p.width*p.height <= maxDetailedPixels; !detailed {
		p.tiles = newMarks(m, ov, whole)
		return p
	}
	p.tiles = newMarks(m, Overlay{Trail: ov.Trail}, whole)
	p.lw = lineWidth(geom.cell)
	p.line = newLines(m, ov.Path)
	if len(p.line.dots) > 0 {
		p.drawDots()
	}
	if q := ov.Player; q != nil && !m.Wall(q.X, q.Y) {
		p.drawPlayer(*q, len(ov.Path) > 0)
	}
	return p
}

// lineWidth is about 0.4 of a tile, rounded to a whole number of pixels of
// the tile's parity: centred on the tile, the line then covers whole pixels
// and its edges stay crisp, with no antialiased smear.
func lineWidth(scale int) int {
	w := max(1, (4*scale+5)/10)
	if (w-scale)%2 != 0 {
		w++
	}
	return w
}

func adjacent(a, b mazecore.Point) bool {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx*dx+dy*dy == 1
}

// The parts of the line in a tile, in a lineTile's mask: the square at its
// centre and the arms to the four neighbours.
const (
	armCentre = 1 << iota
	armNorth
	armEast
	armSouth
	armWest
)

// lines is the solution drawn as a line, each step from a tile's centre to
// the next one's with square caps, lineWidth wide: as tiles, a centre
// square on each tile of the path and an arm from it to each neighbour it
// steps to or from. With a line width of the tile's parity every edge falls
// between pixels, so the parts are whole pixels, as gg's stroke was. A
// tile of the path that steps to no neighbour is a dot, which gg draws.
type lines struct {
	tiles []lineTile // sorted by y and x, one entry a tile
	rows  []int32    // tiles[rows[y]:rows[y+1]] are row y's; nil without a line
	dots  []mazecore.Point
}

type lineTile struct {
	y, x int32
	arms uint8
}

// at returns the line's tiles in row y.
func (l lines) at(y int) []lineTile {
	if l.rows == nil {
		return nil
	}
	return l.tiles[l.rows[y]:l.rows[y+1]]
}

// newLines reads path as the line was stroked: a segment from each tile to
// the next when both are floor and adjacent, and a dot on a floor tile
// joined to neither the tile before nor the one after.
func newLines(m *mazecore.Maze, path []mazecore.Point) lines {
	var l lines
	add := func(p mazecore.Point, arms uint8) {
		l.tiles = append(l.tiles, lineTile{int32(p.Y), int32(p.X), arms})
	}
	toward := func(a, b mazecore.Point) uint8 {
		switch {
		case b.Y < a.Y:
			return armNorth
		case b.X > a.X:
			return armEast
		case b.Y > a.Y:
			return armSouth
		default:
			return armWest
		}
	}
	for i, p := range path {
		if m.Wall(p.X, p.Y) {
			continue
		}
		joined := false
		if i > 0 && adjacent(path[i-1], p) && !m.Wall(path[i-1].X, path[i-1].Y) {
			q := path[i-1]
			add(q, armCentre|toward(q, p))
			add(p, armCentre|toward(p, q))
			joined = true
		}
		if !joined && (i+1 == len(path) || !adjacent(p, path[i+1])) {
			l.dots = append(l.dots, p)
		}
	}
	if len(l.tiles) == 0 {
		return l
	}
	slices.SortFunc(l.tiles, func(a, b lineTile) int {
		if a.y != b.y {
			return int(a.y - b.y)
		}
		return int(a.x - b.x)
	})
	out := l.tiles[:0]
	for _, t := range l.tiles {
		if n := len(out); n > 0 && out[n-1].y == t.y && out[n-1].x == t.x {
			out[n-1].arms |= t.arms
			continue
		}
		out = append(out, t)
	}
	l.tiles = out
	l.rows = make([]int32, m.Height()+1)
	for _, t := range l.tiles {
		l.rows[t.y+1]++
	}
	for y := 1; y < len(l.rows); y++ {
		l.rows[y] += l.rows[y-1]
	}
	return l
}

// rowDrawer draws the rows of pixels of a row of tiles, without shapes:
// a row of tiles has at most three different ones, above the line's band
// (arms north), the band, and below it (arms south).
type rowDrawer struct {
	p         *picture
	tiles     *tileRows
	kinds     []byte
	class     [3][]byte
	y         int
	top, band int // pixel rows [0, top) are class 0, [top, top+band) class 1
}

func (p *picture) newRowDrawer() *rowDrawer {
	d := &rowDrawer{p: p, tiles: newTileRows(p.m, byte(kFloor), byte(kWall)), kinds: newRow(p.m)}
	for i := range d.class {
		d.class[i] = make([]byte, p.width)
	}
	return d
}

// load draws row y of tiles.
func (d *rowDrawer) load(y int) {
	p, g := d.p, d.p.geom
	d.y, d.top, d.band = y, g.size(y), 0
	if p.under != nil {
		return // row draws from under
	}
	d.tiles.fill(d.kinds[:cap(d.kinds)], y)
	p.tiles.mark(d.kinds, y, 0, &identity)
	p.paint(d.class[0], d.kinds)
	line := p.line.at(y)
	if len(line) == 0 {
		return
	}
	// A row of thin walls is all band: the line crosses it whole.
	d.top, d.band = lineSpan(g.size(y), p.lw)
	copy(d.class[1], d.class[0])
	copy(d.class[2], d.class[0])
	for _, t := range line {
		x := int(t.x)
		p.paintLine(&d.class, g.start(x), g.size(x), t.arms)
	}
	p.paintTiles(d.class[:], y)
}

// row returns row r of the pixels of the row of tiles loaded.
func (d *rowDrawer) row(r int) []byte {
	p := d.p
	if p.under != nil {
		py := p.geom.start(d.y) + r
		row := d.class[0]
		copy(row, p.under[py*p.width:(py+1)*p.width])
		p.paintTiles(d.class[:1], d.y)
		return row
	}
	switch {
	case r >= d.top+d.band:
		return d.class[2]
	case r >= d.top:
		return d.class[1]
	}
	return d.class[0]
}

// paint draws a row of tiles, kinds, as a row of pixels, leaving the
// margins as they are.
func (p *picture) paint(dst, kinds []byte) {
	g := p.geom
	if g.wall == 1 && g.cell == 1 {
		copy(dst[g.off:], kinds)
		return
	}
	i := g.off
	for x, k := range kinds {
		run := dst[i : i+g.size(x)]
		for j := range run {
			run[j] = k
		}
		i += len(run)
	}
}

// paintLine draws the parts arms of the line in the tile of size s from
// pixel x0 on, in the three rows of class.
func (p *picture) paintLine(class *[3][]byte, x0, s int, arms uint8) {
	c0, n := lineSpan(s, p.lw)
	c1 := c0 + n
	fill := func(row []byte, from, to int) {
		run := row[x0+from : x0+to]
		for i := range run {
			run[i] = byte(kPath)
		}
	}
	if arms&armNorth != 0 {
		fill(class[0], c0, c1)
	}
	if arms&armSouth != 0 {
		fill(class[2], c0, c1)
	}
	if arms&armCentre != 0 {
		fill(class[1], c0, c1)
	}
	if arms&armWest != 0 {
		fill(class[1], 0, c0)
	}
	if arms&armEast != 0 {
		fill(class[1], c1, s)
	}
}

// paintTiles draws the whole tiles of row y in rows of its pixels.
func (p *picture) paintTiles(rows [][]byte, y int) {
	g := p.geom
	for _, mr := range p.tiles.at(y) {
		x0 := g.start(mr.x())
		for _, row := range rows {
			run := row[x0 : x0+g.size(mr.x())]
			for i := range run {
				run[i] = byte(mr.kind())
			}
		}
	}
}

// encode writes the picture. A paletted PNG holds 256 colours; a picture
// whose antialiased shapes need more is written as RGBA.
func (p *picture) encode(w io.Writer) error {
	for i := range p.sprites {
		s := &p.sprites[i]
		s.idx = make([]byte, s.w*s.h)
		for j := range s.idx {
			c := s.colour
			if s.pix != nil {
				c = s.pix[j]
			}
			s.idx[j] = p.index(c)
		}
	}
	if len(p.palette) > 256 || (p.dots != nil && p.under == nil) {
		return p.encodeRGBA(w)
	}
	enc, err := newPNGWriter(w, p.width, p.height, p.palette)
	if err != nil {
		return err
	}
	if err := p.rows(func(pix []byte) error { return enc.row(pix) }); err != nil {
		return err
	}
	return enc.close()
}

// rows calls emit with each row of pixels, top to bottom, as palette
// indexes, the sprites included. The slice is reused.
func (p *picture) rows(emit func(pix []byte) error) error {
	scratch := make([]byte, p.width)
	return p.plainRows(func(py int, row []byte) error {
		over := false
		for i := range p.sprites {
			if s := &p.sprites[i]; py >= s.y && py < s.y+s.h {
				if !over {
					copy(scratch, row)
					row, over = scratch, true
				}
				s.paint(row, py)
			}
		}
		return emit(row)
	})
}

// plainRows calls emit with each row of pixels py, top to bottom, as
// palette indexes, without the sprites: the margin above, the rows of
// tiles with the margins beside them, the margin below.
func (p *picture) plainRows(emit func(py int, row []byte) error) error {
	m, g := p.m, p.geom
	blank := make([]byte, p.width) // all floor, kind 0
	py := 0
	for ; py < g.off; py++ {
		if err := emit(py, blank); err != nil {
			return err
		}
	}
	d := p.newRowDrawer()
	for y := range m.Height() {
		d.load(y)
		for r := range g.size(y) {
			if err := emit(py, d.row(r)); err != nil {
				return err
			}
			py++
		}
	}
	for ; py < p.height; py++ {
		if err := emit(py, blank); err != nil {
			return err
		}
	}
	return nil
}

// tilePixels returns the pixels of tile (x, y) as rows draws them without
// sprites.
func (p *picture) tilePixels(x, y int) []color.RGBA {
	g := p.geom
	d := p.newRowDrawer()
	d.load(y)
	x0, w := g.start(x), g.size(x)
	pix := make([]color.RGBA, 0, w*g.size(y))
	for r := range g.size(y) {
		for _, k := range d.row(r)[x0 : x0+w] {
			pix = append(pix, p.palette[k])
		}
	}
	return pix
}

// canvas returns an RGBA image of the maze's size, without the margin,
// for gg, and a gg context on it. gg draws on it where drawDetailed did
// (its curves are split according to the image's size, and its
// arithmetic is on the maze's coordinates), so its shapes come out pixel
// for pixel the same; the pixels are then placed in the margin.
func (p *picture) canvas() (*image.RGBA, *gg.Context) {
	off := p.geom.off
	img := image.NewRGBA(image.Rect(0, 0, p.width-2*off, p.height-2*off))
	return img, gg.NewContextForRGBA(img)
}

// plainImage is the picture without sprites as an RGBA image, at (-dx,
// -dy).
func (p *picture) plainImage(img *image.RGBA, dx, dy int) {
	_ = p.plainRows(func(py int, row []byte) error { // emit never fails
		for x, k := range row {
			img.SetRGBA(x-dx, py-dy, p.palette[k])
		}
		return nil
	})
}

// drawDots strokes the dots of the line with gg, square outlines as wide
// as the line, which round their corners and may reach half a pixel past
// their tiles: on the whole maze of the floor, walls and line, kept then
// as under with the margin around. Only a path with a tile joined to
// neither neighbour has dots; a solution has none.
func (p *picture) drawDots() {
	off := p.geom.off
	img, dc := p.canvas()
	p.plainImage(img, off, off)
	lw := float64(p.lw)
	dc.SetColor(p.palette[kPath])
	dc.SetLineWidth(lw)
	dc.SetLineCap(gg.LineCapSquare)
	for _, q := range p.line.dots {
		x, y := p.centre(q)
		dc.DrawRectangle(x-lw/2, y-lw/2, lw, lw)
	}
	dc.Stroke()
	p.dots = img
	under := make([]byte, p.width*p.height) // the margin floor, kind 0
	b := img.Bounds()
	for y := range b.Dy() {
		row := under[(y+off)*p.width+off:]
		for x := range b.Dx() {
			row[x] = p.index(img.RGBAAt(x, y))
		}
	}
	if len(p.palette) <= 256 {
		p.under = under
	}
}

// drawPlayer draws the player's disc with gg over the player's tile: blue,
// ringed in white from 8 px a tile on. The disc lies inside its tile. gg
// strokes the ring as an open path whose two ends meet at the disc's east
// point, so the line cap there shows: square when the picture has a path,
// as drawDetailed had set it for the line, else gg's default, round.
func (p *picture) drawPlayer(q mazecore.Point, squareCaps bool) {
	g := p.geom
	img, dc := p.canvas()
	x0, y0, w, h := g.start(q.X)-g.off, g.start(q.Y)-g.off, g.size(q.X), g.size(q.Y)
	for i, c := range p.tilePixels(q.X, q.Y) {
		img.SetRGBA(x0+i%w, y0+i/w, c)
	}
	if squareCaps {
		dc.SetLineCap(gg.LineCapSquare)
	}
	x, y := p.centre(q)
	s := float64(g.cell)
	dc.DrawCircle(x, y, 0.42*s)
	dc.SetColor(p.palette[kPlayer])
	if g.cell < 8 {
		dc.Fill() // an outline would eat a disc this small
	} else {
		dc.FillPreserve()
		dc.SetColor(color.White)
		dc.SetLineWidth(0.08 * s)
		dc.Stroke()
	}
	sp := sprite{x: x0 + g.off, y: y0 + g.off, w: w, h: h}
	for j := range h {
		for i := range w {
			sp.pix = append(sp.pix, img.RGBAAt(x0+i, y0+j))
		}
	}
	p.sprites = append(p.sprites, sp)
}

// centre is the pixel centre of tile q on the canvas, which has no
// margin.
func (p *picture) centre(q mazecore.Point) (float64, float64) {
	g := p.geom
	return float64(g.start(q.X)-g.off) + float64(g.size(q.X))/2, float64(g.start(q.Y)-g.off) + float64(g.size(q.Y))/2
}

// index returns the palette index of c, adding it to the palette. Past 256
// colours the index is meaningless: encode then writes RGBA.
func (p *picture) index(c color.RGBA) byte {
	if i := p.lastIndex; i < len(p.palette) && p.palette[i] == c {
		return byte(i) // runs of one colour are the rule
	}
	i := slices.Index(p.palette, c)
	if i < 0 {
		i = len(p.palette)
		p.palette = append(p.palette, c)
	}
	p.lastIndex = i
	return byte(i)
}

// encodeRGBA writes a picture whose shapes need more than 256 colours
// through image/png, as RGBA, drawn as drawDetailed did: the floor, walls,
// line and dots, the whole tiles (over the dots, which may reach past
// their tiles), the sprites.
func (p *picture) encodeRGBA(w io.Writer) error {
	g := p.geom
	img := image.NewRGBA(image.Rect(0, 0, p.width, p.height))
	p.plainImage(img, 0, 0)
	if p.dots != nil {
		b := p.dots.Bounds().Add(image.Pt(g.off, g.off))
		draw.Draw(img, b, p.dots, image.Point{}, draw.Src)
	}
	for _, mr := range p.tiles.all {
		x, y := mr.x(), mr.y()
		for j := range g.size(y) {
			for i := range g.size(x) {
				img.SetRGBA(g.start(x)+i, g.start(y)+j, p.palette[mr.kind()])
			}
		}
	}
	for _, s := range p.sprites {
		for i := range s.w * s.h {
			if s.mask != nil && !s.mask[i] {
				continue
			}
			c := s.colour
			if s.pix != nil {
				c = s.pix[i]
			}
			img.SetRGBA(s.x+i%s.w, s.y+i/s.w, c)
		}
	}
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
}

// lineSpan is where a line lw wide crosses a tile s wide: from off, n
// pixels, centred; a thin wall's tile it crosses whole.
func lineSpan(s, lw int) (off, n int) {
	if lw >= s {
		return 0, s
	}
	return (s - lw) / 2, lw
}
