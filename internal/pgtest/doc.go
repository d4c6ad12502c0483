// Package pgtest gives tests a fresh, empty PostgreSQL database cheaply:
// a schema of its own in a test database on the server that
// MAZEBOT_TEST_POSTGRES names, dropped when the test ends.
//
// A schema costs a few milliseconds where a database made from a
// template costs a few hundred, and what a store sees through a URL
// whose search_path names the schema is an empty database: its
// migrations, its identity sequences, its advisory lock (keyed by the
// schema) are its own.
//
// Without MAZEBOT_TEST_POSTGRES the tests skip and say why, so that
// `go test ./...` passes on a machine without PostgreSQL; under CI (CI
// set to true) they fail instead, so CI can't go green without them.
//
// pgtest is for tests only.
package pgtest
