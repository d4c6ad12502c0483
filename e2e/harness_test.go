package e2e

// The harness: each test's own fake Discord, the apps and processes it
// starts against it, and the members who act there. Every helper takes the
// test (or subtest) it fails, so subtests can use their parent's Discord.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/app"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
	"mazebot/render"
)

// discord is a test's own fake Discord: Discord's side (the Server: what
// the bot sent, the gateway, faults) and its members' (a member.Client:
// commands, clicks, waits), and the clock of the apps it starts.
type discord struct {
	*fakediscord.Server
	*member.Client
	clock func() time.Time // Options.Now of the apps started next; nil: the real clock
}

// newDiscord starts a fake Discord for t, closed when t ends (after the
// apps t started, whose cleanups run first).
func newDiscord(t testing.TB) *discord {
	t.Helper()
	srv := fakediscord.New(fakediscord.Config{})
	t.Cleanup(srv.Close)
	t.Cleanup(func() { checkAltText(t, srv) }) // runs before Close, after the apps stop
	return &discord{Server: srv, Client: member.New(srv)}
}

// newDiscordWithApp is newDiscord with an App started on it by startApp:
// what a test needs that sets nothing up before the bot starts and does
// not use the App itself.
func newDiscordWithApp(t testing.TB) *discord {
	t.Helper()
	d := newDiscord(t)
	d.startApp(t)
	return d
}

// checkAltText fails t for any picture the bot sent without alt text (an
// attachment's description): every one must say what it shows.
func checkAltText(t testing.TB, srv *fakediscord.Server) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range srv.Sent() {
		for _, a := range m.Attachments {
			if !seen[a.ID] && a.Description == "" {
				t.Errorf("message %s: attachment %s has no description (alt text)", m.ID, a.Filename)
			}
			seen[a.ID] = true
		}
	}
}

// useClock makes the apps this Discord starts next run on a clock set to
// start.
func (d *discord) useClock(start time.Time) *testkit.Clock {
	c := testkit.NewClock(start)
	d.clock = c.Now
	return c
}

// e2eSecret is MAZEBOT_SECRET for the apps the tests start: a secret the
// logs must never show.
const e2eSecret = "e2e-play-secret-8d1f3a5c"

// leakedSecrets lists which secrets appear in logs: the bot token, any
// interaction token the fake issued, and the extra ones given.
func (d *discord) leakedSecrets(logs string, extra ...string) []string {
	var leaked []string
	if strings.Contains(logs, strings.TrimPrefix(fakediscord.DefaultToken, "Bot ")) {
		leaked = append(leaked, "the bot token")
	}
	for _, tok := range d.InteractionTokens() {
		if strings.Contains(logs, tok) {
			leaked = append(leaked, "an interaction token")
			break
		}
	}
	for _, s := range d.OAuthSecrets() {
		if strings.Contains(logs, s) {
			leaked = append(leaked, "an OAuth2 secret (the client secret, a code or an access token)")
			break
		}
	}
	for _, s := range extra {
		if s != "" && strings.Contains(logs, s) {
			leaked = append(leaked, fmt.Sprintf("a secret of %d characters", len(s)))
		}
	}
	return leaked
}

// ---- apps ----

// testApp is a running App connected to the test's Discord.
type testApp struct {
	*app.App
	cfg    app.Config
	logs   *testkit.LogBuffer
	dbPath string
	cancel func() // asks Run to stop, as SIGTERM does, without waiting
	stop   func() // disconnects and closes the store; idempotent
}

// config is the configuration of an app on d with its database at dsn:
// the fake's token, its URL as the API base, and e2eSecret.
func (d *discord) config(dsn string) app.Config {
	base, err := url.Parse(d.URL())
	if err != nil {
		panic(err) // httptest's URL
	}
	return app.Config{Token: fakediscord.DefaultToken, APIBase: base, Database: dsn, Secret: []byte(e2eSecret)}
}

// startApp runs the real wiring against d and a fresh database; extra
// commands (test-only) are registered before the sync.
func (d *discord) startApp(t testing.TB, extra ...testCommand) *testApp {
	t.Helper()
	return d.launch(t, d.config(newDBFile(t)), extra...)
}

