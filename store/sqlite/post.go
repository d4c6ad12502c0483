package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mazebot/store"
)

// The queries are constants so the tests can check their plans use an index.
const (
	lastPostSQL = `
		SELECT maze_id, guild_id, channel_id, message_id, author_id, posted_at
		FROM posts
		WHERE channel_id = ?
		ORDER BY posted_at DESC, id DESC
		LIMIT 1`
	postByMessageSQL = `
		SELECT maze_id, guild_id, channel_id, message_id, author_id, posted_at
		FROM posts
		WHERE message_id = ? AND message_id <> ''`
)

// AddPost records that a maze was posted. A message holds one maze, so a
// second post with the same MessageID is an error.
func (db *DB) AddPost(ctx context.Context, p store.Post) error {
	_, err := db.db.ExecContext(ctx, `
		INSERT INTO posts (maze_id, guild_id, channel_id, message_id, author_id, posted_at)
		VALUES (?, ?, ?, ?, ?, ?)`,
		p.MazeID, p.GuildID, p.ChannelID, p.MessageID, p.AuthorID, toMillis(p.PostedAt))
	if err != nil {
		return fmt.Errorf("add post %s in channel %s: %w", p.MessageID, p.ChannelID, err)
	}
	return nil
}

// LastPost returns the newest post in a channel: latest PostedAt, and of
// posts at the same millisecond the one added last. It returns an error
// wrapping store.ErrNotFound when the channel has none.
func (db *DB) LastPost(ctx context.Context, channelID string) (store.Post, error) {
	row := db.db.QueryRowContext(ctx, lastPostSQL, channelID)
	p, err := scanPost(row)
	if err != nil {
		return store.Post{}, fmt.Errorf("last post in channel %s: %w", channelID, err)
	}
	return p, nil
}

// PostByMessage returns the post made as the given Discord message. It
// returns an error wrapping store.ErrNotFound when there is none.
func (db *DB) PostByMessage(ctx context.Context, messageID string) (store.Post, error) {
	row := db.db.QueryRowContext(ctx, postByMessageSQL, messageID)
	p, err := scanPost(row)
	if err != nil {
		return store.Post{}, fmt.Errorf("post by message %s: %w", messageID, err)
	}
	return p, nil
}

func scanPost(row *sql.Row) (store.Post, error) {
	var (
		p  store.Post
		ms int64
	)
	err := row.Scan(&p.MazeID, &p.GuildID, &p.ChannelID, &p.MessageID, &p.AuthorID, &ms)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Post{}, store.ErrNotFound
	}
	if err != nil {
		return store.Post{}, err
	}
	p.PostedAt = fromMillis(ms)
	return p, nil
}
