package main

// End-to-end tests: the real App (store, commands, bot, discordgo) against
// the fake Discord in internal/fakediscord, over real HTTP and websockets.

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands"
	"mazebot/commands/lang"
	"mazebot/internal/fakediscord"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
	"mazebot/render"
)

// fake is one fake Discord for the package: discordgo's endpoints are
// process-wide globals, so they are pointed at it once.
var fake *fakediscord.Server

func TestMain(m *testing.M) {
	fake = fakediscord.New(fakediscord.Config{})
	if err := bot.SetAPIBase(fake.URL()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	fake.Close()
	os.Exit(code)
}

// testApp is a running App connected to the fake.
type testApp struct {
	*App
	logs   *syncBuffer
	dbPath string
	cancel func() // asks Run to stop, as SIGTERM does, without waiting
	stop   func() // disconnects and closes the store; idempotent
}

// e2eSecret is MAZEBOT_SECRET for the apps the tests start: a secret the
// logs must never show.
const e2eSecret = "e2e-play-secret-8d1f3a5c"

// leakedSecrets lists which secrets appear in logs: the bot token, any
// interaction token the fake issued, and the extra ones given.
func leakedSecrets(logs string, extra ...string) []string {
	var leaked []string
	if strings.Contains(logs, strings.TrimPrefix(fakediscord.DefaultToken, "Bot ")) {
		leaked = append(leaked, "the bot token")
	}
	for _, tok := range fake.InteractionTokens() {
		if strings.Contains(logs, tok) {
			leaked = append(leaked, "an interaction token")
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

// useClock makes the apps this test starts run on a clock set to start.
func useClock(t *testing.T, start time.Time) *testkit.Clock {
	c := testkit.NewClock(start)
	e2eClock = c.Now
	t.Cleanup(func() { e2eClock = nil })
	return c
}

// testCommands is a feature of test-only commands.
type testCommands []commands.Command

func (c testCommands) Commands() []commands.Command   { return c }
func (testCommands) Components() []commands.Component { return nil }

// e2eClock, when set, is the clock (Options.Now) of the apps started
// next; nil is the real one. A test that sets it resets it in Cleanup.
var e2eClock func() time.Time

// startApp runs the real wiring against the fake Discord and a fresh
// database; extra commands (test-only) are registered before the sync.
func startApp(t testing.TB, extra ...commands.Command) *testApp {
	t.Helper()
	fake.Reset()
	return launchApp(t, filepath.Join(t.TempDir(), "mazebot.db"), extra...)
}

// launchApp starts an App on the given database without resetting the
// fake, so a test can restart the bot and keep Discord's state.
func launchApp(t testing.TB, dbPath string, extra ...commands.Command) *testApp {
	t.Helper()
	return launchAppWith(t, Config{Token: fakediscord.DefaultToken, Database: dbPath}, extra...)
}

// launchAppWith starts an App with the given configuration and waits until
// it is connected and has synced its commands.
func launchAppWith(t testing.TB, cfg Config, extra ...commands.Command) *testApp {
	t.Helper()
	return launchAppOptions(t, cfg, Options{Now: e2eClock, Extra: []commands.Feature{testCommands(extra)}})
}

// launchAppOptions is launchAppWith with the wiring's test options.
func launchAppOptions(t testing.TB, cfg Config, opts Options) *testApp {
	t.Helper()
	if cfg.Secret == "" {
		cfg.Secret = e2eSecret
	}
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	app, err := NewApp(ctx, cfg, log, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	_, _, putsBefore := fake.Commands()
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx) }()
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
			if err := app.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if leaked := leakedSecrets(logs.String(), cfg.Secret, cfg.PublicKey); len(leaked) > 0 {
				t.Errorf("secrets appeared in the logs: %v", leaked)
			}
			if t.Failed() {
				t.Logf("bot logs:\n%s", logs.String())
			}
		})
	}
	t.Cleanup(stop)
	waitCtx, stopWait := context.WithTimeout(ctx, 15*time.Second)
	defer stopWait()
	if err := fake.WaitReady(waitCtx); err != nil {
		t.Fatalf("gateway not ready: %v", err)
	}
	for {
		if _, _, puts := fake.Commands(); puts > putsBefore {
			break
		}
		select {
		case <-waitCtx.Done():
			t.Fatal("commands were never synced")
		case <-time.After(10 * time.Millisecond):
		}
	}
	return &testApp{App: app, logs: logs, dbPath: cfg.Database, cancel: cancel, stop: stop}
}

