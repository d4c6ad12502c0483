// Package contest holds mazebot's competitions: the daily challenge of a
// server (its schedule, its maze, streaks and numbers, the exactly-once
// post) and community events (their lifecycle and live board), the one
// ranking rule both use, the key that names a contest, and the solution
// embargo that keeps a running contest's maze unsolved.
//
// It imports mazecore, play and the standard library only. What it needs
// from outside it declares: stores (implemented by store adapters) and an
// Announcer (implemented on the Discord side, in package commands).
package contest