// launch starts an App with cfg (on d's clock, with the test-only
// commands extra) and waits until it is connected, has synced its
// commands and has run its scheduled work once, as it does at its start:
// a test that then moves the clock knows that its own Tick is the only
// one running, until the bot's next tick 15 s later.
func (d *discord) launch(t testing.TB, cfg app.Config, extra ...testCommand) *testApp {
	t.Helper()
	return d.launchOptions(t, cfg, withCommands(app.Options{Now: d.clock}, extra))
}

// launchOptions is launch with the wiring's options as given.
func (d *discord) launchOptions(t testing.TB, cfg app.Config, opts app.Options) *testApp {
	t.Helper()
	putsBefore := d.CommandPuts()
	a := d.runApp(t, cfg, opts)
	waitCtx, stopWait := context.WithTimeout(context.Background(), 30*time.Second)
	defer stopWait()
	if err := d.WaitReady(waitCtx); err != nil {
		t.Fatalf("gateway not ready: %v", err)
	}
	for {
		if d.CommandPuts() > putsBefore {
			break
		}
		select {
		case <-waitCtx.Done():
			t.Fatal("commands were never synced")
		case <-time.After(10 * time.Millisecond):
		}
	}
	waitLog(t, a, 1, "scheduled work done")
	return a
}

// runApp builds an App with cfg and opts and runs it against d, without
// waiting for anything: for tests that start several at once, or watch
// how one connects. It is stopped at the end of t.
func (d *discord) runApp(t testing.TB, cfg app.Config, opts app.Options) *testApp {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &testkit.LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a, err := app.Build(ctx, cfg, log, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Error("Run did not return after cancel")
			}
			if err := a.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if leaked := d.leakedSecrets(logs.String(), string(cfg.Secret), hex.EncodeToString(cfg.PublicKey)); len(leaked) > 0 {
				t.Errorf("secrets appeared in the logs: %v", leaked)
			}
			if t.Failed() {
				t.Logf("bot logs:\n%s", logs.String())
			}
		})
	}
	t.Cleanup(stop)
	return &testApp{App: a, cfg: cfg, logs: logs, dbPath: cfg.Database, cancel: cancel, stop: stop}
}

// restart stops a and starts it again with its configuration, on the same
// database, as a bot process is restarted; Discord keeps its state.
func (d *discord) restart(t testing.TB, a *testApp, extra ...testCommand) *testApp {
	t.Helper()
	a.stop()
	return d.launch(t, a.cfg, extra...)
}

// startHTTPApp is startApp with the endpoint on an ephemeral port, and the
// fake delivering interactions there instead of over the gateway.
func (d *discord) startHTTPApp(t *testing.T) *testApp {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := d.config(newDBFile(t))
	cfg.HTTPAddr, cfg.PublicKey = "127.0.0.1:0", pub
	a := d.launch(t, cfg)
	d.UseHTTPEndpoint("http://"+a.HTTPAddr()+"/interactions", priv)
	return a
}

// waitLog waits until the app's logs hold n lines containing each of parts.
func waitLog(t testing.TB, a *testApp, n int, parts ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		count := 0
		for line := range strings.Lines(a.logs.String()) {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(line, p)
			}
			if all {
				count++
			}
		}
		if count >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the logs have %d lines with %q, want %d", count, parts, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ---- processes ----

// botProcess is the mazebot binary running against the test's Discord.
type botProcess struct {
	cmd     *exec.Cmd
	logs    *testkit.LogBuffer
	exited  chan struct{} // closed when the process has exited
	exitErr error         // valid once exited is closed
}

var (
	buildOnce   sync.Once
	binDir      string // removed by TestMain
	builtBinary string
	buildErr    error
)

