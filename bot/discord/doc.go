// Package discord is mazebot's connection to Discord: how interactions
// arrive and how the answers and posts leave. It runs the gateway (one
// session per shard this process runs, each IDENTIFY in its rate-limit
// bucket's turn), the HTTP interactions endpoint (signature checks,
// refusals from the headers before any body is read, caps on bodies and
// connections), the command sync (by the process that runs shard 0), and
// REST: the Responder that answers an interaction and the Poster of
// channel messages. Every interaction, whichever shard or request brought
// it, takes one dispatch into a Dispatcher (a *bot.Router).
//
// The Responder sends its requests itself over the session's HTTP client,
// outside discordgo's rate limiter and retries, so a first response never
// waits past its deadline and no error carries an interaction's token.
// Each session reaches Discord through its own transport (Rebase), so a
// REST proxy or a test's fake Discord is that session's alone.
//
// Every request with the bot's token, whichever job makes it (Maze Arena's
// through Poster.Get included), goes through GlobalLimit: the process's
// pace, and the one record of a global 429 on the token.
//
// Files, from the bottom up (each uses only those above it in this list;
// arch_test.go at the root checks it): globallimit.go (the bot's global
// request rate and 429), transport.go, listener.go,
// message.go (the body of every message request), rest.go (the
// interaction routes), responder.go (bot.Responder over REST, or into the
// waiting HTTP response), poster.go, roles.go (the Poster gives and takes
// members' roles), decode.go (an interaction's JSON, whatever Discord added
// since), sharding.go (the shard plan and identify rounds), identify.go
// (turns at identifying), shards.go (the gateway), commandguilds.go and
// sync.go (the command sync), bot.go (Bot: its configuration, the REST
// session, the count of work in flight), dispatch.go (the one path every
// interaction takes), schedule.go (the scheduled-work loop), lifecycle.go
// (New, Run and shutdown) and http.go (the endpoint).
//
// It imports bot (the handling side), lang, metrics and discordgo; never
// commands, store or render. Only the wiring (app) imports it.
package discord
