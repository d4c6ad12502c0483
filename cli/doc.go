// Package cli is mazebot's command-line mode: generate, solve and export a
// maze without Discord ("mazebot maze sidewinder 21 --seed 7"), as text, a
// coloured terminal view, an emoji grid, PNG, GIF, SVG, a printable PDF or
// JSON (with the difficulty measures, the rating and par). --loops braids
// the maze and --difficulty chooses one of a level; the maze ID printed
// names the result either way. The -o file's extension says the format;
// an extension that says none, or a --format it contradicts, is refused.
//
// A bad argument is reported in one line and a pointer to --help, not the
// usage, which would push the line off the screen. A file is written under
// a temporary name beside it and renamed when complete; messages name the
// file the user gave, never the temporary one. A link is written through;
// a device or a named pipe is written directly, not renamed over.
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
// cli imports mazecore, render, play (for par) and store (for store copy
// only) and no other mazebot package: no Discord, no configuration. main
// is what chooses between it and the bot.
//
// Built with -tags mazeonly (the maze-only build, see main_mazeonly.go),
// cli leaves store out: store copy then says it is not in this build.
package cli
