package store

import (
	"strconv"
	"strings"
	"time"
)

// Event statuses.
const (
	EventRunning = "running"
	EventEnded   = "ended"
)

// Event is a community event: one maze that every member of a channel
// plays for a while, with a live leaderboard. A channel has at most one
// running event; the store enforces it.
type Event struct {
	ID        int64
	GuildID   string
	ChannelID string
	Name      string
	MazeID    string
	CreatorID string
	StartedAt time.Time
	// EndsAt is the end of the event. Ending it early moves EndsAt to the
	// moment it ended, so runs after that don't count.
	EndsAt time.Time
	// MazeMessageID and BoardMessageID are "" until the posts are made.
	MazeMessageID  string
	BoardMessageID string
	Status         string // EventRunning or EventEnded
	// BoardDirty says results arrived since the board was last edited.
	BoardDirty bool
	// BoardEditedAt is the last edit of the board; the zero Time if never.
	BoardEditedAt time.Time
}

// Context is the Finish.Context and Game.Context of the event's runs.
func (e Event) Context() string { return EventContext(e.ID) }

// EventEntry is one member's best run in an event: fastest, then fewest
// tiles, then earliest. Rank is shared by entries with the same time and
// tiles.
type EventEntry struct {
	Rank       int
	UserID     string
	Elapsed    time.Duration
	Tiles      int
	Clicks     int
	FinishedAt time.Time
}

// eventContextPrefix starts the context of an event's runs.
const eventContextPrefix = "event:"

// EventContext is the Finish.Context of event id's runs: "event:<id>".
func EventContext(id int64) string { return eventContextPrefix + strconv.FormatInt(id, 10) }

// ParseEventContext returns the event a Finish.Context names, if any.
func ParseEventContext(context string) (int64, bool) {
	text, ok := strings.CutPrefix(context, eventContextPrefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != text {
		return 0, false
	}
	return id, true
}
