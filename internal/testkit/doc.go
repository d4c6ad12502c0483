// Package testkit holds the helpers that tests across mazebot's packages
// share: a settable clock, a reader of emoji grids and a check of one
// against its maze, a scripted player that follows the solution to the
// goal, the daily post times around changes of clocks, and SkipShort, which
// leaves the slow tests out of go test -short.
//
// It is imported only by tests. It may import mazecore and render (whose
// theme the grids are drawn in), never commands, bot or a store: those
// packages' own tests import it.
package testkit
