// Package sqlite implements mazebot's persistence on SQLite through
// modernc.org/sqlite, a pure-Go driver, so the bot stays one static binary
// with no cgo.
//
// It implements the stores that the domain packages declare (play.Store,
// contest.DailyStore, contest.EventStore, contest.Posts) and the bot's replay
// guard (FirstSeen, ForgetSeen), and returns their
// types and sentinel errors; it must not import Discord (discordgo), the
// renderers, or the command handlers. Its behaviour is pinned down by the
// contract suite in store/storetest, which every adapter runs. The schema lives in migrations/*.sql, embedded in the
// binary and applied in name order when a database is opened.
package sqlite
