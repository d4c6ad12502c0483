// Package sqlite is mazebot's store on SQLite, through modernc.org/sqlite,
// a pure-Go driver, so the bot stays one static binary with no cgo: Open
// configures the connections (WAL, foreign keys, a busy timeout, the write
// lock taken at BEGIN) and hands them to store/sqldb with this package's
// Dialect, which holds what SQLite does its own way. Image and OpenImage
// copy a new, migrated database, for tests that make many.
//
// It holds no store method and no query of one: those are sqldb's, written
// once for both databases. It must not import Discord (discordgo), the
// renderers or the command handlers.
package sqlite
