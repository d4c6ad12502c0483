//go:build !mazeonly

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	_ "time/tzdata" // IANA time zones work even in an image without zoneinfo

	"mazebot/app"
	"mazebot/cli"
)

const usage = `mazebot is a Discord bot that makes mazes, and a command line that makes
them without Discord.

usage:
  mazebot                  run the bot if DISCORD_TOKEN is set; else say how
                           to set it, and draw a maze offline
  mazebot bot              run the bot (an error without DISCORD_TOKEN)
  mazebot maze ...         make a maze: mazebot maze sidewinder 21
  mazebot store copy ...   copy a database into another
  mazebot version          the version
  mazebot help             this help

  mazebot bot --help       the bot's settings (environment variables)
  mazebot maze --help      the maze command's flags and formats
`

// botUsage lists the bot's settings.
func botUsage() string {
	var b strings.Builder
	b.WriteString(`usage: mazebot bot

Runs the Discord bot until it is stopped (Ctrl-C, SIGTERM). It is set up
through environment variables, which a .env file in the working directory
may hold (variables already set win); .env.example explains each one.

`)
	for _, v := range app.Variables {
		def := ""
		if v.Default != "" {
			def = " (default " + v.Default + ")"
		}
		fmt.Fprintf(&b, "  %-20s %s%s\n", v.Name, v.Help, def)
	}
	return b.String()
}

// runBot runs the Discord bot until ctx ends, returning the exit code.
// Without a token, asked for explicitly (mazebot bot, as the container
// runs it), that is an error an orchestrator sees; asked for by a bare
// mazebot, the first command anyone runs, it says how to set one and
// shows what mazebot does offline instead.
func runBot(ctx context.Context, explicit bool, stdout, stderr io.Writer) int {
	if err := app.LoadDotEnv(".env"); err != nil {
		fmt.Fprintln(stderr, "mazebot:", err)
		return exitFailed
	}
	cfg, err := app.ParseConfig(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "mazebot: the configuration cannot be used:\n%v\n", err)
		return exitUsage
	}
	log := app.NewLogger(stderr, cfg)
	if cfg.Token == "" {
		if explicit {
			fmt.Fprint(stderr, noTokenError)
			return exitUsage
		}
		fmt.Fprint(stderr, noTokenHelp)
		return cli.Run(ctx, []string{"maze", "backtracking", "21"}, stdout, stderr)
	}
	bot, err := app.Build(ctx, cfg, log, app.Options{})
	if err != nil {
		log.Error("start", "err", err)
		return exitFailed
	}
	defer bot.Close()
	if err := bot.Run(ctx); err != nil {
		log.Error("stopped", "err", err)
		return exitFailed
	}
	log.Info("stopped cleanly")
	return exitOK
}

const noTokenHelp = `mazebot: DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run the bot: copy .env.example to .env and put your bot token in it
(see README.md, "Run it on Discord"), then run: go run .

Meanwhile, here is what the offline command makes (go run . help for more):
  go run . maze sidewinder 21
  go run . maze backtracking 41 --solve

`

const noTokenError = `mazebot bot: DISCORD_TOKEN is not set, so the bot cannot connect to Discord.
Give it the bot token (Developer Portal → your application → Bot → Reset
Token) in the environment: in a container, docker run -e DISCORD_TOKEN=...
(or --env-file, or your orchestrator's secret); elsewhere, export it or put
it in a .env file in the working directory. mazebot bot --help lists every
setting.
`
