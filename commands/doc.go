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
// It imports mazecore, play, contest, render and metrics (interfaces
// only); never bot, database/sql, Prometheus or a store adapter.
package commands
