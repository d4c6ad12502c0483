package bot

import (
	"context"
	"log/slog"
	"strings"

	"github.com/bwmarrin/discordgo"
)

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

// unknownRouteError is the error of an interaction that no route takes.
type unknownRouteError struct{ what string }

func (e *unknownRouteError) Error() string { return "no handler for " + e.what }

func unknownRoute(what string) Handler {
	return func(context.Context, *Interaction) error { return &unknownRouteError{what: what} }
}
