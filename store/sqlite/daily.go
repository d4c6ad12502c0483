package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/store/internal/codec"
)

// SaveDailySettings creates or replaces a server's daily challenge
// settings. Settings that DailySettings could not read back (a post time
// past 23:59, an unknown algorithm, a size no maze has) are refused.
func (db *DB) SaveDailySettings(ctx context.Context, s contest.DailySettings) error {
	if err := codec.CheckDailySettings(s); err != nil {
		return fmt.Errorf("save daily settings of %s: %w", s.GuildID, err)
	}
	_, err := db.db.ExecContext(ctx, codec.SaveDailySettingsSQL, codec.DailySettingsArgs(s)...)
	if err != nil {
		return fmt.Errorf("save daily settings of %s: %w", s.GuildID, err)
	}
	return nil
}

// DailySettings returns a server's settings, or an error wrapping
// contest.ErrNotFound when it never set any up.
func (db *DB) DailySettings(ctx context.Context, guildID string) (contest.DailySettings, error) {
	row := db.db.QueryRowContext(ctx, `SELECT `+codec.DailySettingsColumns+` FROM daily_configs WHERE guild_id = ?`, guildID)
	s, err := codec.One(row.Scan, sql.ErrNoRows, codec.DailySettingsRow.Settings)
	if err != nil {
		return contest.DailySettings{}, fmt.Errorf("daily settings of %s: %w", guildID, err)
	}
	return s, nil
}

