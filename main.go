package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	_ "time/tzdata" // IANA time zones work even in an image without zoneinfo

	"mazebot/app"
	"mazebot/cli"
)

// version is the release, set at build time (-ldflags "-X
// main.version=v1.2.3"); without it, the build's own record says what
// it can.
var version = ""

func main() {
	// Ctrl-C or a stop from a supervisor cancels ctx: the command line then
	// removes a half-written file, the bot stops taking work and finishes
	// the replies in flight.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes of the bot mode.
const (
	exitOK     = 0
	exitFailed = 1 // started, then failed; or could not start
	exitUsage  = 2 // the command line or the configuration is wrong
)

// run chooses the mode: the bot, the command line (maze, store copy), or
// help and version.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runBot(ctx, false, stdout, stderr)
	}
	switch args[0] {
	case "bot":
		if len(args) > 1 {
			if isHelp(args[1]) {
				fmt.Fprint(stdout, botUsage())
				return exitOK
			}
			fmt.Fprintf(stderr, "mazebot bot: unexpected %q: the bot is configured through the environment (mazebot bot --help)\n", args[1])
			return exitUsage
		}
		return runBot(ctx, true, stdout, stderr)
	case "maze", "store":
		return cli.Run(ctx, args, stdout, stderr)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "mazebot", versionString())
		return exitOK
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "mazebot: unknown command %q (mazebot --help lists them)\n", args[0])
	return exitUsage
}

func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

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

// versionString is the version set at build time, else the module's
// version and the commit the build records.
func versionString() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v + " " + info.GoVersion
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
