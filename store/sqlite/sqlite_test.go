package sqlite_test

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

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
