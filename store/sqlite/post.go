package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"mazebot/contest"
	"mazebot/store/internal/codec"
)

// lastPostSQL is a constant so the tests can check its plan uses an index.
const lastPostSQL = `
		SELECT ` + codec.PostColumns + `
		FROM posts
		WHERE channel_id = ?
		ORDER BY posted_at DESC, id DESC
		LIMIT 1`

// AddPost records that a maze was posted. A message holds one maze, so a
// second post of another maze with the same MessageID is an error; the
// same post again (a retried post that Discord answered with the message
// it had made) is recorded once.
func (db *DB) AddPost(ctx context.Context, p contest.Post) error {
	_, err := db.db.ExecContext(ctx, codec.AddPostSQL,
		p.MazeID.String(), p.GuildID, p.ChannelID, p.MessageID, codec.Millis(p.PostedAt))
	if isUnique(err) {
		var maze, channel string
		if db.db.QueryRowContext(ctx, codec.PostOfMessageSQL, p.MessageID).Scan(&maze, &channel) == nil &&
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
	p, err := codec.One(db.db.QueryRowContext(ctx, lastPostSQL, channelID).Scan, sql.ErrNoRows, codec.PostRow.Post)
	if err != nil {
		return contest.Post{}, fmt.Errorf("last post in channel %s: %w", channelID, err)
	}
	return p, nil
}

// collect reads every row of a query (rows, err) into one of codec's row
// structs and converts it with conv, closing the rows.
func collect[T, R any, PR codec.Row[R]](rows *sql.Rows, err error, what string, conv func(R) (T, error)) ([]T, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out, err := codec.All[T, R, PR](rows, conv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
