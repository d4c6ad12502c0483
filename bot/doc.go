// Package bot is the interaction-handling side of mazebot's Discord wing:
// what a feature sees of an interaction and how it answers it, whatever
// connection brought it (package bot/discord).
//
// Files, from the bottom up (each uses only those above it in this list):
// reply.go (Reply, File, the Responder a handler answers through,
// UserError), components.go (walking a message's components), handler.go
// (Handler, Middleware, Command, Component, Feature, Ticker, Interaction),
// localize.go (the command definitions' texts from package lang's
// catalogs), attachments.go (fetching an attachment option's file),
// options.go (a command's options into a tagged struct), router.go
// (commands by name and buttons by custom ID prefix) and middleware.go
// (AutoDefer, Replays, Logged, Metrics, ErrorReply, Recover, GuildOnly,
// ManagersOnly, Subcommands). Handlers return an error; a UserError's
// message reaches the member.
//
// The checks of the command definitions, which only tests run, are in
// bot/bottest: the binary does not carry them.
//
// It imports lang, metrics and discordgo; never bot/discord, commands,
// store or render.
package bot
