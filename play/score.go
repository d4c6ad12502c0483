package play

import (
	"math"

	"mazebot/mazecore"
)

// ShortestTiles is the number of tile steps on the shortest path from
// start to goal: what a perfect run walks.
func ShortestTiles(m *mazecore.Maze) int { return len(mazecore.Solve(m)) - 1 }

// Efficiency is the shortest path over the tiles walked, in whole percent:
// 100 for a perfect run.
func Efficiency(shortest, walked int) int {
	if walked <= 0 {
		return 100
	}
	return int(math.Round(100 * float64(shortest) / float64(walked)))
}
