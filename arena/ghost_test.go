package arena

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

const today = "daily:g1:2026-12-06"

// ghostRace is the inputs of a race of u1 alone on p1 whose game counts
// for key, Start at 1,000 ms and the game stored at 4,010.
func ghostRace(key string) []event {
	return []event{
		{Kind: evHello, Origin: "p1", User: "u1", Name: "ada", Nonce: "c1", At: 900},
		{Kind: evStart, Origin: "p1", User: "u1", At: 1000},
		{Kind: evTick, At: 4000},
		{Kind: evGame, Origin: "p1", User: "u1", Game: 1, Key: key, At: 4010},
	}
}

// recorded is the run of the finish the effects record, and where the
// racer was after each move they played, as the room broadcast it.
func recorded(t *testing.T, fx []effect) (*effect, [][2]int) {
	t.Helper()
	var rec *effect
	var places [][2]int
	for i, f := range fx {
		if f.kind == effRecord {
			rec = &fx[i]
		}
		if p, ok := f.msg.(PosMsg); ok && f.kind == effMoved {
			places = append(places, [2]int{p.X, p.Y})
		}
	}
	if rec == nil {
		t.Fatal("no finish recorded")
	}
	return rec, places
}

// TestGhostReplay: a racer's moves on a daily are kept with their times
// as they are played (a refused one not), the finish carries them, and
// the run replays on the maze to where the racer was: at each time of
// the race, the ghost stands where the racer stood then.
func TestGhostReplay(t *testing.T) {
	sol := solution(t)
	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	wall := ""
	for _, d := range mazecore.Dirs {
		if !m.Open(0, 0, d) {
			wall = letter(d)
		}
	}
	// A wall refused at 4,500 ms, then the solution at 5,000 ms and every
	// 100 ms after.
	inputs := slices.Concat(ghostRace(today), moves("p1", "u1", 4500, wall), moves("p1", "u1", 5000, sol...))
	st, fx := feed(freshState(t, "p1"), inputs)
	rec, places := recorded(t, fx)
	run := rec.run
	if run == nil || run.Contest != today || run.UserID != "u1" || run.Name != "ada" || run.MazeID != m.ID() || run.Ms != st.player("u1").Ms {
		t.Fatalf("the run recorded: %+v; want ada's on today's daily, %d ms", run, st.player("u1").Ms)
	}
	steps, err := replayRun(m, nil, run.Moves)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != len(sol)+1 {
		t.Fatalf("%d steps replayed, want the start and %d moves", len(steps), len(sol))
	}
	start, goal := [2]int{m.Start().X, m.Start().Y}, [2]int{m.Goal().X, m.Goal().Y}
	first := int64(5000 - 4010) // the first move, ms after the game's start
	cases := []struct {
		name string
		ms   int64
		want [2]int
	}{
		{"at the start", 0, start},
		{"before the first move", first - 1, start},
		{"at the first move", first, places[0]},
		{"between the first and second moves", first + 99, places[0]},
		{"at the second move", first + 100, places[1]},
		{"at the last move", first + int64(len(sol)-1)*100, goal},
		{"long after", first + 1_000_000, goal},
		{"before the race (a clock behind)", -500, start},
	}
	for _, c := range cases {
		if x, y := ghostAt(steps, c.ms); [2]int{x, y} != c.want {
			t.Errorf("%s (%d ms): the ghost at (%d,%d), want (%d,%d)", c.name, c.ms, x, y, c.want[0], c.want[1])
		}
	}
	for i, p := range places {
		if x, y := ghostAt(steps, first+int64(i)*100); [2]int{x, y} != p {
			t.Errorf("after move %d: the ghost at (%d,%d), the racer was at %v", i, x, y, p)
		}
	}
}

