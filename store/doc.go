// Package store holds the persistence vocabulary of mazebot: the plain
// records the bot keeps (posted mazes, finishes) and the sentinel errors an
// adapter returns, so that callers can depend on this package and a small
// interface of their own instead of on a database.
//
// It must not import database/sql, any SQL driver, or Discord
// (discordgo); adapters such as store/sqlite import it, never the other way
// round.
package store
