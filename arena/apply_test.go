package arena

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// applyAll feeds a fresh room on maze 11×11 the inputs, as process self
// holds it, and returns the state and every effect.
func applyAll(t *testing.T, self string, inputs []event) (state, []effect) {
	t.Helper()
	return feed(freshState(t, self), inputs)
}

// freshState is a room on maze 11×11 in the lobby, as process self holds
// it.
func freshState(t *testing.T, self string) state {
	t.Helper()
	m, err := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return state{roomState: roomState{Instance: "i-1", Channel: "c1", Maze: m.ID().String(), Phase: phaseLobby},
		self: self, maze: m, games: map[string]*play.Game{}, countdown: 3 * time.Second,
		linger: defaultLinger, deadAfter: defaultDeadAfter}
}

// feed applies the inputs to st in order, and returns the state and
// every effect.
func feed(st state, inputs []event) (state, []effect) {
	var all []effect
	for _, ev := range inputs {
		var fx []effect
		st, fx = apply(st, ev)
		all = append(all, fx...)
	}
	return st, all
}

// solution is the moves (directions, a corridor run each) from the start
// to the goal of the test's maze.
func solution(t *testing.T) []string {
	t.Helper()
	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	return solutionOf(t, m)
}

// race is the inputs that put u1 (on process p1) and u2 (on p2) in a
// race whose games are stored, Start pressed at 1,000 ms.
func race() []event {
	return []event{
		{Kind: evHello, Origin: "p1", User: "u1", Name: "ada", Nonce: "c1", At: 900},
		{Kind: evHello, Origin: "p2", User: "u2", Name: "bob", Nonce: "c2", At: 950},
		{Kind: evStart, Origin: "p1", User: "u1", At: 1000},
		{Kind: evTick, At: 4000},
		{Kind: evGame, Origin: "p1", User: "u1", Game: 1, At: 4010},
		{Kind: evGame, Origin: "p2", User: "u2", Game: 2, At: 4020},
	}
}

func moves(origin, user string, at int64, dirs ...string) []event {
	var out []event
	for i, d := range dirs {
		out = append(out, event{Kind: evMove, Origin: origin, User: user, Dir: d, Nonce: fmt.Sprintf("%s-%d", user, i), At: at + int64(i)*100})
	}
	return out
}

