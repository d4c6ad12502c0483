// Package postgres implements mazebot's persistence on PostgreSQL through
// pgx (github.com/jackc/pgx/v5, pgxpool), for a bot that runs as several
// processes sharing one database.
//
// It implements what store/sqlite implements, with the same meaning,
// pinned down by the contract suite in store/storetest: play.Store,
// contest.DailyStore, contest.EventStore, contest.Posts and Secret. Every
// claim (a game's next seq, a day's post, an event's end, a board edit) is
// one conditional statement, so of any number of processes racing for it
// exactly one wins and the others get play.ErrConflict.
//
// The schema lives in migrations/*.sql, embedded in the binary and applied
// at Open in one transaction under an advisory lock, so processes that
// start together take turns. Its tables, columns and their meaning are
// SQLite's, which is what lets `mazebot store copy` move rows across;
// store/internal/codec holds what the two adapters share: column lists and
// the decoding of rows into domain records.
//
// It must not import Discord (discordgo), the renderers or the command
// handlers.
package postgres
