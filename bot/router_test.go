package bot_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/bot/bottest"
)

// interactionLog is a metrics.Interactions that keeps what it is told.
type interactionLog struct {
	mu   sync.Mutex
	seen []string // "kind name outcome"
}

func (l *interactionLog) Interaction(kind, name, outcome string, took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if took < 0 {
		outcome += " (negative time)"
	}
	l.seen = append(l.seen, kind+" "+name+" "+outcome)
}

// features is a Feature of commands and buttons given.
type features struct {
	commands   []bot.Command
	components []bot.Component
}

func (f features) Commands() []bot.Command     { return f.commands }
func (f features) Components() []bot.Component { return f.components }

func command(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	return &discordgo.Interaction{ID: "1", Type: discordgo.InteractionApplicationCommand, Locale: discordgo.EnglishUS,
		GuildID: "g1", Member: &discordgo.Member{User: &discordgo.User{ID: "u1"}},
		Data: discordgo.ApplicationCommandInteractionData{Name: name, Options: opts}}
}

func click(customID string) *discordgo.Interaction {
	return &discordgo.Interaction{ID: "2", Type: discordgo.InteractionMessageComponent, Locale: discordgo.EnglishUS,
		GuildID: "g1", Member: &discordgo.Member{User: &discordgo.User{ID: "u1"}},
		Data: discordgo.MessageComponentInteractionData{CustomID: customID}}
}

func def(name string) *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: name, Description: name}
}

// TestRouterMetrics: every interaction is counted by kind, route and
// outcome, whatever the handler did; the unknown ones under "unknown".
func TestRouterMetrics(t *testing.T) {
	handle := func(err error, panics bool) bot.Handler {
		return func(context.Context, *bot.Interaction) error {
			if panics {
				var grid []int
				_ = grid[1] // a real runtime panic
			}
			return err
		}
	}
	log := slog.New(slog.DiscardHandler)
	m := &interactionLog{}
	router := bot.NewRouter(log, features{
		commands: []bot.Command{
			{Definition: def("fine"), Handle: handle(nil, false)},
			{Definition: def("nope"), Handle: handle(bot.Refuse("error.internal"), false)},
			{Definition: def("broken"), Handle: handle(errors.New("disk on fire"), false)},
			{Definition: def("boom"), Handle: handle(nil, true)},
		},
		components: []bot.Component{{Prefix: "solve", Handle: handle(bot.Refuse("error.bad_maze_id"), false)}},
	})
	router.Use(bot.Metrics(m), bot.ErrorReply(log), bot.Recover(log))
	for _, ix := range []*discordgo.Interaction{
		command("fine"), command("nope"), command("broken"), command("boom"), command("gone"),
		click("solve:not-a-maze"), click("zzz:whatever-id-123"),
	} {
		router.Dispatch(context.Background(), ix, &bottest.Recorder{}) //nolint:errcheck // the metrics are what is checked
	}
	want := []string{
		"command fine ok", "command nope refused", "command broken error", "command boom panic", "command unknown unknown",
		"component solve refused", "component unknown unknown",
	}
	if !slices.Equal(m.seen, want) {
		t.Fatalf("reported\n%q\nwant\n%q", m.seen, want)
	}
}

// TestErrorReply: what the member reads for each kind of failure, always
// privately; nothing for success or a replay.
func TestErrorReply(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	for _, tc := range []struct {
		name string
		ix   *discordgo.Interaction
		err  error
		want string // "" for no message
	}{
		{"OK", command("x"), nil, ""},
		{"OKReplayed", command("x"), bot.ErrReplayed, ""},
		// A followup Discord may have made: no apology after it (issue 16
		// row 22).
		{"OKMaybeDelivered", command("x"), fmt.Errorf("followup: %w", bot.ErrMaybeDelivered), ""},
		{"ErrRefused", command("x"), bot.Refuse("error.invalid_button"), "That button isn't valid"},
		{"ErrInternal", command("x"), errors.New("disk on fire"), "Sorry, something went wrong"},
		{"ErrUnknownCommand", command("gone"), nil, "I don't know that command"},
		{"ErrUnknownButton", click("zzz:1"), nil, "That button doesn't work any more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			router := bot.NewRouter(log, features{commands: []bot.Command{{Definition: def("x"), Handle: func(context.Context, *bot.Interaction) error { return tc.err }}}})
			router.Use(bot.ErrorReply(log))
			s := &bottest.Recorder{}
			err := router.Dispatch(context.Background(), tc.ix, s)
			if tc.want == "" {
				if len(s.Replies) != 0 || !errors.Is(err, tc.err) {
					t.Fatalf("replies %+v, err %v; want none and %v", s.Replies, err, tc.err)
				}
				return
			}
			if len(s.Replies) != 1 || !s.Replies[0].Ephemeral || !strings.HasPrefix(s.Replies[0].Content, "⚠️ ") || !strings.Contains(s.Replies[0].Content, tc.want) {
				t.Fatalf("replies %+v, want one private warning saying %q", s.Replies, tc.want)
			}
			if err == nil {
				t.Fatal("the error was not passed on to count")
			}
		})
	}
}

