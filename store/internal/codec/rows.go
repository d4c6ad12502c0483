package codec

import (
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
)

// GameColumns are the columns of a games row, in GameRow's order.
const GameColumns = `id, user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail,
	seq, status, started_at, updated_at, finished_at`

// GameRow is a games row.
type GameRow struct {
	ID                             int64
	UserID, GuildID, ChannelID     string
	Maze, Contest                  string
	X, Y, Clicks, Tiles            int
	Trail                          []byte
	Seq                            int
	Status                         string
	StartedAt, UpdatedAt, Finished int64
}

// Dest is the row's fields, for Scan.
func (r *GameRow) Dest() []any {
	return []any{&r.ID, &r.UserID, &r.GuildID, &r.ChannelID, &r.Maze, &r.Contest, &r.X, &r.Y, &r.Clicks, &r.Tiles, &r.Trail,
		&r.Seq, &r.Status, &r.StartedAt, &r.UpdatedAt, &r.Finished}
}

// Record is the game the row holds.
func (r GameRow) Record() (play.Record, error) {
	g := play.Record{
		ID: r.ID, UserID: r.UserID, GuildID: r.GuildID, ChannelID: r.ChannelID, Contest: r.Contest,
		Pos: mazecore.Point{X: r.X, Y: r.Y}, Clicks: r.Clicks, Tiles: r.Tiles, Trail: r.Trail, Seq: r.Seq,
		StartedAt: Time(r.StartedAt), UpdatedAt: Time(r.UpdatedAt), FinishedAt: OptionalTime(r.Finished),
	}
	var err error
	if g.MazeID, err = mazecore.Parse(r.Maze); err != nil {
		return play.Record{}, err
	}
	if g.Status, err = Status(GameStatuses, r.Status); err != nil {
		return play.Record{}, err
	}
	return g, nil
}

// DailySettingsColumns are the columns of a daily_configs row, in
// DailySettingsRow's order.
const DailySettingsColumns = `guild_id, channel_id, post_at, time_zone, algorithm, size, difficulty, loops, language, enabled, updated_at`

// DailySettingsRow is a daily_configs row.
type DailySettingsRow struct {
	GuildID, ChannelID      string
	PostAt, Zone, Algorithm string
	Size                    int
	Difficulty              string
	Loops                   int
	Language                string
	Enabled                 bool
	UpdatedAt               int64
}

// Dest is the row's fields, for Scan.
func (r *DailySettingsRow) Dest() []any {
	return []any{&r.GuildID, &r.ChannelID, &r.PostAt, &r.Zone, &r.Algorithm, &r.Size, &r.Difficulty, &r.Loops, &r.Language, &r.Enabled, &r.UpdatedAt}
}

// Settings are the settings the row holds.
func (r DailySettingsRow) Settings() (contest.DailySettings, error) {
	s := contest.DailySettings{GuildID: r.GuildID, ChannelID: r.ChannelID, Size: r.Size, Loops: r.Loops, Language: r.Language, Enabled: r.Enabled, UpdatedAt: Time(r.UpdatedAt)}
	var ok bool
	if s.PostAt, ok = contest.ParseTimeOfDay(r.PostAt); !ok {
		return s, fmt.Errorf("post time %q", r.PostAt)
	}
	var err error
	if s.Zone, err = time.LoadLocation(r.Zone); err != nil {
		return s, fmt.Errorf("zone %q: %w", r.Zone, err)
	}
	if s.Algorithm, err = mazecore.ParseAlgorithm(r.Algorithm); err != nil {
		return s, err
	}
	if s.Difficulty, err = mazecore.ParseLevel(r.Difficulty); err != nil {
		return s, err
	}
	return s, nil
}

// DailySettingsArgs are the values of s for DailySettingsColumns, in order.
func DailySettingsArgs(s contest.DailySettings) []any {
	return []any{s.GuildID, s.ChannelID, s.PostAt.String(), s.Zone.String(), s.Algorithm.String(), s.Size, s.Difficulty.String(), s.Loops, s.Language, s.Enabled, Millis(s.UpdatedAt)}
}

// CheckDailySettings refuses settings that Settings could not read back (a
// post time past 23:59, an unknown algorithm, a size no maze has, loops
// out of range); the schemas' CHECKs refuse the rest.
func CheckDailySettings(s contest.DailySettings) error {
	if s.PostAt < 0 || s.PostAt >= 24*60 {
		return fmt.Errorf("post time %d minutes after midnight", int(s.PostAt))
	}
	if err := CheckLanguage(s.Language); err != nil {
		return err
	}
	return (mazecore.ID{Algorithm: s.Algorithm, Width: s.Size, Height: s.Size, Loops: s.Loops}).Validate()
}

