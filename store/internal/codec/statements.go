package codec

// Statements both stores run, with ? placeholders (store/postgres numbers
// them): written once, so the two cannot drift apart.
const (
	// SaveDailySettingsSQL creates or replaces a server's daily settings
	// (DailySettingsArgs).
	SaveDailySettingsSQL = `
		INSERT INTO daily_configs (` + DailySettingsColumns + `)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, post_at = excluded.post_at,
			time_zone = excluded.time_zone, algorithm = excluded.algorithm, size = excluded.size,
			difficulty = excluded.difficulty, loops = excluded.loops, language = excluded.language,
			enabled = excluded.enabled, updated_at = excluded.updated_at`

	// ClaimFirstDailyPostSQL inserts a day's first claim (guild, date,
	// channel, maze, claimed at): the primary key gives it to one process.
	ClaimFirstDailyPostSQL = `
		INSERT INTO daily_posts (` + DailyPostColumns + `)
		VALUES (?, ?, ?, ?, '', 'posting', 1, 0, ?)
		ON CONFLICT (guild_id, date) DO NOTHING`

	// ClaimNextDailyPostSQL writes claim n over claim n−1 of a day not yet
	// posted (n, claimed at, channel, guild, date, n−1).
	ClaimNextDailyPostSQL = `
		UPDATE daily_posts SET status = 'posting', attempts = ?, claimed_at = ?, channel_id = ?
		WHERE guild_id = ? AND date = ? AND attempts = ? AND status <> 'posted'`

	// DailyPostedSQL records a claimed day's message (message, guild, date).
	DailyPostedSQL = `
		UPDATE daily_posts SET status = 'posted', message_id = ? WHERE guild_id = ? AND date = ? AND status <> 'posted'`

	// DailyFailedSQL releases a failed claim (refused 0 or 1, guild, date, attempt).
	DailyFailedSQL = `
		UPDATE daily_posts SET status = 'failed', refused = refused + ?
		WHERE guild_id = ? AND date = ? AND status = 'posting' AND attempts = ?`

	// FixDailyMazeSQL records a day's maze unless one is (guild, date, maze).
	FixDailyMazeSQL = `
		INSERT INTO daily_mazes (` + DailyMazeColumns + `) VALUES (?, ?, ?)
		ON CONFLICT (guild_id, date) DO NOTHING`

	// SaveGameSQL writes a move over the game still playing at seq−1 (its
	// fields, then id and seq−1).
	SaveGameSQL = `
		UPDATE games SET x = ?, y = ?, clicks = ?, tiles = ?, trail = ?, seq = ?, status = ?,
			updated_at = ?, finished_at = ?
		WHERE id = ? AND seq = ? AND status = 'playing'`

	// AddFinishSQL records a won game's run.
	AddFinishSQL = `
		INSERT INTO finishes (user_id, guild_id, maze_id, clicks, tiles, elapsed_ms, finished_at, context)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`

	// AddPostSQL records a posted maze.
	AddPostSQL = `
		INSERT INTO posts (maze_id, guild_id, channel_id, message_id, posted_at)
		VALUES (?, ?, ?, ?, ?)`

	// PostOfMessageSQL reads back the post of a message, to tell a repeat
	// from a clash.
	PostOfMessageSQL = `SELECT maze_id, channel_id FROM posts WHERE message_id = ?`

	// FirstSeenSQL records an interaction unless it was seen (id, seen at).
	FirstSeenSQL = `
		INSERT INTO seen_interactions (id, seen_at) VALUES (?, ?)
		ON CONFLICT (id) DO NOTHING`

	// ForgetSeenSQL deletes the interactions seen before a time.
	ForgetSeenSQL = `DELETE FROM seen_interactions WHERE seen_at < ?`

	// ClaimIdentifySQL takes a bucket's turn (bucket, time, window in ms):
	// it writes the time unless the bucket's last turn is less than the
	// window before it, so it changes one row exactly when the turn is
	// the caller's.
	ClaimIdentifySQL = `
		INSERT INTO identify_turns (bucket, identified_at) VALUES (?, ?)
		ON CONFLICT (bucket) DO UPDATE SET identified_at = excluded.identified_at
		WHERE identify_turns.identified_at <= excluded.identified_at - ?`

	// LastIdentifySQL reads a bucket's last turn.
	LastIdentifySQL = `SELECT identified_at FROM identify_turns WHERE bucket = ?`
)
