package e2e

// The real App (store, commands, bot, discordgo) against a fake Discord of
// each test's own, over real HTTP and websockets: mazes, solutions, bad
// input, failing handlers, the command sync.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/app"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/mazecore"
)

func TestE2EMazeEmoji(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	checkSidewinder21(t, fake.slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 21), opt("render", "emoji")))
}

// TestE2EMazeDefault: /maze alone is a Components V2 card, one container
// holding the header, the maze as a picture (21 tiles are wider than a
// phone's row) with its alt text, and the buttons.
func TestE2EMazeDefault(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	msg := final(t, fake.slash(t, "maze"))
	if msg.Flags&fakediscord.FlagComponentsV2 == 0 || msg.Content != "" || len(msg.Embeds) != 0 {
		t.Fatalf("flags %d, content %q, %d embeds: want a Components V2 card", msg.Flags, msg.Content, len(msg.Embeds))
	}
	var comps []struct {
		Type       int `json:"type"`
		Components []struct {
			Type  int `json:"type"`
			Items []struct {
				Media struct {
					URL string `json:"url"`
				} `json:"media"`
				Description string `json:"description"`
			} `json:"items"`
		} `json:"components"`
	}
	if err := json.Unmarshal(msg.ComponentsJSON, &comps); err != nil || len(comps) != 1 || comps[0].Type != 17 {
		t.Fatalf("components %s (%v), want one container", msg.ComponentsJSON, err)
	}
	var kinds []int
	var gallery string
	for _, c := range comps[0].Components {
		kinds = append(kinds, c.Type)
		if c.Type == 12 && len(c.Items) == 1 {
			gallery = c.Items[0].Media.URL
		}
	}
	if fmt.Sprint(kinds) != "[10 12 1]" {
		t.Fatalf("the container holds %v, want a text display, a media gallery and a row of buttons", kinds)
	}
	if len(msg.Attachments) != 1 || gallery != "attachment://"+msg.Attachments[0].Filename {
		t.Fatalf("gallery shows %q, attachments %+v: want the maze's one picture", gallery, msg.Attachments)
	}
	if alt := msg.Attachments[0].Description; !strings.Contains(alt, "21×21") || !strings.Contains(alt, "start in the top left") {
		t.Fatalf("alt text %q, want the size and where the start is", alt)
	}
	checkMazePNG(t, msg, 21)
}

func TestE2EMazePNG(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	ix := fake.slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 201), opt("render", "png"))
	msg := final(t, ix)
	checkMazePNG(t, msg, 201)
}

