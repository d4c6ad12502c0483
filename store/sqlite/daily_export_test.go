package sqlite

// DailyBestsSQL is exposed for the plan check in the external tests.
const DailyBestsSQL = dailyBestsSQL
