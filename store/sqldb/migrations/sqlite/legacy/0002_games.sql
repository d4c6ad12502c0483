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

-- Process-wide values that every bot process sharing the database must
-- agree on, such as the key that signs play buttons.
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value BLOB NOT NULL
) STRICT;