// MaxLanguage is the longest language code the schemas take: a BCP 47
// tag as Discord spells locales ("en-US", "zh-TW") fits with room.
const MaxLanguage = 16

// CheckLanguage refuses a language code the schemas' CHECKs would refuse,
// with a clearer error. The stores don't interpret the code.
func CheckLanguage(code string) error {
	if len(code) > MaxLanguage {
		return fmt.Errorf("language code of %d bytes, at most %d", len(code), MaxLanguage)
	}
	return nil
}

// DailyPostColumns are the columns of a daily_posts row, in DailyPostRow's
// order.
const DailyPostColumns = `guild_id, date, channel_id, maze_id, message_id, status, attempts, refused, claimed_at`

// DailyPostRow is a daily_posts row.
type DailyPostRow struct {
	GuildID, Date, ChannelID, Maze, MessageID, Status string
	Attempts, Refused                                 int
	ClaimedAt                                         int64
}

// Dest is the row's fields, for Scan.
func (r *DailyPostRow) Dest() []any {
	return []any{&r.GuildID, &r.Date, &r.ChannelID, &r.Maze, &r.MessageID, &r.Status, &r.Attempts, &r.Refused, &r.ClaimedAt}
}

// Post is the daily post the row holds.
func (r DailyPostRow) Post() (contest.DailyPost, error) {
	p := contest.DailyPost{GuildID: r.GuildID, ChannelID: r.ChannelID, MessageID: r.MessageID, Attempts: r.Attempts, Refused: r.Refused, ClaimedAt: Time(r.ClaimedAt)}
	var err error
	if p.Date, err = contest.ParseDate(r.Date); err != nil {
		return contest.DailyPost{}, err
	}
	if p.MazeID, err = mazecore.Parse(r.Maze); err != nil {
		return contest.DailyPost{}, err
	}
	if p.State, err = Status(PostStates, r.Status); err != nil {
		return contest.DailyPost{}, err
	}
	return p, nil
}

// EventColumns are the columns of an events row, in EventRow's order.
const EventColumns = `id, guild_id, channel_id, name, maze_id, creator_id, language, started_at, ends_at,
	maze_message_id, board_message_id, status, board_dirty, board_edited_at,
	closing_done, closing_attempts, closing_refused, closing_claimed_at, closed`

// EventRow is an events row.
type EventRow struct {
	ID                                        int64
	GuildID, ChannelID, Name, Maze, CreatorID string
	Language                                  string
	StartedAt, EndsAt                         int64
	MazeMessageID, BoardMessageID, Status     string
	BoardDirty                                bool
	BoardEditedAt                             int64
	ClosingDone, ClosingAttempts              int
	ClosingRefused                            int
	ClosingClaimedAt                          int64
	Closed                                    bool
}

// Dest is the row's fields, for Scan.
func (r *EventRow) Dest() []any {
	return []any{&r.ID, &r.GuildID, &r.ChannelID, &r.Name, &r.Maze, &r.CreatorID, &r.Language, &r.StartedAt, &r.EndsAt,
		&r.MazeMessageID, &r.BoardMessageID, &r.Status, &r.BoardDirty, &r.BoardEditedAt,
		&r.ClosingDone, &r.ClosingAttempts, &r.ClosingRefused, &r.ClosingClaimedAt, &r.Closed}
}

// Event is the event the row holds.
func (r EventRow) Event() (contest.Event, error) {
	e := contest.Event{
		ID: r.ID, GuildID: r.GuildID, ChannelID: r.ChannelID, Name: r.Name, CreatorID: r.CreatorID, Language: r.Language,
		StartedAt: Time(r.StartedAt), EndsAt: Time(r.EndsAt), MazeMessageID: r.MazeMessageID, BoardMessageID: r.BoardMessageID,
		BoardDirty: r.BoardDirty, BoardEditedAt: OptionalTime(r.BoardEditedAt),
		Closing: contest.Closing{
			Done: contest.EndSteps(r.ClosingDone), Attempts: r.ClosingAttempts, Refused: r.ClosingRefused,
			ClaimedAt: OptionalTime(r.ClosingClaimedAt), Closed: r.Closed,
		},
	}
	var err error
	if e.MazeID, err = mazecore.Parse(r.Maze); err != nil {
		return contest.Event{}, err
	}
	if e.Status, err = Status(EventStatuses, r.Status); err != nil {
		return contest.Event{}, err
	}
	return e, nil
}

