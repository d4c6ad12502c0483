package commands

import (
	"context"
	"time"

	"mazebot/contest"
)

// Poster sends and edits channel messages outside any interaction. The
// bot implements it over the REST API; tests use a fake Discord or a
// recorder.
type Poster interface {
	Post(ctx context.Context, channelID string, r Reply) (messageID string, err error)
	Edit(ctx context.Context, channelID, messageID string, r Reply) error
}

// Announcer makes contest's posts on Discord: it draws them as the
// commands do, sends them through a Poster, and records the mazes it
// shows for a bare /solve.
type Announcer struct {
	poster Poster
	posts  PostLog
	now    func() time.Time
}

// NewAnnouncer posts through poster and records shown mazes in posts.
func NewAnnouncer(poster Poster, posts PostLog, now func() time.Time) *Announcer {
	return &Announcer{poster: poster, posts: posts, now: now}
}

var _ contest.Announcer = (*Announcer)(nil)

// PostDaily posts a server's daily, which becomes the channel's latest
// maze. A failure to record that after the post still returns the message.
func (a *Announcer) PostDaily(ctx context.Context, d contest.Daily, channelID string) (string, error) {
	reply, err := dailyMessage(d)
	if err != nil {
		return "", err
	}
	messageID, err := a.poster.Post(ctx, channelID, reply)
	if err != nil {
		return "", err
	}
	return messageID, recordPost(ctx, a.posts, d.GuildID, channelID, messageID, d.MazeID, a.now())
}

// PostEvent posts the event's maze and its board. The event maze becomes
// the channel's latest, so a bare /solve there meets the embargo rather
// than revealing an older maze.
func (a *Announcer) PostEvent(ctx context.Context, e contest.Event) (mazeMsg, boardMsg string, err error) {
	reply, err := eventMazeMessage(e, true)
	if err != nil {
		return "", "", err
	}
	if mazeMsg, err = a.poster.Post(ctx, e.ChannelID, reply); err != nil {
		return "", "", err
	}
	if boardMsg, err = a.poster.Post(ctx, e.ChannelID, boardMessage(e, nil)); err != nil {
		return "", "", err
	}
	return mazeMsg, boardMsg, recordPost(ctx, a.posts, e.GuildID, e.ChannelID, mazeMsg, e.MazeID, a.now())
}

// EditBoard shows standings on the event's board.
func (a *Announcer) EditBoard(ctx context.Context, e contest.Event, standings []contest.Standing) error {
	return a.poster.Edit(ctx, e.ChannelID, e.BoardMessageID, boardMessage(e, standings))
}

// PostResults announces an ended event's ranking.
func (a *Announcer) PostResults(ctx context.Context, e contest.Event, standings []contest.Standing) error {
	_, err := a.poster.Post(ctx, e.ChannelID, resultsMessage(e, standings))
	return err
}

// PostSolution posts an ended event's solution, spoilered.
func (a *Announcer) PostSolution(ctx context.Context, e contest.Event) error {
	m, err := generate(e.MazeID)
	if err != nil {
		return err
	}
	solution, err := solutionMessage(m, false)
	if err != nil {
		return err
	}
	_, err = a.poster.Post(ctx, e.ChannelID, solution)
	return err
}

// RevealMaze gives the ended event's maze message its Solve button back.
func (a *Announcer) RevealMaze(ctx context.Context, e contest.Event) error {
	reply, err := eventMazeMessage(e, false)
	if err != nil {
		return err
	}
	return a.poster.Edit(ctx, e.ChannelID, e.MazeMessageID, reply)
}
