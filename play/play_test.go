package play

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func allAlgorithmMazes(tb testing.TB, sizes ...int) []*mazecore.Maze {
	tb.Helper()
	var out []*mazecore.Maze
	for _, algo := range mazecore.Algorithms {
		for _, size := range sizes {
			for seed := range uint64(3) {
				out = append(out, testkit.Maze(tb, mazecore.ID{Algorithm: algo, Width: size, Height: size + 4, Seed: seed}))
			}
		}
	}
	return out
}

func mustNew(tb testing.TB, m *mazecore.Maze) *Game {
	tb.Helper()
	g, err := New(m, Record{UserID: "u1"}, t0)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func abs(v int) int { return max(v, -v) }

// TestCorridorRun checks every move from every cell of many mazes: a run
// never stops inside a corridor and never runs past a junction, a dead end,
// the start or the goal.
func TestCorridorRun(t *testing.T) {
	for _, m := range allAlgorithmMazes(t, 9, 21, 41) {
		t.Run(m.ID().String(), func(t *testing.T) {
			isStop := func(p mazecore.Point) bool {
				return p == m.Start() || p == m.Goal() || m.Degree(p.X/2, p.Y/2) != 2
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

// TestPlaySolution follows the solution with corridor runs: a perfect run,
// in fewer clicks than the path has cells.
func TestPlaySolution(t *testing.T) {
	for _, m := range allAlgorithmMazes(t, 21, 41) {
		t.Run(m.ID().String(), func(t *testing.T) {
			path := mazecore.Solve(m)
			g := mustNew(t, m)
			for g.Status == Playing {
				d, err := testkit.Toward(path, g.Pos)
				if err != nil {
					t.Fatal(err)
				}
				out, err := g.Apply(Action{Kind: Move, Dir: d, Seq: g.Seq}, t0.Add(time.Minute))
				if err != nil || (out != Moved && out != Finished) {
					t.Fatalf("move %v at %v: %v %v", d, g.Pos, out, err)
				}
				if g.Clicks > len(path) {
					t.Fatal("no progress")
				}
			}
			cells := (len(path) + 1) / 2
			if g.Clicks >= cells {
				t.Fatalf("clicks=%d, want fewer than the %d cells of the solution", g.Clicks, cells)
			}
			if got, want := g.Tiles, ShortestTiles(m); got != want {
				t.Fatalf("tiles=%d, want %d (the shortest path)", got, want)
			}
			for _, s := range path {
				if !g.trail.has(s) {
					t.Fatalf("trail lacks %v on the path", s)
				}
			}
			if got, want := len(g.Walked()), len(path); got != want {
				t.Fatalf("trail has %d tiles, want exactly the %d of the path", got, want)
			}
			if g.Status != Won || g.Seq != g.Clicks || !g.FinishedAt.Equal(t0.Add(time.Minute)) {
				t.Fatalf("status %v seq %d finished %v, want won at seq %d", g.Status, g.Seq, g.FinishedAt, g.Clicks)
			}
			if r := g.Result(); r.Elapsed != time.Minute || r.Tiles != g.Tiles || r.MazeID != m.ID() || r.UserID != "u1" {
				t.Fatalf("result %+v", r)
			}
		})
	}
}

func TestTrail(t *testing.T) {
	m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Digging, Width: 11, Height: 7, Seed: 1})
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

func TestResume(t *testing.T) {
	m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1})
	rec := mustNew(t, m).Record
	t.Run("OK", func(t *testing.T) {
		r := rec
		r.Pos, r.Clicks, r.Tiles = mazecore.Point{X: 3, Y: 5}, 1, 2
		g, err := Resume(m, r)
		if err != nil {
			t.Fatal(err)
		}
		if g.Pos != r.Pos || g.Maze() != m {
			t.Fatalf("resumed at %v on %p, want %v on %p", g.Pos, g.Maze(), r.Pos, m)
		}
	})
	for name, pos := range map[string]mazecore.Point{"ErrWallTile": {X: 2, Y: 5}, "ErrOutside": {X: 21, Y: 1}, "ErrNegative": {X: -1, Y: 1}} {
		t.Run(name, func(t *testing.T) {
			r := rec
			r.Pos = pos
			if _, err := Resume(m, r); !errors.Is(err, ErrBadState) {
				t.Fatalf("err=%v, want ErrBadState", err)
			}
		})
	}
	t.Run("ErrTrail", func(t *testing.T) {
		r := rec
		r.Trail = r.Trail[1:]
		if _, err := Resume(m, r); !errors.Is(err, ErrBadState) {
			t.Fatalf("err=%v, want ErrBadState", err)
		}
	})
	t.Run("ErrOtherMaze", func(t *testing.T) {
		r := rec
		r.MazeID.Seed++
		if _, err := Resume(m, r); !errors.Is(err, ErrBadState) {
			t.Fatalf("err=%v, want ErrBadState", err)
		}
	})
}

func TestNew(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 9, Height: 9, Seed: 2})
		g := mustNew(t, m)
		if g.Pos != m.Start() || g.Status != Playing || g.Seq != 0 || g.MazeID != m.ID() || !g.StartedAt.Equal(t0) || !g.FinishedAt.IsZero() {
			t.Fatalf("new game %+v", g.Record)
		}
		if got := g.Walked(); len(got) != 1 || got[0] != m.Start() {
			t.Fatalf("trail %v, want the start only", got)
		}
	})
	t.Run("ErrTooBig", func(t *testing.T) {
		m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.BinaryTree, Width: MaxSide + 2, Height: 9, Seed: 2})
		if _, err := New(m, Record{}, t0); !errors.Is(err, ErrTooBig) {
			t.Fatalf("err=%v, want ErrTooBig", err)
		}
	})
}

