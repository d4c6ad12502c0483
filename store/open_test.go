package store

import (
	"path/filepath"
	"strings"
	"testing"

	"mazebot/internal/pgtest"
)

func TestKind(t *testing.T) {
	for _, tt := range []struct{ dsn, want string }{
		{"postgres://u:p@h/db", Postgres},
		{"postgresql://h/db?sslmode=disable", Postgres},
		{"mazebot.db", SQLite},
		{"/data/mazebot.db", SQLite},
		{":memory:", SQLite},
		{"postgres.db", SQLite},
		{"Postgres://h/db", SQLite}, // schemes are spelled in lower case
	} {
		if got := Kind(tt.dsn); got != tt.want {
			t.Errorf("Kind(%q)=%v, want %v", tt.dsn, got, tt.want)
		}
	}
}

func TestRedact(t *testing.T) {
	for _, tt := range []struct{ name, dsn, want string }{
		{"OKUserInfo", "postgres://bob:hunter2@db.example:5432/mazebot", "postgres://bob:xxxxx@db.example:5432/mazebot"},
		{"OKParameter", "postgres://bob@db.example/mazebot?password=hunter2&sslmode=require", "postgres://bob@db.example/mazebot?password=xxxxx&sslmode=require"},
		{"OKBoth", "postgresql://bob:hunter2@h/db?password=hunter2", "postgresql://bob:xxxxx@h/db?password=xxxxx"},
		{"OKNoPassword", "postgres://bob@h/db", "postgres://bob@h/db"},
		{"OKEscaped", "postgres://bob:hun%40ter2@h/db", "postgres://bob:xxxxx@h/db"},
		{"OKUnparsable", "postgres://bob:hunter2@h:port/db", "postgres://xxxxx"},
		{"OKPath", "data/mazebot.db", "data/mazebot.db"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.dsn)
			if got != tt.want || strings.Contains(got, "hunter2") || strings.Contains(got, "hun@ter2") {
				t.Fatalf("Redact(%q)=%q, want %q", tt.dsn, got, tt.want)
			}
		})
	}
}

func TestOpen(t *testing.T) {
	for name, dsn := range map[string]string{"Memory": ":memory:", "File": filepath.Join(t.TempDir(), "mazebot.db")} {
		t.Run("OKSQLite/"+name, func(t *testing.T) {
			db, err := Open(t.Context(), dsn)
			ok(t, err)
			defer db.Close()
			ok(t, db.Ping(t.Context()))
		})
	}
	t.Run("OKPostgres", func(t *testing.T) {
		db, err := Open(t.Context(), pgtest.Schema(t))
		ok(t, err)
		defer db.Close()
		ok(t, db.Ping(t.Context()))
	})
	// What can't be opened is an error that shows no password; a URL of
	// another scheme is not taken for a file name.
	for _, tt := range []struct{ name, dsn, says string }{
		{"ErrQuestionMark", filepath.Join(t.TempDir(), "a?b.db"), "'?'"},
		{"ErrUnknownScheme", "mysql://bob:hunter2@h/db", `scheme "mysql"`},
		{"ErrSchemeTypo", "postgress://bob:hunter2@h/db", `scheme "postgress"`},
		{"ErrNoServer", "postgres://bob:hunter2@127.0.0.1:1/db?connect_timeout=2", "postgres://bob:xxxxx@127.0.0.1:1/db"},
		{"ErrBadURL", "postgres://bob:hunter2@h:port/db", "postgres://xxxxx"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(t.Context(), tt.dsn)
			if err == nil {
				db.Close()
				t.Fatal("want an error")
			}
			if !strings.Contains(err.Error(), tt.says) || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("err=%q, want it to say %s and not the password", err, tt.says)
			}
		})
	}
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
