package sqldb

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
)

// How the domain's records are spelled in a table row. A row struct
// (gameRow, eventRow, …) has one field per column of its columns
// constant, in that order; dest returns pointers to them for Scan, and a
// method turns the row into the domain's record, refusing what it cannot
// read.

// millis and timeOf fix the storage format of times: UTC unix
// milliseconds. Precision below a millisecond is dropped.
func millis(t time.Time) int64 { return t.UnixMilli() }

func timeOf(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// optionalMillis stores the zero Time ("not yet", "never") as 0, and
// optionalTime reads it back.
func optionalMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return millis(t)
}

func optionalTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return timeOf(ms)
}

// forever is later than any finish: the end of a contest that has none.
var forever = time.UnixMilli(1<<62 - 1)

// blob keeps an empty byte string a value: drivers store a nil []byte as
// NULL, which the NOT NULL columns refuse.
func blob(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// The stored spellings of the domain's states; the schemas' CHECKs list
// them.
var (
	gameStatuses  = map[play.Status]string{play.Playing: "playing", play.Won: "won", play.GaveUp: "gave_up"}
	postStates    = map[contest.PostState]string{contest.Posting: "posting", contest.Posted: "posted", contest.Failed: "failed"}
	eventStatuses = map[contest.EventStatus]string{contest.Running: "running", contest.Ended: "ended"}
)

// status reads a stored spelling back through one of the spelling maps.
func status[K comparable](spellings map[K]string, s string) (K, error) {
	for k, v := range spellings {
		if v == s {
			return k, nil
		}
	}
	var zero K
	return zero, fmt.Errorf("unknown status %q", s)
}

// row is a pointer to one of the row structs: PR is *R.
type row[R any] interface {
	*R
	dest() []any
}

// one reads the single row of a query into R and converts it; no row is
// play.ErrNotFound (contest's too).
func one[T, R any, PR row[R]](q q, conv func(R) (T, error), query string, args ...any) (T, error) {
	var r R
	if err := q.row(query, args...).Scan(PR(&r).dest()...); err != nil {
		var zero T
		if errors.Is(err, sql.ErrNoRows) {
			err = play.ErrNotFound
		}
		return zero, err
	}
	return conv(r)
}

// all reads every row of a query into R and converts it.
func all[T, R any, PR row[R]](q q, conv func(R) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.rows(query, args...)
	if err != nil {
		return nil, err
	}
	return readAll[T, R, PR](rows, conv)
}

// readAll reads every row of rows into R and converts it, and closes rows.
func readAll[T, R any, PR row[R]](rows *sql.Rows, conv func(R) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		var r R
		if err := rows.Scan(PR(&r).dest()...); err != nil {
			return nil, err
		}
		v, err := conv(r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// gameColumns are the columns of a games row, in gameRow's order.
const gameColumns = `id, user_id, guild_id, channel_id, maze_id, context, x, y, clicks, tiles, trail,
	seq, status, started_at, updated_at, finished_at`

type gameRow struct {
	ID                             int64
	UserID, GuildID, ChannelID     string
	Maze, Contest                  string
	X, Y, Clicks, Tiles            int
	Trail                          []byte
	Seq                            int
	Status                         string
	StartedAt, UpdatedAt, Finished int64
}

func (r *gameRow) dest() []any {
	return []any{&r.ID, &r.UserID, &r.GuildID, &r.ChannelID, &r.Maze, &r.Contest, &r.X, &r.Y, &r.Clicks, &r.Tiles, &r.Trail,
		&r.Seq, &r.Status, &r.StartedAt, &r.UpdatedAt, &r.Finished}
}

func (r gameRow) record() (play.Record, error) {
	g := play.Record{
		ID: r.ID, UserID: r.UserID, GuildID: r.GuildID, ChannelID: r.ChannelID, Contest: r.Contest,
		Pos: mazecore.Point{X: r.X, Y: r.Y}, Clicks: r.Clicks, Tiles: r.Tiles, Trail: r.Trail, Seq: r.Seq,
		StartedAt: timeOf(r.StartedAt), UpdatedAt: timeOf(r.UpdatedAt), FinishedAt: optionalTime(r.Finished),
	}
	var err error
	if g.MazeID, err = mazecore.Parse(r.Maze); err != nil {
		return play.Record{}, err
	}
	if g.Status, err = status(gameStatuses, r.Status); err != nil {
		return play.Record{}, err
	}
	return g, nil
}

// dailySettingsColumns are the columns of a daily_configs row, in
// dailySettingsRow's order.
const dailySettingsColumns = `guild_id, channel_id, post_at, time_zone, algorithm, size, difficulty, loops, language, enabled, updated_at, prev_zone, zone_from, grid, shape`

type dailySettingsRow struct {
	GuildID, ChannelID      string
	PostAt, Zone, Algorithm string
	Size                    int
	Difficulty              string
	Loops                   int
	Language                string
	Enabled                 bool
	UpdatedAt               int64
	PrevZone                string
	ZoneFrom                int64
	Grid, Shape             string
}

func (r *dailySettingsRow) dest() []any {
	return []any{&r.GuildID, &r.ChannelID, &r.PostAt, &r.Zone, &r.Algorithm, &r.Size, &r.Difficulty, &r.Loops, &r.Language, &r.Enabled, &r.UpdatedAt, &r.PrevZone, &r.ZoneFrom, &r.Grid, &r.Shape}
}

func (r dailySettingsRow) settings() (contest.DailySettings, error) {
	s := contest.DailySettings{GuildID: r.GuildID, ChannelID: r.ChannelID, Size: r.Size, Loops: r.Loops, Language: r.Language, Enabled: r.Enabled, UpdatedAt: timeOf(r.UpdatedAt), Shape: r.Shape}
	var ok bool
	if s.PostAt, ok = contest.ParseTimeOfDay(r.PostAt); !ok {
		return s, fmt.Errorf("post time %q", r.PostAt)
	}
	var err error
	if s.Zone, err = time.LoadLocation(r.Zone); err != nil {
		return s, fmt.Errorf("zone %q: %w", r.Zone, err)
	}
	if r.PrevZone != "" {
		if s.PrevZone, err = time.LoadLocation(r.PrevZone); err != nil {
			return s, fmt.Errorf("previous zone %q: %w", r.PrevZone, err)
		}
		s.ZoneFrom = timeOf(r.ZoneFrom)
	}
	if s.Algorithm, err = mazecore.ParseAlgorithm(r.Algorithm); err != nil {
		return s, err
	}
	if s.Difficulty, err = mazecore.ParseLevel(r.Difficulty); err != nil {
		return s, err
	}
	if s.Grid, err = mazecore.ParseGrid(r.Grid); err != nil {
		return s, err
	}
	return s, nil
}

// dailySettingsArgs are the values of s for dailySettingsColumns, in order.
func dailySettingsArgs(s contest.DailySettings) []any {
	prev, from := "", int64(0)
	if s.PrevZone != nil {
		prev, from = s.PrevZone.String(), millis(s.ZoneFrom)
	}
	return []any{s.GuildID, s.ChannelID, s.PostAt.String(), s.Zone.String(), s.Algorithm.String(), s.Size, s.Difficulty.String(), s.Loops, s.Language, s.Enabled, millis(s.UpdatedAt), prev, from, s.Grid.String(), s.Shape}
}

// checkDailySettings refuses settings that settings() could not read
// back (a post time past 23:59, an unknown algorithm, a size no maze has,
// loops out of range); the schemas' CHECKs refuse the rest.
func checkDailySettings(s contest.DailySettings) error {
	if s.PostAt < 0 || s.PostAt >= 24*60 {
		return fmt.Errorf("post time %d minutes after midnight", int(s.PostAt))
	}
	if err := checkLanguage(s.Language); err != nil {
		return err
	}
	if !s.Grid.Valid() {
		return fmt.Errorf("grid %v", s.Grid)
	}
	// Any date's maze: the calendar's shapes all draw on the grid.
	id, err := s.BaseMaze(contest.MakeDate(2026, 11, 30))
	if err != nil {
		return err
	}
	return id.Validate()
}

// maxLanguage is the longest language code the schemas take: a BCP 47
// tag as Discord spells locales ("en-US", "zh-TW") fits with room.
const maxLanguage = 16

// checkLanguage refuses a language code the schemas' CHECKs would refuse,
// with a clearer error. The store doesn't interpret the code.
func checkLanguage(code string) error {
	if len(code) > maxLanguage {
		return fmt.Errorf("language code of %d bytes, at most %d", len(code), maxLanguage)
	}
	return nil
}

// dailyPostColumns are the columns of a daily_posts row, in
// dailyPostRow's order.
const dailyPostColumns = `guild_id, date, channel_id, maze_id, message_id, status, attempts, refused, claimed_at`

type dailyPostRow struct {
	GuildID, Date, ChannelID, Maze, MessageID, Status string
	Attempts, Refused                                 int
	ClaimedAt                                         int64
}

func (r *dailyPostRow) dest() []any {
	return []any{&r.GuildID, &r.Date, &r.ChannelID, &r.Maze, &r.MessageID, &r.Status, &r.Attempts, &r.Refused, &r.ClaimedAt}
}

func (r dailyPostRow) post() (contest.DailyPost, error) {
	p := contest.DailyPost{GuildID: r.GuildID, ChannelID: r.ChannelID, MessageID: r.MessageID, Attempts: r.Attempts, Refused: r.Refused, ClaimedAt: timeOf(r.ClaimedAt)}
	var err error
	if p.Date, err = contest.ParseDate(r.Date); err != nil {
		return contest.DailyPost{}, err
	}
	if p.MazeID, err = mazecore.Parse(r.Maze); err != nil {
		return contest.DailyPost{}, err
	}
	if p.State, err = status(postStates, r.Status); err != nil {
		return contest.DailyPost{}, err
	}
	return p, nil
}

// eventColumns are the columns of an events row, in eventRow's order.
const eventColumns = `id, guild_id, channel_id, name, maze_id, creator_id, language, started_at, ends_at,
	maze_message_id, board_message_id, status, board_dirty, board_edited_at,
	closing_done, closing_attempts, closing_refused, closing_claimed_at, closed, results_message_id`

type eventRow struct {
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
	ResultsMessageID                          string
}

func (r *eventRow) dest() []any {
	return []any{&r.ID, &r.GuildID, &r.ChannelID, &r.Name, &r.Maze, &r.CreatorID, &r.Language, &r.StartedAt, &r.EndsAt,
		&r.MazeMessageID, &r.BoardMessageID, &r.Status, &r.BoardDirty, &r.BoardEditedAt,
		&r.ClosingDone, &r.ClosingAttempts, &r.ClosingRefused, &r.ClosingClaimedAt, &r.Closed, &r.ResultsMessageID}
}

func (r eventRow) event() (contest.Event, error) {
	e := contest.Event{
		ID: r.ID, GuildID: r.GuildID, ChannelID: r.ChannelID, Name: r.Name, CreatorID: r.CreatorID, Language: r.Language,
		StartedAt: timeOf(r.StartedAt), EndsAt: timeOf(r.EndsAt), MazeMessageID: r.MazeMessageID, BoardMessageID: r.BoardMessageID,
		BoardDirty: r.BoardDirty, BoardEditedAt: optionalTime(r.BoardEditedAt), ResultsMessageID: r.ResultsMessageID,
		Closing: contest.Closing{
			Done: contest.EndSteps(r.ClosingDone), Attempts: r.ClosingAttempts, Refused: r.ClosingRefused,
			ClaimedAt: optionalTime(r.ClosingClaimedAt), Closed: r.Closed,
		},
	}
	var err error
	if e.MazeID, err = mazecore.Parse(r.Maze); err != nil {
		return contest.Event{}, err
	}
	if e.Status, err = status(eventStatuses, r.Status); err != nil {
		return contest.Event{}, err
	}
	return e, nil
}

// dailyMazeColumns are the columns of a daily_mazes row, in
// dailyMazeRow's order.
const dailyMazeColumns = `guild_id, date, maze_id`

type dailyMazeRow struct{ GuildID, Date, Maze string }

func (r *dailyMazeRow) dest() []any { return []any{&r.GuildID, &r.Date, &r.Maze} }

func (r dailyMazeRow) dailyMaze() (contest.DailyMaze, error) {
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

// postColumns are the columns LastPost reads of a posts row, in
// postRow's order.
const postColumns = `maze_id, guild_id, channel_id, message_id, posted_at`

type postRow struct {
	Maze, GuildID, ChannelID, MessageID string
	PostedAt                            int64
}

func (r *postRow) dest() []any {
	return []any{&r.Maze, &r.GuildID, &r.ChannelID, &r.MessageID, &r.PostedAt}
}

func (r postRow) post() (contest.Post, error) {
	id, err := mazecore.Parse(r.Maze)
	if err != nil {
		return contest.Post{}, err
	}
	return contest.Post{MazeID: id, GuildID: r.GuildID, ChannelID: r.ChannelID, MessageID: r.MessageID, PostedAt: timeOf(r.PostedAt)}, nil
}

// runRow is a member's best run, as the ranking queries select it:
// user_id, elapsed_ms, tiles, clicks, finished_at.
type runRow struct {
	UserID        string
	ElapsedMS     int64
	Tiles, Clicks int
	FinishedAt    int64
}

func (r *runRow) dest() []any {
	return []any{&r.UserID, &r.ElapsedMS, &r.Tiles, &r.Clicks, &r.FinishedAt}
}

// run never fails; the error is there so that every row struct converts
// alike.
func (r runRow) run() (contest.Run, error) {
	return contest.Run{UserID: r.UserID, Elapsed: time.Duration(r.ElapsedMS) * time.Millisecond, Tiles: r.Tiles, Clicks: r.Clicks, FinishedAt: timeOf(r.FinishedAt)}, nil
}

// totalRow is a member's daily total, as the totals query selects it:
// user_id, days, the sum of elapsed_ms, the sum of tiles.
type totalRow struct {
	UserID    string
	Days      int
	ElapsedMS int64
	Tiles     int
}

func (r *totalRow) dest() []any { return []any{&r.UserID, &r.Days, &r.ElapsedMS, &r.Tiles} }

func (r totalRow) total() (contest.Total, error) {
	return contest.Total{UserID: r.UserID, Days: r.Days, Elapsed: time.Duration(r.ElapsedMS) * time.Millisecond, Tiles: r.Tiles}, nil
}

// dailyKeyRow is a daily contest's key (a finishes context), as the
// solved dates query selects it.
type dailyKeyRow struct{ Key string }

func (r *dailyKeyRow) dest() []any { return []any{&r.Key} }

// date is the day of the daily the key names: what a streak is counted
// from.
func (r dailyKeyRow) date() (contest.Date, error) {
	k, ok := contest.ParseKey(r.Key)
	_, date, daily := k.Daily()
	if !ok || !daily {
		return contest.Date{}, fmt.Errorf("contest %q is not a daily", r.Key)
	}
	return date, nil
}

// guildIDRow is a server's ID alone.
type guildIDRow struct{ GuildID string }

func (r *guildIDRow) dest() []any { return []any{&r.GuildID} }

// archiveDate is the day of the past daily an archive key names.
func (r dailyKeyRow) archiveDate() (contest.Date, error) {
	k, ok := contest.ParseKey(r.Key)
	_, date, archive := k.Archive()
	if !ok || !archive {
		return contest.Date{}, fmt.Errorf("contest %q is not the archive's", r.Key)
	}
	return date, nil
}

// dateRow is a date alone, as stored ("YYYY-MM-DD").
type dateRow struct{ Date string }

func (r *dateRow) dest() []any { return []any{&r.Date} }

func (r dateRow) date() (contest.Date, error) { return contest.ParseDate(r.Date) }
