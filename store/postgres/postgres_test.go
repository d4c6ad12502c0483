package postgres_test

import (
	"strings"
	"testing"

	"mazebot/store/postgres"
)

func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1":        "SELECT 1",
		"a = ? AND b = ?": "a = $1 AND b = $2",
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)": "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
	} {
		if got := (postgres.Dialect{}).Rebind(in); got != want {
			t.Errorf("Rebind(%q)=%q, want %q", in, got, want)
		}
	}
}

// TestOpenErrors: a DSN pgx can't use, or a server that isn't there, is
// an error that never shows the password.
func TestOpenErrors(t *testing.T) {
	for _, tt := range []struct{ name, dsn string }{
		{"ErrBadPort", "postgres://bob:hunter2secret@127.0.0.1:notaport/db"},
		{"ErrNoServer", "postgres://bob:hunter2secret@127.0.0.1:1/db?connect_timeout=2"},
		{"ErrBadParam", "postgres://bob:hunter2secret@127.0.0.1/db?pool_max_conns=many"},
		{"ErrNoServerKeywordValue", "host=127.0.0.1 port=1 user=bob password=hunter2secret connect_timeout=2"},
		{"ErrBadKeywordValue", "host=127.0.0.1 port=x user=bob password=hunter2secret"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, err := postgres.Open(t.Context(), tt.dsn)
			if err == nil {
				db.Close()
				t.Fatal("want an error")
			}
			if strings.Contains(err.Error(), "hunter2secret") {
				t.Fatalf("err=%q shows the password", err)
			}
		})
	}
}