// mazebotBinary builds the binary (the module's root package) once per
// test run.
func mazebotBinary(t testing.TB) string {
	t.Helper()
	testkit.SkipShort(t, "builds and runs the mazebot binary")
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mazebot-bin")
		if err != nil {
			buildErr = err
			return
		}
		binDir, builtBinary = dir, filepath.Join(dir, "mazebot")
		if out, err := exec.Command("go", "build", "-o", builtBinary, "mazebot").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBinary
}

// startProcess runs the binary in dir (no .env there) against d, with its
// database in dir, and kills it at the end of the test if it is still
// running. env adds to or overrides its environment ("NAME=value"). Its
// output must show no secret.
func (d *discord) startProcess(t testing.TB, dir string, env ...string) *botProcess {
	t.Helper()
	p := &botProcess{cmd: exec.Command(mazebotBinary(t)), logs: &testkit.LogBuffer{}, exited: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = d.processEnv(dir, env...)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exitErr = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill() // fails harmlessly once it has exited
		<-p.exited
		if leaked := d.leakedSecrets(p.logs.String(), e2eSecret); len(leaked) > 0 {
			t.Errorf("secrets in the bot's output: %v", leaked)
		}
		if t.Failed() {
			t.Logf("bot output:\n%s", p.logs.String())
		}
	})
	return p
}

// processEnv is the environment of a bot process in dir against d: env
// added to or overriding it ("NAME=value").
func (d *discord) processEnv(dir string, env ...string) []string {
	// Whatever the environment running the tests sets, each process gets
	// its own Discord, database and (when a test asks) ports.
	out := append(os.Environ(),
		"DISCORD_TOKEN="+strings.TrimPrefix(fakediscord.DefaultToken, "Bot "),
		"DISCORD_API_BASE="+d.URL(),
		"DISCORD_GUILD_ID=",
		"DISCORD_PUBLIC_KEY=",
		"DISCORD_SHARD_COUNT=",
		"DISCORD_SHARD_IDS=",
		"HTTP_ADDR=",
		"METRICS_ADDR=",
		"MAZEBOT_DB="+filepath.Join(dir, "mazebot.db"),
		"MAZEBOT_SECRET="+e2eSecret,
		"LOG_LEVEL=debug",
		"LOG_FORMAT=text",
	)
	// exec keeps the last value of a name given twice.
	return append(out, env...)
}

// ran is what a run of the binary to its end showed: its exit code and
// what it wrote to each stream.
type ran struct {
	code           int
	stdout, stderr string
}

// runBinary runs the binary with args in dir, in the environment
// startProcess gives it (env added), until it exits, for at most 30 s.
// Its output must show no secret.
func (d *discord) runBinary(t testing.TB, dir string, args []string, env ...string) ran {
	t.Helper()
	return d.runCmd(t, d.binaryCmd(t, dir, args, env...))
}

// binaryCmd is the command runBinary runs, for a test to adjust first.
func (d *discord) binaryCmd(t testing.TB, dir string, args []string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(mazebotBinary(t), args...)
	cmd.Dir, cmd.Env = dir, d.processEnv(dir, env...)
	return cmd
}

// runCmd runs cmd (binaryCmd's) as runBinary does.
func (d *discord) runCmd(t testing.TB, cmd *exec.Cmd) ran {
	t.Helper()
	args := cmd.Args[1:]
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill() })
	err := cmd.Wait()
	r := ran{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) || !timer.Stop() {
		t.Fatalf("mazebot %s: %v, or ran 30 s\nstderr:\n%s", strings.Join(args, " "), err, r.stderr)
	}
	if leaked := d.leakedSecrets(r.stdout+r.stderr, e2eSecret); len(leaked) > 0 {
		t.Errorf("secrets in the output of mazebot %s: %v", strings.Join(args, " "), leaked)
	}
	return r
}

// waitSynced waits until the bot is connected and has synced its commands
// (at least n bulk overwrites in all).
func (d *discord) waitSynced(t testing.TB, n int) {
	t.Helper()
	if err := d.WaitReady(testContext(t)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "command sync", func() bool { return d.CommandPuts() >= n })
}

// kill stops the bot with SIGKILL: no shutdown at all.
func (p *botProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.exited
}

