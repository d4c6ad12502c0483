// Package mazecore is mazebot's domain: the maze grid, the four generation
// algorithms, the maze ID that reproduces a maze, the solver and statistics.
//
// It imports no Discord, image or database package and does no I/O, so every
// adapter (render, commands, store) can depend on it and it on none of them.
//
// Coordinates: a maze of W×H tiles (both odd) has walls on even coordinates and
// cells on odd ones, inside a solid outer wall. Cell (cx, cy) is tile
// (2cx+1, 2cy+1). Internally only the passages are stored, two bits per cell
// (east and south), because a perfect grid maze needs no more.
package mazecore
