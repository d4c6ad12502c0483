// Package mazecore is mazebot's domain: the maze grid, the generation
// algorithms (one table, in algorithm.go), braiding (loops), the maze ID that
// reproduces a maze, the solver, statistics and difficulty.
//
// It imports no Discord, image or database package and does no I/O, so every
// adapter (render, commands, store) can depend on it and it on none of them.
//
// Coordinates: a maze of W×H tiles (both odd) has walls on even coordinates and
// cells on odd ones, inside a solid outer wall. Cell (cx, cy) is tile
// (2cx+1, 2cy+1). Internally only the passages are stored, two bits per cell
// (east and south): enough for any grid maze, perfect or with loops.
// PassageRow hands out a row in that packing, for renderers that draw four
// cells at a time.
//
// # Grids and shapes
//
// A Grid is a graph of cells with positions: square cells in rows and
// columns, polar cells in rings around a centre (each ring subdivided as
// it grows, Buck's rule) or hexagonal cells; a Mask cuts a shape out of a
// square or hex grid (a preset drawn in integer arithmetic, or a text in
// the embedded, versioned bitmap font of font.go), so that cells outside
// it are not part of the maze; an image's pixels (Image, decoded by the
// caller) make one too, its ID holding the pixels' hash, so that
// GenerateGridImage needs the image again (or a maze of the same ID but
// its seed, whose grid GenerateGridOn reuses). GenerateGrid makes a GridMaze
// on any grid from a version 3 ID, which names the grid, the shape and
// its version;
// the square maze above is the whole square grid, kept in its fast
// packed form for versions 1 and 2 (Maze.Graph gives its graph). The
// grid generators (gridgen.go) draw as plainly as the specifications of
// the square ones, over each cell's neighbour list in its fixed order;
// GenerateGridObserved hears each passage as it is opened, for an
// animation.
//
// # Generation
//
// Each algorithm is written for speed over the same draws as its plain
// form, which spec_test.go keeps and compares it with: no division or
// observer call in an inner loop, draws' bits gathered in words, a visited
// set with a border so no move needs a bounds test. Digging, for vast
// mazes, keeps no visited set: a cell is dug when a passage touches it,
// and its grid (dig.go) lays the passages out to tell that from a few
// bytes. GenerateWith adds a progress callback for the command line's
// huge mazes.
//
// On amd64, three inner loops are also in assembly (draws_amd64.s):
// binary tree's and sidewinder's draws eight at a time with AVX-512 where
// the CPU has it, or with AVX2 on two vectors of four, sidewinder's
// closes, and digging's restarts, which prefetch the list entries and
// grid rows of the draws ahead. Each has a Go twin that other CPUs run
// and that draws_test.go and draws_amd64_test.go hold it equal to.
//
// # Loops
//
// Every maze starts perfect (every cell reachable, no loops). An ID with
// Loops > 0 then braids it: a share of its dead ends each get one more wall
// opened, which makes loops. The braid draws from a random stream of its own,
// so the perfect maze underneath is the same as with Loops 0, and IDs of
// perfect mazes keep the version 1 spelling they have always had.
//
// # Difficulty
//
// Rate measures how hard a maze is to solve from start to goal: the
// solution's length P (cells), the decisions D along it (cells where more
// than one way leads on), the dead ends, the false paths F (for each region
// off the solution, how far, in cells, a wrong turn into it can lead away)
// and the share T of the solution's cells where it turns. Its score
// estimates the work of solving, in cells walked:
//
//	score = P·(1 + T) + √(D·F)
//
// Walking the solution costs a step a cell and one more a turn: a straight
// corridor is seen at a glance, a twisting one must be traced. Each decision
// costs the square root of the mean depth F/D of its false paths: a solver
// looks down a wrong corridor rather than walking it to its end, so a long
// false path costs more than a short one, but less than its length. Dead
// ends are counted but not scored: each one ends a false path F already
// counts, and their number runs against difficulty (a quarter of the cells of
// binary tree and sidewinder mazes are dead ends, mostly stubs seen at a
// glance; a tenth of backtracking's). The rating is 1 below a score of 75 and
// one more at each doubling (150, 300, 600): at 41×41 binary tree and
// sidewinder mazes rate 2, digging and backtracking ones 3, as Buck's tables
// in Mazes for Programmers would have it; a 101×101 backtracking maze rates 5.
//
// Choose finds a maze of a Level (easy, medium, hard) among the mazes of an
// algorithm, size and loops: it rates Candidates seeds derived from a base
// seed and takes the one at the 15th, 50th or 85th percentile of the scores.
// The chosen seed goes in the ID, so the ID alone makes the maze again.
package mazecore
