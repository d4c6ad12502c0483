package sqldb

import (
	"context"
	"fmt"

	"mazebot/contest"
)

// AddPost records that a maze was posted. A message holds one maze, so a
// second post of another maze with the same MessageID is an error; the
// same post again (a retried post that Discord answered with the message
// it had made) is recorded once.
func (s *Store) AddPost(ctx context.Context, p contest.Post) error {
	return do(s, ctx, "AddPost", fmt.Sprintf("add post %s in channel %s", p.MessageID, p.ChannelID), writes, func(q q) error {
		_, err := q.exec(`INSERT INTO posts (maze_id, guild_id, channel_id, message_id, posted_at) VALUES (?, ?, ?, ?, ?)`,
			p.MazeID.String(), p.GuildID, p.ChannelID, p.MessageID, millis(p.PostedAt))
		if s.dialect.IsUnique(err) {
			var maze, channel string
			if q.row(`SELECT maze_id, channel_id FROM posts WHERE message_id = ?`, p.MessageID).Scan(&maze, &channel) == nil &&
				maze == p.MazeID.String() && channel == p.ChannelID {
				return nil
			}
		}
		return err
	})
}

// lastPostSQL is a constant so the tests can check its plan uses an index.
const lastPostSQL = `
	SELECT ` + postColumns + ` FROM posts
	WHERE channel_id = ?
	ORDER BY posted_at DESC, id DESC
	LIMIT 1`

// LastPost returns the newest post in a channel: latest PostedAt, and of
// posts at the same millisecond the one added last. It returns an error
// wrapping contest.ErrNotFound when the channel has none.
func (s *Store) LastPost(ctx context.Context, channelID string) (contest.Post, error) {
	return call(s, ctx, "LastPost", "last post in channel "+channelID, reads, func(q q) (contest.Post, error) {
		return one(q, postRow.post, lastPostSQL, channelID)
	})
}

// recentPostsSQL lists a channel's newest posts; the index of lastPostSQL
// serves it.
const recentPostsSQL = `
	SELECT ` + postColumns + ` FROM posts
	WHERE channel_id = ?
	ORDER BY posted_at DESC, id DESC
	LIMIT ?`

// RecentPosts returns a channel's newest posts, newest first, at most
// limit of them.
func (s *Store) RecentPosts(ctx context.Context, channelID string, limit int) ([]contest.Post, error) {
	return call(s, ctx, "RecentPosts", "recent posts in channel "+channelID, reads, func(q q) ([]contest.Post, error) {
		return all(q, postRow.post, recentPostsSQL, channelID, limit)
	})
}