// DailyMazeColumns are the columns of a daily_mazes row, in DailyMazeRow's
// order.
const DailyMazeColumns = `guild_id, date, maze_id`

// DailyMazeRow is a daily_mazes row.
type DailyMazeRow struct{ GuildID, Date, Maze string }

// Dest is the row's fields, for Scan.
func (r *DailyMazeRow) Dest() []any { return []any{&r.GuildID, &r.Date, &r.Maze} }

// DailyMaze is the server day's maze the row holds.
func (r DailyMazeRow) DailyMaze() (contest.DailyMaze, error) {
	m := contest.DailyMaze{GuildID: r.GuildID}
	var err error
	if m.Date, err = contest.ParseDate(r.Date); err != nil {
		return contest.DailyMaze{}, err
	}
	if m.MazeID, err = mazecore.Parse(r.Maze); err != nil {
		return contest.DailyMaze{}, err
	}
	return m, nil
}

// PostColumns are the columns LastPost reads of a posts row, in PostRow's
// order.
const PostColumns = `maze_id, guild_id, channel_id, message_id, posted_at`

// PostRow is a posts row.
type PostRow struct {
	Maze, GuildID, ChannelID, MessageID string
	PostedAt                            int64
}

// Dest is the row's fields, for Scan.
func (r *PostRow) Dest() []any {
	return []any{&r.Maze, &r.GuildID, &r.ChannelID, &r.MessageID, &r.PostedAt}
}

// Post is the post the row holds.
func (r PostRow) Post() (contest.Post, error) {
	id, err := mazecore.Parse(r.Maze)
	if err != nil {
		return contest.Post{}, err
	}
	return contest.Post{MazeID: id, GuildID: r.GuildID, ChannelID: r.ChannelID, MessageID: r.MessageID, PostedAt: Time(r.PostedAt)}, nil
}

// RunRow is a member's best run, as the ranking queries select it:
// user_id, elapsed_ms, tiles, clicks, finished_at.
type RunRow struct {
	UserID        string
	ElapsedMS     int64
	Tiles, Clicks int
	FinishedAt    int64
}

// Dest is the row's fields, for Scan.
func (r *RunRow) Dest() []any {
	return []any{&r.UserID, &r.ElapsedMS, &r.Tiles, &r.Clicks, &r.FinishedAt}
}

// Run is the run the row holds. It never fails; the error is there so
// that every row struct converts alike.
func (r RunRow) Run() (contest.Run, error) {
	return contest.Run{UserID: r.UserID, Elapsed: time.Duration(r.ElapsedMS) * time.Millisecond, Tiles: r.Tiles, Clicks: r.Clicks, FinishedAt: Time(r.FinishedAt)}, nil
}

// TotalRow is a member's daily total, as the totals query selects it:
// user_id, days, the sum of elapsed_ms, the sum of tiles.
type TotalRow struct {
	UserID    string
	Days      int
	ElapsedMS int64
	Tiles     int
}

// Dest is the row's fields, for Scan.
func (r *TotalRow) Dest() []any { return []any{&r.UserID, &r.Days, &r.ElapsedMS, &r.Tiles} }

// Total is the total the row holds. It never fails, like Run.
func (r TotalRow) Total() (contest.Total, error) {
	return contest.Total{UserID: r.UserID, Days: r.Days, Elapsed: time.Duration(r.ElapsedMS) * time.Millisecond, Tiles: r.Tiles}, nil
}

// DailyKeyRow is a daily contest's key (a finishes context), as the
// solved dates query selects it.
type DailyKeyRow struct{ Key string }

// Dest is the row's field, for Scan.
func (r *DailyKeyRow) Dest() []any { return []any{&r.Key} }

// Date is the day of the daily the key names: what a streak is counted
// from.
func (r DailyKeyRow) Date() (contest.Date, error) {
	k, ok := contest.ParseKey(r.Key)
	_, date, daily := k.Daily()
	if !ok || !daily {
		return contest.Date{}, fmt.Errorf("contest %q is not a daily", r.Key)
	}
	return date, nil
}

// TextRow is a row of one text column.
type TextRow struct{ Value string }

// Dest is the row's field, for Scan.
func (r *TextRow) Dest() []any { return []any{&r.Value} }

// Text is the row's text. It never fails, like Run.
func (r TextRow) Text() (string, error) { return r.Value, nil }
