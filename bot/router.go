package bot

import (
	"context"
	"log/slog"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/lang"
)

// Handler handles one interaction. An error it returns is told to the
// member by the ErrorReply middleware: a UserError's own message, or an
// apology.
type Handler func(ctx context.Context, in *Interaction) error

// Middleware wraps a handler: recovery, metrics, deferral, checks.
type Middleware func(next Handler) Handler

// Command is one application command: its definition, its handler, and
// the middleware only it runs (inside the router's own).
type Command struct {
	Definition *discordgo.ApplicationCommand
	Handle     Handler
	// Autocomplete answers the command's autocompleted options with
	// Respond.Choices; nil for a command that has none.
	Autocomplete Handler
	Use          []Middleware
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

// Interaction is what a handler gets: the raw interaction, the route it
// took, and a way to answer it.
type Interaction struct {
	*discordgo.Interaction
	Respond Responder
	// Route names what handles it: the command's name or the button's
	// custom_id prefix, "" when nothing does.
	Route string
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

// Router routes interactions to the features' commands and buttons,
// through its middleware.
type Router struct {
	log        *slog.Logger
	commands   map[string]Command
	order      []string
	components map[string]Component
	middleware []Middleware
}

// NewRouter routes to the commands and buttons of features; a later
// command with the same name replaces an earlier one. The definitions are
// localized from the catalogs here, once.
func NewRouter(log *slog.Logger, features ...Feature) *Router {
	r := &Router{log: log, commands: map[string]Command{}, components: map[string]Component{}}
	for _, f := range features {
		for _, c := range f.Commands() {
			if _, dup := r.commands[c.Definition.Name]; !dup {
				r.order = append(r.order, c.Definition.Name)
			}
			// A text missing from a catalog leaves that language's
			// localization out; the catalog tests fail on it, so only a
			// test's own commands get here.
			if err := Localize([]*discordgo.ApplicationCommand{c.Definition}); err != nil {
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

// Use adds middleware around every route, the first given outermost.
func (r *Router) Use(mw ...Middleware) { r.middleware = append(r.middleware, mw...) }

// Definitions lists the command definitions for the bulk overwrite.
func (r *Router) Definitions() []*discordgo.ApplicationCommand {
	defs := make([]*discordgo.ApplicationCommand, 0, len(r.order))
	for _, name := range r.order {
		defs = append(defs, r.commands[name].Definition)
	}
	return defs
}

// Dispatch runs ix through the middleware to its route's handler and
// returns what the chain returns: the error the member has been told
// about (nil when it went well), or ErrReplayed for an interaction
// dropped unanswered.
func (r *Router) Dispatch(ctx context.Context, ix *discordgo.Interaction, respond Responder) error {
	in := &Interaction{Interaction: ix, Respond: respond}
	return Stack(r.route(in), r.middleware...)(ctx, in)
}

// route finds the handler of in, with its own middleware, and names the
// route; a handler that refuses stands in for an unknown one.
func (r *Router) route(in *Interaction) Handler {
	switch in.Type {
	case discordgo.InteractionApplicationCommand:
		name := in.ApplicationCommandData().Name
		if c, ok := r.commands[name]; ok {
			in.Route = name
			return Stack(c.Handle, c.Use...)
		}
		return unknownRoute("command " + name)
	case discordgo.InteractionApplicationCommandAutocomplete:
		name := in.ApplicationCommandData().Name
		if c, ok := r.commands[name]; ok && c.Autocomplete != nil {
			in.Route = name
			return Stack(c.Autocomplete, c.Use...)
		}
		return unknownRoute("autocompletion of " + name)
	case discordgo.InteractionMessageComponent:
		id := in.MessageComponentData().CustomID
		prefix, _, _ := strings.Cut(id, ":")
		if c, ok := r.components[prefix]; ok {
			in.Route = prefix
			return c.Handle
		}
		return unknownRoute("button " + id)
	}
	return unknownRoute(in.Type.String())
}
