-- When each gateway rate-limit bucket (shard id % max_concurrency) last
-- identified, so that processes sharing the database take turns: Discord
-- allows one IDENTIFY per bucket every 5 s, whichever process sends it.
-- One row per bucket, overwritten; nothing to copy or clean up.
CREATE TABLE identify_turns (
	bucket        INTEGER PRIMARY KEY CHECK (bucket >= 0),
	identified_at BIGINT  NOT NULL
);
