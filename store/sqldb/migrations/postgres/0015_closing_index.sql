-- As sqlite/0015_closing_index.sql, which SQLite needs: ClosingEvents'
-- "closed = FALSE" spelled as the index's WHERE. PostgreSQL reads both as
-- NOT closed, so the index is the one it was.
DROP INDEX events_closing;
CREATE INDEX events_closing ON events (id) WHERE status = 'ended' AND closed = FALSE;
