-- The store writes its SQL once for both databases, booleans as TRUE and
-- FALSE; SQLite uses a partial index only for a query whose WHERE has the
-- index's very words, so ClosingEvents' "closed = FALSE" needs this one
-- spelled so. postgres/0015_closing_index.sql is the same.
DROP INDEX events_closing;
CREATE INDEX events_closing ON events (id) WHERE status = 'ended' AND closed = FALSE;
