package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mazebot/store"
)

// SetDailyConfig creates or replaces a server's daily challenge settings.
func (db *DB) SetDailyConfig(ctx context.Context, c store.DailyConfig) error {
	_, err := db.db.ExecContext(ctx, `
		INSERT INTO daily_configs (guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, post_at = excluded.post_at,
			time_zone = excluded.time_zone, algorithm = excluded.algorithm, size = excluded.size,
			enabled = excluded.enabled, updated_at = excluded.updated_at`,
		c.GuildID, c.ChannelID, c.PostAt, c.TimeZone, c.Algorithm, c.Size, c.Enabled, toMillis(c.UpdatedAt))
	if err != nil {
		return fmt.Errorf("set daily config of %s: %w", c.GuildID, err)
	}
	return nil
}

const dailyConfigColumns = `guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at`

// dailyRow is a *sql.Row or *sql.Rows.
type dailyRow interface{ Scan(dest ...any) error }

func scanDailyConfig(row dailyRow) (store.DailyConfig, error) {
	var (
		c       store.DailyConfig
		updated int64
	)
	if err := row.Scan(&c.GuildID, &c.ChannelID, &c.PostAt, &c.TimeZone, &c.Algorithm, &c.Size, &c.Enabled, &updated); err != nil {
		return c, err
	}
	c.UpdatedAt = fromMillis(updated)
	return c, nil
}

// DailyConfig returns a server's settings, or an error wrapping
// store.ErrNotFound when it never set any up.
func (db *DB) DailyConfig(ctx context.Context, guildID string) (store.DailyConfig, error) {
	c, err := scanDailyConfig(db.db.QueryRowContext(ctx, `SELECT `+dailyConfigColumns+` FROM daily_configs WHERE guild_id = ?`, guildID))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("daily config of %s: %w", guildID, store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("daily config of %s: %w", guildID, err)
	}
	return c, nil
}

