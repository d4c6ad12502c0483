// Package play is a game on a maze: a member's position, trail, clicks and
// tiles, the moves that run along a corridor to the next junction, giving
// up and winning, and the score against the shortest path and par. A game
// on a polar or hex grid, or on a maze cut to a shape (mazecore.GridMaze),
// moves a Way of its grid (grid.go) by the same rules. Its Service
// keeps games in a Store with optimistic concurrency, so any bot process
// sharing the store can take the next click.
//
// It imports mazecore and the standard library only: no Discord, no
// database, no rendering. Package contest builds competitions on top of
// it; store adapters implement its Store; commands presents it.
package play
