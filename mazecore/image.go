package mazecore

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
)

// ImageShape is a mask from a picture (ImageShape in Shape.Kind): the ID
// holds only its Hash, so the picture must be given again to make the
// maze (GenerateGridImage). The number is part of the ID format.
const ImageShape ShapeKind = 3

// imageVersion is the version of turning a picture's pixels into a mask:
// nearest pixel to each cell's place.
const imageVersion = 1

// Image is a picture's pixels, inside the shape or not: what a caller
// that decodes images (the command line) hands mazecore, which reads no
// image format itself.
type Image struct {
	w, h int
	in   []bool
}

// NewImage makes a w × h image holding the pixels for which in is true.
func NewImage(w, h int, in func(x, y int) bool) *Image {
	return &Image{w: w, h: h, in: NewMask(w, h, in).in}
}

// Size is the image's size in pixels.
func (img *Image) Size() (w, h int) { return img.w, img.h }

// Hash names the image's pixels: the first 16 bytes of the SHA-256 of a
// label, its size and its pixels, a bit each.
func (img *Image) Hash() [16]byte {
	h := sha256.New()
	h.Write([]byte("mazebot image mask v1"))
	h.Write(binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(img.w)), uint32(img.h)))
	h.Write(img.Bits())
	var sum [16]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// ImageShapeOf returns the shape of an image.
func ImageShapeOf(img *Image) Shape {
	return Shape{Kind: ImageShape, Version: imageVersion, Hash: img.Hash()}
}

// ErrNeedsImage is returned for an ID of an image's shape made without
// its image, or with another.
var ErrNeedsImage = errors.New("the maze's shape is an image")

// GenerateGridImage is GenerateGrid for an ID whose shape is an image: img
// must be the image the ID's hash names.
func GenerateGridImage(id ID, img *Image) (*GridMaze, error) {
	if err := imageFits(id, img); err != nil {
		return nil, err
	}
	return generateGrid(id, img)
}

// imageFits checks that img is the image an ID's shape names.
func imageFits(id ID, img *Image) error {
	if id.Shape.Kind != ImageShape {
		return fmt.Errorf("generate %s: %w, but the ID names %q", id.Algorithm, ErrNeedsImage, id.Shape)
	}
	if img == nil || img.Hash() != id.Shape.Hash {
		return fmt.Errorf("generate %s: %w whose hash %x is not this image's", id.Algorithm, ErrNeedsImage, id.Shape.Hash)
	}
	return nil
}

// imageMask draws an image on a cols × rows grid: each cell takes the
// pixel nearest its place.
func imageMask(img *Image, cols, rows int) *Mask {
	return NewMask(cols, rows, func(c, r int) bool {
		return img.in[(r*img.h/rows)*img.w+c*img.w/cols]
	})
}

// Bits is the image's pixels packed a bit each, row by row, as Hash reads
// them: what a store keeps so the maze can be drawn again (ImageFromBits).
func (img *Image) Bits() []byte {
	packed := make([]byte, (len(img.in)+7)/8)
	for i, in := range img.in {
		if in {
			packed[i/8] |= 1 << (i % 8)
		}
	}
	return packed
}

// MaxImageSide is the largest side, in pixels, of an image ImageFromBits
// takes back.
const MaxImageSide = 4096

// ImageFromBits is the w × h image whose Bits are bits.
func ImageFromBits(w, h int, bits []byte) (*Image, error) {
	if w < 1 || h < 1 || w > MaxImageSide || h > MaxImageSide {
		return nil, fmt.Errorf("image of %d×%d pixels: each side must be 1 to %d", w, h, MaxImageSide)
	}
	if len(bits) != (w*h+7)/8 {
		return nil, fmt.Errorf("image of %d×%d pixels in %d bytes, want %d", w, h, len(bits), (w*h+7)/8)
	}
	img := &Image{w: w, h: h, in: make([]bool, w*h)}
	for i := range img.in {
		img.in[i] = bits[i/8]&(1<<(i%8)) != 0
	}
	return img, nil
}