func TestApply(t *testing.T) {
	sol := solution(t)
	first := sol[0]
	wall := ""
	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	for _, d := range mazecore.Dirs {
		if !m.Open(0, 0, d) {
			wall = letter(d)
		}
	}
	cat := func(parts ...[]event) []event { return slices.Concat(parts...) }
	bobFinishes := cat(race(), moves("p2", "u2", 5000, sol...)) // on p2
	for _, c := range []struct {
		name   string
		inputs []event
		check  func(t *testing.T, st state, fx []effect)
	}{
		{"a move before the race", cat(race()[:3], moves("p1", "u1", 1500, first)), func(t *testing.T, st state, fx []effect) {
			if got := replies(fx); !slices.Equal(got, []string{"u1-0=" + refusedNotStarted}) {
				t.Fatalf("replies %v", got)
			}
		}},
		{"a move", cat(race(), moves("p1", "u1", 5000, first)), func(t *testing.T, st state, fx []effect) {
			if got := replies(fx); !slices.Equal(got, []string{"u1-0="}) {
				t.Fatalf("replies %v", got)
			}
			if p := st.player("u1"); p.Clicks != 1 || p.Tiles == 0 || p.Seq != 1 {
				t.Fatalf("ada after a move: %+v", p.pos)
			}
		}},
		{"a wall", cat(race(), moves("p1", "u1", 5000, wall)), func(t *testing.T, st state, fx []effect) {
			if got := replies(fx); !slices.Equal(got, []string{"u1-0=" + refusedWall}) {
				t.Fatalf("replies %v", got)
			}
			if p := st.player("u1"); p.Clicks != 0 {
				t.Fatalf("ada moved into a wall: %+v", p.pos)
			}
		}},
		{"another process's move is answered there", cat(race(), moves("p2", "u2", 5000, wall)), func(t *testing.T, st state, fx []effect) {
			if got := replies(fx); len(got) != 0 {
				t.Fatalf("p1 answered p2's move: %v", got)
			}
		}},
		{"a finish", cat(race(), moves("p1", "u1", 5000, sol...), moves("p1", "u1", 9000, first)), func(t *testing.T, st state, fx []effect) {
			p := st.player("u1")
			if !p.Done || p.Place != 1 || p.Ms != 5000+int64(len(sol)-1)*100-4010 {
				t.Fatalf("ada at the goal: done %v place %d ms %d", p.Done, p.Place, p.Ms)
			}
			if n := kinds(fx, effRecord); n != 1 {
				t.Fatalf("%d records of the finish, want 1", n)
			}
			if got := replies(fx); got[len(got)-1] != fmt.Sprintf("u1-0=%s", refusedFinished) {
				t.Fatalf("a move after the finish: %v", got[len(got)-1])
			}
			if st.Phase != phaseRace {
				t.Fatalf("phase %s with bob racing", st.Phase)
			}
		}},
		{"a finish on another process is recorded there", cat(race(), moves("p2", "u2", 5000, sol...)), func(t *testing.T, st state, fx []effect) {
			if n := kinds(fx, effRecord); n != 0 || !st.player("u2").Done {
				t.Fatalf("%d records here of bob's finish on p2", n)
			}
		}},
		{"everyone done", cat(race(), moves("p1", "u1", 5000, sol...), moves("p2", "u2", 5000, sol...)), func(t *testing.T, st state, fx []effect) {
			if st.Phase != phaseOver || st.player("u2").Place != 2 {
				t.Fatalf("phase %s, bob's place %d", st.Phase, st.player("u2").Place)
			}
		}},
		{"a late joiner watches", cat(race(), []event{{Kind: evHello, Origin: "p1", User: "u3", Name: "cy", Nonce: "c3", At: 6000}},
			moves("p1", "u3", 6100, first)), func(t *testing.T, st state, fx []effect) {
			started := gamesStarted(fx)
			if !slices.Equal(started, []string{"u1"}) {
				t.Fatalf("games started here: %v, want only u1's, at the start", started)
			}
			if got := replies(fx); !slices.Equal(got, []string{"u3-0=" + refusedWatching}) {
				t.Fatalf("the late joiner's move: %v", got)
			}
			if v := st.view(); v.Watchers != 1 || !v.Players[2].Watching || v.Players[2].Racing {
				t.Fatalf("the view: %d watchers, cy %+v", v.Watchers, v.Players[2])
			}
		}},
		{"one there before the start, back after it, races", cat(race()[:2], []event{
			{Kind: evHello, Origin: "p1", User: "u3", Nonce: "c3", At: 960},
			{Kind: evBye, Origin: "p1", User: "u3", At: 970},
		}, race()[2:], []event{{Kind: evHello, Origin: "p1", User: "u3", Nonce: "c4", At: 6000}}), func(t *testing.T, st state, fx []effect) {
			if n := kinds(fx, effStartGame); n != 2 || st.player("u3").Watching {
				t.Fatalf("%d games started (want u1's and u3's), u3 watching %v", n, st.player("u3").Watching)
			}
		}},
		{"choosing to watch", cat(race()[:2], []event{
			{Kind: evHello, Origin: "p1", User: "u3", Name: "cy", Nonce: "c3", At: 960},
			{Kind: evWatch, Origin: "p1", User: "u3", On: true, At: 970},
			{Kind: evWatch, Origin: "p1", User: "u1", On: true, At: 980},
			{Kind: evWatch, Origin: "p1", User: "u1", On: false, At: 990},
		}, race()[2:4], moves("p1", "u3", 5000, first), []event{
			{Kind: evWatch, Origin: "p1", User: "u1", On: true, At: 5500}, // too late: the race began
		}), func(t *testing.T, st state, fx []effect) {
			started := gamesStarted(fx)
			if !slices.Equal(started, []string{"u1"}) {
				t.Fatalf("games started here: %v, want only u1's (u3 watches, u2 is on p2)", started)
			}
			if got := replies(fx); !slices.Equal(got, []string{"u3-0=" + refusedWatching}) {
				t.Fatalf("the watcher's move: %v", got)
			}
			if v := st.view(); v.Watchers != 1 || st.player("u1").Watching {
				t.Fatalf("%d watchers, ada watching %v", v.Watchers, st.player("u1").Watching)
			}
		}},
		{"a move before the game is stored waits for it", cat(race()[:4], moves("p1", "u1", 4005, first), race()[4:]), func(t *testing.T, st state, fx []effect) {
			if got := replies(fx); !slices.Equal(got, []string{"u1-0="}) || st.player("u1").Clicks != 1 {
				t.Fatalf("replies %v, clicks %d", got, st.player("u1").Clicks)
			}
		}},
		{"a watcher past MaxRacers", func() []event {
			var in []event
			for i := range MaxRacers + 1 {
				in = append(in, event{Kind: evHello, Origin: "p1", User: fmt.Sprint("m", i), Nonce: fmt.Sprint("c", i), At: 100})
			}
			return cat(in, []event{{Kind: evStart, Origin: "p1", At: 1000}, {Kind: evTick, At: 4000}},
				moves("p1", fmt.Sprint("m", MaxRacers), 5000, first))
		}(), func(t *testing.T, st state, fx []effect) {
			if len(st.Players) != MaxRacers || kinds(fx, effStartGame) != MaxRacers || kinds(fx, effWelcome) != MaxRacers+1 {
				t.Fatalf("%d players, %d games started, %d welcomed", len(st.Players), kinds(fx, effStartGame), kinds(fx, effWelcome))
			}
			if got := replies(fx); !slices.Equal(got, []string{fmt.Sprint("m", MaxRacers, "-0=", refusedWatching)}) {
				t.Fatalf("the watcher's move: %v", got)
			}
		}},
		{"the last leaving lingers, then ends", cat(race(), []event{
			{Kind: evBye, Origin: "p1", User: "u1", At: 5000},
			{Kind: evBye, Origin: "p2", User: "u2", At: 5100},
			{Kind: evExpire, Origin: "p2", At: 5100 + defaultLinger.Milliseconds() - 1},
		}), func(t *testing.T, st state, fx []effect) {
			if st.ended || kinds(fx, effLinger) != 0 {
				t.Fatalf("ended %v before the linger; p1 lingers for p2's bye %d", st.ended, kinds(fx, effLinger))
			}
			st, fx = apply(st, event{Kind: evExpire, Origin: "p1", At: 5100 + defaultLinger.Milliseconds()})
			if !st.ended || kinds(fx, effCard) != 1 {
				t.Fatalf("ended %v, %d cards", st.ended, kinds(fx, effCard))
			}
		}},
		{"a return within the linger keeps the race", cat(race(), moves("p1", "u1", 5000, first), []event{
			{Kind: evBye, Origin: "p1", User: "u1", At: 5500},
			{Kind: evBye, Origin: "p2", User: "u2", At: 5600},
			{Kind: evHello, Origin: "p1", User: "u1", Nonce: "c9", At: 5900},
			{Kind: evExpire, Origin: "p2", At: 5600 + defaultLinger.Milliseconds()},
		}), func(t *testing.T, st state, fx []effect) {
			if st.ended || st.Phase != phaseRace || st.player("u1").Clicks != 1 {
				t.Fatalf("ended %v, phase %s, ada's clicks %d", st.ended, st.Phase, st.player("u1").Clicks)
			}
		}},
		{"a silent process's members go offline, and the beats end the room", cat(race(), []event{
			{Kind: evBye, Origin: "p1", User: "u1", At: 5000},
			{Kind: evBeat, Origin: "p2", At: 6000},
			{Kind: evBeat, Origin: "p1", At: 6000 + defaultDeadAfter.Milliseconds()},
		}), func(t *testing.T, st state, fx []effect) {
			if _, held := st.Holders["p2"]; !st.player("u2").online() || !held || kinds(fx, effTakenForDead) != 0 {
				t.Fatalf("p2 silent for DeadAfter exactly: bob online %v, p2 holds a replica %v", st.player("u2").online(), held)
			}
			st, fx = apply(st, event{Kind: evBeat, Origin: "p1", At: 6001 + defaultDeadAfter.Milliseconds()})
			if st.player("u2").online() || kinds(fx, effLinger) != 1 || st.Seen["p2"] != 0 {
				t.Fatalf("bob online %v, %d lingers, p2 seen at %d, once p2 was silent past DeadAfter", st.player("u2").online(), kinds(fx, effLinger), st.Seen["p2"])
			}
			if _, held := st.Holders["p2"]; held || !st.alone() || kinds(fx, effTakenForDead) != 0 {
				t.Fatalf("p2 taken for dead: still a holder %v, p1 alone %v, %d effects of p1's own death", held, st.alone(), kinds(fx, effTakenForDead))
			}
			st, fx = apply(st, event{Kind: evBeat, Origin: "p1", At: 6001 + defaultDeadAfter.Milliseconds() + defaultLinger.Milliseconds()})
			if !st.ended || kinds(fx, effCard) != 1 {
				t.Fatalf("past the linger: ended %v, %d cards", st.ended, kinds(fx, effCard))
			}
		}},
		{"the process that finds another dead records its members' finishes", bobFinishes, func(t *testing.T, st state, fx []effect) {
			if kinds(fx, effRecord) != 0 || st.player("u2").Recorder != "p2" {
				t.Fatalf("bob's finish, from p2: %d records here, recorder %q; want none, p2", kinds(fx, effRecord), st.player("u2").Recorder)
			}
			past := bobFinishes[len(bobFinishes)-1].At + defaultDeadAfter.Milliseconds() + 1
			other, fx := applyAll(t, "p1", cat(bobFinishes, []event{{Kind: evBeat, Origin: "p3", At: past}}))
			if kinds(fx, effRecord) != 0 || other.player("u2").Recorder != "p3" {
				t.Fatalf("p3 found p2 dead: %d records here (p1), recorder %q; want none, p3", kinds(fx, effRecord), other.player("u2").Recorder)
			}
			st, fx = apply(st, event{Kind: evBeat, Origin: "p1", At: past})
			var rec *effect
			for i := range fx {
				if fx[i].kind == effRecord {
					rec = &fx[i]
				}
			}
			if rec == nil || !rec.rescue || rec.game.UserID != "u2" || rec.game.Status != play.Won || st.player("u2").Recorder != "p1" {
				t.Fatalf("p1 found p2 dead: record %+v, recorder %q; want bob's won game, rescued, by p1", rec, st.player("u2").Recorder)
			}
			if _, fx = apply(st, event{Kind: evBeat, Origin: "p1", At: past + 1}); kinds(fx, effRecord) != 0 {
				t.Fatal("bob's finish recorded again at the next beat")
			}
		}},
		{"a process taken for dead leaves the room", cat(race(), []event{
			{Kind: evBeat, Origin: "p2", At: 20000},
		}), func(t *testing.T, st state, fx []effect) {
			_, held := st.Holders["p1"]
			if st.player("u1").online() || held || kinds(fx, effTakenForDead) != 1 {
				t.Fatalf("p1, silent since 4010, is taken for dead at 20000: ada online %v, p1 a holder %v, %d effects of its death",
					st.player("u1").online(), held, kinds(fx, effTakenForDead))
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, fx := applyAll(t, "p1", c.inputs)
			c.check(t, st, fx)
		})
	}
}

// TestReplicasAgree: two processes fed the same inputs hold the same room,
// each answering and recording only its own members' moves.
func TestReplicasAgree(t *testing.T) {
	sol := solution(t)
	in := slices.Concat(race(), moves("p1", "u1", 5000, sol...), moves("p2", "u2", 5050, sol[:3]...),
		[]event{{Kind: evBye, Origin: "p2", User: "u2", At: 7000}})
	a, fxa := applyAll(t, "p1", in)
	b, fxb := applyAll(t, "p2", in)
	if !reflect.DeepEqual(a.snapshot(), b.snapshot()) {
		t.Fatalf("the replicas differ:\n%+v\n%+v", a.snapshot(), b.snapshot())
	}
	if kinds(fxa, effRecord) != 1 || kinds(fxb, effRecord) != 0 {
		t.Fatalf("records: %d on p1, %d on p2; want ada's once, on p1", kinds(fxa, effRecord), kinds(fxb, effRecord))
	}
	if len(replies(fxa)) != len(sol) || len(replies(fxb)) != 3 {
		t.Fatalf("answers: %d on p1, %d on p2", len(replies(fxa)), len(replies(fxb)))
	}
	if !strings.Contains(fmt.Sprint(b.player("u1").pos), fmt.Sprint(m11().Goal().X)) {
		t.Fatalf("ada on p2: %+v", b.player("u1").pos)
	}
}

func m11() *mazecore.Maze {
	m, _ := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3})
	return m
}

