package render

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // a mask may be a JPEG
	_ "image/png"  // or a PNG

	"mazebot/mazecore"
)

// Limits of a picture made into a mask (MaskImage): its file and its
// pixels, checked before it is decoded, so that a small file claiming a
// huge picture is refused from its header.
const (
	MaxMaskBytes  = 1 << 20
	MaxMaskPixels = 2000
)

// MaskImageProblem is what is wrong with a picture offered as a mask.
type MaskImageProblem string

// The problems MaskImage reports.
const (
	MaskTooLarge  MaskImageProblem = "too_large" // more than MaxMaskBytes
	MaskNotImage  MaskImageProblem = "not_image" // not a PNG or JPEG, or broken
	MaskTooMany   MaskImageProblem = "too_many"  // more than MaxMaskPixels a side
	MaskUndecoded MaskImageProblem = "undecoded" // its header read, its pixels not
)

// MaskImageError says why a picture cannot be a mask; W and H are its
// size in pixels for MaskTooMany.
type MaskImageError struct {
	Code MaskImageProblem
	W, H int
	Err  error // the decoder's, when it failed
}

func (e *MaskImageError) Error() string {
	switch e.Code {
	case MaskTooLarge:
		return "mask image: larger than 1 MiB: shrink the image"
	case MaskTooMany:
		return fmt.Sprintf("mask image: %d×%d pixels; the most is %d×%d", e.W, e.H, MaxMaskPixels, MaxMaskPixels)
	case MaskUndecoded:
		return fmt.Sprintf("mask image: its pixels cannot be read: %v", e.Err)
	}
	return "mask image: not a PNG or JPEG image"
}

func (e *MaskImageError) Unwrap() error { return e.Err }

// MaskImage reads a PNG or JPEG whose dark pixels are inside the shape
// (luminance below half, and not transparent): its length and its
// dimensions (from its header, with image.DecodeConfig) are checked
// before its pixels are decoded.
func MaskImage(data []byte) (*mazecore.Image, error) {
	if len(data) > MaxMaskBytes {
		return nil, &MaskImageError{Code: MaskTooLarge}
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "png" && format != "jpeg") {
		return nil, &MaskImageError{Code: MaskNotImage, Err: err}
	}
	if cfg.Width > MaxMaskPixels || cfg.Height > MaxMaskPixels || cfg.Width < 1 || cfg.Height < 1 {
		return nil, &MaskImageError{Code: MaskTooMany, W: cfg.Width, H: cfg.Height}
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, &MaskImageError{Code: MaskUndecoded, Err: err}
	}
	b := img.Bounds()
	return mazecore.NewImage(b.Dx(), b.Dy(), func(x, y int) bool {
		r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		if a < 0x8000 {
			return false
		}
		lum := (299*r + 587*g + 114*bl) / 1000 * 0xffff / a
		return lum < 0x8000
	}), nil
}
