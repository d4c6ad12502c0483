-- How a server's daily post carries yesterday's recap (contest.RecapSettings):
-- a server without a row has it on, without pings.
CREATE TABLE daily_recaps (
	guild_id TEXT    PRIMARY KEY CHECK (guild_id <> ''),
	off      INTEGER NOT NULL CHECK (off IN (0, 1)),
	pings    INTEGER NOT NULL CHECK (pings IN (0, 1))
) STRICT;

-- The members who asked for a DM when their streak is at risk
-- (contest.Reminder): remind_at is the time of day in the server's zone,
-- language the DM's (the member's when they opted in),
-- reminded_on the last date a reminder was claimed ('' for none: once a
-- day), closed that Discord refused a DM (50007) and told that the member
-- heard of it.
CREATE TABLE daily_reminders (
	guild_id      TEXT    NOT NULL CHECK (guild_id <> ''),
	user_id       TEXT    NOT NULL CHECK (user_id <> ''),
	remind_at     TEXT    NOT NULL CHECK (remind_at GLOB '[0-2][0-9]:[0-5][0-9]'),
	language      TEXT    NOT NULL DEFAULT '' CHECK (length(language) <= 16),
	reminded_on   TEXT    NOT NULL DEFAULT '',
	dm_channel_id TEXT    NOT NULL DEFAULT '',
	closed        INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
	told          INTEGER NOT NULL DEFAULT 0 CHECK (told IN (0, 1)),
	PRIMARY KEY (guild_id, user_id)
) STRICT;
