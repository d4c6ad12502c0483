package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
)

// The stored spelling of the daily post states; the schema's CHECK lists them.
var postStates = map[contest.PostState]string{contest.Posting: "posting", contest.Posted: "posted", contest.Failed: "failed"}

// SaveDailySettings creates or replaces a server's daily challenge
// settings. Settings that DailySettings could not read back (a post time
// past 23:59, an unknown algorithm, a size no maze has) are refused.
func (db *DB) SaveDailySettings(ctx context.Context, s contest.DailySettings) error {
	if s.PostAt < 0 || s.PostAt >= 24*60 {
		return fmt.Errorf("save daily settings of %s: post time %d minutes after midnight", s.GuildID, int(s.PostAt))
	}
	if err := (mazecore.ID{Algorithm: s.Algorithm, Width: s.Size, Height: s.Size}).Validate(); err != nil {
		return fmt.Errorf("save daily settings of %s: %w", s.GuildID, err)
	}
	_, err := db.db.ExecContext(ctx, `
		INSERT INTO daily_configs (guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, post_at = excluded.post_at,
			time_zone = excluded.time_zone, algorithm = excluded.algorithm, size = excluded.size,
			enabled = excluded.enabled, updated_at = excluded.updated_at`,
		s.GuildID, s.ChannelID, s.PostAt.String(), s.Zone.String(), s.Algorithm.String(), s.Size, s.Enabled, toMillis(s.UpdatedAt))
	if err != nil {
		return fmt.Errorf("save daily settings of %s: %w", s.GuildID, err)
	}
	return nil
}

const dailySettingsColumns = `guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at`

func scanDailySettings(row interface{ Scan(...any) error }) (contest.DailySettings, error) {
	var (
		s                  contest.DailySettings
		postAt, zone, algo string
		updated            int64
	)
	if err := row.Scan(&s.GuildID, &s.ChannelID, &postAt, &zone, &algo, &s.Size, &s.Enabled, &updated); err != nil {
		return s, err
	}
	var ok bool
	if s.PostAt, ok = contest.ParseTimeOfDay(postAt); !ok {
		return s, fmt.Errorf("post time %q", postAt)
	}
	var err error
	if s.Zone, err = time.LoadLocation(zone); err != nil {
		return s, fmt.Errorf("zone %q: %w", zone, err)
	}
	if s.Algorithm, err = mazecore.ParseAlgorithm(algo); err != nil {
		return s, err
	}
	s.UpdatedAt = fromMillis(updated)
	return s, nil
}

// DailySettings returns a server's settings, or an error wrapping
// contest.ErrNotFound when it never set any up.
func (db *DB) DailySettings(ctx context.Context, guildID string) (contest.DailySettings, error) {
	s, err := scanDailySettings(db.db.QueryRowContext(ctx, `SELECT `+dailySettingsColumns+` FROM daily_configs WHERE guild_id = ?`, guildID))
	if errors.Is(err, sql.ErrNoRows) {
		err = contest.ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("daily settings of %s: %w", guildID, err)
	}
	return s, nil
}

// EnabledDailies lists the servers whose daily is posted automatically.
func (db *DB) EnabledDailies(ctx context.Context) ([]contest.DailySettings, error) {
	const what = "enabled dailies"
	rows, err := db.db.QueryContext(ctx, `SELECT `+dailySettingsColumns+` FROM daily_configs WHERE enabled = 1 ORDER BY guild_id`)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return collect(rows, what, func(rows *sql.Rows) (contest.DailySettings, error) { return scanDailySettings(rows) })
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
		res, err = db.db.ExecContext(ctx, `
			INSERT INTO daily_posts (guild_id, date, channel_id, maze_id, message_id, status, attempts, claimed_at)
			VALUES (?, ?, ?, ?, '', 'posting', 1, ?)
			ON CONFLICT (guild_id, date) DO NOTHING`,
			p.GuildID, p.Date.String(), p.ChannelID, p.MazeID.String(), toMillis(p.ClaimedAt))
	} else {
		res, err = db.db.ExecContext(ctx, `
			UPDATE daily_posts SET status = 'posting', attempts = ?, claimed_at = ?, channel_id = ?
			WHERE guild_id = ? AND date = ? AND attempts = ? AND status <> 'posted'`,
			p.Attempts, toMillis(p.ClaimedAt), p.ChannelID, p.GuildID, p.Date.String(), p.Attempts-1)
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
	res, err := db.db.ExecContext(ctx, `
		UPDATE daily_posts SET status = 'posted', message_id = ? WHERE guild_id = ? AND date = ? AND status <> 'posted'`,
		messageID, guildID, date.String())
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
	res, err := db.db.ExecContext(ctx, `
		UPDATE daily_posts SET status = 'failed', refused = refused + ?
		WHERE guild_id = ? AND date = ? AND status = 'posting' AND attempts = ?`,
		refused, guildID, date.String(), attempt)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return expectOne(res, what)
}

