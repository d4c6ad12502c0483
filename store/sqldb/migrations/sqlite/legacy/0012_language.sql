-- The language a server's public posts are in: a code such as 'en' or 'ko'
-- that the stores keep and never interpret. '' is every row from before
-- languages, posted in English as they always were.
ALTER TABLE daily_configs ADD COLUMN language TEXT NOT NULL DEFAULT ''
	CHECK (length(language) <= 16);
ALTER TABLE events ADD COLUMN language TEXT NOT NULL DEFAULT ''
	CHECK (length(language) <= 16);
