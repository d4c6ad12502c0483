// Command reference is the naive maze program mazebot's command line is
// measured against (bench/compare.sh): one byte a tile, a straightforward
// generator per algorithm and the grid written out whole. It makes the
// same mazes as mazebot from the same algorithm, size and seed, tile for
// tile, so the two do the same work:
//
//	reference ALGORITHM SIZE SEED > maze.txt
//	mazebot maze ALGORITHM SIZE --seed SEED --format text > maze.txt
//
// print the same bytes. It is meant to be plain, not slow: the tile grid
// doubles as the visited marks, the random numbers are mazebot's own
// (SplitMix64 and Lemire's bounded draw, copied here) and the output is
// one write.
package main