func testContext(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func slash(t testing.TB, name string, opts ...fakediscord.Option) *fakediscord.Interaction {
	t.Helper()
	ix, err := fake.SlashCommand(testContext(t), fakediscord.SlashSpec{Name: name, Options: opts})
	if err != nil {
		t.Fatalf("/%s: %v", name, err)
	}
	return ix
}

func opt(name string, value any) fakediscord.Option {
	return fakediscord.Option{Name: name, Value: value}
}

// final waits for the message an interaction produced, once it is no longer
// a "thinking…" placeholder.
func final(t testing.TB, ix *fakediscord.Interaction) *fakediscord.Message {
	t.Helper()
	msg, err := ix.WaitFinal(testContext(t), func(m *fakediscord.Message) bool { return !m.Loading() })
	if err != nil {
		t.Fatalf("%s: no final message: %v (rejections %v)", ix.CommandName+ix.CustomID, err, ix.Rejections())
	}
	return msg
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

func TestE2EMazeEmoji(t *testing.T) {
	startApp(t)
	checkSidewinder21(t, slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 21)))
}

// checkSidewinder21 checks the answer to /maze sidewinder 21: a public
// type 4 within 2000 code points whose emoji grid reads back as exactly the
// maze of the ID it shows, with a Solve button.
func checkSidewinder21(t *testing.T, ix *fakediscord.Interaction) {
	t.Helper()
	resp, err := ix.Wait(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != 4 || resp.Ephemeral() {
		t.Fatalf("response type %d ephemeral %v (rejections %v), want a public type 4", resp.Type, resp.Ephemeral(), ix.Rejections())
	}
	if n := utf8.RuneCountInString(resp.Content); n > 2000 {
		t.Fatalf("content is %d code points, above 2000", n)
	}
	header, grid, _ := strings.Cut(resp.Content, "\n")
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

func TestE2EMazePNG(t *testing.T) {
	startApp(t)
	ix := slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 201), opt("render", "png"))
	msg := final(t, ix)
	id := mazeIDIn(t, msg.Content)
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
	if got := img.Bounds().Size(); got.X != w || got.Y != h || id.Width != 201 {
		t.Fatalf("PNG %v of maze %+v, want %dx%d of a 201-tile maze", got, id, w, h)
	}
}

