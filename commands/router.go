package commands

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/store"
)

// Posts is the part of the store the maze commands need.
type Posts interface {
	AddPost(ctx context.Context, p store.Post) error
	LastPost(ctx context.Context, channelID string) (store.Post, error)
}

// Deps is what the handlers share.
type Deps struct {
	Posts  Posts
	Logger *slog.Logger
	Now    func() time.Time // injected so tests control time
	Seed   func() uint64    // random seeds for new mazes
	// Games keeps play-mode games; Secret signs their buttons. Both must
	// be the same for every bot process sharing the store.
	Games  Games
	Secret []byte
	// Poster reaches channels outside interactions (scheduled posts).
	Poster Poster
	// Events keeps community events.
	Events EventStore
	// Daily keeps the daily challenge's settings, posts and rankings.
	Daily DailyStore

	gameContexts []GameContext
	finishHooks  []FinishHook
}

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

// Interaction is what a handler gets: the raw interaction, a way to answer,
// and the shared dependencies.
type Interaction struct {
	*discordgo.Interaction
	Respond Responder
	Deps    *Deps
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

// Router dispatches interactions to commands and components.
type Router struct {
	deps       *Deps
	commands   map[string]Command
	order      []string
	components map[string]Component
	tickers    []Ticker
}

// NewRouter builds the router with every mazebot command.
func NewRouter(deps *Deps) *Router {
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Seed == nil {
		deps.Seed = rand.Uint64 // seeds need variety, not secrecy
	}
	r := &Router{deps: deps, commands: map[string]Command{}, components: map[string]Component{}}
	for _, c := range []Command{mazeCommand(), solveCommand(), solveMessageCommand(), helpCommand()} {
		r.AddCommand(c)
	}
	r.AddComponent(solveButton())
	r.AddComponent(playButton())
	r.AddComponent(moveButtons())
	r.AddTicker(gameCleanup(deps))
	registerEvents(r)
	registerDaily(r)
	for _, c := range r.commands {
		localize(c.Definition)
	}
	return r
}

// AddCommand registers a command; a later one with the same name replaces it.
func (r *Router) AddCommand(c Command) {
	if _, dup := r.commands[c.Definition.Name]; !dup {
		r.order = append(r.order, c.Definition.Name)
	}
	r.commands[c.Definition.Name] = c
}

// AddComponent registers a button handler.
func (r *Router) AddComponent(c Component) { r.components[c.Prefix] = c }

// Definitions lists the command definitions for the bulk overwrite.
func (r *Router) Definitions() []*discordgo.ApplicationCommand {
	defs := make([]*discordgo.ApplicationCommand, 0, len(r.order))
	for _, name := range r.order {
		defs = append(defs, r.commands[name].Definition)
	}
	return defs
}

// Dispatch runs the handler for ix. It never panics and returns nothing: a
// handler's error becomes an ephemeral message (the UserError's own text, or
// a generic apology with the detail in the log), and a panic becomes an
// apology with the stack in the log.
func (r *Router) Dispatch(ctx context.Context, ix *discordgo.Interaction, respond Responder) {
	in := &Interaction{Interaction: ix, Respond: respond, Deps: r.deps}
	log := r.deps.Logger.With("interaction", ix.ID, "type", ix.Type.String(), "user", in.UserID())
	defer func() {
		if p := recover(); p != nil {
			log.Error("handler panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			r.sendError(ctx, in, log, "Sorry, that went wrong on my side and I could not finish it. Please try again; the rest of me is still working.")
		}
	}()
	handler, name := r.route(ix)
	if handler == nil {
		log.Warn("no handler", "name", name)
		r.sendError(ctx, in, log, "I don't know that command any more. It may have been removed; try /help.")
		return
	}
	log = log.With("name", name)
	start := time.Now()
	err := handler(ctx, in)
	log.Debug("handled", "elapsed", time.Since(start))
	if err == nil {
		return
	}
	message, internal := UserMessage(err)
	if internal {
		log.Error("handler failed", "err", err)
	} else {
		log.Info("refused", "reason", err)
	}
	r.sendError(ctx, in, log, message)
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
func (r *Router) sendError(ctx context.Context, in *Interaction, log *slog.Logger, message string) {
	reply := Reply{Content: "⚠️ " + message, Ephemeral: true}
	if err := in.Respond.Reply(ctx, reply); err != nil {
		if err := in.Respond.Followup(ctx, reply); err != nil {
			log.Error("could not tell the member about an error", "err", err)
		}
	}
}
