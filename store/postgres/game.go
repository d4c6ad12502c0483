package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mazebot/play"
	"mazebot/store/internal/codec"
)

// CreateGame stores a new game and returns its id. A game on a maze ID
// that names no maze is refused: Game could not read it back.
func (db *DB) CreateGame(ctx context.Context, g play.Record) (int64, error) {
	if err := g.MazeID.Validate(); err != nil {
		return 0, fmt.Errorf("create game for %s: %w", g.UserID, err)
	}
	var id int64
	err := db.pool.QueryRow(ctx, `
		INSERT INTO games (user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail,
			seq, status, started_at, updated_at, finished_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
		RETURNING id`,
		g.UserID, g.GuildID, g.ChannelID, g.MazeID.String(), g.Contest, g.Pos.X, g.Pos.Y, g.Clicks, g.Tiles, codec.Blob(g.Trail),
		g.Seq, codec.GameStatuses[g.Status], codec.Millis(g.StartedAt), codec.Millis(g.UpdatedAt), codec.OptionalMillis(g.FinishedAt)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("create game on maze %s for %s: %w", g.MazeID, g.UserID, err)
	}
	return id, nil
}

// Game returns the game with the given id, or an error wrapping
// play.ErrNotFound.
func (db *DB) Game(ctx context.Context, id int64) (play.Record, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+codec.GameColumns+` FROM games WHERE id = $1`, id)
	g, err := codec.One(row.Scan, pgx.ErrNoRows, codec.GameRow.Record)
	if err != nil {
		return play.Record{}, fmt.Errorf("game %d: %w", id, err)
	}
	return g, nil
}

// SaveGame writes g over the stored game if that is still playing at
// g.Seq−1, else changes nothing and returns an error wrapping
// play.ErrConflict. Of two processes saving one seq at once, the second's
// update waits for the first's row lock, then finds seq moved on and
// matches nothing. A move is that one statement; a win also records its
// result, in the same transaction.
func (db *DB) SaveGame(ctx context.Context, g play.Record) error {
	what := fmt.Sprintf("save game %d at seq %d", g.ID, g.Seq)
	args := []any{g.Pos.X, g.Pos.Y, g.Clicks, g.Tiles, codec.Blob(g.Trail), g.Seq, codec.GameStatuses[g.Status],
		codec.Millis(g.UpdatedAt), codec.OptionalMillis(g.FinishedAt), g.ID, g.Seq - 1}
	if g.Status != play.Won {
		tag, err := db.pool.Exec(ctx, saveGameSQL, args...) // no BEGIN and COMMIT: a third of the round trips
		return expectOne(tag, err, what)
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, saveGameSQL, args...)
		if err := expectOne(tag, err, what); err != nil {
			return err
		}
		r := g.Result()
		if _, err := tx.Exec(ctx, addFinishSQL,
			r.UserID, r.GuildID, r.MazeID.String(), r.Clicks, r.Tiles,
			r.Elapsed.Milliseconds(), codec.Millis(r.FinishedAt), r.Contest); err != nil {
			return fmt.Errorf("%s: record result: %w", what, err)
		}
		return nil
	})
}

// DeleteGamesBefore removes the games started before t, finished or not,
// and reports how many. Results are kept.
func (db *DB) DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM games WHERE started_at < $1`, codec.Millis(t))
	if err != nil {
		return 0, fmt.Errorf("delete games before %v: %w", t, err)
	}
	return tag.RowsAffected(), nil
}

// Secret returns the value stored under key in settings, creating it with
// generate the first time. Processes racing to create it all end up with
// the value of whichever inserted first.
func (db *DB) Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error) {
	read := func() ([]byte, error) {
		var v []byte
		err := db.pool.QueryRow(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&v)
		return v, err
	}
	// ON CONFLICT waits for a racing insert to commit, so the read after
	// it sees the winner's value.
	insertNew := func(v []byte) error {
		_, err := db.pool.Exec(ctx, `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, key, v)
		return err
	}
	return codec.Secret(key, read, pgx.ErrNoRows, insertNew, generate)
}

// Statements shared with SQLite (codec), numbered for PostgreSQL.
var (
	saveGameSQL  = rebind(codec.SaveGameSQL)
	addFinishSQL = rebind(codec.AddFinishSQL)
)
