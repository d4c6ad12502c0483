// Package bot connects mazebot to Discord through a discordgo session: the
// gateway, the command sync, and the dispatch of each interaction to
// package commands with a deadline-aware Responder (automatic deferral,
// edits after deferral, ephemeral errors) and panic recovery.
//
// It imports commands and discordgo; it never imports store or render, and
// holds no command logic of its own.
package bot
