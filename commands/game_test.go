package commands

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"mazebot/mazecore"
)

func allAlgorithmMazes(t *testing.T, sizes ...int) []*mazecore.Maze {
	t.Helper()
	var out []*mazecore.Maze
	for _, algo := range mazecore.Algorithms {
		for _, size := range sizes {
			for seed := range uint64(3) {
				out = append(out, mustMaze(t, mazecore.ID{Algorithm: algo, Width: size, Height: size + 4, Seed: seed}))
			}
		}
	}
	return out
}

func cellOf(p mazecore.Point) (int, int) { return p.X / 2, p.Y / 2 }

// TestCorridorRun checks every move from every cell of many mazes: a run
// never stops inside a corridor and never runs past a junction, a dead end,
// the start or the goal.
func TestCorridorRun(t *testing.T) {
	for _, m := range allAlgorithmMazes(t, 9, 21, 41) {
		t.Run(m.ID().String(), func(t *testing.T) {
			isStop := func(p mazecore.Point) bool {
				cx, cy := cellOf(p)
				return p == m.Start() || p == m.Goal() || m.Degree(cx, cy) != 2
			}
			for cy := range m.Rows() {
				for cx := range m.Cols() {
					from := mazecore.Point{X: 2*cx + 1, Y: 2*cy + 1}
					for _, d := range mazecore.Dirs {
						steps := corridorRun(m, from, d)
						if !m.Open(cx, cy, d) {
							if steps != nil {
								t.Fatalf("run from %v %v through a wall: %v", from, d, steps)
							}
							continue
						}
						if len(steps) == 0 || len(steps)%2 != 0 {
							t.Fatalf("run from %v %v walked %d tiles, want a positive even number", from, d, len(steps))
						}
						prev := from
						for i, s := range steps {
							if m.Wall(s.X, s.Y) || abs(s.X-prev.X)+abs(s.Y-prev.Y) != 1 {
								t.Fatalf("run from %v %v: step %d to %v is not a step onto floor from %v", from, d, i, s, prev)
							}
							if i%2 == 1 && i < len(steps)-1 && isStop(s) {
								t.Fatalf("run from %v %v went past a stop at %v", from, d, s)
							}
							prev = s
						}
						if end := steps[len(steps)-1]; !isStop(end) {
							t.Fatalf("run from %v %v stopped inside a corridor at %v", from, d, end)
						}
						if steps[1] == from {
							t.Fatalf("run from %v %v came back", from, d)
						}
					}
				}
			}
		})
	}
}

func abs(v int) int { return max(v, -v) }

// solutionDir is the direction from the player's cell to the next cell on
// the solution path, which a scripted player presses.
func solutionDir(t testing.TB, path []mazecore.Point, pos mazecore.Point) mazecore.Dir {
	t.Helper()
	for i, p := range path[:len(path)-1] {
		if p != pos {
			continue
		}
		next := path[i+1]
		for _, d := range mazecore.Dirs {
			if dx, dy := d.Delta(); pos.X+dx == next.X && pos.Y+dy == next.Y {
				return d
			}
		}
	}
	t.Fatalf("player at %v is not on the solution", pos)
	return 0
}

// TestPlaySolution follows the solution with corridor runs: a perfect run,
// in fewer clicks than the path has cells.
func TestPlaySolution(t *testing.T) {
	for _, m := range allAlgorithmMazes(t, 21, 41) {
		t.Run(m.ID().String(), func(t *testing.T) {
			path := mazecore.Solve(m)
			p := newPlay(m)
			for !p.won() {
				if !p.move(solutionDir(t, path, p.pos)) {
					t.Fatalf("blocked at %v", p.pos)
				}
				if p.clicks > len(path) {
					t.Fatal("no progress")
				}
			}
			cells := (len(path) + 1) / 2
			if p.clicks >= cells {
				t.Fatalf("clicks=%d, want fewer than the %d cells of the solution", p.clicks, cells)
			}
			if got, want := p.tiles, shortestTiles(m); got != want {
				t.Fatalf("tiles=%d, want %d (the shortest path)", got, want)
			}
			for _, s := range path {
				if !p.trail.has(s) {
					t.Fatalf("trail lacks %v on the path", s)
				}
			}
			if got, want := len(p.trail.points()), len(path); got != want {
				t.Fatalf("trail has %d tiles, want exactly the %d of the path", got, want)
			}
		})
	}
}