// TestApply covers what a click does from the start of one maze.
// TestClonePlaysApart: a clone's moves leave the game it was made from
// as it was, its trail included (they shared the trail's bits, the Arena's
// prediction would walk the agreed game).
func TestClonePlaysApart(t *testing.T) {
	m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 9})
	g := mustNew(t, m)
	before := g.Record
	before.Trail = bytes.Clone(g.Trail)
	c := g.Clone()
	for _, d := range mazecore.Dirs {
		if c.CanGo(d) {
			if out, err := c.Apply(Action{Kind: Move, Dir: d, Seq: c.Seq}, t0.Add(time.Second)); err != nil || out != Moved {
				t.Fatalf("the clone's move: %v, %v", out, err)
			}
			break
		}
	}
	if c.Clicks != 1 || !reflect.DeepEqual(g.Record, before) {
		t.Fatalf("the clone moved to %v (%d clicks); the game is now %+v, want %+v", c.Pos, c.Clicks, g.Record, before)
	}
}

func TestApply(t *testing.T) {
	m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 9})
	open := func(g *Game) mazecore.Dir {
		for _, d := range mazecore.Dirs {
			if g.CanGo(d) {
				return d
			}
		}
		t.Fatal("no open direction at the start")
		return 0
	}
	later := t0.Add(time.Minute)
	for _, tc := range []struct {
		name    string
		prepare func(g *Game) Action
		now     time.Time
		want    Outcome
		wantErr error
		changes bool
	}{
		{"OKMoved", func(g *Game) Action { return Action{Kind: Move, Dir: open(g)} }, later, Moved, nil, true},
		{"OKBlocked", func(g *Game) Action { return Action{Kind: Move, Dir: mazecore.North} }, later, Blocked, nil, false},
		{"OKStale", func(g *Game) Action { return Action{Kind: Move, Dir: open(g), Seq: 1} }, later, Stale, nil, false},
		{"OKGiveUp", func(g *Game) Action { return Action{Kind: GiveUp} }, later, Abandoned, nil, true},
		{"OKStaleGiveUp", func(g *Game) Action { return Action{Kind: GiveUp, Seq: 3} }, later, Stale, nil, false},
		{"ErrExpired", func(g *Game) Action { return Action{Kind: Move, Dir: open(g)} }, t0.Add(TTL + time.Second), 0, ErrExpired, false},
		{"ErrOver", func(g *Game) Action { g.Status = GaveUp; return Action{Kind: Move, Dir: open(g)} }, later, 0, ErrOver, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, m)
			a := tc.prepare(g)
			before := g.Record
			before.Trail = bytes.Clone(g.Trail)
			out, err := g.Apply(a, tc.now)
			if !errors.Is(err, tc.wantErr) || out != tc.want {
				t.Fatalf("Apply=%v, %v; want %v, %v", out, err, tc.want, tc.wantErr)
			}
			if changed := !reflect.DeepEqual(g.Record, before); changed != tc.changes {
				t.Fatalf("record changed=%v, want %v: %+v", changed, tc.changes, g.Record)
			}
			if tc.changes && (g.Seq != 1 || !g.UpdatedAt.Equal(later)) {
				t.Fatalf("seq %d updated %v, want 1 at %v", g.Seq, g.UpdatedAt, later)
			}
		})
	}
}

