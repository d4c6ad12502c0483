package sqlite

import (
	"context"
	"fmt"
	"time"

	"mazebot/store"
)

// finishesSQL is a constant so the tests can check its plan uses an index.
const finishesSQL = `
		SELECT user_id, guild_id, maze_id, clicks, tiles, elapsed_ms, finished_at, context
		FROM finishes
		WHERE maze_id = ?
		ORDER BY elapsed_ms, tiles, finished_at, id`

// AddFinish records a completed run and returns its id. Elapsed is stored
// to the millisecond.
func (db *DB) AddFinish(ctx context.Context, f store.Finish) (int64, error) {
	res, err := db.db.ExecContext(ctx, `
		INSERT INTO finishes (user_id, guild_id, maze_id, clicks, tiles, elapsed_ms, finished_at, context)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		f.UserID, f.GuildID, f.MazeID, f.Clicks, f.Tiles,
		f.Elapsed.Milliseconds(), toMillis(f.FinishedAt), f.Context)
	if err != nil {
		return 0, fmt.Errorf("add finish of maze %s by %s: %w", f.MazeID, f.UserID, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("add finish of maze %s by %s: %w", f.MazeID, f.UserID, err)
	}
	return id, nil
}

// Finishes returns every run through a maze in leaderboard order: fastest
// first, then fewest tiles, then earliest. An empty result is not an error.
func (db *DB) Finishes(ctx context.Context, mazeID string) ([]store.Finish, error) {
	rows, err := db.db.QueryContext(ctx, finishesSQL, mazeID)
	if err != nil {
		return nil, fmt.Errorf("finishes of maze %s: %w", mazeID, err)
	}
	defer rows.Close()

	var out []store.Finish
	for rows.Next() {
		var (
			f             store.Finish
			elapsed, done int64
		)
		if err := rows.Scan(&f.UserID, &f.GuildID, &f.MazeID, &f.Clicks, &f.Tiles, &elapsed, &done, &f.Context); err != nil {
			return nil, fmt.Errorf("finishes of maze %s: %w", mazeID, err)
		}
		f.Elapsed = time.Duration(elapsed) * time.Millisecond
		f.FinishedAt = fromMillis(done)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("finishes of maze %s: %w", mazeID, err)
	}
	return out, nil
}
