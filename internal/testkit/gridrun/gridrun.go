package gridrun

import (
	"fmt"
	"slices"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// Ways are the moves, a run to the next junction each (play's way of
// moving), along the shortest path from m's start to its goal.
func Ways(m *mazecore.GridMaze) ([]play.Way, error) {
	path := m.Solve()
	g, err := play.NewOnGrid(m, play.Record{}, time.Unix(0, 0))
	if err != nil {
		return nil, err
	}
	var out []play.Way
	for g.Cell() != m.Goal() {
		i := slices.Index(path, g.Cell())
		if i < 0 || i+1 >= len(path) {
			return nil, fmt.Errorf("a run ended off the path, at cell %d", g.Cell())
		}
		w, ok := play.WayTo(m.Grid(), path[i], path[i+1])
		if !ok {
			return nil, fmt.Errorf("cells %d and %d are not neighbours", path[i], path[i+1])
		}
		if _, err := g.Apply(play.Action{Kind: play.Move, Way: w, Seq: g.Seq}, time.Unix(1, 0)); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}
