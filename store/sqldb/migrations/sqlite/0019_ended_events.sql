-- EndedEvents: a member's profile counts the events they won among their
-- server's ended events, read by server through this partial index
-- (SQLite uses it for the very words of the query's WHERE).
CREATE INDEX events_guild_ended ON events (guild_id, id) WHERE status = 'ended';
