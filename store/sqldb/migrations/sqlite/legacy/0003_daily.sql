-- Daily challenge: a server's settings, and one row per server and local
-- day for the automatic post. The primary key of daily_posts is the
-- exactly-once guarantee: whichever process inserts the row posts.

CREATE TABLE daily_configs (
	guild_id   TEXT    PRIMARY KEY CHECK (guild_id <> ''),
	channel_id TEXT    NOT NULL CHECK (channel_id <> ''),
	post_at    TEXT    NOT NULL CHECK (post_at GLOB '[0-2][0-9]:[0-5][0-9]'),
	time_zone  TEXT    NOT NULL CHECK (time_zone <> ''),
	algorithm  TEXT    NOT NULL CHECK (algorithm <> ''),
	size       INTEGER NOT NULL CHECK (size >= 5 AND size % 2 = 1),
	enabled    INTEGER NOT NULL CHECK (enabled IN (0, 1)),
	updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE daily_posts (
	guild_id   TEXT    NOT NULL,
	date       TEXT    NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	channel_id TEXT    NOT NULL,
	maze_id    TEXT    NOT NULL,
	message_id TEXT    NOT NULL, -- '' until posted
	status     TEXT    NOT NULL CHECK (status IN ('posting', 'posted', 'failed')),
	attempts   INTEGER NOT NULL CHECK (attempts >= 1),
	claimed_at INTEGER NOT NULL,
	PRIMARY KEY (guild_id, date)
) STRICT;

-- Daily rankings: finishes of one server's days are a range of context
-- values ("daily:<guild>:<YYYY-MM-DD>" sorts by date), then per member.
CREATE INDEX finishes_context ON finishes (context, user_id, elapsed_ms, tiles, finished_at);

-- GuildsWithMaze: /solve asks in which servers a maze was shown, to keep a
-- running daily's solution hidden from DMs and other servers too.
CREATE INDEX posts_maze ON posts (maze_id, guild_id);
