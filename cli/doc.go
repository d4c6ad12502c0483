// Package cli is mazebot's command-line mode: generate, solve and export a
// maze without Discord ("mazebot maze sidewinder 21 --seed 7"), as text, a
// coloured terminal view, an emoji grid, PNG, GIF or JSON (with the
// difficulty measures). --loops braids the maze and --difficulty chooses
// one of a level; the maze ID printed names the result either way.
//
// Run takes the arguments and the output streams and returns the exit
// status, so tests drive it without a process and main stays wiring. Work
// that lasts over a second shows its progress on stderr when stderr is a
// terminal, on one line erased at the end; nothing when it is piped.
// Nothing is computed at start-up: a maze tool should start in the time and
// memory a maze takes.
//
// "mazebot store copy --from mazebot.db --to postgres://…" copies every
// table of one database into another, through package store.
//
// cli imports mazecore, render and store (for store copy only) and no
// other mazebot package: no Discord, no configuration. main is what
// chooses between it and the bot.
package cli
