package e2e

// What an operator sees of the real binary (issue 16, rows 7, 8, 9, 11, 12
// and 20): the messages it prints and logs, and its exit codes, when the
// token, the database or the command line is wrong, and while the database
// is away.

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"mazebot/app"
	"mazebot/internal/pgtest"
	"mazebot/internal/testkit"
)

// TestProcessRefusedToken (row 7): a token Discord refuses stops the bot
// with exit code 1 and a message that says so and where DISCORD_TOKEN is
// set, not one about sharding, whatever the shard settings.
func TestProcessRefusedToken(t *testing.T) {
	t.Parallel()
	const wrong = "e2e-not-a-bot-token.0000.aaaa"
	for _, shards := range []string{"", "auto", "2"} {
		fake := newDiscord(t)
		out := fake.runBinary(t, t.TempDir(), nil, "DISCORD_TOKEN="+wrong, "DISCORD_SHARD_COUNT="+shards)
		if out.code != 1 {
			t.Fatalf("DISCORD_SHARD_COUNT=%q: exit %d, want 1; stderr:\n%s", shards, out.code, out.stderr)
		}
		for _, want := range []string{"bot token refused by Discord (HTTP 401 Unauthorized)", "DISCORD_TOKEN, in the environment or in .env", "Reset Token"} {
			if !strings.Contains(out.stderr, want) {
				t.Errorf("DISCORD_SHARD_COUNT=%q: stderr lacks %q:\n%s", shards, want, out.stderr)
			}
		}
		if strings.Contains(out.stderr, "shard count") || strings.Contains(out.stderr, wrong) {
			t.Errorf("DISCORD_SHARD_COUNT=%q: stderr blames sharding or shows the token:\n%s", shards, out.stderr)
		}
		if n := fake.Identifies(); n != 0 {
			t.Errorf("DISCORD_SHARD_COUNT=%q: %d sessions started with a refused token", shards, n)
		}
	}
}

// runningAs names a user as the bot's messages do: its name and uid.
func runningAs(t *testing.T, uid int) string {
	t.Helper()
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("user %s (uid %s)", u.Username, u.Uid)
}

// TestProcessDatabaseDirectory (row 8): MAZEBOT_DB in a directory that is
// missing, or that the user the bot runs as cannot write (a bind mount
// owned by root), stops the bot with exit code 1 and a message naming the
// path, the user and the fix.
func TestProcessDatabaseDirectory(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	t.Run("ErrMissing", func(t *testing.T) {
		dir := t.TempDir()
		db := filepath.Join(dir, "data", "mazebot.db")
		out := fake.runBinary(t, dir, nil, "MAZEBOT_DB="+db)
		who := runningAs(t, os.Getuid())
		checkExit(t, out, 1, db, "the directory "+filepath.Dir(db)+" does not exist", "create it, writable by "+who,
			"or set MAZEBOT_DB to a file in a directory that "+who+" can write")
	})
	t.Run("ErrNotWritable", func(t *testing.T) {
		// As the image runs it: a user other than the directory's owner.
		// Root writes anywhere, so as root the bot runs as nobody.
		dir := t.TempDir()
		data := filepath.Join(dir, "data")
		if err := os.Mkdir(data, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := fake.binaryCmd(t, dir, nil, "MAZEBOT_DB="+filepath.Join(data, "mazebot.db"))
		uid := os.Getuid()
		if uid == 0 {
			const nobody = 65534
			uid = nobody
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
			// What nobody must reach: the binary, and the way to data.
			for _, d := range []string{filepath.Dir(cmd.Path), dir, filepath.Dir(dir)} {
				if err := os.Chmod(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
		} else if err := os.Chmod(data, 0o555); err != nil {
			t.Fatal(err)
		}
		out := fake.runCmd(t, cmd)
		who := runningAs(t, uid)
		checkExit(t, out, 1, filepath.Join(data, "mazebot.db"), "the directory "+data+" is not writable by "+who+", whom the bot runs as",
			"make it writable by that user (for a bind mount, on the host)")
	})
}

// checkExit checks that a run of the binary exited with code and that its
// stderr holds each of want.
func checkExit(t *testing.T, out ran, code int, want ...string) {
	t.Helper()
	if out.code != code {
		t.Fatalf("exit %d, want %d; stderr:\n%s", out.code, code, out.stderr)
	}
	for _, w := range want {
		if !strings.Contains(out.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, out.stderr)
		}
	}
}

// TestProcessHelpAndVersion (row 11): mazebot --help says what each mode
// does; mazebot bot --help lists every setting of the bot and exits
// without starting it, even with a token set; mazebot version prints one.
func TestProcessHelpAndVersion(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dir := t.TempDir()
	for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}} {
		out := fake.runBinary(t, dir, args)
		if out.code != 0 {
			t.Fatalf("mazebot %v: exit %d; stderr:\n%s", args, out.code, out.stderr)
		}
		for _, want := range []string{"mazebot bot ", "run the bot", "mazebot maze", "mazebot store copy", "mazebot version", "mazebot bot --help"} {
			if !strings.Contains(out.stdout, want) {
				t.Errorf("mazebot %v lacks %q:\n%s", args, want, out.stdout)
			}
		}
	}
	for _, args := range [][]string{{"bot", "--help"}, {"bot", "-h"}} {
		out := fake.runBinary(t, dir, args) // with the fake's token set
		if out.code != 0 || !strings.HasPrefix(out.stdout, "usage: mazebot bot") {
			t.Fatalf("mazebot %v: exit %d, stdout:\n%s\nstderr:\n%s", args, out.code, out.stdout, out.stderr)
		}
		for _, v := range app.Variables {
			if !strings.Contains(out.stdout, "  "+v.Name+" ") {
				t.Errorf("mazebot %v does not list %s:\n%s", args, v.Name, out.stdout)
			}
		}
	}
	if reqs := fake.Requests(""); len(reqs) != 0 || fake.Identifies() != 0 {
		t.Fatalf("mazebot bot --help started the bot: %d requests to Discord, %d sessions", len(reqs), fake.Identifies())
	}
	out := fake.runBinary(t, dir, []string{"version"})
	if version, ok := strings.CutPrefix(strings.TrimSpace(out.stdout), "mazebot "); out.code != 0 || !ok || version == "" {
		t.Fatalf("mazebot version: exit %d, %q", out.code, out.stdout)
	}
}

