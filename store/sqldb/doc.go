// Package sqldb is mazebot's store over database/sql: every method of
// store.DB written once, in SQL that SQLite and PostgreSQL both speak,
// with a Dialect (store/sqlite, store/postgres) for what truly differs.
//
// Each method passes through one call helper that bounds it by the
// per-call deadline (WithTimeout, DefaultTimeout) and counts its real
// failures (WithMetrics), and that takes the dialect's write turn when
// the dialect allows one writer at a time. Reads return play's and
// contest's records and sentinel errors (ErrNotFound for no row,
// ErrConflict for a conditional write that matched none).
//
// The schema is in migrations/<dialect>/*.sql, numbered and named alike
// in both dialects from 0014_schema.sql on, and applied at New in one
// transaction under the dialect's migration lock. Databases made before
// the two were numbered alike are brought to 0014 by the frozen steps in
// migrations/<dialect>/legacy (see migrate.go).
//
// Adding a store method: the interface (store.DB, or the domain's), one
// implementation here (through call), its behaviour in store/storetest,
// and a migration per
// dialect with the same number and name if the schema changes.
//
// sqldb imports the domain (play, contest, mazecore), metrics and
// database/sql; never a driver (the dialects bring theirs), Discord or a
// renderer.
package sqldb