func replies(fx []effect) []string {
	var out []string
	for _, f := range fx {
		if f.kind == effReply {
			out = append(out, f.nonce+"="+f.why)
		}
	}
	return out
}

// gamesStarted is whose games the effects start, in order.
func gamesStarted(fx []effect) []string {
	var out []string
	for _, f := range fx {
		if f.kind == effStartGame {
			out = append(out, f.user)
		}
	}
	return out
}

func kinds(fx []effect, k effectKind) int {
	n := 0
	for _, f := range fx {
		if f.kind == k {
			n++
		}
	}
	return n
}

// TestSnapshotOwnsItsMaps: a snapshot (a sync's answer, the result card)
// is marshaled on another goroutine while the loop goes on applying
// inputs, so it shares no map with the state: the processes heard from
// were shared, and the next input wrote them under the marshaling.
func TestSnapshotOwnsItsMaps(t *testing.T) {
	st, _ := applyAll(t, "p1", race())
	snap := st.snapshot()
	before := snap.Seen["p2"]
	st, _ = apply(st, event{Kind: evBeat, Origin: "p2", At: 9000})
	if snap.Seen["p2"] != before || st.Seen["p2"] != 9000 {
		t.Fatalf("the snapshot's p2 heard at %d after a beat at 9000 (was %d); the state's %d", snap.Seen["p2"], before, st.Seen["p2"])
	}
	snap.Players[0].Conns["p9"] = 1
	if st.Players[0].Conns["p9"] != 0 {
		t.Fatal("the snapshot shares a player's connections with the state")
	}
}

