package render

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"

	"github.com/fogleman/gg"

	"mazebot/mazecore"
)

// pngColours are indexed by kind, which makes them the palette of a paletted
// PNG as they stand: the first four suffice for a maze without overlay.
var pngColours = [numKinds]color.RGBA{
	kFloor:  {0xf7, 0xf5, 0xf0, 0xff}, // warm white
	kWall:   {0x1f, 0x24, 0x30, 0xff}, // dark slate
	kStart:  {0x2f, 0x9e, 0x44, 0xff}, // green
	kGoal:   {0xe0, 0x31, 0x31, 0xff}, // red
	kPath:   {0xf5, 0x9f, 0x00, 0xff}, // amber: visible on white, unlike pale yellow
	kTrail:  {0x74, 0xc0, 0xfc, 0xff}, // light blue
	kPlayer: {0x1c, 0x7e, 0xd6, 0xff}, // blue
}

const (
	// maxPNGScale is the largest pixels-per-tile PNGScale picks: a 21-tile
	// maze is then 504 px wide, readable in a Discord preview.
	maxPNGScale = 24
	// pngTargetSide is the image side PNGScale aims at for mid-sized mazes.
	pngTargetSide = 1200
	// maxPNGPixels bounds the image a PNG may allocate (one byte a pixel when
	// paletted): enough for the command line's 20001-tile mazes at 1 px.
	maxPNGPixels = 1 << 29
	// maxDetailedPixels bounds the RGBA image (four bytes a pixel) drawn with
	// gg, whose line and disc look better than coloured tiles; bigger images
	// are drawn paletted, tile by tile, which is faster and smaller.
	maxDetailedPixels = 1 << 23
	// minDetailedScale: below 4 px a tile, a line is no clearer than
	// coloured tiles.
	minDetailedScale = 4
	// bestSpeedPixels: from here on, compression time outweighs the few
	// bytes DefaultCompression saves on a maze.
	bestSpeedPixels = 1 << 18
)

