-- mazebot's schema, as legacy/0001 to 0013 built it; postgres/0014_schema.sql
-- has the same tables, columns and meaning, so `mazebot store copy` moves
-- rows across unchanged. Columns added by a migration come last, where
-- ALTER TABLE put them.
--
-- Times are UTC unix milliseconds and durations milliseconds, stored as
-- INTEGER, so ordering is exact and no time zone is ever involved. 0 is
-- "never" or "not yet".

CREATE TABLE posts (
	id         INTEGER PRIMARY KEY, -- rowid; breaks ties in posted_at by insertion order
	maze_id    TEXT    NOT NULL CHECK (maze_id <> ''),
	guild_id   TEXT    NOT NULL,
	channel_id TEXT    NOT NULL CHECK (channel_id <> ''),
	message_id TEXT    NOT NULL, -- '' when the reply's message ID is not known
	posted_at  INTEGER NOT NULL
) STRICT;

-- LastPost: equality on channel_id, then newest posted_at; the implicit
-- rowid at the end of every index gives the id tie-break for free.
CREATE INDEX posts_channel_posted ON posts (channel_id, posted_at);

-- A message holds one maze. Unknown ('') message IDs repeat.
CREATE UNIQUE INDEX posts_message ON posts (message_id) WHERE message_id <> '';

CREATE TABLE finishes (
	id          INTEGER PRIMARY KEY,
	user_id     TEXT    NOT NULL CHECK (user_id <> ''),
	guild_id    TEXT    NOT NULL,
	maze_id     TEXT    NOT NULL CHECK (maze_id <> ''),
	clicks      INTEGER NOT NULL CHECK (clicks >= 0),
	tiles       INTEGER NOT NULL CHECK (tiles >= 0),
	elapsed_ms  INTEGER NOT NULL CHECK (elapsed_ms >= 0),
	finished_at INTEGER NOT NULL,
	context     TEXT    NOT NULL DEFAULT ''
) STRICT;

-- Rankings: a contest, or a server's range of daily contests
-- ("daily:<guild>:<YYYY-MM-DD>" sorts by date), then per member in
-- ranking order.
CREATE INDEX finishes_context ON finishes (context, user_id, elapsed_ms, tiles, finished_at);

-- Play mode: one row per game, updated on every move. seq makes each
-- update conditional on the state the move was computed from, so two clicks
-- (or two bot processes) can never both apply to the same state.
CREATE TABLE games (
	id          INTEGER PRIMARY KEY,
	user_id     TEXT    NOT NULL CHECK (user_id <> ''),
	guild_id    TEXT    NOT NULL,
	channel_id  TEXT    NOT NULL,
	maze_id     TEXT    NOT NULL CHECK (maze_id <> ''),
	context     TEXT    NOT NULL DEFAULT '',
	x           INTEGER NOT NULL CHECK (x > 0),
	y           INTEGER NOT NULL CHECK (y > 0),
	clicks      INTEGER NOT NULL CHECK (clicks >= 0),
	tiles       INTEGER NOT NULL CHECK (tiles >= 0),
	trail       BLOB    NOT NULL, -- one bit per tile walked, row-major
	seq         INTEGER NOT NULL CHECK (seq >= 0),
	status      TEXT    NOT NULL CHECK (status IN ('playing', 'won', 'gave_up')),
	started_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	finished_at INTEGER NOT NULL, -- 0 while playing
	CHECK ((status = 'playing') = (finished_at = 0))
) STRICT;

-- DeleteGamesBefore: old games are removed by start time; their results
-- live on in finishes.
CREATE INDEX games_started ON games (started_at);

-- Process-wide values that every bot process sharing the database must
-- agree on, such as the key that signs play buttons.
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value BLOB NOT NULL
) STRICT;

-- Daily challenge: a server's settings, and one row per server and local
-- day for the automatic post. The primary key of daily_posts is the
-- exactly-once guarantee: whichever process inserts the row posts.
-- language is the code of a server's public posts ('en', 'ko'), kept and
-- never interpreted; '' is English, as before languages.
CREATE TABLE daily_configs (
	guild_id   TEXT    PRIMARY KEY CHECK (guild_id <> ''),
	channel_id TEXT    NOT NULL CHECK (channel_id <> ''),
	post_at    TEXT    NOT NULL CHECK (post_at GLOB '[0-2][0-9]:[0-5][0-9]'),
	time_zone  TEXT    NOT NULL CHECK (time_zone <> ''),
	algorithm  TEXT    NOT NULL CHECK (algorithm <> ''),
	size       INTEGER NOT NULL CHECK (size >= 5 AND size % 2 = 1),
	enabled    INTEGER NOT NULL CHECK (enabled IN (0, 1)),
	updated_at INTEGER NOT NULL,
	difficulty TEXT    NOT NULL DEFAULT 'any' CHECK (difficulty IN ('any', 'easy', 'medium', 'hard')),
	loops      INTEGER NOT NULL DEFAULT 0 CHECK (loops BETWEEN 0 AND 100),
	language   TEXT    NOT NULL DEFAULT '' CHECK (length(language) <= 16)
) STRICT;

