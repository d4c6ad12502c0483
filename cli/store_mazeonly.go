//go:build mazeonly

package cli

import (
	"context"
	"fmt"
	"io"
)

// The maze-only build's usage says nothing of store copy.
const storeSynopsis, storeSummary = "", ""

// runStore in the maze-only build: the database packages are what it
// leaves out (see main_mazeonly.go), so store copy is not here.
func runStore(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "mazebot store: this is the maze-only build (-tags mazeonly), which has no database; build mazebot without the tag for store copy")
	return exitUsage
}
