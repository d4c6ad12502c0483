// Package store opens mazebot's database, whichever adapter holds it, and
// copies one database into another. Each adapter, in a package of its own
// named after what it wraps, implements the store interfaces that the
// domain packages declare: play.Store, contest.DailyStore,
// contest.EventStore and contest.Posts, Secret, and the bot's
// ReplayGuard, which remembers the interactions already handled.
//
//   - store/sqlite: embedded SQLite (modernc.org/sqlite, pure Go), the
//     default that needs nothing.
//   - store/postgres: PostgreSQL (pgx), for several bot processes sharing
//     one database.
//
// Open takes MAZEBOT_DB: a postgres:// or postgresql:// URL selects
// PostgreSQL, anything else is a SQLite file path. Copy is `mazebot store
// copy`: every table from one database into another, either way.
//
// store/storetest holds the contract suite that every adapter's tests run
// (storetest.Run), so all of them behave alike; it is imported by tests
// only. store/internal/codec is what the adapters share (column lists, the
// decoding of rows, the ranking queries, table access for Copy);
// internal/pgtest gives tests a fresh PostgreSQL schema.
//
// Adding a store method (a domain interface grew one):
//
//  1. A new table or column goes into a new migration of each adapter,
//     store/sqlite/migrations and store/postgres/migrations, with the same
//     names and meaning (TestSchemasAgree fails otherwise; text columns on
//     PostgreSQL COLLATE "C"). Copy then moves it with no change.
//  2. Columns a read returns, and their decoding into the domain's type,
//     go into store/internal/codec (a Columns constant and a row struct
//     with Dest and a conversion), once for both adapters.
//  3. Each adapter gets the method, with its SQL and its driver's calls:
//     codec.One or collect for reads; for a claim, one conditional
//     statement whose "no row" is play.ErrConflict (expectOne).
//  4. storetest gets the behaviour, races included, so both adapters run it.
//
// The domain never imports a store package; only main (app.go) and the
// command line's store copy do.
package store
