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

// Par is the number of clicks a perfect run takes: the corridor runs (one
// a click, see Apply) that follow the shortest path from start to goal.
// A run goes on through every cell with one way on, so par counts where
// the solution meets a junction, not how long it is. It walks the moves
// themselves rather than counting junctions, so it stays true to whatever
// a click does.
//
// In a perfect maze no run reaches the goal in fewer clicks. With loops a
// longer way with fewer junctions can: such a run is under par.
func Par(m *mazecore.Maze) int {
	path := mazecore.Solve(m)
	clicks := 0
	for i := 0; i < len(path)-1; clicks++ {
		// A run along the solution stays on it: each cell it passes has
		// one way on, which the shortest path must take too.
		steps := corridorRun(m, path[i], toward(path[i], path[i+1]))
		if len(steps) == 0 {
			break // not a path of m; never for Solve's
		}
		i += len(steps)
	}
	return clicks
}

// toward is the direction of the step from tile p to its neighbour q.
func toward(p, q mazecore.Point) mazecore.Dir {
	for _, d := range mazecore.Dirs {
		if dx, dy := d.Delta(); p.X+dx == q.X && p.Y+dy == q.Y {
			return d
		}
	}
	return mazecore.North // unreachable for the steps of a path
}
