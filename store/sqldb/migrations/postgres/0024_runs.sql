-- As sqlite/0024_runs.sql: Maze Arena's ghosts, each member's fastest
-- run in a contest.
CREATE TABLE runs (
	contest     text COLLATE "C" NOT NULL CHECK (contest <> ''),
	user_id     text COLLATE "C" NOT NULL CHECK (user_id <> ''),
	name        text COLLATE "C" NOT NULL,
	maze_id     text COLLATE "C" NOT NULL CHECK (maze_id <> ''),
	ms          bigint NOT NULL CHECK (ms >= 0),
	moves       bytea  NOT NULL CHECK (length(moves) <= 16384),
	finished_at bigint NOT NULL,
	PRIMARY KEY (contest, user_id)
);

CREATE INDEX runs_best ON runs (contest, ms, finished_at);

CREATE INDEX runs_finished ON runs (finished_at);
