package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mazebot/contest"
	"mazebot/mazecore"
)

// lastPostSQL is a constant so the tests can check its plan uses an index.
const lastPostSQL = `
		SELECT maze_id, guild_id, channel_id, message_id, posted_at
		FROM posts
		WHERE channel_id = ?
		ORDER BY posted_at DESC, id DESC
		LIMIT 1`

// AddPost records that a maze was posted. A message holds one maze, so a
// second post of another maze with the same MessageID is an error; the
// same post again (a retried post that Discord answered with the message
// it had made) is recorded once.
func (db *DB) AddPost(ctx context.Context, p contest.Post) error {
	_, err := db.db.ExecContext(ctx, `
		INSERT INTO posts (maze_id, guild_id, channel_id, message_id, posted_at)
		VALUES (?, ?, ?, ?, ?)`,
		p.MazeID.String(), p.GuildID, p.ChannelID, p.MessageID, toMillis(p.PostedAt))
	if isUnique(err) {
		var maze, channel string
		if db.db.QueryRowContext(ctx, `SELECT maze_id, channel_id FROM posts WHERE message_id = ?`, p.MessageID).Scan(&maze, &channel) == nil &&
			maze == p.MazeID.String() && channel == p.ChannelID {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("add post %s in channel %s: %w", p.MessageID, p.ChannelID, err)
	}
	return nil
}

// LastPost returns the newest post in a channel: latest PostedAt, and of
// posts at the same millisecond the one added last. It returns an error
// wrapping contest.ErrNotFound when the channel has none.
func (db *DB) LastPost(ctx context.Context, channelID string) (contest.Post, error) {
	var (
		p    contest.Post
		maze string
		ms   int64
	)
	err := db.db.QueryRowContext(ctx, lastPostSQL, channelID).Scan(&maze, &p.GuildID, &p.ChannelID, &p.MessageID, &ms)
	if errors.Is(err, sql.ErrNoRows) {
		err = contest.ErrNotFound
	}
	if err == nil {
		p.MazeID, err = mazecore.Parse(maze)
	}
	if err != nil {
		return contest.Post{}, fmt.Errorf("last post in channel %s: %w", channelID, err)
	}
	p.PostedAt = fromMillis(ms)
	return p, nil
}

// collect reads every row of rows with scan, closing them.
func collect[T any](rows *sql.Rows, what string, scan func(*sql.Rows) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