// PNGOptions says what a PNG shows and how big it is.
type PNGOptions struct {
	Overlay
	Scale int // pixels per tile; 0 picks PNGScale
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

// PNGSize returns the pixel size of the PNG of m at scale (0 = PNGScale).
// There is no margin: tile (x, y) covers pixels [x·scale, (x+1)·scale).
func PNGSize(m *mazecore.Maze, scale int) (w, h int) {
	if scale <= 0 {
		scale = PNGScale(m)
	}
	return m.Width() * scale, m.Height() * scale
}

// PNG draws m as a PNG: dark walls, light floor, the start green and the goal
// red, the solution amber, the trail light blue and the player a blue disc.
// Up to about 8 megapixels at 4 px a tile or more, the solution is a line
// drawn with gg and the player a disc; beyond, every overlay is coloured
// tiles in a paletted image, which keeps a 2001-tile maze fast and small.
func PNG(w io.Writer, m *mazecore.Maze, opts PNGOptions) error {
	scale := opts.Scale
	if scale <= 0 {
		scale = PNGScale(m)
	}
	if scale > 1<<15 || m.Width()*scale*m.Height()*scale > maxPNGPixels {
		return fmt.Errorf("png of %d×%d tiles at %d px a tile: %w (at most %d pixels)",
			m.Width(), m.Height(), scale, ErrTooLarge, maxPNGPixels)
	}
	pw, ph := PNGSize(m, scale)
	var img image.Image
	if scale >= minDetailedScale && pw*ph <= maxDetailedPixels {
		rgba := drawDetailed(m, opts.Overlay, scale)
		img = rgba
		// The picture has a handful of colours (the antialiased edge of the
		// player's disc adds a few dozen): as a paletted PNG it encodes
		// several times faster than RGBA, unfiltered, and smaller.
		if p, ok := toPaletted(rgba); ok {
			img = p
		}
	} else {
		img = drawPaletted(m, opts.Overlay, scale)
	}
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if pw*ph >= bestSpeedPixels {
		enc.CompressionLevel = png.BestSpeed
	}
	if err := enc.Encode(w, img); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	return nil
}

// fillTiles paints every tile of m as a scale×scale block into pix, an
// image whose rows are stride bytes apart, each pixel the bytes of
// pattern[kind]. It builds one pixel row per tile row and copies it down,
// so the cost is one passage lookup per tile and a memmove per pixel row.
func fillTiles(pix []byte, stride int, m *mazecore.Maze, mk marks, scale int, pattern [numKinds][]byte) {
	bpp := len(pattern[kFloor])
	kinds := make([]kind, m.Width())
	for y := 0; y < m.Height(); y++ {
		mk.row(m, y, 0, kinds)
		top := y * scale * stride
		row := pix[top : top+m.Width()*scale*bpp]
		switch {
		case bpp == 1 && scale == 1: // the big-maze case: one byte a tile
			for i, k := range kinds {
				row[i] = pattern[k][0]
			}
		case bpp == 1:
			i := 0
			for _, k := range kinds {
				b := pattern[k][0]
				for j := range scale {
					row[i+j] = b
				}
				i += scale
			}
		default:
			i := 0
			for _, k := range kinds {
				p := pattern[k]
				for range scale {
					copy(row[i:], p)
					i += bpp
				}
			}
		}
		for r := 1; r < scale; r++ {
			copy(pix[top+r*stride:], row)
		}
	}
}

func drawPaletted(m *mazecore.Maze, ov Overlay, scale int) *image.Paletted {
	// Four colours pack into 2 bits a pixel; any overlay needs 4 bits.
	n := 4
	if !ov.empty() {
		n = int(numKinds)
	}
	palette := make(color.Palette, n)
	for i := range palette {
		palette[i] = pngColours[i]
	}
	pw, ph := PNGSize(m, scale)
	img := image.NewPaletted(image.Rect(0, 0, pw, ph), palette)
	var pattern [numKinds][]byte
	for k := range pattern {
		pattern[k] = []byte{byte(k)}
	}
	fillTiles(img.Pix, img.Stride, m, newMarks(m, ov, Window{}.clip(m)), scale, pattern)
	return img
}

func drawDetailed(m *mazecore.Maze, ov Overlay, scale int) *image.RGBA {
	pw, ph := PNGSize(m, scale)
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	var pattern [numKinds][]byte
	for k, c := range pngColours {
		pattern[k] = []byte{c.R, c.G, c.B, c.A}
	}
	whole := Window{}.clip(m)
	fillTiles(img.Pix, img.Stride, m, newMarks(m, Overlay{}, whole), scale, pattern)

	dc := gg.NewContextForRGBA(img)
	s := float64(scale)
	centre := func(p mazecore.Point) (float64, float64) {
		return (float64(p.X) + 0.5) * s, (float64(p.Y) + 0.5) * s
	}
	if len(ov.Path) > 0 {
		lw := float64(lineWidth(scale))
		dc.SetColor(pngColours[kPath])
		dc.SetLineWidth(lw)
		// Each step is its own segment with square caps, so corners come out
		// square and whole pixels, where a round join would blur them.
		dc.SetLineCap(gg.LineCapSquare)
		for i, p := range ov.Path {
			if m.Wall(p.X, p.Y) {
				continue // an overlay only marks floor
			}
			x, y := centre(p)
			joined := false
			if i > 0 && adjacent(ov.Path[i-1], p) && !m.Wall(ov.Path[i-1].X, ov.Path[i-1].Y) {
				dc.MoveTo(centre(ov.Path[i-1]))
				dc.LineTo(x, y)
				joined = true
			}
			if !joined && (i+1 == len(ov.Path) || !adjacent(p, ov.Path[i+1])) {
				dc.DrawRectangle(x-lw/2, y-lw/2, lw, lw) // a lone tile is a dot
			}
		}
		dc.Stroke()
	}
	// Trail, start and goal go over the line, as their precedence says, as
	// crisp tiles; the player is a disc on top of everything.
	mk := newMarks(m, Overlay{Trail: ov.Trail}, whole)
	for i, row := range mk.rows {
		for _, mr := range row {
			fillRect(img, mr.x()*scale, (mk.y0+i)*scale, scale, pngColours[mr.kind()])
		}
	}
	if p := ov.Player; p != nil && !m.Wall(p.X, p.Y) {
		x, y := centre(*p)
		dc.DrawCircle(x, y, 0.42*s)
		dc.SetColor(pngColours[kPlayer])
		if scale < 8 {
			dc.Fill() // an outline would eat a disc this small
		} else {
			dc.FillPreserve()
			dc.SetColor(color.White)
			dc.SetLineWidth(0.08 * s)
			dc.Stroke()
		}
	}
	return img
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

func fillRect(img *image.RGBA, x0, y0, size int, c color.RGBA) {
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// toPaletted converts img to an exactly equal paletted image, or reports
// false when it has more than 256 colours. The maze's colours come first in
// the palette. Runs of one colour are the rule, so the last colour is
// remembered and the map is rarely asked.
func toPaletted(img *image.RGBA) (*image.Paletted, bool) {
	key := func(c color.RGBA) uint32 { return binary.LittleEndian.Uint32([]byte{c.R, c.G, c.B, c.A}) }
	palette := make(color.Palette, 0, 256)
	index := make(map[uint32]uint8, 64)
	for _, c := range pngColours {
		index[key(c)] = uint8(len(palette))
		palette = append(palette, c)
	}
	b := img.Bounds()
	out := image.NewPaletted(b, nil)
	last, lastIdx := key(pngColours[kFloor]), uint8(kFloor)
	for y := 0; y < b.Dy(); y++ {
		src := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
		dst := out.Pix[y*out.Stride : y*out.Stride+b.Dx()]
		for x := range dst {
			c := binary.LittleEndian.Uint32(src[4*x:])
			if c != last {
				i, ok := index[c]
				if !ok {
					if len(palette) == 256 {
						return nil, false
					}
					i = uint8(len(palette))
					index[c] = i
					palette = append(palette, color.RGBA{src[4*x], src[4*x+1], src[4*x+2], src[4*x+3]})
				}
				last, lastIdx = c, i
			}
			dst[x] = lastIdx
		}
	}
	out.Palette = palette
	return out, true
}
