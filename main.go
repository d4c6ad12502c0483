package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

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
// help and version. runBot, botUsage and usage are the build's: bot.go's,
// or main_mazeonly.go's in the maze-only build.
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
