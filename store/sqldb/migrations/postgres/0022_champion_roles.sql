-- As sqlite/0022_champion_roles.sql: a server's champion role, who set
-- it, the last season crowned, who holds it, and a refusal told once.
CREATE TABLE champion_roles (
	guild_id    text COLLATE "C" PRIMARY KEY CHECK (guild_id <> ''),
	role_id     text COLLATE "C" NOT NULL CHECK (role_id <> ''),
	admin_id    text COLLATE "C" NOT NULL CHECK (admin_id <> ''),
	language    text COLLATE "C" NOT NULL DEFAULT '' CHECK (length(language) <= 16),
	crowned     text COLLATE "C" NOT NULL DEFAULT '' CHECK (crowned = '' OR crowned ~ '^[0-9]{4}-[0-1][0-9]$'),
	champion_id text COLLATE "C" NOT NULL DEFAULT '',
	refused     boolean NOT NULL DEFAULT false,
	told        boolean NOT NULL DEFAULT false
);
