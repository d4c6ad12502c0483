// Package postgres is mazebot's store on PostgreSQL, for a bot that runs
// as several processes sharing one database: Open connects through pgx's
// database/sql driver (github.com/jackc/pgx/v5/stdlib) and hands the pool
// to store/sqldb with this package's Dialect, which holds what PostgreSQL
// does its own way (numbered placeholders, SQLSTATEs, the advisory lock
// that migrations take, COPY).
//
// Every claim sqldb makes (a game's next seq, a day's post, an event's
// end, a board edit) is one conditional statement, so of any number of
// processes racing for it exactly one wins and the others get
// play.ErrConflict.
//
// It holds no store method and no query of one: those are sqldb's. It
// must not import Discord (discordgo), the renderers or the command
// handlers.
package postgres
