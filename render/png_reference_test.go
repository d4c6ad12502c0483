package render

// The PNG drawing as it was at 4bc7a29, copied unchanged but for the
// names (and marks, now one slice rather than one a row) and the colours
// (refColours): the oracle TestPNGPixels compares the maze of every new
// block picture with, pixel for pixel. The margin with the start and goal
// markers, new in issue 19, is checked against markersOf.

import (
	"encoding/binary"
	"image"
	"image/color"

	"github.com/fogleman/gg"

	"mazebot/mazecore"
)

// refColours are the colours the oracle draws in: Dark's. The path and the
// player changed colour for issue 19; the drawing did not.
var refColours = Dark.colours

const (
	refMinDetailedScale  = 4
	refMaxDetailedPixels = 1 << 23
)

// refPicture is the picture PNG drew at 4bc7a29 (gg's line and disc on an
// RGBA image, or coloured tiles in a paletted one), before encoding.
func refPicture(m *mazecore.Maze, ov Overlay, scale int) image.Image {
	pw, ph := m.Width()*scale, m.Height()*scale
	if scale >= refMinDetailedScale && pw*ph <= refMaxDetailedPixels {
		rgba := refDrawDetailed(m, ov, scale)
		if p, ok := refToPaletted(rgba); ok {
			return p
		}
		return rgba
	}
	return refDrawPaletted(m, ov, scale)
}

// refFillTiles paints every tile of m as a scale×scale block into pix, an
// image whose rows are stride bytes apart, each pixel the bytes of
// pattern[kind]. It builds one pixel row per tile row and copies it down,
// so the cost is one passage lookup per tile and a memmove per pixel row.
func refFillTiles(pix []byte, stride int, m *mazecore.Maze, mk marks, scale int, pattern [numKinds][]byte) {
	bpp := len(pattern[kFloor])
	kinds := make([]kind, m.Width())
	for y := 0; y < m.Height(); y++ {
		mk.refRow(m, y, 0, kinds)
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

func refDrawPaletted(m *mazecore.Maze, ov Overlay, scale int) *image.Paletted {
	// Four colours pack into 2 bits a pixel; any overlay needs 4 bits.
	n := 4
	if !ov.empty() {
		n = int(numKinds)
	}
	palette := make(color.Palette, n)
	for i := range palette {
		palette[i] = refColours[i]
	}
	pw, ph := m.Width()*scale, m.Height()*scale
	img := image.NewPaletted(image.Rect(0, 0, pw, ph), palette)
	var pattern [numKinds][]byte
	for k := range pattern {
		pattern[k] = []byte{byte(k)}
	}
	refFillTiles(img.Pix, img.Stride, m, newMarks(m, ov, Window{}.clip(m)), scale, pattern)
	return img
}

func refDrawDetailed(m *mazecore.Maze, ov Overlay, scale int) *image.RGBA {
	pw, ph := m.Width()*scale, m.Height()*scale
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	var pattern [numKinds][]byte
	for k, c := range refColours {
		pattern[k] = []byte{c.R, c.G, c.B, c.A}
	}
	whole := Window{}.clip(m)
	refFillTiles(img.Pix, img.Stride, m, newMarks(m, Overlay{}, whole), scale, pattern)

	dc := gg.NewContextForRGBA(img)
	s := float64(scale)
	centre := func(p mazecore.Point) (float64, float64) {
		return (float64(p.X) + 0.5) * s, (float64(p.Y) + 0.5) * s
	}
	if len(ov.Path) > 0 {
		lw := float64(refLineWidth(scale))
		dc.SetColor(refColours[kPath])
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
	for _, mr := range mk.all { // was: for i, row := range mk.rows, by row
		refFillRect(img, mr.x()*scale, mr.y()*scale, scale, refColours[mr.kind()])
	}
	if p := ov.Player; p != nil && !m.Wall(p.X, p.Y) {
		x, y := centre(*p)
		dc.DrawCircle(x, y, 0.42*s)
		dc.SetColor(refColours[kPlayer])
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

func refFillRect(img *image.RGBA, x0, y0, size int, c color.RGBA) {
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// refToPaletted converts img to an exactly equal paletted image, or reports
// false when it has more than 256 colours. The maze's colours come first in
// the palette. Runs of one colour are the rule, so the last colour is
// remembered and the map is rarely asked.
func refToPaletted(img *image.RGBA) (*image.Paletted, bool) {
	key := func(c color.RGBA) uint32 { return binary.LittleEndian.Uint32([]byte{c.R, c.G, c.B, c.A}) }
	palette := make(color.Palette, 0, 256)
	index := make(map[uint32]uint8, 64)
	for _, c := range refColours {
		index[key(c)] = uint8(len(palette))
		palette = append(palette, c)
	}
	b := img.Bounds()
	out := image.NewPaletted(b, nil)
	last, lastIdx := key(refColours[kFloor]), uint8(kFloor)
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

// row fills dst with the kinds of tiles (x0, y) … (x0+len(dst)-1, y).
func (mk marks) refRow(m *mazecore.Maze, y, x0 int, dst []kind) {
	if x0 == 0 && len(dst) == m.Width() {
		refFullRow(m, y, dst)
	} else {
		for i := range dst {
			if m.Wall(x0+i, y) {
				dst[i] = kWall
			} else {
				dst[i] = kFloor
			}
		}
	}
	for _, mr := range mk.at(y) {
		if i := mr.x() - x0; i >= 0 && i < len(dst) {
			dst[i] = mr.kind()
		}
	}
}

// fullRow fills dst with the walls and floor of row y, asking the maze only
// about the tiles between cells: cell tiles (odd x and y) are always floor
// and pillars (even x and y) always walls. It is what keeps a 2001-tile PNG
// fast.
func refFullRow(m *mazecore.Maze, y int, dst []kind) {
	if y%2 == 1 {
		cy := y / 2
		dst[0] = kWall
		for cx := 0; cx < m.Cols(); cx++ {
			dst[2*cx+1] = kFloor
			dst[2*cx+2] = kWall
			if m.Open(cx, cy, mazecore.East) {
				dst[2*cx+2] = kFloor
			}
		}
		return
	}
	for i := range dst {
		dst[i] = kWall
	}
	if y == 0 || y == m.Height()-1 {
		return
	}
	cy := y/2 - 1
	for cx := 0; cx < m.Cols(); cx++ {
		if m.Open(cx, cy, mazecore.South) {
			dst[2*cx+1] = kFloor
		}
	}
}

// lineWidth is about 0.4 of a tile, rounded to a whole number of pixels of
// the tile's parity: centred on the tile, the line then covers whole pixels
// and its edges stay crisp, with no antialiased smear.
func refLineWidth(scale int) int {
	w := max(1, (4*scale+5)/10)
	if (w-scale)%2 != 0 {
		w++
	}
	return w
}
