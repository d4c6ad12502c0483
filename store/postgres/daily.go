package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/store/internal/codec"
)

// SaveDailySettings creates or replaces a server's daily challenge
// settings. Settings that DailySettings could not read back are refused.
func (db *DB) SaveDailySettings(ctx context.Context, s contest.DailySettings) error {
	if err := codec.CheckDailySettings(s); err != nil {
		return fmt.Errorf("save daily settings of %s: %w", s.GuildID, err)
	}
	_, err := db.pool.Exec(ctx, saveDailySettingsSQL, codec.DailySettingsArgs(s)...)
	if err != nil {
		return fmt.Errorf("save daily settings of %s: %w", s.GuildID, err)
	}
	return nil
}

// DailySettings returns a server's settings, or an error wrapping
// contest.ErrNotFound when it never set any up.
func (db *DB) DailySettings(ctx context.Context, guildID string) (contest.DailySettings, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+codec.DailySettingsColumns+` FROM daily_configs WHERE guild_id = $1`, guildID)
	s, err := codec.One(row.Scan, pgx.ErrNoRows, codec.DailySettingsRow.Settings)
	if err != nil {
		return contest.DailySettings{}, fmt.Errorf("daily settings of %s: %w", guildID, err)
	}
	return s, nil
}

// EnabledDailies lists the servers whose daily is posted automatically.
func (db *DB) EnabledDailies(ctx context.Context) ([]contest.DailySettings, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+codec.DailySettingsColumns+` FROM daily_configs WHERE enabled ORDER BY guild_id`)
	return collect(rows, "enabled dailies", codec.DailySettingsRow.Settings)
}

// ClaimDailyPost writes p as claim number p.Attempts: the day's first
// claim inserts its row, a later one replaces claim p.Attempts−1 of a day
// not yet posted; anything else changes nothing and wraps
// contest.ErrConflict. Both are one statement: racing first claims meet
// at the primary key (ON CONFLICT waits for the winner's commit), racing
// retries at the row lock, after which the loser's WHERE no longer holds.
func (db *DB) ClaimDailyPost(ctx context.Context, p contest.DailyPost) error {
	var (
		tag pgconn.CommandTag
		err error
	)
	if p.Attempts == 1 {
		tag, err = db.pool.Exec(ctx, claimFirstDailyPostSQL,
			p.GuildID, p.Date.String(), p.ChannelID, p.MazeID.String(), codec.Millis(p.ClaimedAt))
	} else {
		tag, err = db.pool.Exec(ctx, claimNextDailyPostSQL,
			p.Attempts, codec.Millis(p.ClaimedAt), p.ChannelID, p.GuildID, p.Date.String(), p.Attempts-1)
	}
	return expectOne(tag, err, fmt.Sprintf("claim daily post %s/%s #%d", p.GuildID, p.Date, p.Attempts))
}

// SetDailyPosted records the message of a claimed day, also one whose
// latest attempt failed: an earlier attempt's post may land late.
func (db *DB) SetDailyPosted(ctx context.Context, guildID string, date contest.Date, messageID string) error {
	tag, err := db.pool.Exec(ctx, dailyPostedSQL, messageID, guildID, date.String())
	return expectOne(tag, err, fmt.Sprintf("mark daily post %s/%s posted", guildID, date))
}

// SetDailyFailed releases claim number attempt of a day whose post
// failed, so that a later claim may try again; refused counts the attempt
// as one the channel refused. A claim taken over since changes nothing.
func (db *DB) SetDailyFailed(ctx context.Context, guildID string, date contest.Date, attempt int, refused bool) error {
	n := 0
	if refused {
		n = 1
	}
	tag, err := db.pool.Exec(ctx, dailyFailedSQL, n, guildID, date.String(), attempt)
	return expectOne(tag, err, fmt.Sprintf("mark daily post %s/%s #%d failed", guildID, date, attempt))
}