func TestE2ESolve(t *testing.T) {
	startApp(t)
	mazeIx := slash(t, "maze", opt("algorithm", "digging"), opt("size", 15), opt("seed", 77))
	mazeMsg := final(t, mazeIx)
	id := mazeIDIn(t, mazeMsg.Content)
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	path := mazecore.Solve(m)

	check := func(t *testing.T, msg *fakediscord.Message, ephemeral bool) {
		t.Helper()
		if msg.Ephemeral() != ephemeral {
			t.Fatalf("ephemeral=%v, want %v", msg.Ephemeral(), ephemeral)
		}
		header, grid, _ := strings.Cut(msg.Content, "\n")
		if mazeIDIn(t, header) != id || !strings.Contains(header, fmt.Sprintf("path %d tiles", len(path))) {
			t.Fatalf("header %q, want maze %s and path length %d", header, id, len(path))
		}
		inner, ok := strings.CutPrefix(grid, "||")
		inner, ok2 := strings.CutSuffix(inner, "||")
		if !ok || !ok2 {
			t.Fatalf("solution is not a spoiler: %q", grid)
		}
		checkGrid(t, inner, m, path)
	}
	t.Run("OKLastInChannel", func(t *testing.T) {
		check(t, final(t, slash(t, "solve")), false)
	})
	t.Run("OKWithID", func(t *testing.T) {
		check(t, final(t, slash(t, "solve", opt("id", id.String()))), false)
	})
	t.Run("OKButton", func(t *testing.T) {
		ix, err := fake.ClickButton(testContext(t), fakediscord.ButtonSpec{CustomID: "solve:" + id.String(), Message: mazeMsg})
		if err != nil {
			t.Fatal(err)
		}
		check(t, final(t, ix), true)
	})
	t.Run("OKContextMenu", func(t *testing.T) {
		ix, err := fake.MessageCommand(testContext(t), fakediscord.MessageCommandSpec{Name: "Solve this maze", Target: mazeMsg})
		if err != nil {
			t.Fatal(err)
		}
		check(t, final(t, ix), true)
	})
	t.Run("OKPNGSpoiler", func(t *testing.T) {
		big := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 61, Height: 41, Seed: 5}
		msg := final(t, slash(t, "solve", opt("id", big.String())))
		if len(msg.Attachments) != 1 || !strings.HasPrefix(msg.Attachments[0].Filename, "SPOILER_") {
			t.Fatalf("attachments %+v, want one SPOILER_ PNG", msg.Attachments)
		}
		if _, err := png.Decode(bytes.NewReader(msg.Attachments[0].Data)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestE2EBadInput(t *testing.T) {
	startApp(t)
	notAMaze := fake.PostChannelMessage(fakediscord.DefaultChannelID, fakediscord.Message{Content: "just chatting", AuthorID: fakediscord.DefaultUserID})
	cases := []struct {
		name string
		send func(ctx context.Context) (*fakediscord.Interaction, error)
		want string // part of the ephemeral message
	}{
		{"ErrSolveEmptyChannel", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.SlashCommand(ctx, fakediscord.SlashSpec{Name: "solve", ChannelID: "1300000000000000999"})
		}, "No maze has been posted"},
		{"ErrEvenSize", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.SlashCommand(ctx, fakediscord.SlashSpec{Name: "maze", Options: []fakediscord.Option{opt("size", 20)}})
		}, "rounded up to 21"},
		{"ErrSizeTooSmall", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.SlashCommand(ctx, fakediscord.SlashSpec{Name: "maze", Options: []fakediscord.Option{opt("size", 3)}, SkipValidation: true})
		}, "from 5 to 1001"},
		{"ErrSizeTooBig", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.SlashCommand(ctx, fakediscord.SlashSpec{Name: "maze", Options: []fakediscord.Option{opt("size", 5000)}, SkipValidation: true})
		}, "from 5 to 1001"},
		{"ErrUnknownAlgorithm", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.SlashCommand(ctx, fakediscord.SlashSpec{Name: "maze", Options: []fakediscord.Option{opt("algorithm", "prim")}, SkipValidation: true})
		}, "Binary tree, Sidewinder, Recursive backtracking, Digging"},
		{"ErrMalformedID", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.SlashCommand(ctx, fakediscord.SlashSpec{Name: "solve", Options: []fakediscord.Option{opt("id", "hello-world")}})
		}, "is not a maze ID"},
		{"ErrUnknownID", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.SlashCommand(ctx, fakediscord.SlashSpec{Name: "solve", Options: []fakediscord.Option{opt("id", "2840g1w4")}})
		}, "is not a maze ID"},
		{"ErrContextMenuNotAMaze", func(ctx context.Context) (*fakediscord.Interaction, error) {
			return fake.MessageCommand(ctx, fakediscord.MessageCommandSpec{Name: "Solve this maze", Target: notAMaze})
		}, "not one of my mazes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t)
			ix, err := tc.send(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var msg *fakediscord.Message
			if tc.name == "ErrEvenSize" {
				// The maze is posted; the rounding note follows, privately.
				if msg, err = ix.WaitFollowup(ctx, 0); err != nil {
					t.Fatal(err)
				}
			} else {
				msg = final(t, ix)
			}
			if !msg.Ephemeral() || !strings.Contains(msg.Content, tc.want) {
				t.Fatalf("message %q (ephemeral %v), want an ephemeral one containing %q", msg.Content, msg.Ephemeral(), tc.want)
			}
			// The bot still answers the next command.
			if next := final(t, slash(t, "help")); len(next.Embeds) != 1 {
				t.Fatalf("/help after the error: %+v", next)
			}
		})
	}
}

func TestE2EPanicRecovers(t *testing.T) {
	app := startApp(t, commands.Command{
		Definition: &discordgo.ApplicationCommand{Name: "boom", Description: "always panics"},
		Handle: func(context.Context, *commands.Interaction) error {
			var grid []int
			_ = grid[3] // index out of range: a real runtime panic
			return nil
		},
	})
	msg := final(t, slash(t, "boom"))
	if !msg.Ephemeral() || !strings.Contains(msg.Content, "Sorry") {
		t.Fatalf("reply %q, want an ephemeral apology", msg.Content)
	}
	if !strings.Contains(app.logs.String(), "handler panicked") || !strings.Contains(app.logs.String(), "goroutine") {
		t.Fatal("the panic and its stack were not logged")
	}
	next := final(t, slash(t, "maze", opt("size", 9)))
	if !strings.Contains(next.Content, "9×9") {
		t.Fatalf("after the panic, /maze gave %q", next.Content)
	}
}

