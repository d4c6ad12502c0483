// Package store opens mazebot's database, whichever adapter holds it, and
// copies one database into another. Each adapter, in a package of its own
// named after what it wraps, implements the store interfaces that the
// domain packages declare: play.Store, contest.DailyStore,
// contest.EventStore and contest.Posts, and Secret.
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
// The domain never imports a store package; only main (app.go) and the
// command line's store copy do.
package store
