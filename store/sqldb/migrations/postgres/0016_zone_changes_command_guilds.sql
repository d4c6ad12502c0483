-- As sqlite/0016_zone_changes_command_guilds.sql: a daily's replaced zone
-- and when the new one took over; the servers with commands of their own.
ALTER TABLE daily_configs ADD COLUMN prev_zone text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE daily_configs ADD COLUMN zone_from bigint NOT NULL DEFAULT 0;

CREATE TABLE command_guilds (
	guild_id  text COLLATE "C" PRIMARY KEY CHECK (guild_id <> ''),
	synced_at bigint NOT NULL
);
