-- As sqlite/0018_recaps_reminders.sql: a server's recap settings; the
-- members who asked for streak reminders by DM.
CREATE TABLE daily_recaps (
	guild_id text COLLATE "C" PRIMARY KEY CHECK (guild_id <> ''),
	off      boolean NOT NULL,
	pings    boolean NOT NULL
);

CREATE TABLE daily_reminders (
	guild_id      text COLLATE "C" NOT NULL CHECK (guild_id <> ''),
	user_id       text COLLATE "C" NOT NULL CHECK (user_id <> ''),
	remind_at     text COLLATE "C" NOT NULL CHECK (remind_at ~ '^[0-2][0-9]:[0-5][0-9]$'),
	language      text COLLATE "C" NOT NULL DEFAULT '' CHECK (length(language) <= 16),
	reminded_on   text COLLATE "C" NOT NULL DEFAULT '',
	dm_channel_id text COLLATE "C" NOT NULL DEFAULT '',
	closed        boolean NOT NULL DEFAULT false,
	told          boolean NOT NULL DEFAULT false,
	PRIMARY KEY (guild_id, user_id)
);
