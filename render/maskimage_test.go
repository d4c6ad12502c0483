package render

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

// TestMaskImage: dark pixels are inside; a file too long, a header
// claiming too many pixels and bytes that are no picture are refused,
// each with its reason, the header before any pixel is decoded.
func TestMaskImage(t *testing.T) {
	pic := image.NewNRGBA(image.Rect(0, 0, 8, 4))
	for y := range 4 {
		for x := range 8 {
			c := color.NRGBA{255, 255, 255, 255}
			if x < 3 {
				c = color.NRGBA{20, 20, 20, 255}
			}
			if x == 1 && y == 1 {
				c.A = 0 // transparent is outside, whatever its colour
			}
			pic.Set(x, y, c)
		}
	}
	var pngData, jpegData bytes.Buffer
	if err := png.Encode(&pngData, pic); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpegData, pic, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	img, err := MaskImage(pngData.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if w, h := img.Size(); w != 8 || h != 4 {
		t.Fatalf("size %d×%d, want 8×4", w, h)
	}
	want := []byte{0b0000_0111, 0b0000_0101, 0b0000_0111, 0b0000_0111}
	if got := img.Bits(); !bytes.Equal(got, want) {
		t.Fatalf("bits %08b, want %08b (dark columns 0 to 2, (1,1) transparent)", got, want)
	}
	if _, err := MaskImage(jpegData.Bytes()); err != nil {
		t.Fatalf("a JPEG: %v", err)
	}

	huge := PNGHeader(20000, 20000)
	for _, c := range []struct {
		name string
		data []byte
		want MaskImageProblem
	}{
		{"longer than 1 MiB", make([]byte, MaxMaskBytes+1), MaskTooLarge},
		{"20000×20000 header", huge, MaskTooMany},
		{"text named .jpg", []byte("\xff\xd8 this is not a JPEG at all"), MaskNotImage},
		{"a GIF", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), MaskNotImage},
		{"a header only", PNGHeader(10, 10), MaskUndecoded},
	} {
		_, err := MaskImage(c.data)
		var bad *MaskImageError
		if !errors.As(err, &bad) || bad.Code != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

// PNGHeader is a PNG's signature and header chunk claiming w × h pixels,
// with no pixels: what a picture's dimensions are read from.
func PNGHeader(w, h int) []byte {
	ihdr := []byte("IHDR")
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA
	out := []byte("\x89PNG\r\n\x1a\n")
	out = binary.BigEndian.AppendUint32(out, uint32(len(ihdr)-4))
	out = append(out, ihdr...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(ihdr))
}
