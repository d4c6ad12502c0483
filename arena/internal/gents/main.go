// gents writes the protocol's TypeScript types (arena.TypeScript)
// to the client's sources: go generate ./arena runs it.

package main

import (
	"flag"
	"fmt"
	"os"

	"mazebot/arena"
)

func main() {
	out := flag.String("out", "web/src/protocol.ts", "the file to write")
	flag.Parse()
	if err := os.WriteFile(*out, []byte(arena.TypeScript()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gents:", err)
		os.Exit(1)
	}
}
