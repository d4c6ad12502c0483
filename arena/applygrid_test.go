package arena

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mazebot/internal/testkit/gridrun"
	"mazebot/mazecore"
	"mazebot/play"
)

// The grids a room races besides the whole square one.
var (
	polarID = mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 8, Height: 8, Seed: 5}
	hexID   = mazecore.ID{Algorithm: mazecore.Wilson, GridKind: mazecore.Hex, Width: 9, Height: 7, Seed: 7}
	heartID = func() mazecore.ID {
		heart, _ := mazecore.ParseShape("heart")
		return mazecore.ID{Algorithm: mazecore.Backtracking, Width: 31, Height: 31, Seed: 2, Shape: heart}
	}()
)

func gridMaze(t *testing.T, id mazecore.ID) *mazecore.GridMaze {
	t.Helper()
	m, err := mazecore.GenerateGrid(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// applyOnGrid feeds a fresh room on maze id the inputs, as process p1.
func applyOnGrid(t *testing.T, id mazecore.ID, inputs []event) (state, []effect) {
	t.Helper()
	m := gridMaze(t, id)
	st := state{roomState: roomState{Instance: "i-1", Channel: "c1", Maze: id.String(), Phase: phaseLobby},
		self: "p1", grid: m, games: map[string]*play.Game{}, countdown: 3 * time.Second}
	return feed(st, inputs)
}

// direction is a way as the protocol names it.
func direction(w play.Way) string {
	for d, o := range ways {
		if o == w {
			return string(d)
		}
	}
	return ""
}

// gridSolution is the moves (a run each) from the start to the goal of
// m, found by play's own ways along the shortest path.
func gridSolution(t *testing.T, m *mazecore.GridMaze) []string {
	t.Helper()
	ways, err := gridrun.Ways(m)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ways))
	for i, w := range ways {
		out[i] = direction(w)
	}
	return out
}

// TestApplyOnGrids: a room on a polar, a hex and a heart-shaped maze
// plays moves by the grid's directions to the next junction, refuses a
// wall and a direction the grid has not, and records the finish once.
func TestApplyOnGrids(t *testing.T) {
	for _, c := range []struct {
		name    string
		id      mazecore.ID
		foreign string // a direction of another grid
	}{
		{"polar", polarID, "ne"},
		{"hex", hexID, "in"},
		{"heart", heartID, "cw"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := gridMaze(t, c.id)
			sol := gridSolution(t, m)
			if len(sol) < 3 {
				t.Fatalf("a solution of %d runs: pick a longer maze", len(sol))
			}
			wall := ""
			for _, w := range play.Ways(m.Grid().Kind()) {
				if n := play.Toward(m.Grid(), m.Start(), w); n >= 0 && !m.Linked(m.Start(), n) {
					wall = direction(w)
				}
			}
			if wall == "" {
				t.Fatal("the start has no wall beside a neighbour")
			}
			cat := func(parts ...[]event) []event { return slices.Concat(parts...) }

			st, fx := applyOnGrid(t, c.id, cat(race(), moves("p1", "u1", 5000, sol[0])))
			p := st.player("u1")
			if got := replies(fx); !slices.Equal(got, []string{"u1-0="}) || p.Clicks != 1 || p.Tiles == 0 {
				t.Fatalf("a move: replies %v, ada %+v", got, p.pos)
			}
			var pos PosMsg
			for _, f := range fx {
				if msg, ok := f.msg.(PosMsg); ok {
					pos = msg
				}
			}
			g := st.games["u1"]
			cell := m.Grid().Cell(g.Cell())
			if pos.X != 2*cell.Col+1 || pos.Y != 2*cell.Row+1 || g.Cell() == m.Start() {
				t.Fatalf("broadcast at (%d, %d), the game in cell %d %+v", pos.X, pos.Y, g.Cell(), cell)
			}

			st, fx = applyOnGrid(t, c.id, cat(race(), moves("p1", "u1", 5000, wall, c.foreign, "up")))
			if got := replies(fx); !slices.Equal(got, []string{"u1-0=" + refusedWall, "u1-1=" + refusedBad, "u1-2=" + refusedBad}) || st.player("u1").Clicks != 0 {
				t.Fatalf("a wall, %s and up: replies %v, clicks %d", c.foreign, got, st.player("u1").Clicks)
			}

			st, fx = applyOnGrid(t, c.id, cat(race(), moves("p1", "u1", 5000, sol...), moves("p1", "u1", 9000, sol[0])))
			p = st.player("u1")
			if !p.Done || p.Place != 1 || p.Clicks != len(sol) || p.Clicks != play.ParOnGrid(m) {
				t.Fatalf("ada at the goal: done %v place %d clicks %d (par %d)", p.Done, p.Place, p.Clicks, play.ParOnGrid(m))
			}
			if n := kinds(fx, effRecord); n != 1 {
				t.Fatalf("%d records of the finish, want 1", n)
			}
			for _, f := range fx {
				if f.kind == effRecord && (f.game.Status != play.Won || f.game.Grid() == nil || f.game.MazeID != c.id) {
					t.Fatalf("recorded %+v", f.game.Record)
				}
			}
			if got := replies(fx); got[len(got)-1] != "u1-0="+refusedFinished {
				t.Fatalf("a move after the finish: %v", got[len(got)-1])
			}
		})
	}
}

