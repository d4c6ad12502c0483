package postgres

import (
	"context"
	"time"

	"mazebot/store/internal/codec"
)

var (
	claimIdentifySQL = rebind(codec.ClaimIdentifySQL)
	lastIdentifySQL  = rebind(codec.LastIdentifySQL)
)

// ClaimIdentify gives the caller bucket's turn to identify at at, when the
// bucket's last turn was window or more before; otherwise it reports when
// that turn's window ends. The claim is one statement, so of processes
// racing for a turn exactly one gets it.
func (db *DB) ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (free time.Time, ok bool, err error) {
	claim := func(bucket int, at, window int64) (bool, error) {
		tag, err := db.pool.Exec(ctx, claimIdentifySQL, bucket, at, window)
		return tag.RowsAffected() == 1, err
	}
	last := func(bucket int) (ms int64, err error) {
		return ms, db.pool.QueryRow(ctx, lastIdentifySQL, bucket).Scan(&ms)
	}
	return codec.ClaimIdentify(bucket, at, window, claim, last)
}
