-- Maze Arena's ghosts (play.Run): each member's fastest run in a contest
-- (a daily's key), its moves with their times as the arena encodes them
-- (at most 16 KiB), the name the race showed, its time in ms, and when
-- it finished. The best run of a day is the contest's lowest ms.
CREATE TABLE runs (
	contest     TEXT    NOT NULL CHECK (contest <> ''),
	user_id     TEXT    NOT NULL CHECK (user_id <> ''),
	name        TEXT    NOT NULL,
	maze_id     TEXT    NOT NULL CHECK (maze_id <> ''),
	ms          INTEGER NOT NULL CHECK (ms >= 0),
	moves       BLOB    NOT NULL CHECK (length(moves) <= 16384),
	finished_at INTEGER NOT NULL,
	PRIMARY KEY (contest, user_id)
) STRICT;

-- BestRun: a contest's runs in ranking order.
CREATE INDEX runs_best ON runs (contest, ms, finished_at);

-- SaveRun drops the runs past play.RunRetention by finish.
CREATE INDEX runs_finished ON runs (finished_at);
