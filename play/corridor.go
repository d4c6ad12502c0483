package play

import "mazebot/mazecore"

// corridorRun returns the tiles a move from cell tile from in direction d
// walks, in order, from's own tile excluded: through the passage, then on
// along the corridor, turning its corners, while each cell reached has
// exactly two passages (the way in and one way on). It stops on a junction,
// a dead end, the start or the goal, so a click covers a whole corridor.
// It returns nil when a wall blocks d.
func corridorRun(m *mazecore.Maze, from mazecore.Point, d mazecore.Dir) []mazecore.Point {
	cx, cy := from.X/2, from.Y/2
	if !m.Open(cx, cy, d) {
		return nil
	}
	var steps []mazecore.Point
	cur := from
	// A corridor of cells with two passages each can close on itself only
	// in a maze with loops, and then it passes a junction first; a bound
	// costs nothing and keeps a malformed maze from spinning forever.
	for range m.Cols() * m.Rows() {
		dx, dy := d.Delta()
		cur = mazecore.Point{X: cur.X + 2*dx, Y: cur.Y + 2*dy}
		steps = append(steps, mazecore.Point{X: cur.X - dx, Y: cur.Y - dy}, cur)
		if cur == m.Goal() || cur == m.Start() {
			break
		}
		cx, cy = cur.X/2, cur.Y/2
		if m.Degree(cx, cy) != 2 {
			break
		}
		back := d.Opposite()
		for _, next := range mazecore.Dirs {
			if next != back && m.Open(cx, cy, next) {
				d = next
				break
			}
		}
	}
	return steps
}
