package commands

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"mazebot/mazecore"
)

// This file is play mode's rules, free of Discord and of the store: where a
// move leads, what the trail holds, how a finish is scored.

// trail is the set of tiles a player has walked, one bit per tile,
// row-major, least significant bit first. Keeping tiles rather than cells
// stores the passages walked as they were, so the drawing stays right
// whatever the maze's shape.
type trail struct {
	bits  []byte
	width int
}

func newTrail(m *mazecore.Maze) trail {
	return trail{bits: make([]byte, trailBytes(m)), width: m.Width()}
}

func trailBytes(m *mazecore.Maze) int { return (m.Width()*m.Height() + 7) / 8 }

// trailFrom wraps stored bits, refusing any that don't fit the maze.
func trailFrom(m *mazecore.Maze, bits []byte) (trail, error) {
	if len(bits) != trailBytes(m) {
		return trail{}, fmt.Errorf("trail of %d bytes, want %d for a %d×%d maze", len(bits), trailBytes(m), m.Width(), m.Height())
	}
	return trail{bits: bits, width: m.Width()}, nil
}

func (t trail) mark(p mazecore.Point) {
	i := p.Y*t.width + p.X
	t.bits[i>>3] |= 1 << (i & 7)
}

func (t trail) has(p mazecore.Point) bool {
	i := p.Y*t.width + p.X
	return t.bits[i>>3]&(1<<(i&7)) != 0
}

// points lists the walked tiles in row-major order, for an Overlay.
func (t trail) points() []mazecore.Point {
	var out []mazecore.Point
	for b, v := range t.bits {
		for ; v != 0; v &= v - 1 {
			i := b*8 + bits.TrailingZeros8(v)
			out = append(out, mazecore.Point{X: i % t.width, Y: i / t.width})
		}
	}
	return out
}

// play is a game in progress: the maze, where the player stands, and what
// the player has done so far.
type play struct {
	maze   *mazecore.Maze
	pos    mazecore.Point
	trail  trail
	clicks int
	tiles  int
}

// newPlay puts a player on the start of m.
func newPlay(m *mazecore.Maze) *play {
	p := &play{maze: m, pos: m.Start(), trail: newTrail(m)}
	p.trail.mark(p.pos)
	return p
}

// errBadState: a stored game that cannot belong to its maze.
var errBadState = errors.New("game state does not fit its maze")

// restorePlay rebuilds a game from stored parts, checking that they fit m.
func restorePlay(m *mazecore.Maze, pos mazecore.Point, bits []byte, clicks, tiles int) (*play, error) {
	if pos.X%2 != 1 || pos.Y%2 != 1 || pos.X >= m.Width() || pos.Y >= m.Height() || clicks < 0 || tiles < 0 {
		return nil, fmt.Errorf("player at %v with %d clicks, %d tiles: %w", pos, clicks, tiles, errBadState)
	}
	t, err := trailFrom(m, bits)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadState, err)
	}
	return &play{maze: m, pos: pos, trail: t, clicks: clicks, tiles: tiles}, nil
}

// canGo reports whether the player's cell has a passage in direction d.
func (p *play) canGo(d mazecore.Dir) bool {
	return p.maze.Open(p.pos.X/2, p.pos.Y/2, d)
}

// won reports whether the player stands on the goal.
func (p *play) won() bool { return p.pos == p.maze.Goal() }

// move runs the player from its cell in direction d (see corridorRun) and
// counts the click, the tiles and the trail. It reports false, changing
// nothing, when a wall blocks d.
func (p *play) move(d mazecore.Dir) bool {
	steps := corridorRun(p.maze, p.pos, d)
	if len(steps) == 0 {
		return false
	}
	for _, s := range steps {
		p.trail.mark(s)
	}
	p.pos = steps[len(steps)-1]
	p.clicks++
	p.tiles += len(steps)
	return true
}

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
	// A perfect maze has no loop of corridor cells, but a bound costs
	// nothing and keeps a malformed maze from spinning forever.
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

// shortestTiles is the number of tile steps on the shortest path from start
// to goal: what a perfect run walks.
func shortestTiles(m *mazecore.Maze) int { return len(mazecore.Solve(m)) - 1 }

// efficiency is the shortest path over the tiles walked, in whole percent:
// 100 for a perfect run.
func efficiency(shortest, walked int) int {
	if walked <= 0 {
		return 100
	}
	return int(math.Round(100 * float64(shortest) / float64(walked)))
}

// formatElapsed writes a duration as m:ss, or h:mm:ss from an hour on.
func formatElapsed(d time.Duration) string {
	s := int64(max(d, 0) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// compass is the arrow from p towards q.
func compass(p, q mazecore.Point) string {
	sign := func(v int) int {
		switch {
		case v < 0:
			return 0
		case v == 0:
			return 1
		}
		return 2
	}
	arrows := [3][3]string{ // [dy][dx]
		{"↖", "↑", "↗"},
		{"←", "here", "→"},
		{"↙", "↓", "↘"},
	}
	return arrows[sign(q.Y-p.Y)][sign(q.X-p.X)]
}
