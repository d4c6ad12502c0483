-- As sqlite/0019_ended_events.sql: a server's ended events, which a
-- member's profile counts the events won among.
CREATE INDEX events_guild_ended ON events (guild_id, id) WHERE status = 'ended';