// TestGhostRunKept: only a daily's run is kept for ghosts, and a run too
// long or unreadable is none.
func TestGhostRunKept(t *testing.T) {
	sol := solution(t)
	for _, c := range []struct {
		name, key string
		kept      bool
	}{
		{"today's daily", today, true},
		{"no contest", "", false},
		{"an event", "event:7", false},
		{"an archive's day", "archive:g1:2026-12-01", false},
	} {
		_, fx := feed(freshState(t, "p1"), slices.Concat(ghostRace(c.key), moves("p1", "u1", 5000, sol...)))
		if rec, _ := recorded(t, fx); (rec.run != nil) != c.kept {
			t.Errorf("%s: run kept %v, want %v", c.name, rec.run != nil, c.kept)
		}
	}

	var p player
	for range maxRunMoves {
		p.keep(East, p.RunAt+100)
	}
	if p.RunMoves != maxRunMoves || len(p.Run) > maxRunMoves*4 {
		t.Fatalf("%d moves kept in %d bytes", p.RunMoves, len(p.Run))
	}
	p.keep(West, p.RunAt+100)
	p.ID = "u1"
	if run := runOf(&p, gameOn(t, today)); run != nil {
		t.Fatalf("a run of %d moves kept: more than %d", p.RunMoves, maxRunMoves)
	}

	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	intoWall := ""
	for _, d := range mazecore.Dirs {
		if !m.Open(0, 0, d) {
			intoWall = letter(d)
		}
	}
	for name, moves := range map[string][]byte{
		"cut short":      {0x80},
		"into a wall":    binary.AppendUvarint(nil, uint64(slices.Index(runCodes, Direction(intoWall)))),
		"no such way":    binary.AppendUvarint(nil, 15),
		"a hex way":      binary.AppendUvarint(nil, uint64(slices.Index(runCodes, NorthEast))),
		"past the goal":  encodeRun(append(slices.Clone(sol), sol[len(sol)-1])),
		"too many moves": encodeRun(slices.Repeat([]string{sol[0], string(opposite(sol[0]))}, maxRunMoves/2+1)),
	} {
		if _, err := replayRun(m, nil, moves); !errors.Is(err, errBadRun) {
			t.Errorf("a run %s replays: %v", name, err)
		}
	}
}

// TestGhostRunSize: a run of 200 moves, 8 a second, takes 2 bytes a move.
func TestGhostRunSize(t *testing.T) {
	sol := solution(t)
	dirs := slices.Repeat([]string{sol[0], string(opposite(sol[0]))}, 100)
	var p player
	for i, d := range dirs {
		p.keep(Direction(d), 990+int64(i)*125)
	}
	if len(p.Run) != 2*len(dirs) {
		t.Fatalf("200 moves take %d bytes, want 400", len(p.Run))
	}
	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	if steps, err := replayRun(m, nil, p.Run); err != nil || len(steps) != 201 {
		t.Fatalf("the run replays %d steps, %v", len(steps), err)
	}
}

// gameOn is a game on the test's maze counting for key.
func gameOn(t *testing.T, key string) *play.Game {
	t.Helper()
	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	g, err := play.New(m, play.Record{Contest: key}, time.UnixMilli(0))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// encodeRun is dirs as a run keeps them, 100 ms apart, however many.
func encodeRun(dirs []string) []byte {
	var b []byte
	for _, d := range dirs {
		b = binary.AppendUvarint(b, 100<<4|uint64(slices.Index(runCodes, Direction(d))))
	}
	return b
}

// opposite is the way back of a square direction.
func opposite(d string) Direction {
	return map[string]Direction{"n": South, "s": North, "e": West, "w": East}[d]
}

// dailyGames counts every game for today's daily.
type dailyGames struct{ *memGames }

func (g dailyGames) Start(ctx context.Context, m *mazecore.Maze, who play.Record) (*play.Game, error) {
	who.Contest = today
	return g.memGames.Start(ctx, m, who)
}

// memRuns keeps runs as the store does: each member's fastest.
type memRuns struct {
	mu   sync.Mutex
	runs map[string]play.Run // by member
}

func (s *memRuns) SaveRun(_ context.Context, r play.Run) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.runs[r.UserID]; ok && old.Ms <= r.Ms {
		return false, nil
	}
	s.runs[r.UserID] = r
	return true, nil
}

