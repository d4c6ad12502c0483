package contest

import (
	"context"
	"time"

	"mazebot/mazecore"
)

// Announcer makes the posts that no member asked for: the daily in its
// channel, an event's maze and board, its results. Package commands
// implements it on Discord.
//
// A post carries a nonce (see retry.go): a post repeated with the same
// nonce within Discord's nonce window returns the message already made,
// with its ID, and makes no second one. An error wrapping ErrRefused means
// the channel refuses the bot.
type Announcer interface {
	// PostDaily posts a server's daily in a channel. A message ID with an
	// error means the post was made and only something after it failed.
	PostDaily(ctx context.Context, d Daily, channelID, nonce string) (messageID string, err error)
	// FindDaily looks for a server's daily among the recent messages of
	// a channel: a post an attempt made and could not record (the
	// process died, Discord answered 502 after posting). It returns ""
	// when there is none, or when it cannot tell.
	FindDaily(ctx context.Context, d Daily, channelID string) (messageID string, err error)
	// PostEvent posts a starting event's maze and its (empty) board, each
	// with its nonce.
	PostEvent(ctx context.Context, e Event, mazeNonce, boardNonce string) (mazeMessageID, boardMessageID string, err error)
	// EditBoard shows standings on the event's board while e runs; once
	// it has ended, the board points to the results post
	// (e.ResultsMessageID, "" when unknown).
	EditBoard(ctx context.Context, e Event, standings []Standing) error
	// PostResults announces an ended event in one post: its final
	// ranking, the solution and the numbers of the day.
	PostResults(ctx context.Context, e Event, standings []Standing, nonce string) (messageID string, err error)
	// PostSolution posts an ended event's solution on its own: only for a
	// closing begun by a release whose results post did not hold it.
	PostSolution(ctx context.Context, e Event, nonce string) error
	// RevealMaze edits an ended event's maze message so that it offers its
	// solution.
	RevealMaze(ctx context.Context, e Event) error
}

// Post is a maze shown in a channel: what a bare /solve there solves, and
// where the embargo looks for a daily's maze copied elsewhere.
type Post struct {
	MazeID    mazecore.ID
	GuildID   string
	ChannelID string
	MessageID string // "" when the message's ID is not known
	PostedAt  time.Time
}

// Posts records the mazes shown in channels.
type Posts interface {
	// AddPost records a post; a message shows one maze, so a second post
	// of another maze with the same non-empty MessageID is an error, and
	// the same post again is kept once.
	AddPost(ctx context.Context, p Post) error
	// LastPost returns the newest post in a channel, or ErrNotFound.
	LastPost(ctx context.Context, channelID string) (Post, error)
	// RecentPosts returns a channel's newest posts, newest first, at most
	// limit of them.
	RecentPosts(ctx context.Context, channelID string, limit int) ([]Post, error)
}
