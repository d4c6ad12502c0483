package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	msqlite "modernc.org/sqlite"

	"mazebot/store/sqlite"
)

func TestOpen(t *testing.T) {
	ctx := context.Background()
	for name, path := range map[string]string{"OKMemory": sqlite.Memory, "OKFile": filepath.Join(t.TempDir(), "mazebot.db")} {
		t.Run(name, func(t *testing.T) {
			db, err := sqlite.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Ping(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("ErrEmptyPath", func(t *testing.T) {
		if _, err := sqlite.Open(ctx, ""); err == nil {
			t.Fatal("expected error")
		}
	})
	t.Run("ErrQuestionMark", func(t *testing.T) {
		if _, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "a?b.db")); err == nil {
			t.Fatal("expected error")
		}
	})
}

// TestOpenDirectory: a database in a directory that is missing, is no
// directory, or can't be written is an error that names the path, the
// directory, the user the process runs as and the fix, not SQLite's
// "unable to open database file (14)". Each case fails for root too:
// permission bits don't stop root, so the unwritable directory is one no
// user may write to when the tests run as root.
func TestOpenDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, dir string
		says      string
	}{
		{"ErrMissing", filepath.Join(t.TempDir(), "missing"), "does not exist: create it"},
		{"ErrMissingParent", filepath.Join(t.TempDir(), "missing", "deeper"), "does not exist: create it"},
		{"ErrNotADirectory", file, "is not a directory"},
		{"ErrUnderARegularFile", filepath.Join(file, "sub"), "can't be reached"},
		{"ErrUnwritable", unwritableDir(t), "is not writable by"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(tt.dir, "mazebot.db")
			db, err := sqlite.Open(context.Background(), path)
			if err == nil {
				db.Close()
				t.Fatalf("Open(%s) succeeded", path)
			}
			msg := err.Error()
			for _, want := range []string{path, tt.dir + " ", tt.says, runningAs(t), "set MAZEBOT_DB"} {
				if !strings.Contains(msg, want) {
					t.Errorf("err=%q, want it to say %q", msg, want)
				}
			}
			if _, err := os.Stat(path); err == nil {
				t.Errorf("a database file was made at %s", path)
			}
			t.Log(msg)
		})
	}
}

// runningAs is how the error names the user the tests run as.
func runningAs(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return "user " + u.Username + " (uid " + u.Uid + ")"
}

// unwritableDir is a directory the tests can't create a file in: one
// whose permissions forbid it, or for root, whom permissions don't stop,
// a directory of the kernel's that takes no new files (/sys).
func unwritableDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "read-only")
	if err := os.Mkdir(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, "/sys", "/proc"} {
		f, err := os.CreateTemp(d, "probe-*")
		if err != nil {
			return d
		}
		f.Close()
		os.Remove(f.Name())
	}
	t.Fatal("no directory that refuses new files, to test with")
	return ""
}

// TestImage: a database opened from Image (in memory, or written to a
// file) holds the schema and the migrations' record a new file migrates
// to, and each copy is a database of its own.
func TestImage(t *testing.T) {
	ctx := context.Background()
	image, err := sqlite.Image(ctx)
	if err != nil {
		t.Fatal(err)
	}
	migrated := filepath.Join(t.TempDir(), "migrated.db")
	db, err := sqlite.Open(ctx, migrated)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	copied := filepath.Join(t.TempDir(), "copied.db")
	if err := os.WriteFile(copied, image, 0o600); err != nil {
		t.Fatal(err)
	}
	want, got := schemaOf(t, migrated), schemaOf(t, copied)
	if len(want) < 10 || !slices.Equal(got, want) {
		t.Fatalf("the image's schema:\n%s\nwant what the migrations make:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	db, err = sqlite.Open(ctx, copied) // as a bot would: its own pragmas
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if mode := journalMode(t, copied); mode != "wal" {
		t.Fatalf("the copy opened in journal mode %q, want wal", mode)
	}

	secret := func(db *sqlite.DB, made string) string {
		t.Helper()
		got, err := db.Secret(ctx, "k", func() ([]byte, error) { return []byte(made), nil })
		if err != nil {
			t.Fatal(err)
		}
		return string(got)
	}
	a, err := sqlite.OpenImage(ctx, image)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := sqlite.OpenImage(ctx, image)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := secret(a, "a"); got != "a" {
		t.Fatalf("a's secret %q, want the one it made", got)
	}
	if got := secret(b, "b"); got != "b" {
		t.Fatalf("b's secret %q: a copy shares another's rows", got)
	}
	if got := secret(a, "c"); got != "a" {
		t.Fatalf("a's secret %q the second time, want the one it keeps", got)
	}

	if _, err := sqlite.OpenImage(ctx, nil); err == nil {
		t.Fatal("OpenImage(nil) succeeded")
	}
	if _, err := sqlite.OpenImage(ctx, []byte("not a database")); err == nil {
		t.Fatal("OpenImage of a few stray bytes succeeded")
	}
}

// schemaOf lists the file's schema (its tables', indexes' and triggers'
// SQL) and the migrations it records, read with the driver alone.
func schemaOf(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []string
	for _, q := range []string{
		`SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name`,
		`SELECT 'migration ' || name FROM migrations ORDER BY name`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// journalMode is the file's journal mode, as a new connection finds it.
func journalMode(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	return mode
}

// TestPoolKeepsItsConnections: concurrent reads of a file reuse the
// pool's connections rather than open new ones, each of which reads the
// schema again: as many connections as readers at once, and the one
// Open migrated on.
func TestPoolKeepsItsConnections(t *testing.T) {
	var made atomic.Int64
	msqlite.RegisterConnectionHook(func(msqlite.ExecQuerierContext, string) error {
		made.Add(1)
		return nil
	})
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "mazebot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const readers = 12
	before := made.Load()
	var wg sync.WaitGroup
	for range readers {
		wg.Go(func() {
			for range 200 {
				if err := db.Ping(ctx); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := made.Load() - before; n > readers {
		t.Fatalf("%d readers' 200 reads each opened %d connections, want at most one each", readers, n)
	}
}

// BenchmarkOpen opens a new database: migrated in memory, a copy of the
// image in memory, a file written from the image, a new file migrated.
// Run with and without -race, where the driver's every pointer is checked:
//
//	go test ./store/sqlite -run '^$' -bench Open -benchtime 20x -count 3 [-race]
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	image, err := sqlite.Image(ctx)
	if err != nil {
		b.Fatal(err)
	}
	write := func(b *testing.B) string {
		path := filepath.Join(b.TempDir(), "mazebot.db")
		if err := os.WriteFile(path, image, 0o600); err != nil {
			b.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name string
		open func(b *testing.B) (*sqlite.DB, error)
	}{
		{"memory-migrated", func(*testing.B) (*sqlite.DB, error) { return sqlite.Open(ctx, sqlite.Memory) }},
		{"memory-image", func(*testing.B) (*sqlite.DB, error) { return sqlite.OpenImage(ctx, image) }},
		{"file-image", func(b *testing.B) (*sqlite.DB, error) { return sqlite.Open(ctx, write(b)) }},
		{"file-migrated", func(b *testing.B) (*sqlite.DB, error) {
			return sqlite.Open(ctx, filepath.Join(b.TempDir(), "mazebot.db"))
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				db, err := tc.open(b)
				if err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
		})
	}
}