// EnabledDailyConfigs lists the servers whose daily is posted automatically.
func (db *DB) EnabledDailyConfigs(ctx context.Context) ([]store.DailyConfig, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT `+dailyConfigColumns+` FROM daily_configs WHERE enabled = 1 ORDER BY guild_id`)
	if err != nil {
		return nil, fmt.Errorf("enabled daily configs: %w", err)
	}
	defer rows.Close()
	var out []store.DailyConfig
	for rows.Next() {
		c, err := scanDailyConfig(rows)
		if err != nil {
			return nil, fmt.Errorf("enabled daily configs: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("enabled daily configs: %w", err)
	}
	return out, nil
}

// ClaimDailyPost claims the right to post p's day in p's server, and
// reports whether this caller got it. The first claim of a day inserts the
// row; the primary key makes that happen once, even across processes. A
// later claim succeeds only on a day not yet posted whose last claim is
// older than retryBefore (a crash mid-post, or a failed post) and that has
// had fewer than maxAttempts claims: such a retry may post twice if the
// first attempt did reach Discord, which is the price of not losing a day.
func (db *DB) ClaimDailyPost(ctx context.Context, p store.DailyPost, retryBefore time.Time, maxAttempts int) (bool, error) {
	res, err := db.db.ExecContext(ctx, `
		INSERT INTO daily_posts (guild_id, date, channel_id, maze_id, message_id, status, attempts, claimed_at)
		VALUES (?, ?, ?, ?, '', 'posting', 1, ?)
		ON CONFLICT (guild_id, date) DO UPDATE SET status = 'posting', attempts = attempts + 1,
			claimed_at = excluded.claimed_at, channel_id = excluded.channel_id, maze_id = excluded.maze_id
		WHERE status <> 'posted' AND claimed_at < ? AND attempts < ?`,
		p.GuildID, p.Date, p.ChannelID, p.MazeID, toMillis(p.ClaimedAt), toMillis(retryBefore), maxAttempts)
	if err != nil {
		return false, fmt.Errorf("claim daily post %s/%s: %w", p.GuildID, p.Date, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("claim daily post %s/%s: %w", p.GuildID, p.Date, err)
	}
	return n == 1, nil
}

// MarkDailyPosted records the message of a claimed day.
func (db *DB) MarkDailyPosted(ctx context.Context, guildID, date, messageID string) error {
	res, err := db.db.ExecContext(ctx, `
		UPDATE daily_posts SET status = 'posted', message_id = ? WHERE guild_id = ? AND date = ? AND status = 'posting'`,
		messageID, guildID, date)
	if err != nil {
		return fmt.Errorf("mark daily post %s/%s posted: %w", guildID, date, err)
	}
	return expectOne(res, fmt.Sprintf("mark daily post %s/%s posted", guildID, date))
}

// MarkDailyFailed releases a claimed day whose post failed, so that a
// later claim (after the retry delay) may try again.
func (db *DB) MarkDailyFailed(ctx context.Context, guildID, date string) error {
	res, err := db.db.ExecContext(ctx, `
		UPDATE daily_posts SET status = 'failed' WHERE guild_id = ? AND date = ? AND status = 'posting'`,
		guildID, date)
	if err != nil {
		return fmt.Errorf("mark daily post %s/%s failed: %w", guildID, date, err)
	}
	return expectOne(res, fmt.Sprintf("mark daily post %s/%s failed", guildID, date))
}

// DailyPost returns the post row of a server's day, or an error wrapping
// store.ErrNotFound.
func (db *DB) DailyPost(ctx context.Context, guildID, date string) (store.DailyPost, error) {
	var (
		p       store.DailyPost
		claimed int64
	)
	err := db.db.QueryRowContext(ctx, `
		SELECT guild_id, date, channel_id, maze_id, message_id, status, attempts, claimed_at
		FROM daily_posts WHERE guild_id = ? AND date = ?`, guildID, date).Scan(
		&p.GuildID, &p.Date, &p.ChannelID, &p.MazeID, &p.MessageID, &p.Status, &p.Attempts, &claimed)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("daily post %s/%s: %w", guildID, date, store.ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("daily post %s/%s: %w", guildID, date, err)
	}
	p.ClaimedAt = fromMillis(claimed)
	return p, nil
}

// dailyBestsSQL picks each member's best run of one day: the finishes are
// all kept, the ranking reads the best.
const dailyBestsSQL = `
		SELECT user_id, elapsed_ms, tiles, clicks, finished_at FROM (
			SELECT user_id, elapsed_ms, tiles, clicks, finished_at, id,
				row_number() OVER (PARTITION BY user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes WHERE context = ?)
		WHERE n = 1
		ORDER BY elapsed_ms, tiles, finished_at, id`

// DailyBests returns each member's best run on a server's daily of one
// local date, best first: fastest, then fewest tiles, then earliest.
func (db *DB) DailyBests(ctx context.Context, guildID, date string) ([]store.DailyResult, error) {
	rows, err := db.db.QueryContext(ctx, dailyBestsSQL, store.DailyContext(guildID, date))
	if err != nil {
		return nil, fmt.Errorf("daily bests %s/%s: %w", guildID, date, err)
	}
	defer rows.Close()
	var out []store.DailyResult
	for rows.Next() {
		var (
			r             store.DailyResult
			elapsed, done int64
		)
		if err := rows.Scan(&r.UserID, &elapsed, &r.Tiles, &r.Clicks, &done); err != nil {
			return nil, fmt.Errorf("daily bests %s/%s: %w", guildID, date, err)
		}
		r.Date, r.Elapsed, r.FinishedAt = date, time.Duration(elapsed)*time.Millisecond, fromMillis(done)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("daily bests %s/%s: %w", guildID, date, err)
	}
	return out, nil
}

// Date bounds that include every day.
const (
	dailyFirstDate = "0000-00-00"
	dailyLastDate  = "9999-99-99"
)

const dailyTotalsSQL = `
		WITH best AS (
			SELECT user_id, elapsed_ms, tiles, finished_at,
				row_number() OVER (PARTITION BY context, user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes WHERE context BETWEEN ? AND ?)
		SELECT user_id, count(*), sum(elapsed_ms), sum(tiles), max(finished_at)
		FROM best WHERE n = 1
		GROUP BY user_id
		ORDER BY count(*) DESC, sum(elapsed_ms), sum(tiles), max(finished_at), user_id`

// DailyTotals sums each member's best daily runs of a server over the
// local dates from..to (inclusive; "" for no bound), ranked: most days
// solved, then least total time, then fewest total tiles.
func (db *DB) DailyTotals(ctx context.Context, guildID, from, to string) ([]store.DailyTotal, error) {
	if from == "" {
		from = dailyFirstDate
	}
	if to == "" {
		to = dailyLastDate
	}
	rows, err := db.db.QueryContext(ctx, dailyTotalsSQL, store.DailyContext(guildID, from), store.DailyContext(guildID, to))
	if err != nil {
		return nil, fmt.Errorf("daily totals %s %s..%s: %w", guildID, from, to, err)
	}
	defer rows.Close()
	var out []store.DailyTotal
	for rows.Next() {
		var (
			t             store.DailyTotal
			elapsed, last int64
		)
		if err := rows.Scan(&t.UserID, &t.Days, &elapsed, &t.Tiles, &last); err != nil {
			return nil, fmt.Errorf("daily totals %s: %w", guildID, err)
		}
		t.Elapsed, t.LastFinish = time.Duration(elapsed)*time.Millisecond, fromMillis(last)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("daily totals %s: %w", guildID, err)
	}
	return out, nil
}

// DailyDates lists the local dates, newest first and none after upTo, on
// which a member finished the server's daily: what a streak is counted
// from.
func (db *DB) DailyDates(ctx context.Context, guildID, userID, upTo string) ([]string, error) {
	prefix := store.DailyContext(guildID, "")
	rows, err := db.db.QueryContext(ctx, `
		SELECT DISTINCT substr(context, ?) FROM finishes
		WHERE context BETWEEN ? AND ? AND user_id = ?
		ORDER BY 1 DESC`,
		len(prefix)+1, prefix+dailyFirstDate, prefix+upTo, userID)
	if err != nil {
		return nil, fmt.Errorf("daily dates of %s in %s: %w", userID, guildID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, fmt.Errorf("daily dates of %s in %s: %w", userID, guildID, err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("daily dates of %s in %s: %w", userID, guildID, err)
	}
	return out, nil
}

// GuildsWithMaze lists up to limit servers in which a maze was posted
// (by /maze, /daily or the daily post).
func (db *DB) GuildsWithMaze(ctx context.Context, mazeID string, limit int) ([]string, error) {
	rows, err := db.db.QueryContext(ctx, `
		SELECT DISTINCT guild_id FROM posts WHERE maze_id = ? AND guild_id <> '' ORDER BY guild_id LIMIT ?`, mazeID, limit)
	if err != nil {
		return nil, fmt.Errorf("servers with maze %s: %w", mazeID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			return nil, fmt.Errorf("servers with maze %s: %w", mazeID, err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("servers with maze %s: %w", mazeID, err)
	}
	return out, nil
}
