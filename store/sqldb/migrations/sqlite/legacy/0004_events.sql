-- Community events. A partial unique index keeps one running event per
-- channel, even with two bot processes starting one at the same moment.

CREATE TABLE events (
	id               INTEGER PRIMARY KEY,
	guild_id         TEXT    NOT NULL,
	channel_id       TEXT    NOT NULL CHECK (channel_id <> ''),
	name             TEXT    NOT NULL,
	maze_id          TEXT    NOT NULL CHECK (maze_id <> ''),
	creator_id       TEXT    NOT NULL,
	started_at       INTEGER NOT NULL,
	ends_at          INTEGER NOT NULL,
	maze_message_id  TEXT    NOT NULL DEFAULT '', -- '' until posted
	board_message_id TEXT    NOT NULL DEFAULT '',
	status           TEXT    NOT NULL CHECK (status IN ('running', 'ended')),
	board_dirty      INTEGER NOT NULL DEFAULT 0 CHECK (board_dirty IN (0, 1)),
	board_edited_at  INTEGER NOT NULL DEFAULT 0 -- 0: never edited
) STRICT;

CREATE UNIQUE INDEX events_running_channel ON events (channel_id) WHERE status = 'running';

-- The ticker's scans (due, dirty) and the /solve guard (by maze) look only
-- at running events, a handful at most, however many have ended.
CREATE INDEX events_running_end ON events (ends_at) WHERE status = 'running';
CREATE INDEX events_running_maze ON events (maze_id) WHERE status = 'running';

-- EventRanking is served by finishes_context (0003): context, then user_id
-- for the per-member best, then the ranking order.
