package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // IANA time zones work even in an image without zoneinfo

	"mazebot/cli"
)

func main() {
	// Ctrl-C or a stop from a supervisor cancels ctx: the command line then
	// removes a half-written file, the bot stops taking work and finishes
	// the replies in flight.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// run chooses the mode: the maze command line, or the bot.
func run(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "bot" {
		return runBotMode(ctx, os.Stderr)
	}
	switch args[0] {
	case "maze", "help", "-h", "-help", "--help":
		return cli.Run(ctx, args, os.Stdout, os.Stderr)
	}
	fmt.Fprintf(os.Stderr, "mazebot: unknown command %q\n\n", args[0])
	cli.Run(ctx, []string{"help"}, os.Stderr, os.Stderr)
	return 2
}
