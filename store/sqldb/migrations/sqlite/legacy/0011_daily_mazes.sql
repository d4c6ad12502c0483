-- A server day's maze, fixed when it is first shown or claimed. DailiesOnMaze
-- reads it by maze: /solve keeps any running daily's solution hidden,
-- anywhere.
CREATE TABLE daily_mazes (
	guild_id TEXT NOT NULL CHECK (guild_id <> ''),
	date     TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	maze_id  TEXT NOT NULL CHECK (maze_id <> ''),
	PRIMARY KEY (guild_id, date)
) STRICT;

CREATE INDEX daily_mazes_maze ON daily_mazes (maze_id);

-- The days claimed before keep their mazes.
INSERT INTO daily_mazes (guild_id, date, maze_id)
	SELECT guild_id, date, maze_id FROM daily_posts WHERE guild_id <> '' AND maze_id <> '';

-- GuildsWithMaze is gone: daily_mazes answers its question.
DROP INDEX posts_maze;
