package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
)

// SaveImage keeps img under its hash, saved at at; an image kept already
// is left as it was (the same hash is the same pixels).
func (s *Store) SaveImage(ctx context.Context, img *mazecore.Image, at time.Time) error {
	return do(s, ctx, "SaveImage", "save image", writes, func(q q) error {
		if img == nil {
			return errors.New("no image")
		}
		hash := img.Hash()
		w, h := img.Size()
		_, err := q.exec(`INSERT INTO image_masks (hash, width, height, bits, saved_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
			hash[:], w, h, img.Bits(), millis(at))
		return err
	})
}

// Image returns the image kept under hash, or wraps contest.ErrNotFound.
func (s *Store) Image(ctx context.Context, hash [16]byte) (*mazecore.Image, error) {
	return call(s, ctx, "Image", fmt.Sprintf("image %x", hash[:4]), reads, func(q q) (*mazecore.Image, error) {
		var w, h int
		var bits []byte
		err := q.row(`SELECT width, height, bits FROM image_masks WHERE hash = ?`, hash[:]).Scan(&w, &h, &bits)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("image %x: %w", hash, contest.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		img, err := mazecore.ImageFromBits(w, h, bits)
		if err == nil && img.Hash() != hash {
			err = errors.New("its pixels do not match its hash")
		}
		if err != nil {
			return nil, fmt.Errorf("image %x: %w", hash, err)
		}
		return img, nil
	})
}
