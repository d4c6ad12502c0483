// Package store is mazebot's storage: DB, the one contract every store
// keeps (the domain's store interfaces, and what a bot process needs
// besides), Open, which opens the database MAZEBOT_DB names, and Copy,
// which is `mazebot store copy`.
//
//   - store/sqldb: the store over database/sql, every method written once
//     in SQL that both databases speak, each call bounded by a deadline
//     and counted when it fails (WithTimeout, WithMetrics).
//   - store/sqlite and store/postgres: the dialects, what the two
//     databases do their own way, and the Open that configures each
//     driver (modernc.org/sqlite, pgx). SQLite is the default that needs
//     nothing; PostgreSQL is for several bot processes on one database.
//   - store/storetest: the contract suite, run on every store
//     (contract_test.go), and Memory, a fresh SQLite database in memory:
//     the store the domain's tests (contest, play) run on. Memory and
//     SQLiteFile are copies of one migrated database (sqlite.Image).
//     Imported by tests only.
//
// There is no hand-written store in memory. One (store/memstore) was
// measured against SQLite in memory and deleted (issue 37: the contest
// and play tests run on each, 11 interleaved runs of the test binaries,
// median wall/CPU): contest 0.21/0.16 s on it, 1.50/1.15 s on SQLite;
// play 0.11/0.06 s against 0.20/0.12 s. About 1.4 s a run, some 2 % of
// the 65 s `go test -short ./...`, did not pay for ~1,170 lines that
// mirrored the schema's checks by hand and had to learn every new store
// method; on SQLite the domain's tests run the SQL the bot runs.
//
// Open takes a postgres:// or postgresql:// URL (the scheme in any case)
// or a keyword/value string for PostgreSQL, anything else as a SQLite file
// path; its errors, and Copy's, never show a password (Redact).
//
// Adding a store method (a domain interface grew one):
//
//  1. The interface: the domain's, or DB's.
//  2. One implementation in store/sqldb, through its call helper; for a
//     claim, one conditional statement whose "no row" is play.ErrConflict.
//  3. storetest gets the behaviour, races included, so every store runs
//     it.
//  4. A new table or column is a migration of each dialect, with the same
//     number and name, in store/sqldb/migrations/{sqlite,postgres}
//     (TestSchemasAgree fails otherwise; text columns on PostgreSQL
//     COLLATE "C"). Copy then moves it with no change.
//
// The domain never imports a store package; only main (app.go) and the
// command line's store copy do, and the domain's tests open
// storetest.Memory.
package store
