-- DeleteGamesBefore: old games are removed by start time; their results
-- live on in finishes.
CREATE INDEX games_started ON games (started_at);
