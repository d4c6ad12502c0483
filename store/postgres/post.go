package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"mazebot/contest"
	"mazebot/store/internal/codec"
)

// AddPost records that a maze was posted. A message holds one maze, so a
// second post with the same MessageID is an error.
func (db *DB) AddPost(ctx context.Context, p contest.Post) error {
	_, err := db.pool.Exec(ctx, addPostSQL,
		p.MazeID.String(), p.GuildID, p.ChannelID, p.MessageID, codec.Millis(p.PostedAt))
	if isUnique(err) {
		// The same post again (a retried post that Discord answered with
		// the message it had made) is recorded once.
		var maze, channel string
		if db.pool.QueryRow(ctx, postOfMessageSQL, p.MessageID).Scan(&maze, &channel) == nil &&
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
	row := db.pool.QueryRow(ctx, `
		SELECT `+codec.PostColumns+` FROM posts
		WHERE channel_id = $1
		ORDER BY posted_at DESC, id DESC
		LIMIT 1`, channelID)
	p, err := codec.One(row.Scan, pgx.ErrNoRows, codec.PostRow.Post)
	if err != nil {
		return contest.Post{}, fmt.Errorf("last post in channel %s: %w", channelID, err)
	}
	return p, nil
}

// Statements shared with SQLite (codec), numbered for PostgreSQL.
var (
	addPostSQL       = rebind(codec.AddPostSQL)
	postOfMessageSQL = rebind(codec.PostOfMessageSQL)
)
