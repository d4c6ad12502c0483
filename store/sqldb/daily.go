package sqldb

import (
	"context"
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
)

// SaveDailySettings creates or replaces a server's daily challenge
// settings. Settings that DailySettings could not read back (a post time
// past 23:59, an unknown algorithm, a size no maze has) are refused.
func (s *Store) SaveDailySettings(ctx context.Context, ds contest.DailySettings) error {
	return do(s, ctx, "SaveDailySettings", "save daily settings of "+ds.GuildID, writes, func(q q) error {
		if err := checkDailySettings(ds); err != nil {
			return err
		}
		_, err := q.exec(`
			INSERT INTO daily_configs (`+dailySettingsColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, post_at = excluded.post_at,
				time_zone = excluded.time_zone, algorithm = excluded.algorithm, size = excluded.size,
				difficulty = excluded.difficulty, loops = excluded.loops, language = excluded.language,
				enabled = excluded.enabled, updated_at = excluded.updated_at,
				prev_zone = excluded.prev_zone, zone_from = excluded.zone_from, grid = excluded.grid, shape = excluded.shape`,
			dailySettingsArgs(ds)...)
		return err
	})
}

// DailySettings returns a server's settings, or an error wrapping
// contest.ErrNotFound when it never set any up.
func (s *Store) DailySettings(ctx context.Context, guildID string) (contest.DailySettings, error) {
	return call(s, ctx, "DailySettings", "daily settings of "+guildID, reads, func(q q) (contest.DailySettings, error) {
		return one(q, dailySettingsRow.settings, `SELECT `+dailySettingsColumns+` FROM daily_configs WHERE guild_id = ?`, guildID)
	})
}

// EnabledDailies lists the servers whose daily is posted automatically.
func (s *Store) EnabledDailies(ctx context.Context) ([]contest.DailySettings, error) {
	return call(s, ctx, "EnabledDailies", "enabled dailies", reads, func(q q) ([]contest.DailySettings, error) {
		return all(q, dailySettingsRow.settings, `SELECT `+dailySettingsColumns+` FROM daily_configs WHERE enabled = TRUE ORDER BY guild_id`)
	})
}

// ClaimDailyPost writes p as claim number p.Attempts: the day's first
// claim inserts its row, whose primary key makes that happen once even
// across processes (ON CONFLICT waits for a racing insert to commit); a
// later claim replaces claim p.Attempts−1 of a day not yet posted, and of
// racing ones the row lock lets one through, after which the others'
// WHERE no longer holds. Anything else changes nothing and wraps
// contest.ErrConflict. The day keeps the maze of its first claim.
func (s *Store) ClaimDailyPost(ctx context.Context, p contest.DailyPost) error {
	return do(s, ctx, "ClaimDailyPost", fmt.Sprintf("claim daily post %s/%s #%d", p.GuildID, p.Date, p.Attempts), writes, func(q q) error {
		if p.Attempts == 1 {
			return q.claim(`
				INSERT INTO daily_posts (`+dailyPostColumns+`)
				VALUES (?, ?, ?, ?, '', 'posting', 1, 0, ?)
				ON CONFLICT (guild_id, date) DO NOTHING`,
				p.GuildID, p.Date.String(), p.ChannelID, p.MazeID.String(), millis(p.ClaimedAt))
		}
		return q.claim(`
			UPDATE daily_posts SET status = 'posting', attempts = ?, claimed_at = ?, channel_id = ?
			WHERE guild_id = ? AND date = ? AND attempts = ? AND status <> 'posted'`,
			p.Attempts, millis(p.ClaimedAt), p.ChannelID, p.GuildID, p.Date.String(), p.Attempts-1)
	})
}

// SetDailyPosted records the message of a claimed day, also one whose
// latest attempt failed: an earlier attempt's post may land late.
func (s *Store) SetDailyPosted(ctx context.Context, guildID string, date contest.Date, messageID string) error {
	return do(s, ctx, "SetDailyPosted", fmt.Sprintf("mark daily post %s/%s posted", guildID, date), writes, func(q q) error {
		return q.claim(`UPDATE daily_posts SET status = 'posted', message_id = ? WHERE guild_id = ? AND date = ? AND status <> 'posted'`,
			messageID, guildID, date.String())
	})
}

// SetDailyFailed releases claim number attempt of a day whose post
// failed, so that a later claim may try again; refused counts the attempt
// as one the channel refused. A claim taken over since changes nothing.
func (s *Store) SetDailyFailed(ctx context.Context, guildID string, date contest.Date, attempt int, refused bool) error {
	n := 0
	if refused {
		n = 1
	}
	return do(s, ctx, "SetDailyFailed", fmt.Sprintf("mark daily post %s/%s #%d failed", guildID, date, attempt), writes, func(q q) error {
		return q.claim(`
			UPDATE daily_posts SET status = 'failed', refused = refused + ?
			WHERE guild_id = ? AND date = ? AND status = 'posting' AND attempts = ?`,
			n, guildID, date.String(), attempt)
	})
}

// dailyMazeSQL reads a server day's maze.
const dailyMazeSQL = `SELECT ` + dailyMazeColumns + ` FROM daily_mazes WHERE guild_id = ? AND date = ?`

// DailyMaze returns the maze fixed for a server's date, or an error
// wrapping contest.ErrNotFound.
func (s *Store) DailyMaze(ctx context.Context, guildID string, date contest.Date) (mazecore.ID, error) {
	return call(s, ctx, "DailyMaze", fmt.Sprintf("daily maze %s/%s", guildID, date), reads, func(q q) (mazecore.ID, error) {
		m, err := one(q, dailyMazeRow.dailyMaze, dailyMazeSQL, guildID, date.String())
		return m.MazeID, err
	})
}

// FixDailyMaze records m as its server's daily of its date unless one is
// recorded, and returns the recorded maze. The primary key keeps the first
// of two processes fixing a day at once.
func (s *Store) FixDailyMaze(ctx context.Context, m contest.DailyMaze) (mazecore.ID, error) {
	return call(s, ctx, "FixDailyMaze", fmt.Sprintf("fix daily maze %s/%s", m.GuildID, m.Date), writes, func(q q) (mazecore.ID, error) {
		if _, err := q.exec(`INSERT INTO daily_mazes (`+dailyMazeColumns+`) VALUES (?, ?, ?) ON CONFLICT (guild_id, date) DO NOTHING`,
			m.GuildID, m.Date.String(), m.MazeID.String()); err != nil {
			return mazecore.ID{}, err
		}
		fixed, err := one(q, dailyMazeRow.dailyMaze, dailyMazeSQL, m.GuildID, m.Date.String())
		return fixed.MazeID, err
	})
}

// dailiesOnMazeSQL is a constant so the tests can check its plan.
const dailiesOnMazeSQL = `SELECT ` + dailyMazeColumns + ` FROM daily_mazes WHERE maze_id = ? ORDER BY guild_id, date`

// DailiesOnMaze lists every server day whose fixed daily is maze: one,
// almost always (32-bit seeds may collide).
func (s *Store) DailiesOnMaze(ctx context.Context, maze mazecore.ID) ([]contest.DailyMaze, error) {
	return call(s, ctx, "DailiesOnMaze", "dailies on maze "+maze.String(), reads, func(q q) ([]contest.DailyMaze, error) {
		return all(q, dailyMazeRow.dailyMaze, dailiesOnMazeSQL, maze.String())
	})
}

// DailyPost returns the post of a server's day, or an error wrapping
// contest.ErrNotFound.
func (s *Store) DailyPost(ctx context.Context, guildID string, date contest.Date) (contest.DailyPost, error) {
	return call(s, ctx, "DailyPost", fmt.Sprintf("daily post %s/%s", guildID, date), reads, func(q q) (contest.DailyPost, error) {
		return one(q, dailyPostRow.post, `SELECT `+dailyPostColumns+` FROM daily_posts WHERE guild_id = ? AND date = ?`, guildID, date.String())
	})
}

// The ranking queries. The ranking rule is one, so its text is one.
const (
	// bestRunsSQL picks each member's best run of one contest up to a
	// time: the finishes are all kept, rankings read the best. It selects
	// runRow's columns.
	bestRunsSQL = `
		SELECT user_id, elapsed_ms, tiles, clicks, finished_at FROM (
			SELECT user_id, elapsed_ms, tiles, clicks, finished_at, id,
				row_number() OVER (PARTITION BY user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes
			WHERE context = ? AND finished_at <= ?
		) AS runs
		WHERE n = 1
		ORDER BY elapsed_ms, tiles, finished_at, id`

	// dailyTotalsSQL sums the best run of each day: daily keys sort by
	// date within a server (byte by byte), so a range of days is a range
	// of keys. It selects totalRow's columns; PostgreSQL's sums are
	// numeric, hence the casts.
	dailyTotalsSQL = `
		WITH best AS (
			SELECT user_id, elapsed_ms, tiles, finished_at,
				row_number() OVER (PARTITION BY context, user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes WHERE context BETWEEN ? AND ?)
		SELECT user_id, count(*), CAST(sum(elapsed_ms) AS bigint), CAST(sum(tiles) AS bigint)
		FROM best WHERE n = 1
		GROUP BY user_id
		ORDER BY count(*) DESC, sum(elapsed_ms), sum(tiles), max(finished_at), user_id`

	// solvedDatesSQL lists a member's days of one server, newest first:
	// its daily keys are a range of contexts. It selects a dailyKeyRow.
	solvedDatesSQL = `
		SELECT DISTINCT context FROM finishes
		WHERE context BETWEEN ? AND ? AND user_id = ?
		ORDER BY 1 DESC`
)

// bestRuns returns each member's best run in a contest up to until.
func (s *Store) bestRuns(ctx context.Context, op string, key contest.Key, until time.Time) ([]contest.Run, error) {
	return call(s, ctx, op, "best runs of "+key.String(), reads, func(q q) ([]contest.Run, error) {
		return all(q, runRow.run, bestRunsSQL, key.String(), millis(until))
	})
}

// DayRuns returns each member's best run on a server's daily of one
// local date, best first: fastest, then fewest tiles, then earliest.
func (s *Store) DayRuns(ctx context.Context, guildID string, date contest.Date) ([]contest.Run, error) {
	return s.bestRuns(ctx, "DayRuns", contest.DailyKey(guildID, date), forever)
}

// EventRuns returns each member's best run in an event up to its end.
func (s *Store) EventRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	return s.bestRuns(ctx, "EventRuns", key, until)
}

// Totals sums each member's best daily runs of a server over the local
// dates from..to (inclusive), ranked: most days solved, then least total
// time, then fewest total tiles, then the earliest last finish.
func (s *Store) Totals(ctx context.Context, guildID string, from, to contest.Date) ([]contest.Total, error) {
	return call(s, ctx, "Totals", fmt.Sprintf("daily totals %s %s..%s", guildID, from, to), reads, func(q q) ([]contest.Total, error) {
		return all(q, totalRow.total, dailyTotalsSQL, contest.DailyKey(guildID, from).String(), contest.DailyKey(guildID, to).String())
	})
}

// SolvedDates lists the local dates, newest first and none after upTo, on
// which a member finished the server's daily: what a streak is counted
// from.
func (s *Store) SolvedDates(ctx context.Context, guildID, userID string, upTo contest.Date) ([]contest.Date, error) {
	return call(s, ctx, "SolvedDates", fmt.Sprintf("daily dates of %s in %s", userID, guildID), reads, func(q q) ([]contest.Date, error) {
		return all(q, dailyKeyRow.date, solvedDatesSQL,
			contest.DailyKey(guildID, contest.FirstDate).String(), contest.DailyKey(guildID, upTo).String(), userID)
	})
}

// firstDailySQL finds a server's earliest fixed daily: the primary key
// (guild_id, date) reads it.
const firstDailySQL = `SELECT date FROM daily_mazes WHERE guild_id = ? ORDER BY date LIMIT 1`

// FirstDaily returns the earliest date whose daily maze is fixed in a
// server, or an error wrapping contest.ErrNotFound.
func (s *Store) FirstDaily(ctx context.Context, guildID string) (contest.Date, error) {
	return call(s, ctx, "FirstDaily", "first daily of "+guildID, reads, func(q q) (contest.Date, error) {
		return one(q, dateRow.date, firstDailySQL, guildID)
	})
}

// ArchiveDates lists the dates, newest first, of a server's past dailies
// a member finished from the archive: its archive keys are a range of
// contexts, as its daily keys are.
func (s *Store) ArchiveDates(ctx context.Context, guildID, userID string) ([]contest.Date, error) {
	return call(s, ctx, "ArchiveDates", fmt.Sprintf("archive dates of %s in %s", userID, guildID), reads, func(q q) ([]contest.Date, error) {
		return all(q, dailyKeyRow.archiveDate, solvedDatesSQL,
			contest.ArchiveKey(guildID, contest.FirstDate).String(), contest.ArchiveKey(guildID, contest.LastDate).String(), userID)
	})
}
