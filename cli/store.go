//go:build !mazeonly

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"mazebot/store"
)

// The usage's lines about store copy.
const (
	storeSynopsis = "       mazebot store copy --from DB --to DB [--force]\n"
	storeSummary  = `store copy copies every table of one mazebot database into another, such
as a SQLite file into PostgreSQL (mazebot store copy --help).

`
)

const storeUsage = `usage: mazebot store copy --from DB --to DB [--force]

Copy every table of one mazebot database into another: results, streaks,
daily settings and posts, events, games and the key that signs play
buttons, each row keeping its key. A DB is what MAZEBOT_DB takes: a SQLite
file path, a postgres:// or postgresql:// URL, or a PostgreSQL
keyword/value string ("host=db user=mazebot dbname=mazebot"). Both
databases are migrated first; the target is written in one transaction,
so a failed copy changes nothing. Stop the bot first: what it writes to
the source during the copy is not copied.

flags:
  --from DB   the database to copy from (a SQLite file must exist)
  --to DB     the database to copy into, which must hold no rows
  --force     replace the rows the target holds; copying again gives the
              same target
  -h, --help  show this help

example:
  mazebot store copy --from mazebot.db --to postgres://mazebot:PASSWORD@db.example/mazebot
`

// runStore runs "mazebot store": copy is its one subcommand.
func runStore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return storeUsageFail(stderr, `missing subcommand: try "mazebot store copy --from mazebot.db --to postgres://…"`)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, storeUsage)
		return exitOK
	case "copy":
	default:
		return storeUsageFail(stderr, fmt.Sprintf("unknown subcommand %q of store", args[0]))
	}
	flags := flag.NewFlagSet("store copy", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // errors are reported below, in one line
	from := flags.String("from", "", "")
	to := flags.String("to", "", "")
	force := flags.Bool("force", false, "")
	switch err := flags.Parse(args[1:]); {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, storeUsage)
		return exitOK
	case err != nil:
		return storeUsageFail(stderr, err.Error())
	case flags.NArg() > 0:
		return storeUsageFail(stderr, fmt.Sprintf("unexpected argument %q", flags.Arg(0)))
	case *from == "":
		return storeUsageFail(stderr, "missing --from: the database to copy from")
	case *to == "":
		return storeUsageFail(stderr, "missing --to: the database to copy into")
	}

	counts, err := store.Copy(ctx, *to, *from, *force)
	switch {
	case ctx.Err() != nil:
		return fail(stderr, exitInterrupted, fmt.Errorf("interrupted: nothing was copied"))
	case errors.Is(err, store.ErrNotEmpty):
		return fail(stderr, exitFailure, fmt.Errorf("%w; --force replaces them", err))
	case err != nil:
		return fail(stderr, exitFailure, err)
	}
	fmt.Fprintf(stdout, "copied %s to %s:\n", store.Redact(*from), store.Redact(*to))
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, c := range counts {
		fmt.Fprintf(w, "  %s\t%d rows\t\n", c.Table, c.Rows)
	}
	if err := w.Flush(); err != nil {
		return fail(stderr, exitFailure, err)
	}
	return exitOK
}

func storeUsageFail(stderr io.Writer, msg string) int {
	return hintFail(stderr, msg, "mazebot store copy --help")
}
