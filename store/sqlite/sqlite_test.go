package sqlite_test

import (
	"context"
	"path/filepath"
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
	t.Run("ErrNoDirectory", func(t *testing.T) {
		if _, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "missing", "mazebot.db")); err == nil {
			t.Fatal("expected error")
		}
	})
}