// imageCommand is the command line the Docker image runs: its ENTRYPOINT
// and CMD, both in exec form.
func imageCommand(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var entry, cmd []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		instr, rest, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		var words []string
		if instr == "ENTRYPOINT" || instr == "CMD" {
			for w := range strings.SplitSeq(strings.Trim(rest, "[] "), ",") {
				unq, err := strconv.Unquote(strings.TrimSpace(w))
				if err != nil {
					t.Fatalf("Dockerfile: %s %s is not in exec form", instr, rest)
				}
				words = append(words, unq)
			}
		}
		switch instr {
		case "FROM":
			entry, cmd = nil, nil // a new stage
		case "ENTRYPOINT":
			entry = words
		case "CMD":
			cmd = words
		}
	}
	if err := sc.Err(); err != nil || len(entry) == 0 {
		t.Fatalf("Dockerfile: no ENTRYPOINT in the last stage (%v)", err)
	}
	return append(entry, cmd...)
}

// TestProcessNoTokenInImage (row 12): run as the Docker image runs it,
// without DISCORD_TOKEN, the binary exits non-zero, so an orchestrator
// sees the mistake, with advice for a container; it draws no maze.
func TestProcessNoTokenInImage(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	args := imageCommand(t)
	if args[0] != "/mazebot" {
		t.Fatalf("the image runs %q, want /mazebot", args)
	}
	out := fake.runBinary(t, t.TempDir(), args[1:], "DISCORD_TOKEN=")
	checkExit(t, out, 2, "DISCORD_TOKEN is not set", "in a container, docker run -e DISCORD_TOKEN=", "mazebot bot --help")
	if strings.Contains(out.stderr, "go run .") || out.stdout != "" {
		t.Fatalf("in the image without a token: stdout %q, stderr:\n%s\nwant no maze and no advice for a source tree", out.stdout, out.stderr)
	}
}

// pgPassword is the password the tests of row 20 give PostgreSQL, which
// the test server (trust authentication) ignores and the output must not
// show.
const pgPassword = "e2e-pg-password-4d2c"