// TestRematch: once everyone racing finished, a rematch puts the members
// still online (the late joiner too, not the one who chose to watch) on a
// new maze of the room's kind, in a countdown; before the race is over,
// on a maze of another kind, or pressed a second time, it is no event.
func TestRematch(t *testing.T) {
	sol := solution(t)
	next := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 4}
	other := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 11, Height: 11, Seed: 4}
	rematch := func(at int64, id mazecore.ID) event {
		return event{Kind: evRematch, Origin: "p2", User: "u2", Maze: id.String(), At: at}
	}
	lobby := []event{
		{Kind: evHello, Origin: "p1", User: "u4", Name: "di", Nonce: "c4", At: 800},
		{Kind: evWatch, Origin: "p1", User: "u4", On: true, At: 850},
	}
	over := slices.Concat(lobby, race(), []event{{Kind: evHello, Origin: "p1", User: "u3", Name: "cy", Nonce: "c3", At: 4500}},
		moves("p1", "u1", 5000, sol...), moves("p2", "u2", 5000, sol...))

	st, _ := applyAll(t, "p1", slices.Concat(lobby, race(), []event{rematch(4500, next)}))
	if st.Phase != phaseRace || st.Maze != m11().ID().String() {
		t.Fatalf("a rematch during the race: phase %s on %s", st.Phase, st.Maze)
	}
	st, _ = applyAll(t, "p1", slices.Concat(over, []event{rematch(9000, other)}))
	if st.Phase != phaseOver {
		t.Fatalf("a rematch on another kind of maze: phase %s", st.Phase)
	}

	// bob leaves mid-race: the race is not over, but ada, still there,
	// may rematch once she finished, and the rematch is hers.
	left := slices.Concat(lobby, race(), []event{{Kind: evBye, Origin: "p2", User: "u2", At: 4500}}, moves("p1", "u1", 5000, sol[:len(sol)-1]...))
	st, _ = applyAll(t, "p1", slices.Concat(left, []event{rematch(8000, next)}))
	if st.Phase != phaseRace || st.view().Rematch || st.Maze == next.String() {
		t.Fatalf("a rematch while ada races: phase %s, rematch offered %v, on %s", st.Phase, st.view().Rematch, st.Maze)
	}
	st, _ = applyAll(t, "p1", slices.Concat(left, moves("p1", "u1", 7900, sol[len(sol)-1])))
	if st.Phase != phaseRace || !st.view().Rematch {
		t.Fatalf("ada finished, bob away mid-race: phase %s, rematch offered %v", st.Phase, st.view().Rematch)
	}
	st, _ = feed(st, []event{rematch(8000, next)})
	if st.Phase != phaseCountdown || len(st.Players) != 2 || st.player("u2") != nil {
		t.Fatalf("the rematch without bob: phase %s, %d members, bob %+v", st.Phase, len(st.Players), st.player("u2"))
	}

	st, _ = applyAll(t, "p1", slices.Concat(over, []event{{Kind: evBye, Origin: "p2", User: "u2", At: 8000}}))
	if st.Phase != phaseOver {
		t.Fatalf("phase %s with everyone done", st.Phase)
	}
	var fx []effect
	st, fx = feed(st, []event{rematch(9000, next), rematch(9001, mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 5})})
	if st.Phase != phaseCountdown || st.StartAt != 9000+3000 || st.Maze != next.String() || st.Contest {
		t.Fatalf("after a rematch: phase %s at %d on %s, want the countdown to 12000 on %s", st.Phase, st.StartAt, st.Maze, next)
	}
	if kinds(fx, effSchedule) != 1 || kinds(fx, effBroadcast) < 2 || kinds(fx, effCard) != 0 {
		t.Fatalf("%d schedules, %d broadcasts: want the countdown's timer, the new maze and the room", kinds(fx, effSchedule), kinds(fx, effBroadcast))
	}
	if mz, ok := fx[0].msg.(MazeMsg); !ok || !strings.Contains(string(mz.Maze), next.String()) {
		t.Fatalf("the first effect %+v, want the new maze sent", fx[0])
	}
	var ids []string
	for _, p := range st.Players {
		ids = append(ids, p.ID)
		if p.Done || p.Game != 0 || p.Clicks != 0 || p.Place != 0 || p.Watching != (p.ID == "u4") {
			t.Fatalf("%s not reset for the rematch: %+v", p.ID, p)
		}
	}
	if !slices.Equal(ids, []string{"u4", "u1", "u3"}) || len(st.games) != 0 {
		t.Fatalf("members %v (bob left), %d games", ids, len(st.games))
	}
	st, fx = feed(st, []event{{Kind: evTick, At: 12000}})
	started := gamesStarted(fx)
	if st.Phase != phaseRace || !slices.Equal(started, []string{"u1", "u3"}) {
		t.Fatalf("the rematch's race: phase %s, games started %v, want ada's and cy's", st.Phase, started)
	}
	if st.view().Watchers != 1 {
		t.Fatalf("%d watchers, want di", st.view().Watchers)
	}
	all := slices.Concat(over, []event{{Kind: evBye, Origin: "p2", User: "u2", At: 8000}, rematch(9000, next), {Kind: evTick, At: 12000}})
	a, _ := applyAll(t, "p1", all)
	b, fxb := applyAll(t, "p2", all)
	// The race the rematch ended gets its card, from the process that
	// took the press (p2): its finishers, its maze.
	var card *roomState
	for _, f := range fxb {
		if f.kind == effCard && f.race != nil && f.race.maze.ID() == m11().ID() {
			card = &f.race.room
		}
	}
	if kinds(fxb, effCard) != 1 || card == nil || card.Maze != m11().ID().String() || card.Round != 0 || len(card.Players) != 4 || !card.Players[1].Done {
		t.Fatalf("p2's cards: %d, the race's %+v; want one, of the race on %s", kinds(fxb, effCard), card, m11().ID())
	}
	if b.Round != 1 {
		t.Fatalf("round %d after a rematch", b.Round)
	}
	if !reflect.DeepEqual(a.snapshot(), b.snapshot()) {
		t.Fatalf("the replicas differ after a rematch:\n%+v\n%+v", a.snapshot(), b.snapshot())
	}
}

