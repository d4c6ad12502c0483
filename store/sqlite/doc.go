// Package sqlite implements mazebot's persistence on SQLite through
// modernc.org/sqlite, a pure-Go driver, so the bot stays one static binary
// with no cgo.
//
// It imports the domain package store and returns its types and sentinel
// errors; it must not import Discord (discordgo), the renderers, or the
// command handlers. The schema lives in migrations/*.sql, embedded in the
// binary and applied in name order when a database is opened.
package sqlite
