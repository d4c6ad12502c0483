-- A server's champion role (contest.ChampionRole): admin_id set it and
-- hears, in language, of a refusal; crowned is the last season whose
-- champion was claimed ('YYYY-MM', '' for none: once a season),
-- champion_id the member holding the role ('' for none), refused that
-- Discord refused the role and told that the admin heard of it.
CREATE TABLE champion_roles (
	guild_id    TEXT    PRIMARY KEY CHECK (guild_id <> ''),
	role_id     TEXT    NOT NULL CHECK (role_id <> ''),
	admin_id    TEXT    NOT NULL CHECK (admin_id <> ''),
	language    TEXT    NOT NULL DEFAULT '' CHECK (length(language) <= 16),
	crowned     TEXT    NOT NULL DEFAULT '' CHECK (crowned = '' OR crowned GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
	champion_id TEXT    NOT NULL DEFAULT '',
	refused     INTEGER NOT NULL DEFAULT 0 CHECK (refused IN (0, 1)),
	told        INTEGER NOT NULL DEFAULT 0 CHECK (told IN (0, 1))
) STRICT;