// TestHolders: the state knows which processes hold a replica of the
// room, by their syncs and inputs; a drop ends only the replica it names,
// and a beat, which comes to every room of its process, names none.
func TestHolders(t *testing.T) {
	for _, c := range []struct {
		name   string
		inputs []event
		want   map[string]string
		alone  bool
	}{
		{"a sync names its replica", []event{{Kind: evSync, Origin: "p2", Nonce: "n2", At: 1}}, map[string]string{"p2": "n2"}, false},
		{"an input holds one, unnamed", []event{{Kind: evHello, Origin: "p2", User: "u2", Name: "bo", At: 1}}, map[string]string{"p2": ""}, false},
		{"a beat holds none", []event{{Kind: evBeat, Origin: "p2", At: 1}}, map[string]string{}, true},
		{"this process's own inputs leave it alone", []event{{Kind: evHello, Origin: "p1", User: "u1", Name: "ada", At: 1}}, map[string]string{"p1": ""}, true},
		{"a drop ends the replica it names", []event{{Kind: evSync, Origin: "p2", Nonce: "n2", At: 1}, {Kind: evDrop, Origin: "p2", Nonce: "n2", At: 2}}, map[string]string{}, true},
		{"a drop of an older replica ends none", []event{{Kind: evSync, Origin: "p2", Nonce: "n2", At: 1}, {Kind: evSync, Origin: "p2", Nonce: "n3", At: 2}, {Kind: evDrop, Origin: "p2", Nonce: "n2", At: 3}},
			map[string]string{"p2": "n3"}, false},
		{"an unnamed replica is not ended by a drop", []event{{Kind: evHello, Origin: "p2", User: "u2", Name: "bo", At: 1}, {Kind: evDrop, Origin: "p2", At: 2}}, map[string]string{"p2": ""}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, _ := applyAll(t, "p1", c.inputs)
			if len(st.Holders) != len(c.want) {
				t.Fatalf("holders %v, want %v", st.Holders, c.want)
			}
			for origin, nonce := range c.want {
				if got, ok := st.Holders[origin]; !ok || got != nonce {
					t.Fatalf("holders %v, want %v", st.Holders, c.want)
				}
			}
			if st.alone() != c.alone {
				t.Fatalf("alone: %v, want %v (holders %v)", st.alone(), c.alone, st.Holders)
			}
			if snap := st.snapshot(); snap.Holders != nil {
				snap.Holders["p9"] = "x"
			}
			if _, ok := st.Holders["p9"]; ok {
				t.Fatal("the snapshot shares the holders with the state")
			}
		})
	}
}
