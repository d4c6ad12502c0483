package fakediscord_test

import (
	"os"
	"testing"

	"mazebot/internal/fakediscord"
)

// TestMain runs more tests at once than go test's default of one per CPU
// (-parallel given on the command line wins): every test has a Server and
// a discordgo session of its own, and they wait on sockets and timers,
// not on the CPU.
func TestMain(m *testing.M) {
	fakediscord.DefaultParallel(8)
	os.Exit(m.Run())
}