func TestTrail(t *testing.T) {
	m := mustMaze(t, mazecore.ID{Algorithm: mazecore.Digging, Width: 11, Height: 7, Seed: 1})
	t.Run("OK", func(t *testing.T) {
		tr := newTrail(m)
		marked := []mazecore.Point{{X: 1, Y: 1}, {X: 2, Y: 1}, {X: 9, Y: 5}, {X: 7, Y: 3}}
		for _, p := range marked {
			tr.mark(p)
		}
		want := []mazecore.Point{{X: 1, Y: 1}, {X: 2, Y: 1}, {X: 7, Y: 3}, {X: 9, Y: 5}} // row-major
		if got := tr.points(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("points=%v, want %v", got, want)
		}
		if tr.has(mazecore.Point{X: 3, Y: 1}) || !tr.has(mazecore.Point{X: 9, Y: 5}) {
			t.Fatal("has disagrees with mark")
		}
		again, err := trailFrom(m, bytes.Clone(tr.bits))
		if err != nil || fmt.Sprint(again.points()) != fmt.Sprint(want) {
			t.Fatalf("trailFrom=%v, %v, want %v", again.points(), err, want)
		}
	})
	t.Run("ErrLength", func(t *testing.T) {
		if _, err := trailFrom(m, make([]byte, trailBytes(m)+1)); err == nil {
			t.Fatal("expected a wrong-length trail to be refused")
		}
	})
}

func TestRestorePlay(t *testing.T) {
	m := mustMaze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1})
	bits := newTrail(m).bits
	if _, err := restorePlay(m, mazecore.Point{X: 3, Y: 5}, bits, 1, 2); err != nil {
		t.Fatal(err)
	}
	for name, pos := range map[string]mazecore.Point{"ErrWallTile": {X: 2, Y: 5}, "ErrOutside": {X: 21, Y: 1}, "ErrNegative": {X: -1, Y: 1}} {
		t.Run(name, func(t *testing.T) {
			if _, err := restorePlay(m, pos, bits, 0, 0); !errors.Is(err, errBadState) {
				t.Fatalf("err=%v, want errBadState", err)
			}
		})
	}
	t.Run("ErrTrail", func(t *testing.T) {
		if _, err := restorePlay(m, m.Start(), bits[1:], 0, 0); !errors.Is(err, errBadState) {
			t.Fatalf("err=%v, want errBadState", err)
		}
	})
}

func TestEfficiency(t *testing.T) {
	for _, tt := range []struct{ shortest, walked, want int }{
		{100, 100, 100}, {50, 100, 50}, {2, 3, 67}, {1, 3, 33}, {10, 0, 100},
	} {
		if got := efficiency(tt.shortest, tt.walked); got != tt.want {
			t.Errorf("efficiency(%d, %d)=%d, want %d", tt.shortest, tt.walked, got, tt.want)
		}
	}
}

func TestFormatElapsed(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0:00"}, {-time.Second, "0:00"}, {102*time.Second + 900*time.Millisecond, "1:42"},
		{59 * time.Minute, "59:00"}, {time.Hour + 2*time.Minute + 3*time.Second, "1:02:03"},
	} {
		if got := formatElapsed(tt.d); got != tt.want {
			t.Errorf("formatElapsed(%v)=%q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestCompass(t *testing.T) {
	p := mazecore.Point{X: 5, Y: 5}
	for q, want := range map[mazecore.Point]string{
		{X: 9, Y: 9}: "↘", {X: 1, Y: 1}: "↖", {X: 5, Y: 1}: "↑", {X: 9, Y: 5}: "→", {X: 1, Y: 9}: "↙", {X: 5, Y: 5}: "here",
	} {
		if got := compass(p, q); got != want {
			t.Errorf("compass(%v, %v)=%q, want %q", p, q, got, want)
		}
	}
}
