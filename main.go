package main

import (
	"context"
	"fmt"
	"io"
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
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run chooses the mode: the command line (maze, store copy), or the bot.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "bot" {
		return runBotMode(ctx, stdout, stderr)
	}
	switch args[0] {
	case "maze", "store", "help", "-h", "-help", "--help":
		return cli.Run(ctx, args, stdout, stderr)
	}
	fmt.Fprintf(stderr, "mazebot: unknown command %q\n\n", args[0])
	cli.Run(ctx, []string{"help"}, stderr, stderr)
	return 2
}