func TestE2ESolve(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	mazeIx := fake.slash(t, "maze", opt("algorithm", "digging"), opt("size", 9), opt("height", 15), opt("seed", 77))
	mazeMsg := final(t, mazeIx)
	id := mazeIDIn(t, mazeMsg.Text())
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
		header, grid, _ := strings.Cut(msg.Text(), "\n")
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
		check(t, final(t, fake.slash(t, "solve")), false)
	})
	t.Run("OKWithID", func(t *testing.T) {
		check(t, final(t, fake.slash(t, "solve", opt("id", id.String()))), false)
	})
	t.Run("OKButton", func(t *testing.T) {
		ix, err := fake.ClickButton(testContext(t), member.ButtonSpec{CustomID: "solve:" + id.String(), Message: mazeMsg})
		if err != nil {
			t.Fatal(err)
		}
		check(t, final(t, ix), true)
	})
	t.Run("OKContextMenu", func(t *testing.T) {
		ix, err := fake.MessageCommand(testContext(t), member.MessageCommandSpec{Name: "Solve this maze", Target: mazeMsg})
		if err != nil {
			t.Fatal(err)
		}
		check(t, final(t, ix), true)
	})
	t.Run("OKPNGSpoiler", func(t *testing.T) {
		big := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 61, Height: 41, Seed: 5}
		msg := final(t, fake.slash(t, "solve", opt("id", big.String())))
		if len(msg.Attachments) != 1 || !strings.HasPrefix(msg.Attachments[0].Filename, "SPOILER_") {
			t.Fatalf("attachments %+v, want one SPOILER_ PNG", msg.Attachments)
		}
		if _, err := png.Decode(bytes.NewReader(msg.Attachments[0].Data)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestE2EMazeShapes: /maze grid:polar, shape:heart and text:… answer
// with a picture of the maze, its version 3 ID and a Solve button whose
// solution is a spoilered picture; what cannot be made is refused
// privately with the reason.
func TestE2EMazeShapes(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	for _, tc := range []struct {
		name string
		opts []member.Option
		want string // in the header
	}{
		{"Polar", []member.Option{opt("grid", "polar"), opt("size", 10), opt("seed", 4)}, "circular, 10 rings"},
		{"Heart", []member.Option{opt("shape", "heart"), opt("algorithm", "wilson")}, "heart, 20×20 cells"},
		{"Text", []member.Option{opt("text", "gg 40")}, "text “GG 40”"},
		{"Hex", []member.Option{opt("grid", "hex"), opt("size", 12), opt("loops", 20)}, "hexagonal, 12×12 cells"},
		{"HardHeart", []member.Option{opt("shape", "heart"), opt("seed", 11), opt("difficulty", "hard")}, "heart, 20×20 cells"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := final(t, fake.slash(t, "maze", tc.opts...))
			id := mazeIDIn(t, msg.Text())
			if id.Plain() || !strings.Contains(msg.Text(), tc.want) {
				t.Fatalf("header %q (maze %+v), want a version 3 maze and %q", msg.Text(), id, tc.want)
			}
			// Rated as a square maze is, and a level chosen among the
			// candidates of the seed.
			m, err := mazecore.GenerateGrid(id)
			if err != nil {
				t.Fatal(err)
			}
			if r := mazecore.RateGrid(m).Rating; !strings.Contains(msg.Text(), strings.Repeat("★", r)+strings.Repeat("☆", 5-r)) {
				t.Fatalf("header %q lacks the maze's rating, %d stars", msg.Text(), r)
			}
			if tc.name == "HardHeart" {
				base := id
				base.Seed = 11
				if want, _ := mazecore.ChooseGrid(base, mazecore.Hard, nil); id != want {
					t.Fatalf("difficulty:hard showed %v, want the hard one of seed 11's candidates, %v", id, want)
				}
			}
			if len(msg.Attachments) != 1 {
				t.Fatalf("attachments %+v, want the maze's picture", msg.Attachments)
			}
			if _, err := png.Decode(bytes.NewReader(msg.Attachments[0].Data)); err != nil {
				t.Fatal(err)
			}
			ix, err := fake.ClickButton(testContext(t), member.ButtonSpec{CustomID: "solve:" + id.String(), Message: msg})
			if err != nil {
				t.Fatal(err)
			}
			sol := final(t, ix)
			if !sol.Ephemeral() || len(sol.Attachments) != 1 || !strings.HasPrefix(sol.Attachments[0].Filename, "SPOILER_") || !strings.Contains(sol.Text(), "Solution of") {
				t.Fatalf("solution %q, attachments %+v: want a private SPOILER_ picture", sol.Text(), sol.Attachments)
			}
		})
	}
	for _, tc := range []struct {
		name string
		opts []member.Option
		want string
	}{
		{"ErrEmoji", []member.Option{opt("shape", "star"), opt("render", "emoji")}, "drawn as a picture"},
		{"ErrAlgorithm", []member.Option{opt("grid", "hex"), opt("algorithm", "sidewinder")}, "use Recursive backtracking, Digging, Wilson's algorithm"},
		{"ErrRings", []member.Option{opt("grid", "polar"), opt("size", 101)}, "the size is 5 to 100"},
		{"ErrTooSmall", []member.Option{opt("shape", "heart"), opt("size", 11)}, "and a maze needs 50"},
		{"ErrFont", []member.Option{opt("text", "café")}, "no `É`"},
		{"ErrPolarShape", []member.Option{opt("grid", "polar"), opt("shape", "star")}, "is a disc already"},
		{"ErrDifficultyCells", []member.Option{opt("grid", "polar"), opt("size", 80), opt("difficulty", "hard")}, "A difficulty is chosen for mazes of up to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := final(t, fake.slash(t, "maze", tc.opts...))
			if !msg.Ephemeral() || !strings.Contains(msg.Text(), tc.want) {
				t.Fatalf("message %q (ephemeral %v), want a private one containing %q", msg.Text(), msg.Ephemeral(), tc.want)
			}
		})
	}
}