// EnabledDailies lists the servers whose daily is posted automatically.
func (db *DB) EnabledDailies(ctx context.Context) ([]contest.DailySettings, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT `+codec.DailySettingsColumns+` FROM daily_configs WHERE enabled = 1 ORDER BY guild_id`)
	return collect(rows, err, "enabled dailies", codec.DailySettingsRow.Settings)
}

// ClaimDailyPost writes p as claim number p.Attempts: the day's first
// claim inserts its row, whose primary key makes that happen once even
// across processes; a later claim replaces claim p.Attempts−1 of a day not
// yet posted. Anything else changes nothing and wraps contest.ErrConflict.
// The day keeps the maze of its first claim.
func (db *DB) ClaimDailyPost(ctx context.Context, p contest.DailyPost) error {
	what := fmt.Sprintf("claim daily post %s/%s #%d", p.GuildID, p.Date, p.Attempts)
	var (
		res sql.Result
		err error
	)
	if p.Attempts == 1 {
		res, err = db.db.ExecContext(ctx, codec.ClaimFirstDailyPostSQL,
			p.GuildID, p.Date.String(), p.ChannelID, p.MazeID.String(), codec.Millis(p.ClaimedAt))
	} else {
		res, err = db.db.ExecContext(ctx, codec.ClaimNextDailyPostSQL,
			p.Attempts, codec.Millis(p.ClaimedAt), p.ChannelID, p.GuildID, p.Date.String(), p.Attempts-1)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return expectOne(res, what)
}

// SetDailyPosted records the message of a claimed day, also one whose
// latest attempt failed: an earlier attempt's post may land late.
func (db *DB) SetDailyPosted(ctx context.Context, guildID string, date contest.Date, messageID string) error {
	what := fmt.Sprintf("mark daily post %s/%s posted", guildID, date)
	res, err := db.db.ExecContext(ctx, codec.DailyPostedSQL, messageID, guildID, date.String())
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return expectOne(res, what)
}

// SetDailyFailed releases claim number attempt of a day whose post
// failed, so that a later claim may try again; refused counts the attempt
// as one the channel refused. A claim taken over since changes nothing.
func (db *DB) SetDailyFailed(ctx context.Context, guildID string, date contest.Date, attempt int, refused bool) error {
	what := fmt.Sprintf("mark daily post %s/%s #%d failed", guildID, date, attempt)
	res, err := db.db.ExecContext(ctx, codec.DailyFailedSQL, refused, guildID, date.String(), attempt)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return expectOne(res, what)
}

// DailyMaze returns the maze fixed for a server's date, or an error
// wrapping contest.ErrNotFound.
func (db *DB) DailyMaze(ctx context.Context, guildID string, date contest.Date) (mazecore.ID, error) {
	row := db.db.QueryRowContext(ctx, `SELECT `+codec.DailyMazeColumns+` FROM daily_mazes WHERE guild_id = ? AND date = ?`, guildID, date.String())
	m, err := codec.One(row.Scan, sql.ErrNoRows, codec.DailyMazeRow.DailyMaze)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("daily maze %s/%s: %w", guildID, date, err)
	}
	return m.MazeID, nil
}

// FixDailyMaze records m as its server's daily of its date unless one is
// recorded, and returns the recorded maze. The primary key keeps the first
// of two processes fixing a day at once.
func (db *DB) FixDailyMaze(ctx context.Context, m contest.DailyMaze) (mazecore.ID, error) {
	if _, err := db.db.ExecContext(ctx, codec.FixDailyMazeSQL, m.GuildID, m.Date.String(), m.MazeID.String()); err != nil {
		return mazecore.ID{}, fmt.Errorf("fix daily maze %s/%s: %w", m.GuildID, m.Date, err)
	}
	return db.DailyMaze(ctx, m.GuildID, m.Date)
}

// dailiesOnMazeSQL is a constant so the tests can check its plan.
const dailiesOnMazeSQL = `SELECT ` + codec.DailyMazeColumns + ` FROM daily_mazes WHERE maze_id = ? ORDER BY guild_id, date`

// DailiesOnMaze lists every server day whose fixed daily is maze: one,
// almost always (32-bit seeds may collide).
func (db *DB) DailiesOnMaze(ctx context.Context, maze mazecore.ID) ([]contest.DailyMaze, error) {
	rows, err := db.db.QueryContext(ctx, dailiesOnMazeSQL, maze.String())
	return collect(rows, err, "dailies on maze "+maze.String(), codec.DailyMazeRow.DailyMaze)
}

// DailyPost returns the post of a server's day, or an error wrapping
// contest.ErrNotFound.
func (db *DB) DailyPost(ctx context.Context, guildID string, date contest.Date) (contest.DailyPost, error) {
	row := db.db.QueryRowContext(ctx, `SELECT `+codec.DailyPostColumns+` FROM daily_posts WHERE guild_id = ? AND date = ?`,
		guildID, date.String())
	p, err := codec.One(row.Scan, sql.ErrNoRows, codec.DailyPostRow.Post)
	if err != nil {
		return contest.DailyPost{}, fmt.Errorf("daily post %s/%s: %w", guildID, date, err)
	}
	return p, nil
}

// bestRuns returns each member's best run in a contest up to until.
func (db *DB) bestRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	rows, err := db.db.QueryContext(ctx, codec.BestRunsSQL, key.String(), codec.Millis(until))
	return collect(rows, err, "best runs of "+key.String(), codec.RunRow.Run)
}

// DayRuns returns each member's best run on a server's daily of one
// local date, best first: fastest, then fewest tiles, then earliest.
func (db *DB) DayRuns(ctx context.Context, guildID string, date contest.Date) ([]contest.Run, error) {
	return db.bestRuns(ctx, contest.DailyKey(guildID, date), codec.Forever)
}

// EventRuns returns each member's best run in an event up to its end.
func (db *DB) EventRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	return db.bestRuns(ctx, key, until)
}

// Totals sums each member's best daily runs of a server over the local
// dates from..to (inclusive), ranked: most days solved, then least total
// time, then fewest total tiles, then the earliest last finish.
func (db *DB) Totals(ctx context.Context, guildID string, from, to contest.Date) ([]contest.Total, error) {
	rows, err := db.db.QueryContext(ctx, codec.DailyTotalsSQL, contest.DailyKey(guildID, from).String(), contest.DailyKey(guildID, to).String())
	return collect(rows, err, fmt.Sprintf("daily totals %s %s..%s", guildID, from, to), codec.TotalRow.Total)
}

// SolvedDates lists the local dates, newest first and none after upTo, on
// which a member finished the server's daily: what a streak is counted
// from.
func (db *DB) SolvedDates(ctx context.Context, guildID, userID string, upTo contest.Date) ([]contest.Date, error) {
	rows, err := db.db.QueryContext(ctx, codec.SolvedDatesSQL,
		contest.DailyKey(guildID, contest.FirstDate).String(), contest.DailyKey(guildID, upTo).String(), userID)
	return collect(rows, err, fmt.Sprintf("daily dates of %s in %s", userID, guildID), codec.DailyKeyRow.Date)
}
