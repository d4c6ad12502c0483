package testkit

import "testing"

// SkipShort skips the test under go test -short, saying what it does
// that the fast inner loop leaves out: builds or runs the binary, runs
// processes, shards, a browser, or a load. CI runs without -short, so
// there every such test runs (and .ci/run fails on any skip).
func SkipShort(tb testing.TB, what string) {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("-short: %s (go test without -short runs it)", what)
	}
}
