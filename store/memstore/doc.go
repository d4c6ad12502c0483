// Package memstore is mazebot's store in memory: store.DB with the
// meaning store/sqldb gives it on SQLite and PostgreSQL (conditional
// writes that one of any number of racing callers wins, refusals of what
// the schema's checks refuse, times kept to the millisecond in UTC),
// held to it by the same contract suite, store/storetest.
//
// It is the store the domain's tests (contest, play) run on: fast,
// private to each test, nothing to open or clean up. It keeps nothing
// once the process ends.
//
// It imports the domain (play, contest, mazecore) and the standard
// library only: no database, no Discord, no renderer.
package memstore
