// Package storetest is the contract every mazebot store keeps: one
// behavioural test suite, Run, called with a way to open a fresh database.
// It tests a store only through store.DB, the domain's interfaces and
// what a bot process needs besides, so store/sqldb on SQLite (on disk and
// in memory) and on PostgreSQL is held to the same rules:
// optimistic writes on a game's seq, claims that happen exactly once
// however many processes race, rankings and streaks.
//
// Beyond what the interfaces' comments say, the suite asks of a store
// what the domain relies on without saying: times come back in UTC at
// millisecond precision (what is finer is dropped, so values read back
// compare equal to what a later write passes as expected), and records the
// store could not read back are refused.
//
// It is imported by tests only (store's contract_test.go runs it on every
// store). Memory opens the store the domain's tests run on: SQLite in
// memory, the bot's own schema and SQL. It imports store for the contract, the domain and the standard
// library; never Discord or a renderer.
package storetest
