package storetest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"mazebot/store"
	"mazebot/store/sqlite"
)

// Memory opens a fresh SQLite database in memory, closed when the test
// ends: the store the domain's tests run on, the same schema and SQL the
// bot runs. It starts as a copy of a migrated database (MemoryDB).
func Memory(tb testing.TB) Store { return MemoryDB(tb) }

// MemoryDB is Memory as the SQLite store's own type. It is a copy of the
// image of a new, migrated database, made once per test binary: a copy takes
// some 21 ms under the race detector where migrating each takes some
// 200 ms (BenchmarkOpen in store/sqlite).
func MemoryDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.OpenImage(context.Background(), mustImage(tb))
	if err != nil {
		tb.Fatal(err)
	}
	closeAtEnd(tb, db)
	return db
}

// SQLiteFile returns the path of a new SQLite database file in a
// temporary directory of tb's, a copy of the image Memory starts from:
// what Open makes of a path it does not find, without running the
// migrations again (a test of the migrations opens a path of its own).
func SQLiteFile(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "mazebot.db")
	if err := os.WriteFile(path, mustImage(tb), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// image is the bytes of a new, migrated SQLite database, made once.
var image = sync.OnceValues(func() ([]byte, error) { return sqlite.Image(context.Background()) })

func mustImage(tb testing.TB) []byte {
	tb.Helper()
	b, err := image()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Open opens the database dsn names (as store.Open reads it), closed when
// the test ends.
func Open(tb testing.TB, dsn string) Store {
	tb.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	closeAtEnd(tb, db)
	return db
}

// closeAtEnd closes db when the test ends, failing it if that fails.
func closeAtEnd(tb testing.TB, db interface{ Close() error }) {
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
}
