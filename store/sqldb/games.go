package sqldb

import (
	"context"
	"fmt"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// CreateGame stores a new game and returns its id. A game on a maze ID
// that names no maze is refused: Game could not read it back.
func (s *Store) CreateGame(ctx context.Context, g play.Record) (int64, error) {
	return call(s, ctx, "CreateGame", fmt.Sprintf("create game on maze %s for %s", g.MazeID, g.UserID), writes, func(q q) (id int64, err error) {
		if err := g.MazeID.Validate(); err != nil {
			return 0, err
		}
		return id, q.row(`
			INSERT INTO games (user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail,
				seq, status, started_at, updated_at, finished_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			RETURNING id`,
			g.UserID, g.GuildID, g.ChannelID, g.MazeID.String(), g.Contest, g.Pos.X, g.Pos.Y, g.Clicks, g.Tiles, blob(g.Trail),
			g.Seq, gameStatuses[g.Status], millis(g.StartedAt), millis(g.UpdatedAt), optionalMillis(g.FinishedAt)).Scan(&id)
	})
}

// gameSQL reads a game by id.
const gameSQL = `SELECT ` + gameColumns + ` FROM games WHERE id = ?`

// Game returns the game with the given id, or an error wrapping
// play.ErrNotFound.
func (s *Store) Game(ctx context.Context, id int64) (play.Record, error) {
	return call(s, ctx, "Game", fmt.Sprintf("game %d", id), reads, func(q q) (play.Record, error) {
		return one(q, gameRow.record, gameSQL, id)
	})
}

// playingGameSQL finds a member's newest game being played on a maze for
// a contest; a constant so the tests can check its plan.
const playingGameSQL = `SELECT ` + gameColumns + ` FROM games
	WHERE user_id = ? AND maze_id = ? AND context = ? AND status = 'playing'
	ORDER BY id DESC LIMIT 1`

// PlayingGame returns the member's newest game still being played on
// maze for contest, or an error wrapping play.ErrNotFound.
func (s *Store) PlayingGame(ctx context.Context, userID string, maze mazecore.ID, contest string) (play.Record, error) {
	return call(s, ctx, "PlayingGame", fmt.Sprintf("game of %s on maze %s", userID, maze), reads, func(q q) (play.Record, error) {
		return one(q, gameRow.record, playingGameSQL, userID, maze.String(), contest)
	})
}

// saveGameSQL writes a move over the game still playing at seq−1 (its
// fields, then id and seq−1): of two callers saving one seq at once, one
// matches.
const saveGameSQL = `
	UPDATE games SET x = ?, y = ?, clicks = ?, tiles = ?, trail = ?, seq = ?, status = ?,
		updated_at = ?, finished_at = ?
	WHERE id = ? AND seq = ? AND status = 'playing'`

// SaveGame writes g over the stored game if that is still playing at
// g.Seq−1, else changes nothing and returns an error wrapping
// play.ErrConflict. A move is that one statement; a win also records its
// result, in the same transaction: either both are written or neither,
// so a run is recorded at most once.
func (s *Store) SaveGame(ctx context.Context, g play.Record) error {
	args := []any{g.Pos.X, g.Pos.Y, g.Clicks, g.Tiles, blob(g.Trail), g.Seq, gameStatuses[g.Status],
		millis(g.UpdatedAt), optionalMillis(g.FinishedAt), g.ID, g.Seq - 1}
	what := fmt.Sprintf("save game %d at seq %d", g.ID, g.Seq)
	if g.Status != play.Won {
		// No BEGIN and COMMIT: a third of the round trips.
		return do(s, ctx, "SaveGame", what, writes, func(q q) error { return q.claim(saveGameSQL, args...) })
	}
	return do(s, ctx, "SaveGame", what, transaction, func(q q) error {
		if err := q.claim(saveGameSQL, args...); err != nil {
			return err
		}
		r := g.Result()
		if _, err := q.exec(`
			INSERT INTO finishes (user_id, guild_id, maze_id, clicks, tiles, elapsed_ms, finished_at, context)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			r.UserID, r.GuildID, r.MazeID.String(), r.Clicks, r.Tiles, r.Elapsed.Milliseconds(), millis(r.FinishedAt), r.Contest); err != nil {
			return fmt.Errorf("record result: %w", err)
		}
		return nil
	})
}

// DeleteGamesBefore removes the games started before t, finished or not,
// and reports how many. Results are kept.
func (s *Store) DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error) {
	return call(s, ctx, "DeleteGamesBefore", fmt.Sprintf("delete games before %v", t), writes, func(q q) (int64, error) {
		return q.changed(`DELETE FROM games WHERE started_at < ?`, millis(t))
	})
}
