-- Interaction IDs already handled, so that one sent again (a captured HTTP
-- request, a gateway redelivery) runs once, in every process sharing the
-- database and across restarts. The bot deletes rows older than its replay
-- window, so the table holds only minutes of traffic.
CREATE TABLE seen_interactions (
	id      TEXT COLLATE "C" PRIMARY KEY CHECK (id <> ''),
	seen_at BIGINT NOT NULL
);

-- ForgetSeen deletes by age.
CREATE INDEX seen_interactions_seen_at ON seen_interactions (seen_at);
