//go:build !mazeonly

package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/pgtest"
	"mazebot/mazecore"
	"mazebot/store"
)

func TestStoreCopy(t *testing.T) {
	from := filepath.Join(t.TempDir(), "mazebot.db")
	db, err := store.Open(context.Background(), from)
	if err != nil {
		t.Fatal(err)
	}
	post := contest.Post{MazeID: mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 7}, GuildID: "g1", ChannelID: "c1", MessageID: "m1", PostedAt: time.UnixMilli(1).UTC()}
	if err := db.AddPost(context.Background(), post); err != nil {
		t.Fatal(err)
	}
	db.Close()

	for _, target := range []struct {
		name string
		to   func(t *testing.T) string
	}{
		{"SQLite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "copy.db") }},
		{"Postgres", func(t *testing.T) string { return pgtest.Schema(t) }},
	} {
		t.Run(target.name, func(t *testing.T) {
			to := target.to(t)
			stdout, _ := mustRun(t, "store", "copy", "--from", from, "--to", to)
			if want := "copied " + from + " to " + store.Redact(to) + ":\n"; !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "  posts  1 rows\n") {
				t.Fatalf("stdout=%q, want it to start %q and count one post", stdout, want)
			}
			db, err := store.Open(context.Background(), to)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got, err := db.LastPost(context.Background(), "c1"); err != nil || got != post {
				t.Fatalf("LastPost of the copy=%+v, %v; want %+v", got, err, post)
			}

			// Again: refused, unless forced.
			code, stdout, stderr := run(t, "store", "copy", "--from", from, "--to", to)
			if code != 1 || stdout != "" || !strings.Contains(stderr, "not empty (") || !strings.Contains(stderr, "--force replaces them") {
				t.Fatalf("second copy: exit %d, stdout=%q, stderr=%q; want 1 and a refusal that names --force", code, stdout, stderr)
			}
			mustRun(t, "store", "copy", "--from", from, "--to", to, "--force")
		})
	}
}

// A failure to open is exit 1 and an error (pgx's may take several lines,
// a line per address tried) that never shows the URL's password.
func TestStoreCopyFails(t *testing.T) {
	from := filepath.Join(t.TempDir(), "mazebot.db")
	mustRun(t, "store", "copy", "--from", ":memory:", "--to", from)
	for _, args := range [][]string{
		{"store", "copy", "--from", from, "--to", "postgres://bob:hunter2@127.0.0.1:1/db?connect_timeout=2"},
		{"store", "copy", "--from", "postgres://bob:hunter2@127.0.0.1:1/db?connect_timeout=2", "--to", from},
		{"store", "copy", "--from", from, "--to", "POSTGRES://bob:hunter2@127.0.0.1:1/db?connect_timeout=2"},
		{"store", "copy", "--from", from, "--to", "postgres://bob@127.0.0.1:1/db?connect_timeout=2&PASSWORD=hunter2"},
		{"store", "copy", "--from", "host=127.0.0.1 port=1 user=bob password=hunter2 connect_timeout=2", "--to", from},
		{"store", "copy", "--from", filepath.Join(t.TempDir(), "missing.db"), "--to", from},
	} {
		code, stdout, stderr := run(t, args...)
		if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "mazebot: ") || strings.Contains(stderr, "usage") || strings.Contains(stderr, "hunter2") {
			t.Fatalf("%q: exit %d, stdout=%q, stderr=%q; want 1 and the error without the password", args, code, stdout, stderr)
		}
	}
}

func TestStoreBadArguments(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		msg  string
	}{
		{"ErrNoSubcommand", []string{"store"}, "missing subcommand"},
		{"ErrUnknownSubcommand", []string{"store", "move"}, `unknown subcommand "move"`},
		{"ErrNoFrom", []string{"store", "copy", "--to", "b.db"}, "missing --from"},
		{"ErrNoTo", []string{"store", "copy", "--from", "a.db"}, "missing --to"},
		{"ErrUnknownFlag", []string{"store", "copy", "--from", "a.db", "--to", "b.db", "--fast"}, "-fast"},
		{"ErrFlagNeedsValue", []string{"store", "copy", "--from"}, "-from"},
		{"ErrExtraArgument", []string{"store", "copy", "--from", "a.db", "--to", "b.db", "c.db"}, `unexpected argument "c.db"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.args...)
			if code != 2 || stdout != "" {
				t.Fatalf("exit %d, stdout=%q, stderr=%q; want 2 and nothing on stdout", code, stdout, stderr)
			}
			if first := checkOneLine(t, stderr, "(mazebot store copy --help shows the usage)"); !strings.Contains(first, tt.msg) {
				t.Fatalf("stderr=%q, want \"mazebot: …%s…\"", first, tt.msg)
			}
		})
	}
}

func TestStoreHelp(t *testing.T) {
	for _, args := range [][]string{{"store", "--help"}, {"store", "copy", "-h"}} {
		if stdout, stderr := mustRun(t, args...); !strings.HasPrefix(stdout, "usage: mazebot store copy") || stderr != "" {
			t.Fatalf("%q: stdout=%q stderr=%q", args, stdout, stderr)
		}
	}
	if stdout, _ := mustRun(t, "help"); !strings.Contains(stdout, "mazebot store copy --from DB --to DB [--force]") {
		t.Fatalf("mazebot help does not mention store copy:\n%s", stdout)
	}
}
