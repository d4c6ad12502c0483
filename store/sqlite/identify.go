package sqlite

import (
	"context"
	"time"

	"mazebot/store/internal/codec"
)

// ClaimIdentify gives the caller bucket's turn to identify at at, when the
// bucket's last turn was window or more before; otherwise it reports when
// that turn's window ends. The claim is one statement, so of processes
// racing for a turn exactly one gets it.
func (db *DB) ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (free time.Time, ok bool, err error) {
	claim := func(bucket int, at, window int64) (bool, error) {
		res, err := db.db.ExecContext(ctx, codec.ClaimIdentifySQL, bucket, at, window)
		if err != nil {
			return false, err
		}
		n, err := res.RowsAffected()
		return n == 1, err
	}
	last := func(bucket int) (ms int64, err error) {
		return ms, db.db.QueryRowContext(ctx, codec.LastIdentifySQL, bucket).Scan(&ms)
	}
	return codec.ClaimIdentify(bucket, at, window, claim, last)
}
