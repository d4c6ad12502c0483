package fakediscord_test

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs more tests at once than go test's default of one per CPU
// (-parallel given on the command line wins): every test has a Server and
// a discordgo session of its own, and they wait on sockets and timers
// (discordgo's Session.Close alone sleeps a second), not on the CPU.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", "8"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