// TestCellGridDraws: what the client is sent of a maze on another grid
// holds its passages: decoding Links as the client does gives every
// passage of the maze and no other, and Mask its cells.
func TestCellGridDraws(t *testing.T) {
	for _, id := range []mazecore.ID{polarID, hexID, heartID} {
		m := gridMaze(t, id)
		var v MazeGrid
		if err := json.Unmarshal(mazeJSON(nil, m), &v); err != nil {
			t.Fatal(err)
		}
		grid := m.Grid()
		links, err := base64.StdEncoding.DecodeString(v.Links)
		if err != nil {
			t.Fatal(err)
		}
		ways := forward(grid.Kind())
		seen := 0
		for c := range grid.Len() {
			for k, w := range ways {
				i := c*len(ways) + k
				if links[i/8]&(1<<(i%8)) == 0 {
					continue
				}
				seen++
				if n := play.Toward(grid, c, w); n < 0 || !m.Linked(c, n) {
					t.Fatalf("%s: cell %d's %v is sent open and is not", id.GridKind, c, w)
				}
			}
		}
		if seen != m.Passages() {
			t.Fatalf("%s: %d passages sent, the maze has %d", id.GridKind, seen, m.Passages())
		}
		cells := 0
		if v.Mask != "" {
			mask, _ := base64.StdEncoding.DecodeString(v.Mask)
			for i := range v.W * v.H {
				if mask[i/8]&(1<<(i%8)) != 0 {
					cells++
					if grid.At(i/v.W, i%v.W) < 0 {
						t.Fatalf("%s: place %d sent in the mask", id, i)
					}
				}
			}
		} else if grid.Kind() == mazecore.Polar {
			for _, n := range v.Rings {
				cells += n
			}
		} else {
			cells = v.W * v.H
		}
		if cells != grid.Len() {
			t.Fatalf("%s: %d cells sent, the maze has %d", id, cells, grid.Len())
		}
		start := grid.Cell(m.Start())
		if v.Start != [2]int{2*start.Col + 1, 2*start.Row + 1} {
			t.Fatalf("%s: start %v, cell %+v", id, v.Start, start)
		}
		if v.Par != play.ParOnGrid(m) {
			t.Fatalf("%s: par %d", id, v.Par)
		}
	}
	// A 100-ring polar maze's: small enough for a welcome.
	big := gridMaze(t, mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 100, Height: 100, Seed: 1})
	if n := len(mazeJSON(nil, big)); n > 12000 {
		t.Fatalf("a 100-ring maze is %d bytes", n)
	} else {
		t.Logf("a 100-ring polar maze's MazeGrid: %d bytes", n)
	}
}

