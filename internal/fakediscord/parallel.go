package fakediscord

import (
	"flag"
	"strconv"
)

// DefaultParallel sets go test's -parallel to n unless the command line
// gave it; call it from a TestMain, before m.Run (it parses the flags if
// they are not yet). Tests that each run a Server and a discordgo session
// mostly wait on sockets and timers (discordgo's Session.Close alone
// sleeps a second), not on the CPU, so go test's default of one test per
// CPU at a time leaves a small machine idle. It panics outside a test
// binary, which has no -test.parallel flag.
func DefaultParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err)
		}
	}
}
