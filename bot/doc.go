// Package bot connects mazebot to Discord through discordgo: one gateway
// session per shard this process runs (identified in Discord's rate-limit
// buckets), one REST session for every reply and post, the command sync
// (by the process that runs shard 0), and the dispatch of each
// interaction, whichever shard it came in on, to package commands with a
// deadline-aware Responder (automatic deferral, edits after deferral,
// ephemeral errors) and panic recovery.
//
// It imports commands, metrics and discordgo; it never imports store or
// render, and holds no command logic of its own.
package bot
