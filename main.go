package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // IANA time zones work even in an image without zoneinfo

	"mazebot/app"
	"mazebot/cli"
)

func main() {
	// Ctrl-C or a stop from a supervisor cancels ctx: the command line then
	// removes a half-written file, the bot stops taking work and finishes
	// the replies in flight.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run chooses the mode: the command line (maze, store copy), or the bot.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "bot" {
		return runBot(ctx, stdout, stderr)
	}
	switch args[0] {
	case "maze", "store", "help", "-h", "-help", "--help":
		return cli.Run(ctx, args, stdout, stderr)
	}
	fmt.Fprintf(stderr, "mazebot: unknown command %q\n\n", args[0])
	cli.Run(ctx, []string{"help"}, stderr, stderr)
	return 2
}

// runBot runs the Discord bot until ctx ends, returning the exit code.
// Without a token it says how to set one and shows what mazebot does
// offline instead, so the first command anyone runs shows a maze.
func runBot(ctx context.Context, stdout, stderr io.Writer) int {
	if err := app.LoadDotEnv(".env"); err != nil {
		fmt.Fprintln(stderr, "mazebot:", err)
		return 1
	}
	cfg, err := app.ParseConfig(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "mazebot: the configuration cannot be used:\n%v\n", err)
		return 2
	}
	log := app.NewLogger(stderr, cfg)
	if cfg.Token == "" {
		fmt.Fprint(stderr, noTokenHelp)
		return cli.Run(ctx, []string{"maze", "backtracking", "21"}, stdout, stderr)
	}
	bot, err := app.Build(ctx, cfg, log, app.Options{})
	if err != nil {
		log.Error("start", "err", err)
		return 1
	}
	defer bot.Close()
	if err := bot.Run(ctx); err != nil {
		log.Error("stopped", "err", err)
		return 1
	}
	log.Info("stopped cleanly")
	return 0
}

const noTokenHelp = `mazebot: DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run the bot: copy .env.example to .env and put your bot token in it
(see README.md, "Run it on Discord"), then run: go run .

Meanwhile, here is what the offline command makes (go run . help for more):
  go run . maze sidewinder 21
  go run . maze backtracking 41 --solve

`
