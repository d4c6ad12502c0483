//go:build mazeonly

package main

import (
	"context"
	"fmt"
	"io"

	"mazebot/cli"
)

// The maze-only build (go build -tags mazeonly) is the command line alone:
// mazebot maze, without the bot. Go initialises every package a binary
// links before main runs, and the bot's (Discord, the database drivers,
// Prometheus, protobuf) touch about 11 MB of the binary's pages doing it,
// so the full build's mazebot maze starts at 15–17 MB where this one
// starts at about 4. It is the build to ship as an offline maze tool.

const usage = `mazebot (the maze-only build) makes mazes on the command line.

usage:
  mazebot maze ...         make a maze: mazebot maze sidewinder 21
  mazebot version          the version
  mazebot help             this help

  mazebot maze --help      the maze command's flags and formats

` + notInThisBuild

const notInThisBuild = `This build has no Discord bot and no database (mazebot bot, mazebot
store copy): build mazebot without -tags mazeonly for them.
`

func botUsage() string { return notInThisBuild }

// runBot has no bot to run: a bare mazebot shows what the maze command
// makes, as the full build does without a token; mazebot bot is an error.
func runBot(ctx context.Context, explicit bool, stdout, stderr io.Writer) int {
	if explicit {
		fmt.Fprintln(stderr, "mazebot bot: this is the maze-only build (-tags mazeonly), which has no Discord bot; build mazebot without the tag to run it")
		return exitUsage
	}
	fmt.Fprint(stderr, usage, "\nHere is what it makes:\n  mazebot maze backtracking 21\n\n")
	return cli.Run(ctx, []string{"maze", "backtracking", "21"}, stdout, stderr)
}
