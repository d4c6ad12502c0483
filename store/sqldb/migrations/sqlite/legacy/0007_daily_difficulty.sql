-- A server's daily can choose a difficulty and loops. The defaults are what
-- every existing server had, so their dailies stay the mazes they were.
ALTER TABLE daily_configs ADD COLUMN difficulty TEXT NOT NULL DEFAULT 'any'
	CHECK (difficulty IN ('any', 'easy', 'medium', 'hard'));
ALTER TABLE daily_configs ADD COLUMN loops INTEGER NOT NULL DEFAULT 0
	CHECK (loops BETWEEN 0 AND 100);
