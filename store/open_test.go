package store

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mazebot/contest"
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
		{"Postgres://h/db", Postgres}, // a scheme is any case
		{"POSTGRESQL://u:p@h/db", Postgres},
		{"host=db user=u password=pw dbname=m", Postgres},
		{"  dbname = m  sslmode=disable", Postgres},
		{"user=u password='a b c' host=/run/postgresql", Postgres},
		{"data/host=1.db", SQLite},         // a path, whatever its words
		{"color=blue.db", SQLite},          // key=value, but no keyword of PostgreSQL's
		{"host=db password='open", SQLite}, // unterminated: not keyword/value
		{"my mazes.db", SQLite},
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
		{"OKParameterAnyCase", "postgres://bob@h/db?PASSWORD=hunter2&sslmode=require", "postgres://bob@h/db?PASSWORD=xxxxx&sslmode=require"},
		{"OKSSLPassword", "postgres://bob@h/db?sslpassword=hunter2", "postgres://bob@h/db?sslpassword=xxxxx"},
		{"OKSchemeAnyCase", "POSTGRES://bob:hunter2@h/db", "postgres://bob:xxxxx@h/db"},
		{"OKKeywordValue", "host=db user=u password=hunter2 dbname=m", "host=db user=u password=xxxxx dbname=m"},
		{"OKKeywordValueQuoted", "host=db password = 'hunter2 x\\' y' dbname=m", "host=db password = xxxxx dbname=m"},
		{"OKKeywordValueAnyCase", "host=db PASSWORD=hunter2", "host=db PASSWORD=xxxxx"},
		{"OKKeywordValueNoPassword", "host=db user=u dbname=m", "host=db user=u dbname=m"},
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
	// What can't be opened is an error that shows no password, however
	// the DSN spells it; a URL of another scheme is not taken for a file
	// name, nor is a keyword/value string.
	for _, tt := range []struct{ name, dsn, says string }{
		{"ErrQuestionMark", filepath.Join(t.TempDir(), "a?b.db"), "'?'"},
		{"ErrUnknownScheme", "mysql://bob:hunter2@h/db", `scheme "mysql"`},
		{"ErrSchemeTypo", "postgress://bob:hunter2@h/db", `scheme "postgress"`},
		{"ErrNoServer", "postgres://bob:hunter2@127.0.0.1:1/db?connect_timeout=2", "postgres://bob:xxxxx@127.0.0.1:1/db"},
		{"ErrNoServerSchemeAnyCase", "POSTGRES://bob:hunter2@127.0.0.1:1/db?connect_timeout=2", "postgres://bob:xxxxx@127.0.0.1:1/db"},
		{"ErrNoServerParameter", "postgres://bob@127.0.0.1:1/db?connect_timeout=2&password=hunter2", "password=xxxxx"},
		{"ErrNoServerParameterAnyCase", "postgres://bob@127.0.0.1:1/db?connect_timeout=2&PASSWORD=hunter2", "PASSWORD=xxxxx"},
		{"ErrNoServerKeywordValue", "host=127.0.0.1 port=1 user=bob password=hunter2 dbname=db connect_timeout=2", "password=xxxxx"},
		{"ErrNoServerKeywordValueQuoted", "host=127.0.0.1 port=1 user=bob password='hunter2 x' dbname=db connect_timeout=2", "password=xxxxx"},
		{"ErrBadURL", "postgres://bob:hunter2@h:port/db", "postgres://xxxxx"},
		{"ErrBadURLSchemeAnyCase", "Postgres://bob:hunter2@h:port/db", "postgres://xxxxx"},
		{"ErrBadKeywordValue", "host=h port=many user=bob password=hunter2", "password=xxxxx"},
		{"ErrBadPoolParameter", "postgres://bob:hunter2@127.0.0.1/db?pool_max_conns=many", "postgres://bob:xxxxx@"},
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

// TestOpenKeywordValue: a keyword/value string opens PostgreSQL, and
// makes no SQLite file of its text.
func TestOpenKeywordValue(t *testing.T) {
	u, err := url.Parse(pgtest.Schema(t))
	ok(t, err)
	kv := fmt.Sprintf("host=%s port=%s dbname=%s user=%s search_path=%s", u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/"), u.User.Username(), u.Query().Get("search_path"))
	if pw, has := u.User.Password(); has {
		kv += " password='" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(pw) + "'"
	}
	t.Chdir(t.TempDir())
	db, err := Open(t.Context(), kv)
	ok(t, err)
	defer db.Close()
	ok(t, db.Ping(t.Context()))
	ok(t, db.AddPost(t.Context(), contest.Post{MazeID: testMaze, ChannelID: "c1", MessageID: "m1", PostedAt: at(0)}))
	if entries, err := os.ReadDir("."); err != nil || len(entries) != 0 {
		t.Fatalf("files made in the working directory: %v (%v), want none", entries, err)
	}
	// The schema the string names is the one written to.
	pg, err := Open(t.Context(), u.String())
	ok(t, err)
	defer pg.Close()
	if got, err := pg.LastPost(t.Context(), "c1"); err != nil || got.MessageID != "m1" {
		t.Fatalf("LastPost through the URL=%+v (%v), want the post made through the keyword/value string", got, err)
	}
}

// TestCopyShowsNoPassword: store copy's errors, from either end, never
// show a password, however the DSN spells it.
func TestCopyShowsNoPassword(t *testing.T) {
	from := sqliteFile(t)
	seed(t, from)
	for _, pg := range []string{
		"postgres://bob:hunter2@127.0.0.1:1/db?connect_timeout=2",
		"POSTGRESQL://bob:hunter2@127.0.0.1:1/db?connect_timeout=2",
		"postgres://bob@127.0.0.1:1/db?connect_timeout=2&Password=hunter2",
		"host=127.0.0.1 port=1 user=bob password=hunter2 connect_timeout=2",
	} {
		for _, args := range [][2]string{{pg, from}, {from, pg}} {
			_, err := Copy(t.Context(), args[0], args[1], false)
			if err == nil || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("Copy(to %q, from %q): err=%v, want an error without the password", args[0], args[1], err)
			}
		}
	}
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