func (s *memRuns) BestRun(_ context.Context, contest, userID string) (play.Run, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best play.Run
	found := false
	for _, r := range s.runs {
		if r.Contest == contest && (userID == "" || r.UserID == userID) && (!found || r.Ms < best.Ms) {
			best, found = r, true
		}
	}
	return best, found, nil
}

// TestGhostsRecordedAndSent: a finish on today's daily keeps its run, and
// the next racer of the day on the maze is given it as the day's best, and
// their own best once they have one; a racer who holds the day's best is
// given it once, as their own.
func TestGhostsRecordedAndSent(t *testing.T) {
	runs := &memRuns{runs: map[string]play.Run{}}
	h := newHub(Config{Games: dailyGames{&memGames{games: map[int64]*play.Game{}}}, Runs: runs, Bus: &MemoryBus{},
		Log: slog.New(slog.DiscardHandler), Now: time.Now, Countdown: time.Millisecond})
	t.Cleanup(h.shutdown)
	ctx := context.Background()
	race := func(instance, user, name string, finish bool) *room {
		t.Helper()
		maze := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3}
		channel := "c-" + instance
		h.pend(channel, user, maze, true, "")
		in := testInstance(instance, channel)
		r, err := h.open(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		h.publish(event{Kind: evHello, Instance: in.ID, User: user, Name: name})
		h.publish(event{Kind: evStart, Instance: in.ID, User: user})
		waitFor(t, name+" racing", func() bool { return strings.Contains(describe(t, r), "game=true") })
		if finish {
			for _, d := range solution(t) {
				if why := r.move(ctx, nil, user, d); why != "" {
					t.Fatalf("%s's move %s: %q", name, d, why)
				}
			}
			waitFor(t, name+"'s run kept", func() bool { _, ok, _ := runs.BestRun(ctx, today, user); return ok })
		}
		return r
	}
	ghostsOf := func(r *room, user string) []Ghost {
		t.Helper()
		var msg GhostsMsg
		waitFor(t, user+"'s ghosts", func() bool {
			r.mu.Lock()
			defer r.mu.Unlock()
			return r.ghosts[user] != nil
		})
		r.mu.Lock()
		defer r.mu.Unlock()
		if err := json.Unmarshal(r.ghosts[user], &msg); err != nil {
			t.Fatal(err)
		}
		return msg.Ghosts
	}

	r1 := race("i-1", "u1", "ada", true)
	r1.mu.Lock()
	if r1.ghosts["u1"] != nil {
		t.Error("ada, the day's first, was given a ghost")
	}
	r1.mu.Unlock()
	kept, _, _ := runs.BestRun(ctx, today, "u1")
	if kept.Name != "ada" || len(kept.Moves) == 0 {
		t.Fatalf("ada's run kept: %+v", kept)
	}

	// bob races the day's maze in another room: ada's run is his ghost,
	// replayed to the goal.
	got := ghostsOf(race("i-2", "u2", "bob", false), "u2")
	if len(got) != 1 || got[0].Kind != GhostBest || got[0].Name != "ada" || got[0].Ms != kept.Ms {
		t.Fatalf("bob's ghosts: %+v; want ada's best", got)
	}
	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	if last := got[0].Steps[len(got[0].Steps)-1]; last.X != m.Goal().X || last.Y != m.Goal().Y {
		t.Fatalf("ada's ghost ends at (%d,%d), not the goal", last.X, last.Y)
	}

	// ada races again: her own best is the day's, given once.
	if got := ghostsOf(race("i-3", "u1", "ada", false), "u1"); len(got) != 1 || got[0].Kind != GhostOwn {
		t.Fatalf("ada's ghosts: %+v; want her own best alone", got)
	}
	// A slower run of bob's: the day's best and his own.
	runs.SaveRun(ctx, play.Run{Contest: today, UserID: "u2", Name: "bob", MazeID: kept.MazeID, Ms: kept.Ms + 1000, Moves: kept.Moves})
	if got := ghostsOf(race("i-4", "u2", "bob", false), "u2"); len(got) != 2 || got[0].Kind != GhostBest || got[1].Kind != GhostOwn || got[1].Name != "bob" {
		t.Fatalf("bob's ghosts: %+v; want ada's best and his own", got)
	}
}