func TestE2EBadInput(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	notAMaze := fake.PostChannelMessage(fakediscord.DefaultChannelID, fakediscord.Message{Content: "just chatting", AuthorID: fakediscord.DefaultUserID})
	cases := []struct {
		name string
		send func(ctx context.Context) (*member.Interaction, error)
		want string // part of the ephemeral message
	}{
		{"ErrSolveEmptyChannel", func(ctx context.Context) (*member.Interaction, error) {
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "solve", ChannelID: "1300000000000000999"})
		}, "No maze has been posted"},
		{"ErrEvenSize", func(ctx context.Context) (*member.Interaction, error) {
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", Options: []member.Option{opt("size", 20)}})
		}, "rounded up to 21"},
		{"ErrSizeTooSmall", func(ctx context.Context) (*member.Interaction, error) {
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", Options: []member.Option{opt("size", 3)}, SkipValidation: true})
		}, "from 5 to 1001"},
		{"ErrSizeTooBig", func(ctx context.Context) (*member.Interaction, error) {
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", Options: []member.Option{opt("size", 5000)}, SkipValidation: true})
		}, "from 5 to 1001"},
		{"ErrUnknownAlgorithm", func(ctx context.Context) (*member.Interaction, error) {
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", Options: []member.Option{opt("algorithm", "prim")}, SkipValidation: true})
		}, "Binary tree, Sidewinder, Recursive backtracking, Digging"},
		{"ErrMalformedID", func(ctx context.Context) (*member.Interaction, error) {
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "solve", Options: []member.Option{opt("id", "hello-world")}})
		}, "is not a maze ID"},
		{"ErrShapedID", func(ctx context.Context) (*member.Interaction, error) {
			id := mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Hex, Width: 600, Height: 600, Seed: 3}
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "solve", Options: []member.Option{opt("id", id.String())}})
		}, "on a circular or hexagonal grid, which I cannot show in Discord yet"},
		{"ErrUnknownID", func(ctx context.Context) (*member.Interaction, error) {
			return fake.SlashCommand(ctx, member.SlashSpec{Name: "solve", Options: []member.Option{opt("id", "2840g1w4")}})
		}, "is not a maze ID"},
		{"ErrContextMenuNotAMaze", func(ctx context.Context) (*member.Interaction, error) {
			return fake.MessageCommand(ctx, member.MessageCommandSpec{Name: "Solve this maze", Target: notAMaze})
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
			if !msg.Ephemeral() || !strings.Contains(msg.Text(), tc.want) {
				t.Fatalf("message %q (ephemeral %v), want an ephemeral one containing %q", msg.Text(), msg.Ephemeral(), tc.want)
			}
			// The bot still answers the next command.
			if next := final(t, fake.slash(t, "help")); !strings.Contains(next.Text(), "Start here") {
				t.Fatalf("/help after the error: %q", next.Text())
			}
		})
	}
}

func TestE2EPanicRecovers(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startApp(t, panickingCommand("boom"))
	msg := final(t, fake.slash(t, "boom"))
	if !msg.Ephemeral() || !strings.Contains(msg.Text(), "Sorry") {
		t.Fatalf("reply %q, want an ephemeral apology", msg.Text())
	}
	if !strings.Contains(app.logs.String(), "handler panicked") || !strings.Contains(app.logs.String(), "goroutine") {
		t.Fatal("the panic and its stack were not logged")
	}
	next := final(t, fake.slash(t, "maze", opt("size", 9)))
	if !strings.Contains(next.Text(), "9×9") {
		t.Fatalf("after the panic, /maze gave %q", next.Text())
	}
}

