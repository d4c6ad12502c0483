package store

import "time"

// DailyConfig is a server's daily challenge settings.
type DailyConfig struct {
	GuildID   string
	ChannelID string // where the challenge is posted
	PostAt    string // local time of day, "HH:MM" (24 h)
	TimeZone  string // IANA name, e.g. "Asia/Seoul"
	Algorithm string // a mazecore algorithm name
	Size      int    // tiles a side, odd
	Enabled   bool
	// UpdatedAt is when the settings last changed: a setup made after
	// today's post time starts with tomorrow's post.
	UpdatedAt time.Time
}

// Daily post statuses.
const (
	DailyPosting = "posting" // claimed; the post is being made
	DailyPosted  = "posted"
	DailyFailed  = "failed" // the post failed; it may be claimed again
)

// DailyPost is the claim on, and then the record of, one day's automatic
// post in one server. (GuildID, Date) is unique: that is what makes the
// post happen once.
type DailyPost struct {
	GuildID   string
	Date      string // the server's local date, "YYYY-MM-DD"
	ChannelID string
	MazeID    string
	MessageID string // "" until posted
	Status    string // DailyPosting, DailyPosted or DailyFailed
	Attempts  int
	ClaimedAt time.Time // the last claim
}

// DailyResult is a member's best run of one day: fastest, then fewest
// tiles, then earliest.
type DailyResult struct {
	UserID     string
	Date       string
	Elapsed    time.Duration
	Tiles      int
	Clicks     int
	FinishedAt time.Time
}

// DailyTotal sums a member's best runs over a range of days.
type DailyTotal struct {
	UserID  string
	Days    int           // days solved
	Elapsed time.Duration // sum of each day's best time
	Tiles   int           // sum of each day's best tiles
	// LastFinish is the latest of the counted runs.
	LastFinish time.Time
}

// DailyContext is the Finish.Context of a run on a server's daily
// challenge of a local date. Its text sorts by date within a server, so a
// range of days is a range of contexts.
func DailyContext(guildID, date string) string { return "daily:" + guildID + ":" + date }
