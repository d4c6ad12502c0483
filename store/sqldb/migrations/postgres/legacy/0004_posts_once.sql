-- Posts made exactly once (contest/retry.go): the attempts a channel
-- refused, and the progress of an ended event's closing posts.

ALTER TABLE daily_posts ADD COLUMN refused INTEGER NOT NULL DEFAULT 0 CHECK (refused >= 0);

ALTER TABLE events ADD COLUMN closing_done INTEGER NOT NULL DEFAULT 0 CHECK (closing_done >= 0);
ALTER TABLE events ADD COLUMN closing_attempts INTEGER NOT NULL DEFAULT 0 CHECK (closing_attempts >= 0);
ALTER TABLE events ADD COLUMN closing_refused INTEGER NOT NULL DEFAULT 0 CHECK (closing_refused >= 0);
ALTER TABLE events ADD COLUMN closing_claimed_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN closed BOOLEAN NOT NULL DEFAULT false;

-- Events ended before were closed, at most once, the old way.
UPDATE events SET closed = true WHERE status = 'ended';

-- ClosingEvents: the few ended events whose closing is unfinished.
CREATE INDEX events_closing ON events (id) WHERE status = 'ended' AND NOT closed;
