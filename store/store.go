package store

import (
	"errors"
	"time"
)

// ErrNotFound is returned (wrapped) when a lookup matches nothing; check it
// with errors.Is.
var ErrNotFound = errors.New("not found")

// Post is a maze posted in a channel. MessageID identifies the Discord
// message, so a reaction or button press can be traced back to its maze.
type Post struct {
	MazeID    string
	GuildID   string
	ChannelID string
	MessageID string
	AuthorID  string
	PostedAt  time.Time
}

// Finish is one user's completed run through a maze.
type Finish struct {
	UserID     string
	GuildID    string
	MazeID     string
	Clicks     int
	Tiles      int
	Elapsed    time.Duration
	FinishedAt time.Time
	// Context tells which competition the run counted for: "" for a normal
	// run, "daily:<guild>:<YYYY-MM-DD>" for a daily challenge, "event:<id>"
	// for an event.
	Context string
}
