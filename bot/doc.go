// Package bot connects mazebot to Discord through a discordgo session: the
// gateway, the HTTP interactions endpoint (signature checks, refusals from
// the headers before any body is read, caps on bodies and connections), the
// command sync, and the dispatch of each interaction to package commands:
// checks of the payload, a replay guard (ReplayGuard, kept by the store), a
// deadline-aware Responder (automatic deferral, edits after deferral,
// ephemeral errors) and panic recovery.
//
// The Responder sends its requests itself over the session's HTTP client,
// outside discordgo's rate limiter and retries, so a first response never
// waits past its deadline and no error carries an interaction's token.
//
// It imports commands and discordgo; it never imports store or render, and
// holds no command logic of its own.
package bot