func TestE2ESlowHandlerIsDeferred(t *testing.T) {
	startApp(t, commands.Command{
		Definition: &discordgo.ApplicationCommand{Name: "slow", Description: "takes 2 s"},
		Handle: func(ctx context.Context, in *commands.Interaction) error {
			time.Sleep(2 * time.Second)
			return in.Respond.Reply(ctx, commands.Reply{Content: "done at last"})
		},
	})
	ix := slash(t, "slow")
	resp, err := ix.Wait(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != 5 || resp.Elapsed > 2500*time.Millisecond {
		t.Fatalf("first response type %d after %v, want a deferral (5) well inside 3 s", resp.Type, resp.Elapsed)
	}
	if msg := final(t, ix); msg.Content != "done at last" {
		t.Fatalf("edited original %q, want the handler's reply", msg.Content)
	}
}

func TestE2EErrorAfterDeferralIsPrivate(t *testing.T) {
	startApp(t, commands.Command{
		Definition: &discordgo.ApplicationCommand{Name: "slowfail", Description: "fails after 2 s"},
		Handle: func(ctx context.Context, in *commands.Interaction) error {
			time.Sleep(2 * time.Second)
			return &commands.UserError{Msg: lang.M("error.no_maze_in_channel")}
		},
	})
	ix := slash(t, "slowfail")
	msg, err := ix.WaitFollowup(testContext(t), 0)
	if err != nil {
		t.Fatalf("no followup: %v (rejections %v)", err, ix.Rejections())
	}
	if !msg.Ephemeral() || !strings.Contains(msg.Content, "No maze has been posted in this channel yet") {
		t.Fatalf("followup %q ephemeral %v, want the private error", msg.Content, msg.Ephemeral())
	}
	if orig := ix.Original(); orig != nil && !orig.Deleted {
		t.Fatalf("the public placeholder stays: %+v", orig)
	}
}

func TestE2ECommandSync(t *testing.T) {
	startApp(t)
	guild, cmds, _ := fake.Commands()
	if guild != "" {
		t.Fatalf("synced to guild %q, want global without DISCORD_GUILD_ID", guild)
	}
	byName := map[string]int{}
	for i, c := range cmds {
		byName[c.Name] = i
	}
	for _, name := range []string{"maze", "solve", "help", "Solve this maze", "daily", "leaderboard", "event"} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("sync lacks %q (has %v)", name, byName)
		}
	}
	maze := cmds[byName["maze"]]
	opts := map[string]int{}
	for _, o := range maze.Options {
		opts[o.Name] = len(o.Choices)
	}
	if len(opts) != 7 || opts["algorithm"] != 4 || opts["render"] != 4 || opts["difficulty"] != 4 {
		t.Fatalf("/maze options %v, want algorithm (4 choices), size, height, render (4 choices), seed, difficulty (4 choices), loops", opts)
	}
	for _, name := range []string{"seed", "loops"} {
		if _, ok := opts[name]; !ok {
			t.Fatalf("/maze options %v lack %s", opts, name)
		}
	}
	subs := func(name string) map[string]int {
		out := map[string]int{}
		for _, o := range cmds[byName[name]].Options {
			if o.Type == discordgo.ApplicationCommandOptionSubCommand {
				out[o.Name] = len(o.Options)
			}
		}
		return out
	}
	if got := subs("daily"); len(got) != 3 || got["setup"] != 8 {
		t.Fatalf("/daily subcommands %v, want today, setup (channel, time, timezone, algorithm, size, difficulty, loops, language) and off", got)
	}
	if got := subs("event"); len(got) != 2 || got["start"] != 8 {
		t.Fatalf("/event subcommands %v, want start (algorithm, size, duration, channel, name, difficulty, loops, language) and end", got)
	}
	// As Discord stored them (the fake checked the localizations on the
	// way in): every command named and described in Korean, within
	// Discord's rules.
	if err := lang.Validate(cmds); err != nil {
		t.Fatalf("synced commands:\n%v", err)
	}
	for _, c := range cmds {
		if c.NameLocalizations == nil || !lang.HasHangul((*c.NameLocalizations)[discordgo.Korean]) {
			t.Errorf("%q synced without a Korean name", c.Name)
		}
		if c.Type != discordgo.MessageApplicationCommand && (c.DescriptionLocalizations == nil || !lang.HasHangul((*c.DescriptionLocalizations)[discordgo.Korean])) {
			t.Errorf("/%s synced without a Korean description", c.Name)
		}
	}
	if got := (*maze.NameLocalizations)[discordgo.Korean]; got != "미로" {
		t.Errorf("/maze is %q in Korean", got)
	}
}

func TestE2EGuildSync(t *testing.T) {
	fake.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	app, err := NewApp(ctx, Config{Token: fakediscord.DefaultToken, GuildID: fakediscord.DefaultGuildID, Database: filepath.Join(t.TempDir(), "db")}, slog.New(slog.DiscardHandler), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx) }()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if guild, cmds, puts := fake.Commands(); puts > 0 {
			if guild != fakediscord.DefaultGuildID || len(cmds) < 4 {
				t.Fatalf("synced %d commands to guild %q, want them in %s", len(cmds), guild, fakediscord.DefaultGuildID)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no command sync")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
