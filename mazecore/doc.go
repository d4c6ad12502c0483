// Package mazecore is mazebot's domain: the maze grid, the generation
// algorithms (one table, algorithms in algorithm.go), braiding (loops), the
// maze ID that reproduces a maze, the solver and statistics.
//
// It imports no Discord, image or database package and does no I/O, so every
// adapter (render, commands, store) can depend on it and it on none of them.
//
// Coordinates: a maze of W×H tiles (both odd) has walls on even coordinates and
// cells on odd ones, inside a solid outer wall. Cell (cx, cy) is tile
// (2cx+1, 2cy+1). Internally only the passages are stored, two bits per cell
// (east and south): enough for any grid maze, perfect or with loops.
//
// Every maze starts perfect (every cell reachable, no loops). An ID with
// Loops > 0 then braids it: a share of its dead ends each get one more wall
// opened, which makes loops. The braid draws from a random stream of its own,
// so the perfect maze underneath is the same as with Loops 0, and IDs of
// perfect mazes keep the version 1 spelling they have always had.
package mazecore
