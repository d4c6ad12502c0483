package e2e

import (
	"os"
	"testing"

	"mazebot/internal/fakediscord"
)

// TestMain runs four tests at once where go test's default is one per CPU
// (-parallel on the command line wins), and removes the binary the process
// tests built once they are done. Most of these tests wait rather than
// compute — for ticks, held requests, restarts, a handler's sleep,
// discordgo's Session.Close, which sleeps a second — so on a two-core
// machine two at a time leaves it idle; those that need the CPU pace
// themselves (TestE2EPlayFiftyPlayers) or run alone (TestE2EHeavyRenders).
func TestMain(m *testing.M) {
	if spec := os.Getenv(loadGeneratorEnv); spec != "" {
		os.Exit(runLoadGenerator(spec))
	}
	fakediscord.DefaultParallel(4)
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir) // a temporary directory: nothing to report
	}
	os.Exit(code)
}
