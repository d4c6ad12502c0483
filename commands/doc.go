// Package commands is mazebot's Discord adapter: the slash commands, the
// message command and the buttons, each turned from an interaction into a
// call to the domain (play, contest, mazecore) and a reply, through a small
// Responder, so every handler runs in tests against a recorder or, through
// package bot, against a fake Discord.
//
// It holds what is Discord's: command definitions, options, custom IDs and
// their signatures, language and presentation. Rules live in the domain;
// storage is reached only through the domain's interfaces. Each Feature
// (Mazes, Play, Daily, Events, Help) is built with what it needs and
// registered on the Router only when configured. The Announcer makes the
// domain's channel posts.
//
// Every text it sends comes from the catalogs of commands/lang, in the
// language of whoever reads it: a reply in the member's (Interaction.Lang,
// from the interaction's locale), a post nobody asked for (the daily, an
// event's maze, board, results and solution) in the server's, which
// /daily setup and /event start store with the daily or the event
// (guild_locale, or their language option). Refusals are UserErrors that
// carry a message, worded by the router for the member. The domain stays
// language-free: contest keeps a language code it never reads.
//
// It imports mazecore, play, contest, render, metrics (interfaces only)
// and commands/lang; never bot, database/sql, Prometheus or a store
// adapter.
package commands
