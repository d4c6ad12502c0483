package storetest

import (
	"context"
	"testing"

	"mazebot/store"
	"mazebot/store/sqlite"
)

// Memory opens a fresh SQLite database in memory, closed when the test
// ends: the store the domain's tests run on, the same schema and SQL the
// bot runs, in about a millisecond.
func Memory(tb testing.TB) Store { return Open(tb, sqlite.Memory) }

// Open opens the database dsn names (as store.Open reads it), closed when
// the test ends.
func Open(tb testing.TB, dsn string) Store {
	tb.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db
}
