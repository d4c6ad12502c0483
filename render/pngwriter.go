package render

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image/color"
	"io"
	"sync"
)

// pngWriter writes a paletted PNG a row of pixels at a time, without
// holding the picture: each row of palette indexes (a byte each) is packed
// to the palette's bit depth and deflated at BestSpeed into IDAT chunks. A
// maze picture repeats each row of pixels once per pixel of a tile: a row
// equal to the one above is written with the Up filter (minus the row
// above), all zeros, which deflate folds into a few bytes, and is not
// packed again. Other rows go unfiltered: on a maze, deflate matches them
// with the rows above better than it does Up's differences.
// image/png would ask each pixel for its colour index through an
// interface, and pack rows of 4-bit pixels one by one.
type pngWriter struct {
	idat  *chunkWriter
	zw    *zlib.Writer
	depth int
	last  []byte // the previous row as given, to spot repeats
	out   []byte // filter type none, then the packed row
	zeros []byte // filter type Up and a row of zeros: a repeated row
	rows  int
}

// PNG's filter types 0, none, and 2, Up: each byte minus the byte above.
const (
	pngFilterNone = 0
	pngFilterUp   = 2
)

// zlibWriters keeps BestSpeed compressors (a few hundred KiB each) for the
// next picture.
var zlibWriters sync.Pool

func newPNGWriter(w io.Writer, width, height int, palette []color.RGBA) (*pngWriter, error) {
	if len(palette) == 0 || len(palette) > 256 {
		return nil, errors.New("png: palette of 1 to 256 colours needed")
	}
	depth := 8
	switch {
	case len(palette) <= 2:
		depth = 1
	case len(palette) <= 4:
		depth = 2
	case len(palette) <= 16:
		depth = 4
	}
	c := &chunkWriter{w: w}
	c.write([]byte("\x89PNG\r\n\x1a\n"))
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = byte(depth), 3 // bit depth, colour type 3: paletted
	c.chunk("IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(palette))
	trns := make([]byte, 0, len(palette))
	opaque := true
	for _, col := range palette {
		plte = append(plte, col.R, col.G, col.B)
		trns = append(trns, col.A)
		opaque = opaque && col.A == 0xff
	}
	c.chunk("PLTE", plte)
	if !opaque {
		c.chunk("tRNS", trns)
	}
	if c.err != nil {
		return nil, c.err
	}
	stride := (width*depth + 7) / 8
	p := &pngWriter{idat: c, depth: depth,
		out: make([]byte, 1+stride), zeros: make([]byte, 1+stride)}
	p.out[0], p.zeros[0] = pngFilterNone, pngFilterUp
	if zw, ok := zlibWriters.Get().(*zlib.Writer); ok {
		zw.Reset(c)
		p.zw = zw
	} else {
		p.zw, _ = zlib.NewWriterLevel(c, zlib.BestSpeed) // BestSpeed is a valid level
	}
	return p, nil
}

// row writes the next row of pixels, one palette index a byte.
func (p *pngWriter) row(pix []byte) error {
	p.rows++
	if p.rows > 1 && bytes.Equal(pix, p.last) {
		_, err := p.zw.Write(p.zeros)
		return err
	}
	p.last = append(p.last[:0], pix...)
	pack(p.out[1:], pix, p.depth)
	_, err := p.zw.Write(p.out)
	return err
}

// close ends the image data and the file.
func (p *pngWriter) close() error {
	err := p.zw.Close()
	zlibWriters.Put(p.zw)
	if err != nil {
		return err
	}
	p.idat.flush()
	p.idat.chunk("IEND", nil)
	return p.idat.err
}

// pack packs pixels, a palette index a byte, into dst at depth bits each,
// the leftmost in the high bits as PNG has them.
func pack(dst, pix []byte, depth int) {
	switch depth {
	case 8:
		copy(dst, pix)
	case 4:
		n := len(pix) / 2
		for j := range n {
			dst[j] = pix[2*j]<<4 | pix[2*j+1]
		}
		if len(pix)%2 != 0 {
			dst[n] = pix[2*n] << 4
		}
	default:
		per := 8 / depth
		for j := range dst {
			var b byte
			for k, px := range pix[j*per : min((j+1)*per, len(pix))] {
				b |= px << (8 - depth*(k+1))
			}
			dst[j] = b
		}
	}
}

// chunkWriter writes PNG chunks and, as an io.Writer, gathers the
// compressed image data into IDAT chunks. Its first error sticks.
type chunkWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// idatSize is the data an IDAT chunk holds, but for the last.
const idatSize = 64 << 10

func (c *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && c.err == nil {
		if c.buf == nil {
			c.buf = make([]byte, 0, idatSize)
		}
		k := copy(c.buf[len(c.buf):cap(c.buf)], p)
		c.buf, p = c.buf[:len(c.buf)+k], p[k:]
		if len(c.buf) == cap(c.buf) {
			c.flush()
		}
	}
	if c.err != nil {
		return 0, c.err
	}
	return n, nil
}

func (c *chunkWriter) flush() {
	if len(c.buf) > 0 {
		c.chunk("IDAT", c.buf)
		c.buf = c.buf[:0]
	}
}

func (c *chunkWriter) chunk(name string, data []byte) {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], name)
	crc := crc32.Update(crc32.ChecksumIEEE(head[4:]), crc32.IEEETable, data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc)
	c.write(head[:])
	c.write(data)
	c.write(tail[:])
}

func (c *chunkWriter) write(p []byte) {
	if c.err == nil && len(p) > 0 {
		_, c.err = c.w.Write(p)
	}
}
