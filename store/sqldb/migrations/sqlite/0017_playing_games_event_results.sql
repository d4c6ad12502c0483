-- PlayingGame: Play on a maze resumes the member's game on it. Only games
-- being played are looked for, a small part of the table; the WHERE is
-- spelled as the query's, which SQLite needs to use a partial index.
CREATE INDEX games_playing ON games (user_id, maze_id, context, id) WHERE status = 'playing';

-- An event ends in one results post; its board then points to it.
ALTER TABLE events ADD COLUMN results_message_id TEXT NOT NULL DEFAULT '';