// DailyMaze returns the maze fixed for a server's date, or an error
// wrapping contest.ErrNotFound.
func (db *DB) DailyMaze(ctx context.Context, guildID string, date contest.Date) (mazecore.ID, error) {
	var text string
	err := db.db.QueryRowContext(ctx, `SELECT maze_id FROM daily_mazes WHERE guild_id = ? AND date = ?`, guildID, date.String()).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		err = contest.ErrNotFound
	}
	var id mazecore.ID
	if err == nil {
		id, err = mazecore.Parse(text)
	}
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("daily maze %s/%s: %w", guildID, date, err)
	}
	return id, nil
}

// FixDailyMaze records m as its server's daily of its date unless one is
// recorded, and returns the recorded maze. The primary key keeps the first
// of two processes fixing a day at once.
func (db *DB) FixDailyMaze(ctx context.Context, m contest.DailyMaze) (mazecore.ID, error) {
	what := fmt.Sprintf("fix daily maze %s/%s", m.GuildID, m.Date)
	if _, err := db.db.ExecContext(ctx, `
		INSERT INTO daily_mazes (guild_id, date, maze_id) VALUES (?, ?, ?)
		ON CONFLICT (guild_id, date) DO NOTHING`, m.GuildID, m.Date.String(), m.MazeID.String()); err != nil {
		return mazecore.ID{}, fmt.Errorf("%s: %w", what, err)
	}
	return db.DailyMaze(ctx, m.GuildID, m.Date)
}

// dailiesOnMazeSQL is a constant so the tests can check its plan.
const dailiesOnMazeSQL = `SELECT guild_id, date, maze_id FROM daily_mazes WHERE maze_id = ? ORDER BY guild_id, date`

// DailiesOnMaze lists every server day whose fixed daily is maze: one,
// almost always (32-bit seeds may collide).
func (db *DB) DailiesOnMaze(ctx context.Context, maze mazecore.ID) ([]contest.DailyMaze, error) {
	what := "dailies on maze " + maze.String()
	rows, err := db.db.QueryContext(ctx, dailiesOnMazeSQL, maze.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return collect(rows, what, func(rows *sql.Rows) (contest.DailyMaze, error) {
		var (
			m          contest.DailyMaze
			date, text string
		)
		err := rows.Scan(&m.GuildID, &date, &text)
		if err == nil {
			m.Date, err = contest.ParseDate(date)
		}
		if err == nil {
			m.MazeID, err = mazecore.Parse(text)
		}
		return m, err
	})
}

// DailyPost returns the post of a server's day, or an error wrapping
// contest.ErrNotFound.
func (db *DB) DailyPost(ctx context.Context, guildID string, date contest.Date) (contest.DailyPost, error) {
	var (
		p                contest.DailyPost
		day, maze, state string
		claimed          int64
	)
	err := db.db.QueryRowContext(ctx, `
		SELECT guild_id, date, channel_id, maze_id, message_id, status, attempts, refused, claimed_at
		FROM daily_posts WHERE guild_id = ? AND date = ?`, guildID, date.String()).Scan(
		&p.GuildID, &day, &p.ChannelID, &maze, &p.MessageID, &state, &p.Attempts, &p.Refused, &claimed)
	if errors.Is(err, sql.ErrNoRows) {
		err = contest.ErrNotFound
	}
	if err == nil {
		p.Date, err = contest.ParseDate(day)
	}
	if err == nil {
		p.MazeID, err = mazecore.Parse(maze)
	}
	if err == nil {
		p.State, err = statusOf(postStates, state)
	}
	if err != nil {
		return contest.DailyPost{}, fmt.Errorf("daily post %s/%s: %w", guildID, date, err)
	}
	p.ClaimedAt = fromMillis(claimed)
	return p, nil
}

// bestRunsSQL picks each member's best run of one contest up to a time:
// the finishes are all kept, rankings read the best.
const bestRunsSQL = `
		SELECT user_id, elapsed_ms, tiles, clicks, finished_at FROM (
			SELECT user_id, elapsed_ms, tiles, clicks, finished_at, id,
				row_number() OVER (PARTITION BY user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes
			WHERE context = ? AND finished_at <= ?
		)
		WHERE n = 1
		ORDER BY elapsed_ms, tiles, finished_at, id`

// bestRuns returns each member's best run in a contest up to until.
func (db *DB) bestRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	what := "best runs of " + key.String()
	rows, err := db.db.QueryContext(ctx, bestRunsSQL, key.String(), toMillis(until))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return collect(rows, what, func(rows *sql.Rows) (contest.Run, error) {
		var (
			r             contest.Run
			elapsed, done int64
		)
		err := rows.Scan(&r.UserID, &elapsed, &r.Tiles, &r.Clicks, &done)
		r.Elapsed, r.FinishedAt = time.Duration(elapsed)*time.Millisecond, fromMillis(done)
		return r, err
	})
}

