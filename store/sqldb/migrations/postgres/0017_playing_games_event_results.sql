-- As sqlite/0017_playing_games.sql: the games being played, by member and
-- maze, for PlayingGame.
CREATE INDEX games_playing ON games (user_id, maze_id, context, id) WHERE status = 'playing';

-- The event's results post, which its final board points to.
ALTER TABLE events ADD COLUMN results_message_id text COLLATE "C" NOT NULL DEFAULT '';
