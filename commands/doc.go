// Package commands holds mazebot's slash commands, message commands and
// button handlers: each turns an interaction into a reply through a small
// Responder, with no network of its own, so every handler runs in tests
// against a recorder or, through package bot, against a fake Discord.
//
// One file per command holds its definition and its handler; Router collects
// them, dispatches interactions, and turns errors and panics into ephemeral
// replies. It imports mazecore, render and store; never bot or sqlite.
package commands