// forever is later than any finish.
var forever = time.UnixMilli(1<<62 - 1)

// DayRuns returns each member's best run on a server's daily of one
// local date, best first: fastest, then fewest tiles, then earliest.
func (db *DB) DayRuns(ctx context.Context, guildID string, date contest.Date) ([]contest.Run, error) {
	return db.bestRuns(ctx, contest.DailyKey(guildID, date), forever)
}

// EventRuns returns each member's best run in an event up to its end.
func (db *DB) EventRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	return db.bestRuns(ctx, key, until)
}

// dailyTotalsSQL sums the best run of each day: daily keys sort by date
// within a server, so a range of days is a range of keys.
const dailyTotalsSQL = `
		WITH best AS (
			SELECT user_id, elapsed_ms, tiles, finished_at,
				row_number() OVER (PARTITION BY context, user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes WHERE context BETWEEN ? AND ?)
		SELECT user_id, count(*), sum(elapsed_ms), sum(tiles)
		FROM best WHERE n = 1
		GROUP BY user_id
		ORDER BY count(*) DESC, sum(elapsed_ms), sum(tiles), max(finished_at), user_id`

// Totals sums each member's best daily runs of a server over the local
// dates from..to (inclusive), ranked: most days solved, then least total
// time, then fewest total tiles, then the earliest last finish.
func (db *DB) Totals(ctx context.Context, guildID string, from, to contest.Date) ([]contest.Total, error) {
	what := fmt.Sprintf("daily totals %s %s..%s", guildID, from, to)
	rows, err := db.db.QueryContext(ctx, dailyTotalsSQL, contest.DailyKey(guildID, from).String(), contest.DailyKey(guildID, to).String())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return collect(rows, what, func(rows *sql.Rows) (contest.Total, error) {
		var (
			t       contest.Total
			elapsed int64
		)
		err := rows.Scan(&t.UserID, &t.Days, &elapsed, &t.Tiles)
		t.Elapsed = time.Duration(elapsed) * time.Millisecond
		return t, err
	})
}

// solvedDatesSQL lists a member's days of one server: its daily keys are
// a range of contexts.
const solvedDatesSQL = `
		SELECT DISTINCT context FROM finishes
		WHERE context BETWEEN ? AND ? AND user_id = ?
		ORDER BY 1 DESC`

// SolvedDates lists the local dates, newest first and none after upTo, on
// which a member finished the server's daily: what a streak is counted
// from.
func (db *DB) SolvedDates(ctx context.Context, guildID, userID string, upTo contest.Date) ([]contest.Date, error) {
	what := fmt.Sprintf("daily dates of %s in %s", userID, guildID)
	rows, err := db.db.QueryContext(ctx, solvedDatesSQL,
		contest.DailyKey(guildID, contest.FirstDate).String(), contest.DailyKey(guildID, upTo).String(), userID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return collect(rows, what, func(rows *sql.Rows) (contest.Date, error) {
		var text string
		if err := rows.Scan(&text); err != nil {
			return contest.Date{}, err
		}
		key, ok := contest.ParseKey(text)
		_, date, daily := key.Daily()
		if !ok || !daily {
			return contest.Date{}, fmt.Errorf("contest %q is not a daily", text)
		}
		return date, nil
	})
}