// TestGuardMiddleware: GuildOnly and ManagersOnly refuse before the
// handler runs; Subcommands routes and refuses the unknown one.
func TestGuardMiddleware(t *testing.T) {
	ran := ""
	run := func(name string) bot.Handler {
		return func(context.Context, *bot.Interaction) error { ran = name; return nil }
	}
	h := bot.Stack(bot.Subcommands(map[string]bot.Handler{
		"open":  run("open"),
		"admin": bot.Stack(run("admin"), bot.ManagersOnly("error.event_manager")),
	}, "error.event_usage"), bot.GuildOnly("error.event_dm"))
	sub := func(name string) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand}
	}
	dm := command("cmd", sub("open"))
	dm.GuildID, dm.Member, dm.User = "", nil, &discordgo.User{ID: "u1"}
	manager := command("cmd", sub("admin"))
	manager.Member.Permissions = discordgo.PermissionManageGuild
	admin := command("cmd", sub("admin"))
	admin.Member.Permissions = discordgo.PermissionAdministrator
	for _, tc := range []struct {
		name    string
		ix      *discordgo.Interaction
		ran     string
		refusal string
	}{
		{"OKOpen", command("cmd", sub("open")), "open", ""},
		{"OKManager", manager, "admin", ""},
		{"OKAdministrator", admin, "admin", ""},
		{"ErrDM", dm, "", "error.event_dm"},
		{"ErrNotManager", command("cmd", sub("admin")), "", "error.event_manager"},
		{"ErrNoSubcommand", command("cmd"), "", "error.event_usage"},
		{"ErrUnknownSubcommand", command("cmd", sub("teleport")), "", "error.event_usage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran = ""
			err := h(context.Background(), &bot.Interaction{Interaction: tc.ix, Respond: &bottest.Recorder{}})
			var ue *bot.UserError
			switch {
			case ran != tc.ran:
				t.Fatalf("ran %q, want %q", ran, tc.ran)
			case tc.refusal == "" && err != nil:
				t.Fatalf("err %v", err)
			case tc.refusal != "" && (!errors.As(err, &ue) || ue.Msg.ID != tc.refusal):
				t.Fatalf("err %v, want the refusal %s", err, tc.refusal)
			}
		})
	}
}

// TestReplaysMiddleware: an id seen before ends unanswered in ErrReplayed;
// a guard that cannot record refuses, privately, without running it.
func TestReplaysMiddleware(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	guard := bottest.NewGuard()
	runs := 0
	h := bot.Stack(func(context.Context, *bot.Interaction) error { runs++; return nil }, bot.Replays(guard, log))
	in := func(id int) *bot.Interaction {
		ix := command("x")
		ix.ID = strconv.Itoa(id)
		return &bot.Interaction{Interaction: ix, Respond: &bottest.Recorder{}}
	}
	if err := h(context.Background(), in(1)); err != nil || runs != 1 {
		t.Fatalf("first: err %v, %d runs", err, runs)
	}
	if err := h(context.Background(), in(1)); !errors.Is(err, bot.ErrReplayed) || runs != 1 {
		t.Fatalf("replay: err %v, %d runs; want ErrReplayed and no run", err, runs)
	}
	guard.Fail(errors.New("database is locked"))
	failing := in(2)
	if err := h(context.Background(), failing); err != nil || runs != 1 {
		t.Fatalf("guard failing: err %v, %d runs", err, runs)
	}
	if r := failing.Respond.(*bottest.Recorder).Replies; len(r) != 1 || !r[0].Ephemeral || !strings.Contains(r[0].Content, "try again") {
		t.Fatalf("guard failing: replies %+v, want a private apology", r)
	}
}

