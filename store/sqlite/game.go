package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"mazebot/play"
	"mazebot/store/internal/codec"
)

// CreateGame stores a new game and returns its id. A game on a maze ID
// that names no maze is refused: Game could not read it back.
func (db *DB) CreateGame(ctx context.Context, g play.Record) (int64, error) {
	if err := g.MazeID.Validate(); err != nil {
		return 0, fmt.Errorf("create game for %s: %w", g.UserID, err)
	}
	res, err := db.db.ExecContext(ctx, `
		INSERT INTO games (user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail,
			seq, status, started_at, updated_at, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.UserID, g.GuildID, g.ChannelID, g.MazeID.String(), g.Contest, g.Pos.X, g.Pos.Y, g.Clicks, g.Tiles, codec.Blob(g.Trail),
		g.Seq, codec.GameStatuses[g.Status], codec.Millis(g.StartedAt), codec.Millis(g.UpdatedAt), codec.OptionalMillis(g.FinishedAt))
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
// play.ErrNotFound.
func (db *DB) Game(ctx context.Context, id int64) (play.Record, error) {
	row := db.db.QueryRowContext(ctx, `SELECT `+codec.GameColumns+` FROM games WHERE id = ?`, id)
	g, err := codec.One(row.Scan, sql.ErrNoRows, codec.GameRow.Record)
	if err != nil {
		return play.Record{}, fmt.Errorf("game %d: %w", id, err)
	}
	return g, nil
}

// SaveGame writes g over the stored game if that is still playing at
// g.Seq−1, else changes nothing and returns an error wrapping
// play.ErrConflict. A won game's result is recorded in the same
// transaction: either both are written or neither, so a run is recorded
// at most once.
func (db *DB) SaveGame(ctx context.Context, g play.Record) error {
	what := fmt.Sprintf("save game %d at seq %d", g.ID, g.Seq)
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit

	res, err := tx.ExecContext(ctx, codec.SaveGameSQL,
		g.Pos.X, g.Pos.Y, g.Clicks, g.Tiles, codec.Blob(g.Trail), g.Seq, codec.GameStatuses[g.Status],
		codec.Millis(g.UpdatedAt), codec.OptionalMillis(g.FinishedAt), g.ID, g.Seq-1)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := expectOne(res, what); err != nil {
		return err
	}
	if g.Status == play.Won {
		r := g.Result()
		if _, err := tx.ExecContext(ctx, codec.AddFinishSQL,
			r.UserID, r.GuildID, r.MazeID.String(), r.Clicks, r.Tiles,
			r.Elapsed.Milliseconds(), codec.Millis(r.FinishedAt), r.Contest); err != nil {
			return fmt.Errorf("%s: record result: %w", what, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// expectOne turns a conditional write that matched no row into
// play.ErrConflict.
func expectOne(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n != 1 {
		return fmt.Errorf("%s: %w", what, play.ErrConflict)
	}
	return nil
}

// DeleteGamesBefore removes the games started before t, finished or not,
// and reports how many. Results are kept.
func (db *DB) DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := db.db.ExecContext(ctx, `DELETE FROM games WHERE started_at < ?`, codec.Millis(t))
	if err != nil {
		return 0, fmt.Errorf("delete games before %v: %w", t, err)
	}
	return res.RowsAffected()
}

// Secret returns the value stored under key in settings, creating it with
// generate the first time. Processes racing to create it all end up with
// the value of whichever inserted first.
func (db *DB) Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error) {
	read := func() ([]byte, error) {
		var v []byte
		err := db.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
		return v, err
	}
	insertNew := func(v []byte) error {
		_, err := db.db.ExecContext(ctx, `INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)`, key, v)
		return err
	}
	return codec.Secret(key, read, sql.ErrNoRows, insertNew, generate)
}
