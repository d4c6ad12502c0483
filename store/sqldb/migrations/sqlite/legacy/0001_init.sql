-- Times are UTC unix milliseconds and durations milliseconds, stored as
-- INTEGER, so ordering is exact and no time zone is ever involved.

CREATE TABLE posts (
	id         INTEGER PRIMARY KEY, -- rowid; breaks ties in posted_at by insertion order
	maze_id    TEXT    NOT NULL CHECK (maze_id <> ''),
	guild_id   TEXT    NOT NULL,
	channel_id TEXT    NOT NULL CHECK (channel_id <> ''),
	message_id TEXT    NOT NULL, -- '' when the reply's message ID is not known
	author_id  TEXT    NOT NULL,
	posted_at  INTEGER NOT NULL
) STRICT;

-- LastPost: equality on channel_id, then newest posted_at; the implicit
-- rowid at the end of every index gives the id tie-break for free.
CREATE INDEX posts_channel_posted ON posts (channel_id, posted_at);

-- PostByMessage; a message holds one maze. Unknown ('') message IDs repeat.
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

-- Finishes: equality on maze_id, already in leaderboard order.
CREATE INDEX finishes_maze_rank ON finishes (maze_id, elapsed_ms, tiles, finished_at);
