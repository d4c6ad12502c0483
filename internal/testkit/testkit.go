package testkit

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"mazebot/mazecore"
	"mazebot/render"
)

// Clock is a settable clock, safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock is a clock that reads start until moved.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's time: pass the method value as a component's clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Grid returns the emoji grid of a message, one string a tile: every line
// made only of the default theme's tile emoji, so headers, hints and
// result lines around the grid are skipped.
func Grid(content string) [][]string {
	th := render.DefaultTheme
	tiles := map[string]bool{}
	for _, e := range []string{th.Wall, th.Floor, th.Start, th.Goal, th.Path, th.Trail, th.Player} {
		tiles[e] = true
	}
	var grid [][]string
	for line := range strings.Lines(content) {
		var row []string
		for _, r := range strings.TrimSuffix(line, "\n") {
			if !tiles[string(r)] {
				row = nil
				break
			}
			row = append(row, string(r))
		}
		if row != nil {
			grid = append(grid, row)
		}
	}
	return grid
}

// Player finds the player emoji in a message's grid, in the grid's
// coordinates (the maze's own when the grid shows it whole).
func Player(content string) (mazecore.Point, error) {
	for y, row := range Grid(content) {
		for x, tile := range row {
			if tile == render.DefaultTheme.Player {
				return mazecore.Point{X: x, Y: y}, nil
			}
		}
	}
	return mazecore.Point{}, fmt.Errorf("no player in %q", content)
}

// Toward is the direction from cell tile pos to the next cell of path, the
// way a scripted player presses to follow the solution.
func Toward(path []mazecore.Point, pos mazecore.Point) (mazecore.Dir, error) {
	for i, p := range path[:max(len(path)-1, 0)] {
		if p != pos {
			continue
		}
		next := path[i+1]
		for _, d := range mazecore.Dirs {
			if dx, dy := d.Delta(); pos.X+dx == next.X && pos.Y+dy == next.Y {
				return d, nil
			}
		}
	}
	return 0, fmt.Errorf("%v is off the solution path", pos)
}

// Walk plays a game shown whole to the goal along its solution: it finds
// the player in content, presses the direction toward the goal, and goes
// on from the message press returns until won says the game is won. It
// gives up after as many clicks as the path has tiles.
func Walk(m *mazecore.Maze, content string, won func(string) bool, press func(mazecore.Dir) (string, error)) (clicks int, last string, err error) {
	path := mazecore.Solve(m)
	for !won(content) {
		if clicks > len(path) {
			return clicks, content, fmt.Errorf("no win after %d clicks:\n%s", clicks, content)
		}
		pos, err := Player(content)
		if err != nil {
			return clicks, content, err
		}
		d, err := Toward(path, pos)
		if err != nil {
			return clicks, content, err
		}
		if content, err = press(d); err != nil {
			return clicks, content, err
		}
		clicks++
	}
	return clicks, content, nil
}
