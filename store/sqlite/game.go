package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mazebot/store"
)

// CreateGame stores a new game and returns its id. The id, seq and status
// are the store's: the game starts at seq 0, playing.
func (db *DB) CreateGame(ctx context.Context, g store.Game) (int64, error) {
	res, err := db.db.ExecContext(ctx, `
		INSERT INTO games (user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail,
			seq, status, started_at, updated_at, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'playing', ?, ?, 0)`,
		g.UserID, g.GuildID, g.ChannelID, g.MazeID, g.Context, g.X, g.Y, g.Clicks, g.Tiles, blob(g.Trail),
		toMillis(g.StartedAt), toMillis(g.UpdatedAt))
	if err != nil {
		return 0, fmt.Errorf("create game on maze %s for %s: %w", g.MazeID, g.UserID, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("create game on maze %s for %s: %w", g.MazeID, g.UserID, err)
	}
	return id, nil
}

// Game returns the game with the given id, or an error wrapping
// store.ErrNotFound.
func (db *DB) Game(ctx context.Context, id int64) (store.Game, error) {
	var (
		g                       store.Game
		started, updated, ended int64
	)
	err := db.db.QueryRowContext(ctx, `
		SELECT id, user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail,
			seq, status, started_at, updated_at, finished_at
		FROM games WHERE id = ?`, id).Scan(
		&g.ID, &g.UserID, &g.GuildID, &g.ChannelID, &g.MazeID, &g.Context, &g.X, &g.Y, &g.Clicks, &g.Tiles, &g.Trail,
		&g.Seq, &g.Status, &started, &updated, &ended)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Game{}, fmt.Errorf("game %d: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Game{}, fmt.Errorf("game %d: %w", id, err)
	}
	g.StartedAt, g.UpdatedAt = fromMillis(started), fromMillis(updated)
	if ended != 0 {
		g.FinishedAt = fromMillis(ended)
	}
	return g, nil
}

// SaveMove stores g's position, counters and trail as seq prevSeq+1, but
// only if the stored game is still playing at prevSeq. Otherwise it changes
// nothing and returns an error wrapping store.ErrConflict: the caller lost a
// race (a double click, another process) and must reload.
func (db *DB) SaveMove(ctx context.Context, g store.Game, prevSeq int) error {
	res, err := db.db.ExecContext(ctx, `
		UPDATE games SET x = ?, y = ?, clicks = ?, tiles = ?, trail = ?, seq = ?, updated_at = ?
		WHERE id = ? AND seq = ? AND status = 'playing'`,
		g.X, g.Y, g.Clicks, g.Tiles, blob(g.Trail), prevSeq+1, toMillis(g.UpdatedAt), g.ID, prevSeq)
	if err != nil {
		return fmt.Errorf("save move of game %d: %w", g.ID, err)
	}
	return expectOne(res, fmt.Sprintf("save move of game %d at seq %d", g.ID, prevSeq))
}

// FinishGame ends g with g.Status (won or gave up) at seq prevSeq+1 and, when
// f is not nil, records f as a finish, in one transaction: either both are
// written or neither. Like SaveMove it returns an error wrapping
// store.ErrConflict when the game is no longer playing at prevSeq, so a run
// is recorded at most once.
func (db *DB) FinishGame(ctx context.Context, g store.Game, prevSeq int, f *store.Finish) error {
	what := fmt.Sprintf("finish game %d at seq %d", g.ID, prevSeq)
	if g.Status != store.GameWon && g.Status != store.GameGaveUp {
		return fmt.Errorf("%s: status %q is not a finished one", what, g.Status)
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit

	res, err := tx.ExecContext(ctx, `
		UPDATE games SET x = ?, y = ?, clicks = ?, tiles = ?, trail = ?, seq = ?, status = ?,
			updated_at = ?, finished_at = ?
		WHERE id = ? AND seq = ? AND status = 'playing'`,
		g.X, g.Y, g.Clicks, g.Tiles, blob(g.Trail), prevSeq+1, g.Status,
		toMillis(g.UpdatedAt), toMillis(g.FinishedAt), g.ID, prevSeq)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := expectOne(res, what); err != nil {
		return err
	}
	if f != nil {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO finishes (user_id, guild_id, maze_id, clicks, tiles, elapsed_ms, finished_at, context)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			f.UserID, f.GuildID, f.MazeID, f.Clicks, f.Tiles,
			f.Elapsed.Milliseconds(), toMillis(f.FinishedAt), f.Context); err != nil {
			return fmt.Errorf("%s: record finish: %w", what, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// expectOne turns an update that matched no row into store.ErrConflict.
func expectOne(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n != 1 {
		return fmt.Errorf("%s: %w", what, store.ErrConflict)
	}
	return nil
}

// blob keeps an empty trail a BLOB: a nil []byte would be stored as NULL.
func blob(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// DeleteGamesBefore removes the games started before t, finished or not,
// and reports how many. Finishes are kept: they are the results.
func (db *DB) DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := db.db.ExecContext(ctx, `DELETE FROM games WHERE started_at < ?`, toMillis(t))
	if err != nil {
		return 0, fmt.Errorf("delete games before %v: %w", t, err)
	}
	return res.RowsAffected()
}

// Secret returns the value stored under key in settings, creating it with
// generate the first time. Processes racing to create it all end up with
// the value of whichever inserted first.
func (db *DB) Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error) {
	var v []byte
	err := db.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("setting %q: %w", key, err)
	}
	fresh, err := generate()
	if err != nil {
		return nil, fmt.Errorf("setting %q: generate: %w", key, err)
	}
	if len(fresh) == 0 {
		return nil, fmt.Errorf("setting %q: generated an empty value", key)
	}
	if _, err := db.db.ExecContext(ctx, `INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)`, key, fresh); err != nil {
		return nil, fmt.Errorf("setting %q: %w", key, err)
	}
	// Read back rather than return fresh: another process may have won.
	if err := db.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v); err != nil {
		return nil, fmt.Errorf("setting %q: %w", key, err)
	}
	return v, nil
}