// endpointAddr waits for the process to log where its HTTP endpoint
// listens, and returns that address.
func (p *botProcess) endpointAddr(t testing.TB) string {
	t.Helper()
	return p.loggedAddr(t, "HTTP interactions endpoint listening")
}

// loggedAddr waits for the process to log msg with the address it
// listens on, and returns that address.
func (p *botProcess) loggedAddr(t testing.TB, msg string) string {
	t.Helper()
	var addr string
	waitFor(t, "the address of "+msg, func() bool {
		for line := range strings.Lines(p.logs.String()) {
			if _, rest, ok := strings.Cut(line, `msg="`+msg+`" addr=`); ok {
				addr, _, _ = strings.Cut(strings.TrimSpace(rest), " ")
				return true
			}
		}
		return false
	})
	return addr
}

// metricsAddrRE finds the address in the log line of a process's metrics
// and health endpoints (METRICS_ADDR with port 0 picks a free one).
var metricsAddrRE = regexp.MustCompile(`msg="metrics and health endpoints listening" addr=(\S+)`)

// metricsBase is the base URL of the process's metrics and health
// endpoints, once it logged it.
func (p *botProcess) metricsBase(t *testing.T) string {
	t.Helper()
	var addr string
	waitFor(t, "the metrics endpoint's address in the logs", func() bool {
		m := metricsAddrRE.FindStringSubmatch(p.logs.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	return "http://" + addr
}

// waitFor polls cond for up to 15 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ---- acting as members ----

// testContext bounds one step of a test (an answer, a wait): 20 s.
func testContext(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// slash sends /name with opts as the default member.
func (d *discord) slash(t testing.TB, name string, opts ...member.Option) *member.Interaction {
	t.Helper()
	return d.slashSpec(t, member.SlashSpec{Name: name, Options: opts})
}

// slashSpec sends the command spec describes.
func (d *discord) slashSpec(t testing.TB, spec member.SlashSpec) *member.Interaction {
	t.Helper()
	ix, err := d.SlashCommand(testContext(t), spec)
	if err != nil {
		t.Fatalf("/%s: %v", spec.Name, err)
	}
	return ix
}

// click presses a button as spec says.
func (d *discord) click(t testing.TB, spec member.ButtonSpec) *member.Interaction {
	t.Helper()
	ix, err := d.ClickButton(testContext(t), spec)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func opt(name string, value any) member.Option {
	return member.Option{Name: name, Value: value}
}

// sub is the subcommand name with its options.
func sub(name string, opts ...member.Option) member.Option {
	return member.Option{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}
}

// Permissions as Discord sends them: a manager's (with Manage Server), in
// the two sets the tests give.
var (
	e2eManagePerms = strconv.FormatInt(discordgo.PermissionManageGuild|discordgo.PermissionSendMessages, 10)
	managerPerms   = strconv.FormatInt(discordgo.PermissionManageGuild|discordgo.PermissionViewChannel|discordgo.PermissionSendMessages, 10)
)

// eventSlash sends /event <sub> as a member with perms.
func (d *discord) eventSlash(t testing.TB, perms, name string, opts ...member.Option) *member.Interaction {
	t.Helper()
	return d.slashSpec(t, member.SlashSpec{Name: "event", Permissions: perms, Options: []member.Option{sub(name, opts...)}})
}

// final waits for the message an interaction produced, once it is no longer
// a "thinking…" placeholder.
func final(t testing.TB, ix *member.Interaction) *fakediscord.Message {
	t.Helper()
	msg, err := ix.WaitFinal(testContext(t), func(m *fakediscord.Message) bool { return !m.Loading() })
	if err != nil {
		t.Fatalf("%s: no final message: %v (rejections %v)", ix.CommandName+ix.CustomID, err, ix.Rejections())
	}
	return msg
}

// waitChannel waits for a public message in the default channel whose
// content contains want.
func (d *discord) waitChannel(t testing.TB, want string) *fakediscord.Message {
	t.Helper()
	msg, err := d.WaitChannelMessage(testContext(t), fakediscord.DefaultChannelID, func(m *fakediscord.Message) bool {
		return !m.Ephemeral() && strings.Contains(m.Text(), want)
	})
	if err != nil {
		t.Fatalf("no channel message with %q: %v", want, err)
	}
	return msg
}

// waitEdits waits until the message has at least n edits and returns it.
func (d *discord) waitEdits(t testing.TB, id string, n int) *fakediscord.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := d.WaitMessage(ctx, id, func(m *fakediscord.Message) bool { return m.Edits >= n })
	if err != nil {
		edits := -1
		if m := d.Message(id); m != nil {
			edits = m.Edits
		}
		t.Fatalf("message %s has %d edits, want %d", id, edits, n)
	}
	return m
}

// mazeIDIn finds the maze ID in a header line.
func mazeIDIn(t testing.TB, content string) mazecore.ID {
	t.Helper()
	_, rest, ok := strings.Cut(content, "ID `")
	text, _, ok2 := strings.Cut(rest, "`")
	if !ok || !ok2 {
		t.Fatalf("no maze ID in %q", content)
	}
	id, err := mazecore.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// checkGrid reads an emoji grid back and compares it tile by tile with m;
// path tiles (solution) are compared with the solver's path when given.
func checkGrid(t testing.TB, grid string, m *mazecore.Maze, path []mazecore.Point) {
	t.Helper()
	if err := testkit.CheckGrid(grid, m, path); err != nil {
		t.Fatal(err)
	}
}

// checkSidewinder21 checks the answer to /maze sidewinder 21: a public
// type 4 within 2000 code points whose emoji grid reads back as exactly the
// maze of the ID it shows, with a Solve button.
func checkSidewinder21(t *testing.T, ix *member.Interaction) {
	t.Helper()
	resp, err := ix.Wait(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != 4 || resp.Ephemeral() {
		t.Fatalf("response type %d ephemeral %v (rejections %v), want a public type 4", resp.Type, resp.Ephemeral(), ix.Rejections())
	}
	if n := utf8.RuneCountInString(resp.Text()); n > fakediscord.MaxTextDisplayV2 {
		t.Fatalf("the text is %d code points, above a card's %d", n, fakediscord.MaxTextDisplayV2)
	}
	header, grid, _ := strings.Cut(resp.Text(), "\n")
	id := mazeIDIn(t, header)
	if id.Algorithm != mazecore.Sidewinder || id.Width != 21 || id.Height != 21 {
		t.Fatalf("ID %v is %+v, want sidewinder 21×21", id, id)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	checkGrid(t, grid, m, nil)
	if msg := final(t, ix); msg.Button("solve:"+id.String()) == nil {
		t.Fatalf("maze message buttons %+v lack Solve", msg.Buttons())
	}
}

// checkMazePNG checks a message showing a maze as a PNG: one attachment,
// the picture of the maze its ID names (as render sizes it), side tiles
// wide.
func checkMazePNG(t testing.TB, msg *fakediscord.Message, side int) {
	t.Helper()
	id := mazeIDIn(t, msg.Text())
	if len(msg.Attachments) != 1 {
		t.Fatalf("%d attachments, want 1 PNG", len(msg.Attachments))
	}
	att := msg.Attachments[0]
	img, err := png.Decode(bytes.NewReader(att.Data))
	if err != nil {
		t.Fatalf("attachment %s: %v", att.Filename, err)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	w, h := render.PNGSize(m, render.PNGScale(m))
	if got := img.Bounds().Size(); got.X != w || got.Y != h || id.Width != side {
		t.Fatalf("PNG %v of maze %+v, want %dx%d of a %d-tile maze", got, id, w, h, side)
	}
}

// ---- playing ----

// player drives one member's game through the test's Discord.
type player struct {
	t      testing.TB
	fake   *discord
	userID string
	maze   *mazecore.Maze
	path   []mazecore.Point
	msg    *fakediscord.Message // the game message, as last seen
	clicks int
	// locale is the player's Discord locale; "" is the fake's en-US.
	locale string
	// clock, if set, is moved on by step before each click.
	clock *testkit.Clock
	step  time.Duration
}

// postMaze posts a maze with /maze and returns its message and maze.
func (d *discord) postMaze(t testing.TB, opts ...member.Option) (*fakediscord.Message, *mazecore.Maze) {
	t.Helper()
	msg := final(t, d.slash(t, "maze", opts...))
	m, err := mazecore.Generate(mazeIDIn(t, msg.Text()))
	if err != nil {
		t.Fatal(err)
	}
	return msg, m
}

// startGame presses Play under a maze message.
func (d *discord) startGame(t testing.TB, mazeMsg *fakediscord.Message, m *mazecore.Maze, userID string) *player {
	t.Helper()
	return d.startGameIn(t, mazeMsg, m, userID, "")
}

// startGameIn is startGame by a member whose Discord speaks locale.
func (d *discord) startGameIn(t testing.TB, mazeMsg *fakediscord.Message, m *mazecore.Maze, userID, locale string) *player {
	t.Helper()
	ix := d.click(t, member.ButtonSpec{CustomID: "play:" + m.ID().String(), Message: mazeMsg, UserID: userID, Locale: locale})
	msg, err := gameOpened(testContext(t), ix)
	if err != nil {
		t.Fatal(err)
	}
	return &player{t: t, fake: d, userID: userID, maze: m, path: mazecore.Solve(m), msg: msg, locale: locale}
}

// gameOpened waits for the private game message a press of Play opens: the
// first response (type 4) or, when the bot was slow and deferred keeping the
// maze's message (type 6), a followup. Either way it must be ephemeral. It
// is safe in any goroutine.
func gameOpened(ctx context.Context, ix *member.Interaction) (*fakediscord.Message, error) {
	resp, err := ix.Wait(ctx)
	if err != nil {
		return nil, err
	}
	var msg *fakediscord.Message
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		msg, err = ix.WaitFinal(ctx, nil)
	case discordgo.InteractionResponseDeferredMessageUpdate:
		msg, err = ix.WaitFollowup(ctx, 0)
	default:
		return nil, fmt.Errorf("play answered type %d, want a new message (4) or a deferral keeping the maze's (6)", resp.Type)
	}
	if err != nil {
		return nil, err
	}
	if !msg.Ephemeral() {
		return nil, fmt.Errorf("the game message %s is public, want it private", msg.ID)
	}
	return msg, nil
}

// position finds the player emoji in the game message's grid.
func (p *player) position() mazecore.Point {
	p.t.Helper()
	pos, err := testkit.Player(p.msg.Text())
	if err != nil {
		p.t.Fatal(err)
	}
	return pos
}

// next is the direction from the player's tile toward the goal.
func (p *player) next() mazecore.Dir {
	p.t.Helper()
	d, err := testkit.Toward(p.path, p.position())
	if err != nil {
		p.t.Fatal(err)
	}
	return d
}

// moveLetters are the actions of the arrows in a move button's custom_id.
var moveLetters = map[mazecore.Dir]string{mazecore.North: "n", mazecore.East: "e", mazecore.South: "s", mazecore.West: "w"}

// arrow finds the button of a game message that moves toward d.
func arrow(msg *fakediscord.Message, d mazecore.Dir) (fakediscord.Button, error) {
	for _, b := range msg.Buttons() {
		if parts := strings.Split(b.CustomID, ":"); len(parts) == 5 && parts[0] == "mv" && parts[3] == moveLetters[d] {
			return b, nil
		}
	}
	return fakediscord.Button{}, fmt.Errorf("no %v button in %+v", d, msg.Buttons())
}

// button is the player's arrow toward d.
func (p *player) button(d mazecore.Dir) fakediscord.Button {
	p.t.Helper()
	b, err := arrow(p.msg, d)
	if err != nil {
		p.t.Fatal(err)
	}
	return b
}

// click presses the arrow toward d and checks the answer is an update of
// the game message (type 7).
func (p *player) click(d mazecore.Dir) {
	p.t.Helper()
	b := p.button(d)
	if b.Disabled {
		p.t.Fatalf("button %v is disabled at %v", d, p.position())
	}
	if p.clock != nil {
		p.clock.Advance(p.step)
	}
	ix := p.fake.click(p.t, member.ButtonSpec{CustomID: b.CustomID, Message: p.msg, UserID: p.userID, Locale: p.locale})
	p.clicks++
	p.msg = movedMessage(p.t, ix)
}

// movedMessage returns the game message a move left: the move must update
// the message it was pressed on, at once (type 7) or, when the handler
// ran past the auto-defer on a loaded machine, acknowledged (type 6) and
// then edited. Anything else (a new message, a reply) fails.
func movedMessage(t testing.TB, ix *member.Interaction) *fakediscord.Message {
	t.Helper()
	resp, err := ix.Wait(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != discordgo.InteractionResponseUpdateMessage && resp.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Fatalf("move answered with type %d (%q), want 7 (or 6 and an edit)", resp.Type, resp.Text())
	}
	return final(t, ix)
}

// press is click as testkit.Walk presses: it returns the new message.
func (p *player) press(d mazecore.Dir) (string, error) {
	p.click(d)
	return p.msg.Text(), nil
}

// won tells whether the game message shows a win: a line starting with 🏁,
// in every language ("🏁 Solved in …", "🏁 완주했습니다! …").
func (p *player) won() bool { return strings.Contains(p.msg.Text(), "\n🏁 ") }

// checkNextGame asserts the buttons a finished game's message invites the
// next game with: Play again on its maze, New maze, and for a win Share.
func checkNextGame(t testing.TB, msg *fakediscord.Message, id mazecore.ID, won bool) {
	t.Helper()
	want := []string{"play:" + id.String(), "new:"}
	if won {
		want = append(want, "share:")
	}
	bs := msg.Buttons()
	if len(bs) != len(want) {
		t.Fatalf("final buttons %+v, want %v", bs, want)
	}
	for i, b := range bs {
		if !strings.HasPrefix(b.CustomID, want[i]) || b.Disabled {
			t.Fatalf("final button %d is %q, want %s…", i, b.CustomID, want[i])
		}
	}
}

// share presses Share on the won game's message and returns the share
// lines the bot answers with, privately.
func (p *player) share() string {
	p.t.Helper()
	for _, b := range p.msg.Buttons() {
		if strings.HasPrefix(b.CustomID, "share:") {
			ix := p.fake.click(p.t, member.ButtonSpec{CustomID: b.CustomID, Message: p.msg, UserID: p.userID, Locale: p.locale})
			msg := final(p.t, ix)
			if !msg.Ephemeral() {
				p.t.Fatalf("Share answered in public: %q", msg.Text())
			}
			return msg.Text()
		}
	}
	p.t.Fatalf("no Share button on %+v", p.msg.Buttons())
	return ""
}

// walk follows the solution to the goal.
func (p *player) walk() {
	p.t.Helper()
	if _, _, err := testkit.Walk(p.maze, p.msg.Text(), func(string) bool { return p.won() }, p.press); err != nil {
		p.t.Fatal(err)
	}
}

// playToGoal presses Play on a maze as user and follows the solution,
// step apart on the bot's clock, until the game is won.
func (d *discord) playToGoal(t testing.TB, clock *testkit.Clock, mazeMsg *fakediscord.Message, m *mazecore.Maze, user string, step time.Duration) *fakediscord.Message {
	t.Helper()
	p := d.startGame(t, mazeMsg, m, user)
	p.clock, p.step = clock, step
	p.walk()
	return p.msg
}

// clockTime writes a short duration as a result line does: m:ss.
func clockTime(d time.Duration) string {
	s := int(d / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// ---- metrics and health ----

// fetch GETs url and returns the status and body.
func fetch(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, string(body)
}

// sample is the value of the metric sample whose line starts with series
// (name and labels exactly as exposed), and whether there is one.
func sample(metrics, series string) (float64, bool) {
	for line := range strings.Lines(metrics) {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return v, err == nil
		}
	}
	return 0, false
}