func TestE2ESlowHandlerIsDeferred(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	fake.startApp(t, slowCommand("slow", 2*time.Second, "done at last"))
	ix := fake.slash(t, "slow")
	resp, err := ix.Wait(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != 5 || resp.Elapsed > 2500*time.Millisecond {
		t.Fatalf("first response type %d after %v, want a deferral (5) well inside 3 s", resp.Type, resp.Elapsed)
	}
	if msg := final(t, ix); msg.Text() != "done at last" {
		t.Fatalf("edited original %q, want the handler's reply", msg.Text())
	}
}

func TestE2EErrorAfterDeferralIsPrivate(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	fake.startApp(t, slowRefusal("slowfail", 2*time.Second))
	ix := fake.slash(t, "slowfail")
	msg, err := ix.WaitFollowup(testContext(t), 0)
	if err != nil {
		t.Fatalf("no followup: %v (rejections %v)", err, ix.Rejections())
	}
	if !msg.Ephemeral() || !strings.Contains(msg.Text(), "No maze has been posted in this channel yet") {
		t.Fatalf("followup %q ephemeral %v, want the private error", msg.Text(), msg.Ephemeral())
	}
	if orig := ix.Original(); orig != nil && !orig.Deleted {
		t.Fatalf("the public placeholder stays: %+v", orig)
	}
}

func TestE2ECommandSync(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	guild, cmds, _ := fake.Commands()
	if guild != "" {
		t.Fatalf("synced to guild %q, want global without DISCORD_GUILD_ID", guild)
	}
	byName := map[string]int{}
	for i, c := range cmds {
		byName[c.Name] = i
	}
	for _, name := range []string{"maze", "solve", "help", "Solve this maze", "daily", "leaderboard", "event", "profile"} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("sync lacks %q (has %v)", name, byName)
		}
	}
	maze := cmds[byName["maze"]]
	opts := map[string]int{}
	for _, o := range maze.Options {
		opts[o.Name] = len(o.Choices)
	}
	// The algorithms and formats come from their tables (mazecore's, and
	// render's through renderChoices), so a new one is not counted here.
	algorithms := len(mazecore.Algorithms)
	if len(opts) != 13 || opts["algorithm"] != algorithms || opts["render"] != renderChoices || opts["difficulty"] != 4 || opts["theme"] != 3 || opts["style"] != 2 || opts["grid"] != 3 || opts["shape"] != 7 {
		t.Fatalf("/maze options %v, want algorithm (%d choices), size, height, render (%d choices), seed, difficulty (4 choices), loops, theme (3), style (2), grid (3), shape (7), text, image", opts, algorithms, renderChoices)
	}
	for _, name := range []string{"seed", "loops", "text"} {
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
	if got := subs("daily"); len(got) != 5 || got["setup"] != 14 || got["remind"] != 1 || got["archive"] != 1 {
		t.Fatalf("/daily subcommands %v, want today, setup (channel, time, timezone, algorithm, size, difficulty, loops, language, recap, recap-pings, champion-role, champion-role-off, grid, shape), remind (time), archive (date) and off", got)
	}
	if profile := cmds[byName["profile"]]; len(profile.Options) != 1 || profile.Options[0].Name != "member" || profile.Options[0].Type != discordgo.ApplicationCommandOptionUser || profile.Options[0].Required {
		t.Fatalf("/profile options %+v, want an optional member", profile.Options)
	}
	if got := subs("event"); len(got) != 2 || got["start"] != 12 {
		t.Fatalf("/event subcommands %v, want start (algorithm, size, duration, channel, name, difficulty, loops, language, grid, shape, text, image) and end", got)
	}
	// As Discord stored them (the fake checked the localizations on the
	// way in): every command named and described in Korean, within
	// Discord's rules.
	if err := validateLocalizations(cmds); err != nil {
		t.Fatalf("synced commands:\n%v", err)
	}
	for _, c := range cmds {
		if c.NameLocalizations == nil || !hasHangul((*c.NameLocalizations)[discordgo.Korean]) {
			t.Errorf("%q synced without a Korean name", c.Name)
		}
		if c.Type != discordgo.MessageApplicationCommand && (c.DescriptionLocalizations == nil || !hasHangul((*c.DescriptionLocalizations)[discordgo.Korean])) {
			t.Errorf("/%s synced without a Korean description", c.Name)
		}
	}
	if got := (*maze.NameLocalizations)[discordgo.Korean]; got != "미로" {
		t.Errorf("/maze is %q in Korean", got)
	}
}

func TestE2EGuildSync(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := fake.config(filepath.Join(t.TempDir(), "db"))
	cfg.GuildID, cfg.Secret = fakediscord.DefaultGuildID, nil
	a, err := app.Build(ctx, cfg, slog.New(slog.DiscardHandler), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
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
