package storetest

import (
	"errors"
	"testing"

	"mazebot/contest"
	"mazebot/mazecore"
)

func testImages(t *testing.T, open opener) {
	disc := func(r int) *mazecore.Image {
		return mazecore.NewImage(37, 23, func(x, y int) bool { return (x-18)*(x-18)+(y-11)*(y-11) <= r*r })
	}
	t.Run("OK", func(t *testing.T) {
		h := handles(t, open)
		big, small := disc(11), disc(7)
		ok(t, h[0].SaveImage(t.Context(), big, at(0)))
		ok(t, h[0].SaveImage(t.Context(), small, at(1)))
		// Saved again, from another process: one row, the same pixels.
		ok(t, h[1].SaveImage(t.Context(), big, at(2)))
		for _, img := range []*mazecore.Image{big, small} {
			got, err := h[1].Image(t.Context(), img.Hash())
			ok(t, err)
			if w, hh := got.Size(); w != 37 || hh != 23 || got.Hash() != img.Hash() {
				t.Fatalf("Image(%x) is %d×%d, hash %x: want the image saved", img.Hash(), w, hh, got.Hash())
			}
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s := fresh(t, open)
		if _, err := s.Image(t.Context(), disc(5).Hash()); !errors.Is(err, contest.ErrNotFound) {
			t.Fatalf("Image of a hash never saved: %v, want ErrNotFound", err)
		}
	})
}
