// Package bot is the connection side of mazebot's Discord wing: one
// gateway session per shard this process runs (identified in Discord's
// rate-limit buckets), one REST session for posts, the HTTP interactions
// endpoint (signature checks, refusals from the headers before any body is
// read, caps on bodies and connections), the command sync (by the process
// that runs shard 0), and the dispatch of every interaction, whichever
// shard or request brought it, through the Router.
//
// The Router routes commands by name and buttons by custom ID prefix,
// through middleware stacked per router and per command: AutoDefer,
// Replays (the replay guard the store keeps), Metrics, ErrorReply, Recover,
// GuildOnly and ManagersOnly. Handlers get an Interaction with a Responder
// and return an error; a UserError's message reaches the member. Options
// decodes a command's options into a tagged struct.
//
// The Responder sends its requests itself over the session's HTTP client,
// outside discordgo's rate limiter and retries, so a first response never
// waits past its deadline and no error carries an interaction's token.
// Each session reaches Discord through its own transport (Rebase), so a
// REST proxy or a test's fake Discord is that session's alone.
//
// Localize fills the command definitions' texts from package lang's
// catalogs and checks them against Discord's naming rules.
//
// It imports lang, metrics and discordgo; never commands, store or render.
package bot