-- refused counts the attempts the channel refused (contest/retry.go).
CREATE TABLE daily_posts (
	guild_id   TEXT    NOT NULL,
	date       TEXT    NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	channel_id TEXT    NOT NULL,
	maze_id    TEXT    NOT NULL,
	message_id TEXT    NOT NULL, -- '' until posted
	status     TEXT    NOT NULL CHECK (status IN ('posting', 'posted', 'failed')),
	attempts   INTEGER NOT NULL CHECK (attempts >= 1),
	claimed_at INTEGER NOT NULL,
	refused    INTEGER NOT NULL DEFAULT 0 CHECK (refused >= 0),
	PRIMARY KEY (guild_id, date)
) STRICT;

-- A server day's maze, fixed when it is first shown or claimed.
-- DailiesOnMaze reads it by maze: /solve keeps any running daily's
-- solution hidden, anywhere.
CREATE TABLE daily_mazes (
	guild_id TEXT NOT NULL CHECK (guild_id <> ''),
	date     TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	maze_id  TEXT NOT NULL CHECK (maze_id <> ''),
	PRIMARY KEY (guild_id, date)
) STRICT;

CREATE INDEX daily_mazes_maze ON daily_mazes (maze_id);

-- Community events. A partial unique index keeps one running event per
-- channel, even with two bot processes starting one at the same moment.
-- The closing_ columns are the progress of an ended event's closing posts
-- (contest/retry.go).
CREATE TABLE events (
	id                 INTEGER PRIMARY KEY,
	guild_id           TEXT    NOT NULL,
	channel_id         TEXT    NOT NULL CHECK (channel_id <> ''),
	name               TEXT    NOT NULL,
	maze_id            TEXT    NOT NULL CHECK (maze_id <> ''),
	creator_id         TEXT    NOT NULL,
	started_at         INTEGER NOT NULL,
	ends_at            INTEGER NOT NULL,
	maze_message_id    TEXT    NOT NULL DEFAULT '', -- '' until posted
	board_message_id   TEXT    NOT NULL DEFAULT '',
	status             TEXT    NOT NULL CHECK (status IN ('running', 'ended')),
	board_dirty        INTEGER NOT NULL DEFAULT 0 CHECK (board_dirty IN (0, 1)),
	board_edited_at    INTEGER NOT NULL DEFAULT 0, -- 0: never edited
	closing_done       INTEGER NOT NULL DEFAULT 0 CHECK (closing_done >= 0),
	closing_attempts   INTEGER NOT NULL DEFAULT 0 CHECK (closing_attempts >= 0),
	closing_refused    INTEGER NOT NULL DEFAULT 0 CHECK (closing_refused >= 0),
	closing_claimed_at INTEGER NOT NULL DEFAULT 0,
	closed             INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
	language           TEXT    NOT NULL DEFAULT '' CHECK (length(language) <= 16)
) STRICT;

CREATE UNIQUE INDEX events_running_channel ON events (channel_id) WHERE status = 'running';

-- The ticker's scans (due, dirty) and the /solve guard (by maze) look only
-- at running events, a handful at most, however many have ended.
CREATE INDEX events_running_end ON events (ends_at) WHERE status = 'running';
CREATE INDEX events_running_maze ON events (maze_id) WHERE status = 'running';

-- ClosingEvents: the few ended events whose closing is unfinished.
CREATE INDEX events_closing ON events (id) WHERE status = 'ended' AND closed = 0;

-- Interaction IDs already handled, so that one sent again (a captured HTTP
-- request, a gateway redelivery) runs once, in every process sharing the
-- database and across restarts. The bot deletes rows older than its replay
-- window, so the table holds only minutes of traffic.
CREATE TABLE seen_interactions (
	id      TEXT    PRIMARY KEY CHECK (id <> ''),
	seen_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- ForgetSeen deletes by age.
CREATE INDEX seen_interactions_seen_at ON seen_interactions (seen_at);

-- When each gateway rate-limit bucket (shard id % max_concurrency) last
-- identified, so that processes sharing the database take turns: Discord
-- allows one IDENTIFY per bucket every 5 s, whichever process sends it.
-- One row per bucket, overwritten; nothing to copy or clean up.
CREATE TABLE identify_turns (
	bucket        INTEGER PRIMARY KEY CHECK (bucket >= 0),
	identified_at INTEGER NOT NULL
) STRICT;
