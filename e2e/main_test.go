package e2e

import (
	"flag"
	"os"
	"testing"
)

// TestMain removes the binary the process tests built, once they are done.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir) // a temporary directory: nothing to report
	}
	os.Exit(code)
}
