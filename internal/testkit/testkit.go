package testkit

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/mazecore"
	"mazebot/render"
)

// LogBuffer is a log's sink that goroutines share: a test reads what the
// code under it logged.
type LogBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Maze generates the maze id names, failing the test if it cannot.
func Maze(tb testing.TB, id mazecore.ID) *mazecore.Maze {
	tb.Helper()
	m, err := mazecore.Generate(id)
	if err != nil {
		tb.Fatalf("generate %v: %v", id, err)
	}
	return m
}

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

// Player finds the player in a game message, in the maze's coordinates:
// from the position hint (📍, in every language: the column, then the
// row, each before its total) when the grid is a window, else from the
// player emoji in the whole maze's grid.
func Player(content string) (mazecore.Point, error) {
	for line := range strings.Lines(content) {
		if !strings.HasPrefix(line, "📍") {
			continue
		}
		var nums []int
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r < '0' || r > '9' }) {
			n, err := strconv.Atoi(f)
			if err != nil {
				return mazecore.Point{}, fmt.Errorf("position hint %q: %w", line, err)
			}
			nums = append(nums, n)
		}
		if len(nums) < 4 {
			return mazecore.Point{}, fmt.Errorf("position hint %q: want column, width, row, height", line)
		}
		return mazecore.Point{X: nums[0] - 1, Y: nums[2] - 1}, nil
	}
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

// Follow plays a game to the goal along m's solution: it asks where the
// player stands, presses the direction toward the goal, and goes on until
// won says the game is won. It gives up after as many presses as the path
// has tiles. where may read the player off a message (Walk does) or off a
// stored game, for a view that shows only a window of the maze.
func Follow(m *mazecore.Maze, where func() (mazecore.Point, error), won func() bool, press func(mazecore.Dir) error) (presses int, err error) {
	path := mazecore.Solve(m)
	for !won() {
		if presses > len(path) {
			return presses, fmt.Errorf("no win after %d presses", presses)
		}
		pos, err := where()
		if err != nil {
			return presses, err
		}
		d, err := Toward(path, pos)
		if err != nil {
			return presses, err
		}
		if err := press(d); err != nil {
			return presses, err
		}
		presses++
	}
	return presses, nil
}

// Walk plays a game to the goal along its solution: it finds
// the player in content, presses the direction toward the goal, and goes on
// from the message press returns until won says the game is won. It gives
// up after as many clicks as the path has tiles.
func Walk(m *mazecore.Maze, content string, won func(string) bool, press func(mazecore.Dir) (string, error)) (clicks int, last string, err error) {
	clicks, err = Follow(m,
		func() (mazecore.Point, error) { return Player(content) },
		func() bool { return won(content) },
		func(d mazecore.Dir) error {
			var err error
			content, err = press(d)
			return err
		})
	if err != nil {
		err = fmt.Errorf("%w:\n%s", err, content)
	}
	return clicks, content, err
}

// CheckGrid compares grid, an emoji grid and nothing else (every line a
// row of tiles), with m tile by tile: the same size, and walls exactly
// where m has them. With a path, it also wants the path emoji on exactly
// the path's tiles between the start and the goal.
func CheckGrid(grid string, m *mazecore.Maze, path []mazecore.Point) error {
	onPath := map[mazecore.Point]bool{}
	for _, p := range path {
		onPath[p] = true
	}
	rows := Grid(grid)
	if lines := strings.Count(grid, "\n") + 1; len(rows) != lines {
		return fmt.Errorf("only %d of the %d lines are rows of tiles: %q", len(rows), lines, grid)
	}
	if len(rows) != m.Height() {
		return fmt.Errorf("grid has %d rows, maze %d", len(rows), m.Height())
	}
	for y, row := range rows {
		if len(row) != m.Width() {
			return fmt.Errorf("row %d has %d tiles, want %d", y, len(row), m.Width())
		}
		for x, tile := range row {
			p := mazecore.Point{X: x, Y: y}
			if got, want := tile == render.DefaultTheme.Wall, m.Wall(x, y); got != want {
				return fmt.Errorf("tile %v: wall=%v, maze says %v", p, got, want)
			}
			if path != nil && p != m.Start() && p != m.Goal() {
				if got, want := tile == render.DefaultTheme.Path, onPath[p]; got != want {
					return fmt.Errorf("tile %v: on path=%v, solver says %v", p, got, want)
				}
			}
		}
	}
	return nil
}