func TestEfficiency(t *testing.T) {
	for _, tt := range []struct{ shortest, walked, want int }{
		{100, 100, 100}, {50, 100, 50}, {2, 3, 67}, {1, 3, 33}, {10, 0, 100},
	} {
		if got := Efficiency(tt.shortest, tt.walked); got != tt.want {
			t.Errorf("Efficiency(%d, %d)=%d, want %d", tt.shortest, tt.walked, got, tt.want)
		}
	}
}

// TestPar: following the solution with Apply takes exactly Par clicks, on
// perfect mazes of every algorithm and on mazes with loops, and par is
// always below the solution's cells (a click covers at least one).
func TestPar(t *testing.T) {
	var mazes []*mazecore.Maze
	for _, m := range allAlgorithmMazes(t, 9, 21, 41) {
		mazes = append(mazes, m)
		for _, loops := range []int{30, 100} {
			id := m.ID()
			id.Loops = loops
			mazes = append(mazes, testkit.Maze(t, id))
		}
	}
	for _, m := range mazes {
		t.Run(m.ID().String(), func(t *testing.T) {
			path := mazecore.Solve(m)
			g := mustNew(t, m)
			for g.Status == Playing && g.Clicks <= len(path) {
				d, err := testkit.Toward(path, g.Pos)
				if err != nil {
					t.Fatal(err)
				}
				if out, err := g.Apply(Action{Kind: Move, Dir: d, Seq: g.Seq}, t0); err != nil || (out != Moved && out != Finished) {
					t.Fatalf("move %v at %v: %v %v", d, g.Pos, out, err)
				}
			}
			par := Par(m)
			if g.Status != Won || g.Clicks != par {
				t.Fatalf("following the solution: %s in %d clicks, want won in Par=%d", g.Status, g.Clicks, par)
			}
			if cells := (len(path) + 1) / 2; par < 1 || par >= cells {
				t.Fatalf("Par=%d, want 1 to %d (below the %d cells of the solution)", par, cells-1, cells)
			}
		})
	}
	t.Run("OKOneCorridor", func(t *testing.T) {
		// A maze whose solution never meets a junction (found by search;
		// IDs are forever, so it stays one): the whole way is one click.
		m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1445})
		path := mazecore.Solve(m)
		for i := 2; i < len(path)-1; i += 2 { // the inner cells
			if p := path[i]; m.Degree(p.X/2, p.Y/2) != 2 {
				t.Fatalf("the fixture's solution meets a junction or dead end at %v", p)
			}
		}
		if got := Par(m); got != 1 || len(path) < 41 {
			t.Fatalf("Par=%d on a %d-tile corridor, want 1 on a long one", got, len(path))
		}
	})
	t.Run("OKJunctionsCount", func(t *testing.T) {
		// Par is 1 plus the solution's inner cells where a run stops.
		for _, m := range mazes {
			path := mazecore.Solve(m)
			stops := 1
			for i := 2; i < len(path)-1; i += 2 {
				if m.Degree(path[i].X/2, path[i].Y/2) != 2 {
					stops++
				}
			}
			if got := Par(m); got != stops {
				t.Fatalf("%s: Par=%d, want %d (one run, plus one a junction passed)", m.ID(), got, stops)
			}
		}
	})
}