// TestImageMazeRaces: a launch on a maze in an uploaded image's shape
// opens its room through Config.Grids (the store keeps the picture), and
// its welcome carries the shape; a pick of such a maze by ID, which every
// replica's apply would have to read the store for, is refused.
func TestImageMazeRaces(t *testing.T) {
	disc := mazecore.NewImage(40, 30, func(x, y int) bool { return (x-20)*(x-20)+(y-15)*(y-15)*16/9 <= 15*15 })
	id := mazecore.ID{Algorithm: mazecore.Wilson, Width: 41, Height: 31, Seed: 9, Shape: mazecore.ImageShapeOf(disc)}
	asked := 0
	h := newHub(Config{Games: &memGames{games: map[int64]*play.Game{}}, Bus: &MemoryBus{}, Log: slog.New(slog.DiscardHandler), Now: time.Now,
		Countdown: time.Millisecond, Grids: func(_ context.Context, want mazecore.ID) (*mazecore.GridMaze, error) {
			asked++
			if want.Seed != id.Seed {
				return nil, errors.New("no such image")
			}
			return mazecore.GenerateGridImage(want, disc)
		}})
	t.Cleanup(h.shutdown)
	h.pend("c1", "u1", id, true, "")
	r, err := h.open(context.Background(), testInstance("i-1", "c1"))
	if err != nil {
		t.Fatal(err)
	}
	var on string
	var g *mazecore.GridMaze
	r.inspect(func(st *state) { on, g = st.Maze, st.grid })
	if asked != 1 || on != id.String() || g == nil || g.Grid().Len() >= 40*30 {
		t.Fatalf("the room is on %s (grid %v), Grids asked %d times; want the image's maze", on, g != nil, asked)
	}
	var v MazeGrid
	if err := json.Unmarshal(mazeJSON(nil, g), &v); err != nil || v.Layout != LayoutSquare || v.Mask == "" {
		t.Fatalf("the welcome's maze: layout %s, mask %d bytes (%v)", v.Layout, len(v.Mask), err)
	}
	s := &Server{cfg: Config{Seed: func() uint64 { return 1 }}, hub: h}
	if why := s.pick(r, user{ID: "u1"}, &PickMsg{T: "pick", Maze: id.String()}, time.Now()); why != refusedBad {
		t.Fatalf("a pick of an image's maze: %q, want %q", why, refusedBad)
	}
	if why := s.pick(r, user{ID: "u1"}, &PickMsg{T: "pick", Maze: polarID.String()}, time.Now()); why != "" {
		t.Fatalf("a pick of a polar maze: refused %q", why)
	}
	waitFor(t, "the polar maze", func() bool {
		r.inspect(func(st *state) { on, g = st.Maze, st.grid })
		return on == polarID.String() && g != nil && g.Grid().Kind() == mazecore.Polar
	})

	// An image the store no longer has: the room opens on the instance's
	// own maze rather than not at all.
	gone := id
	gone.Seed = 10
	h.pend("c2", "u1", gone, true, "")
	r2, err := h.open(context.Background(), testInstance("i-2", "c2"))
	if err != nil {
		t.Fatal(err)
	}
	r2.inspect(func(st *state) { on = st.Maze })
	if on != defaultMaze("i-2").String() || asked != 2 {
		t.Fatalf("a room on a lost image is on %s (Grids asked %d times), want the default %s", on, asked, defaultMaze("i-2"))
	}
}

// TestImageRematchRequest: a rematch asked once a race on an image's
// maze is over is taken, and the room races the new seed's maze on the
// same picture without asking the store for it again.
func TestImageRematchRequest(t *testing.T) {
	disc := mazecore.NewImage(20, 20, func(x, y int) bool { return (x-10)*(x-10)+(y-10)*(y-10) <= 81 })
	id := mazecore.ID{Algorithm: mazecore.Wilson, Width: 21, Height: 21, Seed: 9, Shape: mazecore.ImageShapeOf(disc)}
	var asked atomic.Int32
	h := newHub(Config{Games: &memGames{games: map[int64]*play.Game{}}, Bus: &MemoryBus{}, Log: slog.New(slog.DiscardHandler), Now: time.Now,
		Countdown: time.Millisecond, Grids: func(_ context.Context, want mazecore.ID) (*mazecore.GridMaze, error) {
			asked.Add(1)
			return mazecore.GenerateGridImage(want, disc)
		}})
	t.Cleanup(h.shutdown)
	h.pend("c1", "u1", id, true, "")
	in := testInstance("i-1", "c1")
	r, err := h.open(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{cfg: Config{Seed: func() uint64 { return 1<<40 | 7 }}, hub: h}
	h.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	h.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "ada racing", func() bool { return strings.Contains(describe(t, r), "game=true") })
	var g *mazecore.GridMaze
	r.inspect(func(st *state) { g = st.grid })
	for _, dir := range gridSolution(t, g) {
		if why := r.move(context.Background(), nil, "u1", dir); why != "" {
			t.Fatalf("ada's move %s: %q", dir, why)
		}
	}
	waitFor(t, "the race over", func() bool { phase, _ := r.info(); return phase == phaseOver })
	if why := s.rematch(r, user{ID: "u1"}, time.Now()); why != "" {
		t.Fatalf("a rematch on an image's maze once the race is over: %q", why)
	}
	want := id
	want.Seed = 7 // the drawn seed's low 32 bits, as every rematch's
	waitFor(t, "the rematch's race", func() bool {
		var on string
		r.inspect(func(st *state) { on, g = st.Maze, st.grid })
		return on == want.String() && strings.Contains(describe(t, r), "game=true")
	})
	if g.ID() != want || asked.Load() != 1 {
		t.Fatalf("the rematch's maze is %s, Grids asked %d times; want %s, built without the store", g.ID(), asked.Load(), want)
	}
}