// TestProcessPostgresSecrets (row 20): a keyword/value MAZEBOT_DB runs on
// PostgreSQL, not on a SQLite file of that name, and its password is in no
// output; nor is that of a URL whose scheme is in capitals given to store
// copy, nor a PASSWORD query parameter.
func TestProcessPostgresSecrets(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(pgtest.Schema(t))
	if err != nil {
		t.Fatal(err)
	}
	host, port := u.Hostname(), u.Port()
	t.Run("OKKeywordValue", func(t *testing.T) {
		fake := newDiscord(t)
		dir := t.TempDir()
		dsn := fmt.Sprintf("host=%s port=%s user=%s password=%s dbname=%s search_path=%s",
			host, port, u.User.Username(), pgPassword, strings.TrimPrefix(u.Path, "/"), u.Query().Get("search_path"))
		bot := fake.startProcess(t, dir, "MAZEBOT_DB="+dsn)
		fake.waitSynced(t, 1)
		waitFor(t, "the store's log line", func() bool { return strings.Contains(bot.logs.String(), `msg="database open" store=postgres`) })
		if strings.Contains(bot.logs.String(), pgPassword) {
			t.Fatalf("the password is in the output:\n%s", bot.logs.String())
		}
		if files, _ := filepath.Glob(filepath.Join(dir, "*host=*")); len(files) != 0 {
			t.Fatalf("a SQLite file named after the DSN: %v", files)
		}
	})
	t.Run("ErrCopyUpperCaseScheme", func(t *testing.T) {
		dir := t.TempDir()
		out := newDiscord(t).runBinary(t, dir, []string{"store", "copy", "--from", "POSTGRES://mazebot:" + pgPassword + "@127.0.0.1:1/mazebot", "--to", filepath.Join(dir, "copy.db")})
		checkExit(t, out, 1, "postgres://mazebot:xxxxx@127.0.0.1:1/mazebot")
		if strings.Contains(out.stdout+out.stderr, pgPassword) {
			t.Fatalf("the password is in the output:\n%s", out.stderr)
		}
	})
	t.Run("ErrPasswordParameter", func(t *testing.T) {
		q := u.Query()
		q.Set("PASSWORD", pgPassword)
		q.Set("connect_timeout", "5")
		withParam := *u
		withParam.RawQuery = q.Encode()
		out := newDiscord(t).runBinary(t, t.TempDir(), nil, "MAZEBOT_DB="+withParam.String())
		if strings.Contains(out.stdout+out.stderr, pgPassword) || !strings.Contains(out.stderr, "PASSWORD=xxxxx") {
			t.Fatalf("exit %d, the PASSWORD parameter not redacted:\n%s", out.code, out.stderr)
		}
	})
}

// proxiedPostgres is a fresh PostgreSQL schema reached through a proxy
// whose link the test can cut, as a database going away.
func proxiedPostgres(t *testing.T) (string, *testkit.Proxy) {
	t.Helper()
	return throughProxy(t, pgtest.Schema(t))
}

// throughProxy is dsn reached through a proxy whose link the test can cut.
func throughProxy(t *testing.T, dsn string) (string, *testkit.Proxy) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("%s: %v", pgtest.Env, err) // not the URL: it may hold a password
	}
	link, err := testkit.NewProxy(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(link.Close)
	u.Host = link.Addr()
	return u.String(), link
}

// TestProcessDatabaseOutageLogged (row 9): while PostgreSQL is away, the
// bot (without METRICS_ADDR: nothing probes it) logs so at once, and logs
// its return with how long it was gone.
func TestProcessDatabaseOutageLogged(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	db, link := proxiedPostgres(t)
	bot := fake.startProcess(t, t.TempDir(), "MAZEBOT_DB="+db)
	fake.waitSynced(t, 1)
	link.Cut()
	const down = `level=ERROR msg="database unreachable: the bot cannot keep games, dailies or events until it answers again; /readyz reports 503" component=health err="database: `
	waitFor(t, "the outage in the log", func() bool { return strings.Contains(bot.logs.String(), down) })
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the return in the log", func() bool {
		return strings.Contains(bot.logs.String(), `level=INFO msg="database reachable again" component=health after=`)
	})
	if n := strings.Count(bot.logs.String(), "database unreachable"); n != 1 {
		t.Fatalf("the outage was logged %d times, want once (the reminder comes after a minute)", n)
	}
}
