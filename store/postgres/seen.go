package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mazebot/store/internal/codec"
)

// FirstSeen records that the interaction id arrived at, and reports whether
// it is new: true for exactly one caller per id, in whichever process,
// until ForgetSeen removes it. One statement, so racing callers cannot both
// win.
func (db *DB) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	if id == "" {
		return false, errors.New("first seen: empty interaction id")
	}
	tag, err := db.pool.Exec(ctx, firstSeenSQL, id, codec.Millis(at))
	if err != nil {
		return false, fmt.Errorf("first seen %s: %w", id, err)
	}
	return tag.RowsAffected() == 1, nil
}

// ForgetSeen deletes the interactions seen before before and returns how
// many it deleted.
func (db *DB) ForgetSeen(ctx context.Context, before time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, forgetSeenSQL, codec.Millis(before))
	if err != nil {
		return 0, fmt.Errorf("forget interactions seen before %v: %w", before, err)
	}
	return tag.RowsAffected(), nil
}

// Statements shared with SQLite (codec), numbered for PostgreSQL.
var (
	firstSeenSQL  = rebind(codec.FirstSeenSQL)
	forgetSeenSQL = rebind(codec.ForgetSeenSQL)
)
