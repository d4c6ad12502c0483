-- A daily's new time zone waits for the end of the day running when it
-- was picked (contest.Zones): prev_zone is the zone it replaced ('' for
-- none) and zone_from, in Unix milliseconds, when it took over.
ALTER TABLE daily_configs ADD COLUMN prev_zone TEXT NOT NULL DEFAULT '';
ALTER TABLE daily_configs ADD COLUMN zone_from INTEGER NOT NULL DEFAULT 0;

-- The servers that were given mazebot's commands of their own
-- (DISCORD_GUILD_ID): a later sync elsewhere removes them, or the server
-- would list every command twice.
CREATE TABLE command_guilds (
	guild_id  TEXT    PRIMARY KEY CHECK (guild_id <> ''),
	synced_at INTEGER NOT NULL
) STRICT;