// DailyMaze returns the maze fixed for a server's date, or an error
// wrapping contest.ErrNotFound.
func (db *DB) DailyMaze(ctx context.Context, guildID string, date contest.Date) (mazecore.ID, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+codec.DailyMazeColumns+` FROM daily_mazes WHERE guild_id = $1 AND date = $2`, guildID, date.String())
	m, err := codec.One(row.Scan, pgx.ErrNoRows, codec.DailyMazeRow.DailyMaze)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("daily maze %s/%s: %w", guildID, date, err)
	}
	return m.MazeID, nil
}

// FixDailyMaze records m as its server's daily of its date unless one is
// recorded, and returns the recorded maze. The primary key keeps the first
// of two processes fixing a day at once.
func (db *DB) FixDailyMaze(ctx context.Context, m contest.DailyMaze) (mazecore.ID, error) {
	if _, err := db.pool.Exec(ctx, fixDailyMazeSQL, m.GuildID, m.Date.String(), m.MazeID.String()); err != nil {
		return mazecore.ID{}, fmt.Errorf("fix daily maze %s/%s: %w", m.GuildID, m.Date, err)
	}
	return db.DailyMaze(ctx, m.GuildID, m.Date)
}

// DailiesOnMaze lists every server day whose fixed daily is maze: one,
// almost always (32-bit seeds may collide).
func (db *DB) DailiesOnMaze(ctx context.Context, maze mazecore.ID) ([]contest.DailyMaze, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+codec.DailyMazeColumns+` FROM daily_mazes WHERE maze_id = $1 ORDER BY guild_id, date`, maze.String())
	return collect(rows, "dailies on maze "+maze.String(), codec.DailyMazeRow.DailyMaze)
}

// DailyPost returns the post of a server's day, or an error wrapping
// contest.ErrNotFound.
func (db *DB) DailyPost(ctx context.Context, guildID string, date contest.Date) (contest.DailyPost, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+codec.DailyPostColumns+` FROM daily_posts WHERE guild_id = $1 AND date = $2`,
		guildID, date.String())
	p, err := codec.One(row.Scan, pgx.ErrNoRows, codec.DailyPostRow.Post)
	if err != nil {
		return contest.DailyPost{}, fmt.Errorf("daily post %s/%s: %w", guildID, date, err)
	}
	return p, nil
}

// Statements shared with SQLite (codec), numbered for PostgreSQL.
var (
	saveDailySettingsSQL   = rebind(codec.SaveDailySettingsSQL)
	claimFirstDailyPostSQL = rebind(codec.ClaimFirstDailyPostSQL)
	claimNextDailyPostSQL  = rebind(codec.ClaimNextDailyPostSQL)
	dailyPostedSQL         = rebind(codec.DailyPostedSQL)
	dailyFailedSQL         = rebind(codec.DailyFailedSQL)
	fixDailyMazeSQL        = rebind(codec.FixDailyMazeSQL)
	bestRunsSQL            = rebind(codec.BestRunsSQL)
	dailyTotalsSQL         = rebind(codec.DailyTotalsSQL)
	solvedDatesSQL         = rebind(codec.SolvedDatesSQL)
)

// bestRuns returns each member's best run in a contest up to until.
func (db *DB) bestRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	rows, _ := db.pool.Query(ctx, bestRunsSQL, key.String(), codec.Millis(until))
	return collect(rows, "best runs of "+key.String(), codec.RunRow.Run)
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
	rows, _ := db.pool.Query(ctx, dailyTotalsSQL, contest.DailyKey(guildID, from).String(), contest.DailyKey(guildID, to).String())
	return collect(rows, fmt.Sprintf("daily totals %s %s..%s", guildID, from, to), codec.TotalRow.Total)
}

// SolvedDates lists the local dates, newest first and none after upTo, on
// which a member finished the server's daily: what a streak is counted
// from.
func (db *DB) SolvedDates(ctx context.Context, guildID, userID string, upTo contest.Date) ([]contest.Date, error) {
	rows, _ := db.pool.Query(ctx, solvedDatesSQL,
		contest.DailyKey(guildID, contest.FirstDate).String(), contest.DailyKey(guildID, upTo).String(), userID)
	return collect(rows, fmt.Sprintf("daily dates of %s in %s", userID, guildID), codec.DailyKeyRow.Date)
}
