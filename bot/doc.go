// Package bot connects mazebot to Discord through discordgo: one gateway
// session per shard this process runs (identified in Discord's rate-limit
// buckets), one REST session for posts, the HTTP interactions endpoint
// (signature checks, refusals from the headers before any body is read,
// caps on bodies and connections), the command sync (by the process that
// runs shard 0), and the dispatch of each interaction, whichever shard it
// came in on, to package commands: checks of the payload, a replay guard
// (ReplayGuard, kept by the store), a deadline-aware Responder (automatic
// deferral, edits after deferral, ephemeral errors) and panic recovery.
//
// The Responder sends its requests itself over the session's HTTP client,
// outside discordgo's rate limiter and retries, so a first response never
// waits past its deadline and no error carries an interaction's token.
//
// Its own two answers (restarting, try again) are worded in the member's
// language by commands/lang.
//
// It imports commands (and its lang), metrics and discordgo; it never
// imports store or render, and holds no command logic of its own.
package bot
