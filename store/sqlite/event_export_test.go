package sqlite

// EventRankingSQL is exported for the plan check.
const EventRankingSQL = eventRankingSQL
