package commands

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/metrics"
)

// Handler handles one interaction.
type Handler func(ctx context.Context, in *Interaction) error

// Command is one application command: its definition and its handler.
type Command struct {
	Definition *discordgo.ApplicationCommand
	Handle     Handler
}

// Component handles buttons whose custom_id starts with Prefix + ":".
type Component struct {
	Prefix string
	Handle Handler
}

// Feature is one part of the bot: the commands and buttons it brings.
// Each is built with what it needs and registered only when configured.
type Feature interface {
	Commands() []Command
	Components() []Component
}

// Interaction is what a handler gets: the raw interaction and a way to
// answer it.
type Interaction struct {
	*discordgo.Interaction
	Respond Responder
}

// Lang is the language of the member who caused the interaction: their
// Discord client's locale, English when mazebot doesn't speak it. Every
// reply to them, private or public, is in it.
func (in *Interaction) Lang() *lang.Lang { return lang.For(in.Locale) }

// GuildLang is the server's language as Discord reports it (guild_locale,
// the server's "primary language" setting), English outside a server or
// when mazebot doesn't speak it: what posts nobody asked for are in,
// unless a manager chose another.
func (in *Interaction) GuildLang() *lang.Lang {
	if in.GuildID == "" || in.GuildLocale == nil {
		return lang.English
	}
	return lang.For(*in.GuildLocale)
}

// UserID is the member or DM user who caused the interaction.
func (in *Interaction) UserID() string {
	if in.Member != nil && in.Member.User != nil {
		return in.Member.User.ID
	}
	if in.User != nil {
		return in.User.ID
	}
	return ""
}

// Router dispatches interactions to the features' commands and buttons.
type Router struct {
	log        *slog.Logger
	metrics    metrics.Interactions
	commands   map[string]Command
	order      []string
	components map[string]Component
}

// NewRouter routes to the commands and buttons of features; a later
// command with the same name replaces an earlier one.
func NewRouter(log *slog.Logger, m metrics.Interactions, features ...Feature) *Router {
	if m == nil {
		m = metrics.Nop{}
	}
	r := &Router{log: log, metrics: m, commands: map[string]Command{}, components: map[string]Component{}}
	for _, f := range features {
		for _, c := range f.Commands() {
			if _, dup := r.commands[c.Definition.Name]; !dup {
				r.order = append(r.order, c.Definition.Name)
			}
			// A text missing from a catalog leaves that language's
			// localization out; the catalog tests fail on it, so only a
			// test's own commands get here.
			if err := lang.Localize([]*discordgo.ApplicationCommand{c.Definition}); err != nil {
				log.Debug("command texts missing from a catalog", "command", c.Definition.Name, "err", err)
			}
			r.commands[c.Definition.Name] = c
		}
		for _, c := range f.Components() {
			r.components[c.Prefix] = c
		}
	}
	return r
}

// Definitions lists the command definitions for the bulk overwrite.
func (r *Router) Definitions() []*discordgo.ApplicationCommand {
	defs := make([]*discordgo.ApplicationCommand, 0, len(r.order))
	for _, name := range r.order {
		defs = append(defs, r.commands[name].Definition)
	}
	return defs
}

// Dispatch runs the handler for ix. It never panics and returns nothing: a
// handler's error becomes an ephemeral message in the member's language (the
// UserError's own message, or a generic apology with the detail in the log),
// and a panic becomes an apology with the stack in the log.
func (r *Router) Dispatch(ctx context.Context, ix *discordgo.Interaction, respond Responder) {
	if ix == nil {
		r.log.Warn("no interaction to dispatch")
		return
	}
	in := &Interaction{Interaction: ix, Respond: respond}
	log := r.log.With("interaction", ix.ID, "type", ix.Type.String(), "user", in.UserID())
	start := time.Now()
	// Deferred first so that it runs last, after a panic is recovered.
	kind, name, outcome := kindOf(ix.Type), metrics.OutcomeUnknown, metrics.OutcomePanic
	defer func() { r.metrics.Interaction(kind, name, outcome, time.Since(start)) }()
	defer func() {
		if p := recover(); p != nil {
			log.Error("handler panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			sendError(ctx, in, log, in.Lang().T("error.panic"))
		}
	}()
	handler, routed := r.route(ix)
	if handler == nil {
		// The name stays "unknown" in metrics: an unknown custom_id could
		// be anything, and each would be a new series.
		outcome = metrics.OutcomeUnknown
		log.Warn("no handler", "name", routed)
		unknown := "error.unknown_command"
		if ix.Type == discordgo.InteractionMessageComponent {
			unknown = "error.unknown_button"
		}
		sendError(ctx, in, log, in.Lang().T(unknown))
		return
	}
	name = routed
	log = log.With("name", name)
	err := handler(ctx, in)
	log.Debug("handled", "elapsed", time.Since(start))
	if err == nil {
		outcome = metrics.OutcomeOK
		return
	}
	message, internal := UserMessage(err, in.Lang())
	if internal {
		outcome = metrics.OutcomeError
		log.Error("handler failed", "err", err)
	} else {
		outcome = metrics.OutcomeRefused
		log.Info("refused", "reason", err)
	}
	sendError(ctx, in, log, message)
}

// kindOf names an interaction type for metrics.
func kindOf(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return "command"
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionModalSubmit:
		return "modal"
	}
	return "other"
}

func (r *Router) route(ix *discordgo.Interaction) (Handler, string) {
	switch ix.Type {
	case discordgo.InteractionApplicationCommand:
		name := ix.ApplicationCommandData().Name
		if c, ok := r.commands[name]; ok {
			return c.Handle, name
		}
		return nil, name
	case discordgo.InteractionMessageComponent:
		id := ix.MessageComponentData().CustomID
		prefix, _, _ := strings.Cut(id, ":")
		if c, ok := r.components[prefix]; ok {
			return c.Handle, prefix
		}
		return nil, id
	}
	return nil, ix.Type.String()
}

// sendError tells the member, ephemerally. When the handler already answered
// publicly (a deferral, say), a followup carries the message instead.
func sendError(ctx context.Context, in *Interaction, log *slog.Logger, message string) {
	reply := Reply{Content: "⚠️ " + message, Ephemeral: true}
	if err := in.Respond.Reply(ctx, reply); err != nil {
		if err := in.Respond.Followup(ctx, reply); err != nil {
			log.Error("could not tell the member about an error", "err", err)
		}
	}
}
