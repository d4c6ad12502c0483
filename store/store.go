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

// ErrConflict is returned (wrapped) when a write expected a row in a state it
// is no longer in: another click or another bot process changed it first.
// The caller reloads and shows what is there now.
var ErrConflict = errors.New("conflict")

// Game statuses.
const (
	GamePlaying = "playing"
	GameWon     = "won"
	GameGaveUp  = "gave_up"
)

// Game is one member's play-mode run through a maze, kept in the store so
// it survives a restart and any bot process sharing the store can take the
// next click.
type Game struct {
	ID        int64
	UserID    string
	GuildID   string
	ChannelID string
	MazeID    string
	Context   string // as Finish.Context
	X, Y      int    // the player's tile
	Clicks    int
	Tiles     int    // tiles walked, a step from one tile to the next counting 1
	Trail     []byte // one bit per tile walked, row-major, LSB first
	Seq       int    // bumped by every saved change, for optimistic concurrency
	Status    string // GamePlaying, GameWon or GameGaveUp
	StartedAt time.Time
	UpdatedAt time.Time
	// FinishedAt is the zero Time while the game is playing.
	FinishedAt time.Time
}
