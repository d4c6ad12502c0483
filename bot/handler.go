package bot

import (
	"context"

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

// Stack applies middleware to h, the first given outermost.
func Stack(h Handler, mw ...Middleware) Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// Ticker is scheduled work (daily posts, ending events, cleanup), run at
// start, to catch up on what fell due while the bot was down, and then
// every so often. It must be idempotent.
type Ticker struct {
	Name string
	Run  func(ctx context.Context) error
}

// The Entry Point command of an Activity: command type 4
// PRIMARY_ENTRY_POINT, global only, one per app, launched by its handler
// (the command sync sends it with APP_HANDLER: the app gets the
// interaction and may answer LAUNCH_ACTIVITY). discordgo v0.29.0 has no
// constant for the type.
const PrimaryEntryPoint discordgo.ApplicationCommandType = 4