// TestAutoDefer: a handler slower than the wait is acknowledged while it
// works; a quick one is not.
func TestAutoDefer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sleep time.Duration
		acked int
	}{{"OKQuick", 0, 0}, {"OKSlow", 50 * time.Millisecond, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			s := &bottest.Recorder{}
			h := bot.Stack(func(context.Context, *bot.Interaction) error { time.Sleep(tc.sleep); return nil }, bot.AutoDefer(10*time.Millisecond, slog.New(slog.DiscardHandler)))
			if tc.sleep == 0 {
				h = bot.Stack(func(context.Context, *bot.Interaction) error { return nil }, bot.AutoDefer(time.Hour, slog.New(slog.DiscardHandler)))
			}
			if err := h(context.Background(), &bot.Interaction{Interaction: command("x"), Respond: s}); err != nil {
				t.Fatal(err)
			}
			s.Lock()
			defer s.Unlock()
			if s.Acknowledged != tc.acked {
				t.Fatalf("acknowledged %d times, want %d", s.Acknowledged, tc.acked)
			}
		})
	}
}

// TestOptions: typed options from a command and from its subcommand;
// absent and wrong-typed values leave their fields alone.
func TestOptions(t *testing.T) {
	opt := func(name string, v any) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Value: v}
	}
	var o struct {
		Name  string   `option:"name"`
		Size  *int64   `option:"size"`
		Seed  *int64   `option:"seed"`
		Loops int64    `option:"loops"`
		On    bool     `option:"on"`
		Ratio *float64 `option:"ratio"`
		Skip  string
	}
	o.Name = "default"
	bot.Options(&bot.Interaction{Interaction: command("x", opt("size", float64(21)), opt("seed", "7"), opt("loops", float64(30)), opt("on", true), opt("ratio", 0.5))}, &o)
	if o.Name != "default" || o.Size == nil || *o.Size != 21 || o.Seed != nil || o.Loops != 30 || !o.On || o.Ratio == nil || *o.Ratio != 0.5 {
		t.Fatalf("decoded %+v", o)
	}
	sub := &discordgo.ApplicationCommandInteractionDataOption{Name: "setup", Type: discordgo.ApplicationCommandOptionSubCommand,
		Options: []*discordgo.ApplicationCommandInteractionDataOption{opt("name", "inner")}}
	in := &bot.Interaction{Interaction: command("x", sub)}
	bot.Options(in, &o)
	if o.Name != "inner" || bot.Subcommand(in) != "setup" {
		t.Fatalf("subcommand: %+v, %q", o, bot.Subcommand(in))
	}
}

// TestRouterAutocomplete: an autocompletion goes to its command's
// Autocomplete; a command without one is unknown, and nothing is said.
func TestRouterAutocomplete(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	router := bot.NewRouter(log, features{commands: []bot.Command{
		{Definition: def("zone"), Handle: func(context.Context, *bot.Interaction) error { t.Error("ran the command"); return nil },
			Autocomplete: func(ctx context.Context, in *bot.Interaction) error {
				name, typed := bot.Focused(in)
				return in.Respond.Choices(ctx, []*discordgo.ApplicationCommandOptionChoice{{Name: name + "=" + typed, Value: typed}})
			}},
		{Definition: def("plain"), Handle: func(context.Context, *bot.Interaction) error { return nil }},
	}})
	router.Use(bot.ErrorReply(log))
	ask := func(name string) *bottest.Recorder {
		ix := command(name, &discordgo.ApplicationCommandInteractionDataOption{Name: "timezone", Type: discordgo.ApplicationCommandOptionString, Value: "seo", Focused: true})
		ix.Type = discordgo.InteractionApplicationCommandAutocomplete
		s := &bottest.Recorder{}
		router.Dispatch(context.Background(), ix, s) //nolint:errcheck // what was said is checked
		return s
	}
	if s := ask("zone"); len(s.Completions) != 1 || len(s.Completions[0]) != 1 || s.Completions[0][0].Name != "timezone=seo" || len(s.Replies) != 0 {
		t.Fatalf("zone: choices %+v, replies %+v", s.Completions, s.Replies)
	}
	if s := ask("plain"); len(s.Completions) != 0 || len(s.Replies) != 0 {
		t.Fatalf("plain: choices %+v, replies %+v; want nothing said", s.Completions, s.Replies)
	}
}
