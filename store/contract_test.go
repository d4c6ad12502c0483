package store_test

import (
	"testing"

	"mazebot/internal/pgtest"
	"mazebot/store/storetest"
)

// TestContract runs the behaviour every store keeps on each of them. A
// database that can have another handle (its own pool on the same
// database, as a second bot process has) gets one for the races; those
// that can't return the same store again, and their races run between
// goroutines sharing it. The stores run side by side: each test has a
// database of its own, and PostgreSQL's turns are mostly the server's.
func TestContract(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		t.Parallel()
		storetest.Run(t, func(t *testing.T) (storetest.Store, func(t *testing.T) storetest.Store) {
			path := storetest.SQLiteFile(t)
			return mustOpen(t, path), func(t *testing.T) storetest.Store { return mustOpen(t, path) }
		})
	})
	t.Run("SQLiteMemory", func(t *testing.T) {
		t.Parallel()
		storetest.Run(t, func(t *testing.T) (storetest.Store, func(t *testing.T) storetest.Store) {
			db := storetest.Memory(t)
			return db, func(*testing.T) storetest.Store { return db }
		})
	})
	t.Run("Postgres", func(t *testing.T) {
		t.Parallel()
		pgtest.URL(t) // skip (or fail under CI) once, not in every subtest
		storetest.Run(t, func(t *testing.T) (storetest.Store, func(t *testing.T) storetest.Store) {
			url := pgtest.Schema(t)
			return mustOpen(t, url), func(t *testing.T) storetest.Store { return mustOpen(t, url) }
		})
	})
}

// mustOpen opens the database dsn names, closed when the test ends.
var mustOpen = storetest.Open