// TestGhostOnGrids: a daily's run on a polar, a hex and a heart maze is
// kept with its ways and replays to the goal, each step where the racer
// stood after that move.
func TestGhostOnGrids(t *testing.T) {
	for _, id := range []mazecore.ID{polarID, hexID, heartID} {
		t.Run(id.String(), func(t *testing.T) {
			m := gridMaze(t, id)
			sol := gridSolution(t, m)
			_, fx := applyOnGrid(t, id, slices.Concat(ghostRace(today), moves("p1", "u1", 5000, sol...)))
			rec, places := recorded(t, fx)
			if rec.run == nil {
				t.Fatal("no run kept")
			}
			steps, err := replayRun(nil, m, rec.run.Moves)
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != len(places)+1 {
				t.Fatalf("%d steps for %d moves", len(steps), len(places))
			}
			for i, p := range places {
				if s := steps[i+1]; [2]int{s.X, s.Y} != p || s.T != 990+int64(i)*100 {
					t.Errorf("step %d: %+v, want %v at %d ms", i, s, p, 990+int64(i)*100)
				}
			}
		})
	}
}

// TestGhostRunNotSynced: a sync carries no racer's run (a hundred runs
// of up to 16 KiB would not fit the bus's message), and the replica that
// takes the state keeps no run of a racer who finishes there: their
// earlier moves are not in it.
func TestGhostRunNotSynced(t *testing.T) {
	sol := solution(t)
	st, _ := feed(freshState(t, "p2"), slices.Concat(ghostRace(today), moves("p1", "u1", 5000, sol[:2]...)))
	snap := st.snapshot()
	if p := snap.Players[0]; p.Run != nil || p.RunMoves <= maxRunMoves {
		t.Fatalf("the sync carries ada's run: %d bytes, %d moves", len(p.Run), p.RunMoves)
	}
	if len(st.player("u1").Run) == 0 {
		t.Fatal("the snapshot took the run from the replica that played it")
	}
	// p3 takes the state, and ada, now connected to it, finishes there.
	other := freshState(t, "p3")
	other.adopt(snap)
	_, fx := feed(other, moves("p3", "u1", 6000, sol[2:]...))
	if rec, _ := recorded(t, fx); rec.run != nil {
		t.Fatalf("p3 kept a run of ada's without her first moves: %d bytes", len(rec.run.Moves))
	}
}

// TestGhostsFollowAReconnect: a racer whose game began on one process and
// who comes to another mid-race (theirs died, or a reconnect went there)
// is given their ghosts there too.
func TestGhostsFollowAReconnect(t *testing.T) {
	runs := &memRuns{runs: map[string]play.Run{}}
	maze := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3}
	var p player
	for i, d := range solution(t) {
		p.keep(Direction(d), int64(i+1)*100)
	}
	runs.SaveRun(context.Background(), play.Run{Contest: today, UserID: "u1", Name: "ada", MazeID: maze, Ms: 900, Moves: p.Run})
	bus, games := &orderedBus{}, dailyGames{&memGames{games: map[int64]*play.Game{}}}
	hubOf := func() *hub {
		h := newHub(Config{Games: games, Runs: runs, Bus: bus.end(), Log: slog.New(slog.DiscardHandler), Now: time.Now, Countdown: time.Millisecond})
		t.Cleanup(h.shutdown)
		return h
	}
	a, b := hubOf(), hubOf()
	ra, in, _ := launch(t, a)
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u2", Name: "bob"})
	a.publish(event{Kind: evStart, Instance: in.ID, User: "u2"})
	waitFor(t, "bob's ghosts on a", func() bool { return ra.hasGhosts("u2") })
	rb, err := b.open(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if rb.hasGhosts("u2") {
		t.Fatal("b had bob's ghosts before he came")
	}
	b.publish(event{Kind: evHello, Instance: in.ID, User: "u2", Name: "bob"})
	waitFor(t, "bob's ghosts on b", func() bool { return rb.hasGhosts("u2") })
}