// BenchmarkMazeJSON times what a welcome and a pick send of a maze: a
// 100-ring polar maze (29,659 cells) against a square one of 201×201
// tiles (10,000 cells), as rows.
func BenchmarkMazeJSON(b *testing.B) {
	polar, err := mazecore.GenerateGrid(mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 100, Height: 100, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	square, err := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Backtracking, Width: 201, Height: 201, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("polar100", func(b *testing.B) {
		for b.Loop() {
			mazeJSON(nil, polar)
		}
	})
	b.Run("square201", func(b *testing.B) {
		for b.Loop() {
			mazeJSON(square, nil)
		}
	})
}

var update = flag.Bool("update", false, "write web/test/grids.json again")

// gridFixtures are the mazes whose drawing the client's test
// (web/test/grid.test.ts) lays out from web/test/grids.json and checks
// against their passages as mazecore has them.
func gridFixtures(t *testing.T) []byte {
	t.Helper()
	type fixture struct {
		Maze  json.RawMessage `json:"maze"`
		Links [][2]int        `json:"links"` // every passage, the lower cell first
		Goal  int             `json:"goal"`  // the goal's cell
	}
	small := mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 6, Height: 6, Seed: 3}
	hexHeart := heartID
	hexHeart.GridKind, hexHeart.Width, hexHeart.Height = mazecore.Hex, 15, 13
	var out []fixture
	for _, id := range []mazecore.ID{small, hexHeart, heartID} {
		m := gridMaze(t, id)
		f := fixture{Maze: mazeJSON(nil, m), Goal: m.Goal(), Links: [][2]int{}}
		for c := range m.Grid().Len() {
			for _, n := range m.Links(c) {
				if c < n {
					f.Links = append(f.Links, [2]int{c, n})
				}
			}
		}
		out = append(out, f)
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestClientGridFixtures: web/test/grids.json is what the server sends of
// its mazes, with their passages (go test ./arena -run TestClientGridFixtures -update
// writes it again), so that npm test checks the client's layout against mazecore's.
func TestClientGridFixtures(t *testing.T) {
	want := gridFixtures(t)
	const file = "web/test/grids.json"
	if *update {
		if err := os.WriteFile(file, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(file)
	if err != nil || string(have) != string(want) {
		t.Fatalf("%s is stale (%v): run go test ./arena -run TestClientGridFixtures -update", file, err)
	}
}

// TestRematchOnAnImage: once a race on an image's maze is over, a
// rematch puts the room on the maze of the new seed, built on the
// room's grid (apply reads no store, and the grid holds the picture),
// the same on every replica; one naming another picture or another
// algorithm is no event.
func TestRematchOnAnImage(t *testing.T) {
	disc := mazecore.NewImage(20, 20, func(x, y int) bool { return (x-10)*(x-10)+(y-10)*(y-10) <= 81 })
	ring := mazecore.NewImage(20, 20, func(x, y int) bool { return (x-10)*(x-10)+(y-10)*(y-10) >= 9 })
	square := mazecore.ID{Algorithm: mazecore.Wilson, Width: 21, Height: 21, Seed: 9, Shape: mazecore.ImageShapeOf(disc)}
	hex := mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Hex, Width: 15, Height: 13, Seed: 9, Loops: 30, Shape: mazecore.ImageShapeOf(disc)}
	reseed := func(id mazecore.ID, seed uint64) mazecore.ID { id.Seed = seed; return id }
	for _, c := range []struct {
		name      string
		id, next  mazecore.ID
		rematched bool
	}{
		{"OK", square, reseed(square, 10), true},
		{"OKHexLoops", hex, reseed(hex, 4_000_000_000), true},
		{"ErrOtherPicture", square, func() mazecore.ID { id := reseed(square, 10); id.Shape = mazecore.ImageShapeOf(ring); return id }(), false},
		{"ErrOtherAlgorithm", square, func() mazecore.ID { id := reseed(square, 10); id.Algorithm = mazecore.Backtracking; return id }(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := mazecore.GenerateGridImage(c.id, disc)
			if err != nil {
				t.Fatal(err)
			}
			sol := gridSolution(t, g)
			in := slices.Concat(race(), moves("p1", "u1", 5000, sol...), moves("p2", "u2", 5000, sol...),
				[]event{{Kind: evRematch, Origin: "p2", User: "u2", Maze: c.next.String(), At: 9000}})
			on := func(self string) state {
				return state{roomState: roomState{Instance: "i-1", Channel: "c1", Maze: c.id.String(), Phase: phaseLobby}, self: self, grid: g,
					games: map[string]*play.Game{}, countdown: 3 * time.Second, linger: defaultLinger, deadAfter: defaultDeadAfter}
			}
			over, _ := feed(on("p1"), in[:len(in)-1])
			if over.Phase != phaseOver || !over.view().Rematch {
				t.Fatalf("both finished: phase %s, rematch offered %v", over.Phase, over.view().Rematch)
			}
			a, fx := feed(over, in[len(in)-1:])
			if !c.rematched {
				if a.Phase != phaseOver || a.Maze != c.id.String() || a.grid != g || len(fx) != 0 {
					t.Fatalf("a rematch on %s: phase %s on %s, %d effects; want no event", c.next, a.Phase, a.Maze, len(fx))
				}
				return
			}
			want, err := mazecore.GenerateGridImage(c.next, disc)
			if err != nil {
				t.Fatal(err)
			}
			if a.Phase != phaseCountdown || a.Maze != c.next.String() || a.grid.ID() != c.next || a.grid.Grid() != g.Grid() {
				t.Fatalf("after the rematch: phase %s on %s (grid of %s, the room's grid %v), want the countdown on %s",
					a.Phase, a.Maze, a.grid.ID(), a.grid.Grid() == g.Grid(), c.next)
			}
			if got := string(mazeJSON(nil, a.grid)); got != string(mazeJSON(nil, want)) || got == string(mazeJSON(nil, g)) {
				t.Fatalf("the rematch's maze is not %s's as its picture makes it, or is the old seed's", c.next)
			}
			b, _ := feed(on("p2"), in)
			if !reflect.DeepEqual(a.snapshot(), b.snapshot()) || string(a.drawn()) != string(b.drawn()) {
				t.Fatalf("the replicas differ after the rematch:\n%+v\n%+v", a.snapshot(), b.snapshot())
			}
			// A replica opened later, on the first race's maze from the
			// store, takes the rematch's state with its maze.
			late := on("p3")
			late.adopt(a.snapshot())
			if late.Maze != c.next.String() || late.grid == nil || late.grid.ID() != c.next || string(late.drawn()) != string(a.drawn()) {
				t.Fatalf("a replica adopting the rematch holds %s on a grid of %v", late.Maze, late.grid != nil && late.grid.ID() == c.next)
			}
			// The rematch's race is played on its maze to the goal.
			a, _ = feed(a, slices.Concat([]event{{Kind: evTick, At: 12000}, {Kind: evGame, Origin: "p1", User: "u1", Game: 3, At: 12010}},
				moves("p1", "u1", 13000, gridSolution(t, want)...)))
			if p := a.player("u1"); !p.Done || a.Round != 1 {
				t.Fatalf("ada on the rematch's maze: %+v, round %d", p.pos, a.Round)
			}
		})
	}
}
