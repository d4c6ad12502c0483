package arena

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// TestReplicasStayTogether opens one room on three processes at once, as
// a launch's members all connecting do, on a bus that delivers each
// message after a random delay (in one order for all) while the processes
// beat ten times faster than they do for real; each scenario's members say
// hello through the process they reach, and the launcher starts the race.
// Every replica must then hold every member, racing, in the same room;
// then they race (raceScenario), and in half the scenarios race again
// (rematchScenario), every replica agreeing and every finish recorded
// once. The beats and the syncs' interleavings are what let a new room go alone
// during its replay (TestReplayKeepsTheRoomShared): without that fix some
// of these scenarios fail. A failing scenario's seed is in its name.
func TestReplicasStayTogether(t *testing.T) {
	// The scenarios run at once (they mostly wait): t.Parallel would run
	// two at a time on CI's two cores.
	const scenarios = 16
	errs := make([]error, scenarios)
	var wg sync.WaitGroup
	for seed := range uint64(scenarios) {
		wg.Go(func() { errs[seed] = togetherScenario(t, seed) })
	}
	wg.Wait()
	for seed, err := range errs {
		if err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}

// TestReplicasStayTogetherBehind is TestReplicasStayTogether on a bus
// whose listeners are behind each other: each process hears the bus's one
// order after a lag of its own, up to 100 ms, and in most scenarios one
// of them 0.9 to 1.5 s later still (a listener on a loaded machine). A
// holder that far behind answers a sync after the new replica took the
// room as new: the replica must rejoin (TestLateSyncAnswerRejoins), its
// members reconnect, and all end together. In half the scenarios a
// process other than the launcher's dies mid-race (it sends and hears
// nothing more, and says no goodbye): the others must take its members
// offline, race on, and record every finish once. In a quarter, a
// process stalls mid-race past DeadAfter (what it sends and hears waits):
// the others take it for dead, its replica leaves when it hears so, and
// its members reconnect and race on in a new one.
func TestReplicasStayTogetherBehind(t *testing.T) {
	const scenarios = 12
	errs := make([]error, scenarios)
	var wg sync.WaitGroup
	for seed := range uint64(scenarios) {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(seed, 4))
			lags := make([]time.Duration, 3)
			for i := range lags {
				lags[i] = time.Duration(rnd.IntN(100)) * time.Millisecond
			}
			if seed%4 != 0 {
				lags[rnd.IntN(len(lags))] += time.Duration(900+rnd.IntN(600)) * time.Millisecond
			}
			bus := newLagBus(t, 15*time.Millisecond, seed, lags)
			errs[seed] = togetherOn(t, seed+100, scenario{bus: bus, patience: 15 * time.Second, kill: seed%2 == 1, stall: seed%4 == 2, rematch: seed%4 == 0})
		})
	}
	wg.Wait()
	for seed, err := range errs {
		if err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}

// endsBus gives each process its end of a test's shared bus, in order.
type endsBus interface{ end() Bus }

// killer is a bus that can kill a process: its end sends and hears
// nothing more, from the moment it sent user's next move.
type killer interface {
	killAtMove(process int, user string)
}

// staller is a bus that can stall a process: for d, what it sends waits,
// and enters the bus's order when the stall ends, and what it is sent
// waits too (a writer and a listener held up, as on a machine that froze).
type staller interface {
	stall(process int, d time.Duration)
}

// scenario is how TestReplicasStayTogether's scenarios differ: the bus,
// how long each wait for the replicas lasts, and whether a process dies
// mid-race (bus is then a killer), or stalls past deadAfter (a staller).
// A rematch scenario has every member run the solution, and then race
// again (rematchScenario).
type scenario struct {
	bus                  endsBus
	patience             time.Duration
	kill, stall, rematch bool
}

// deadAfter is how long a silent process lives in a scenario that kills
// or stalls one (the default is 6 s).
const deadAfter = 2 * time.Second

func togetherScenario(t *testing.T, seed uint64) error {
	return togetherOn(t, seed, scenario{bus: newJitterBus(t, 15*time.Millisecond, seed), patience: 5 * time.Second, rematch: seed%2 == 0})
}

// togetherOn plays one scenario of TestReplicasStayTogether.
func togetherOn(t *testing.T, seed uint64, sc scenario) error {
	rnd := rand.New(rand.NewPCG(seed, 1))
	games := &memGames{games: map[int64]*play.Game{}}
	hubs := make([]*hub, 3)
	for i := range hubs {
		cfg := Config{Games: games, Bus: sc.bus.end(), Log: slog.New(slog.DiscardHandler), Now: time.Now,
			Countdown: time.Millisecond, BeatEvery: 200 * time.Millisecond}
		if sc.kill || sc.stall {
			cfg.DeadAfter = deadAfter
		}
		hubs[i] = newHub(cfg)
		t.Cleanup(hubs[i].shutdown)
	}
	patience := sc.patience
	// Seven members over the three processes, each process one at least;
	// the launcher is the first.
	members := make([][]string, len(hubs))
	for i := range 7 {
		at := i % len(hubs)
		if i >= len(hubs) {
			at = rnd.IntN(len(hubs))
		}
		members[at] = append(members[at], fmt.Sprint("u", i))
	}
	launcherAt := 0
	hubs[launcherAt].pend("c1", "u0", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: seed + 1}, true, "")
	in := testInstance("i-1", "c1")

	delays := make([]time.Duration, len(hubs))
	for i := range delays {
		delays[i] = time.Duration(rnd.IntN(400)) * time.Millisecond
	}
	rooms := make([]*room, len(hubs)) // under roomsMu once the race runs
	var roomsMu sync.Mutex
	roomAt := func(i int) *room {
		roomsMu.Lock()
		defer roomsMu.Unlock()
		return rooms[i]
	}
	all := func() []*room {
		roomsMu.Lock()
		defer roomsMu.Unlock()
		return slices.Clone(rooms)
	}
	// connect opens process i's replica, as its members' clients do, and
	// says their hellos through it.
	connect := func(i int) error {
		r, err := hubs[i].open(context.Background(), in)
		for errors.Is(err, errNoState) { // the member's client tries again
			r, err = hubs[i].open(context.Background(), in)
		}
		if err != nil {
			return fmt.Errorf("process %d: %w", i, err)
		}
		roomsMu.Lock()
		rooms[i] = r
		roomsMu.Unlock()
		for _, u := range members[i] {
			if err := r.put(event{Kind: evHello, User: u, Name: u}); err != nil {
				return fmt.Errorf("%s's hello: %w", u, err)
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(hubs))
	for i := range hubs {
		wg.Go(func() {
			time.Sleep(delays[i])
			if err := connect(i); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	if err, failed := <-errs; failed {
		return err
	}
	// rejoin reconnects process i's members if old, its replica, left
	// (room.rejoin): the server says their goodbyes and closes their
	// connections, and their clients open the room again.
	var rejoins atomic.Int32
	var rejoinMu sync.Mutex
	rejoin := func(i int, old *room) error {
		rejoinMu.Lock()
		defer rejoinMu.Unlock()
		if roomAt(i) != old || !left(old) {
			return nil // reconnected already, or there
		}
		rejoins.Add(1)
		for _, u := range members[i] {
			if err := hubs[i].publish(event{Kind: evBye, Instance: in.ID, User: u}); err != nil {
				return err
			}
		}
		return connect(i)
	}
	rejoined := func() error {
		for i := range rooms {
			if err := rejoin(i, roomAt(i)); err != nil {
				return err
			}
		}
		return nil
	}
	var lost error
	until := func(cond func() bool) bool {
		return within(patience, func() bool {
			if lost == nil {
				lost = rejoined()
			}
			return lost == nil && cond()
		})
	}
	everyone := slices.Concat(members...)
	holdsAll := func(r *room) bool {
		d := describe(t, r)
		return !slices.ContainsFunc(everyone, func(u string) bool { return !strings.Contains(d, " "+u+"@") })
	}
	together := func() bool {
		rs := all()
		first := describe(t, rs[0])
		for _, r := range rs[1:] {
			if describe(t, r) != first {
				return false
			}
		}
		return strings.Contains(first, " race ")
	}
	views := func() string {
		var b strings.Builder
		for i, r := range all() {
			fmt.Fprintf(&b, "\n process %d (opened after %v, members %v): %s", i, delays[i], members[i], describe(t, r))
		}
		return b.String()
	}
	if !until(func() bool { return !slices.ContainsFunc(all(), func(r *room) bool { return !holdsAll(r) }) }) {
		return fmt.Errorf("a replica lacks a member (%v; %d rejoins):%s", lost, rejoins.Load(), views())
	}
	if err := roomAt(launcherAt).put(event{Kind: evStart, User: "u0"}); err != nil {
		return err
	}
	if !until(together) {
		return fmt.Errorf("the replicas are not together in the race (%v; %d rejoins):%s", lost, rejoins.Load(), views())
	}
	before := rejoins.Load()
	if err := raceScenario(t, rnd, games, procs{roomAt, all, rejoin}, members, views, sc); err != nil {
		return err
	}
	if sc.stall && rejoins.Load() == before {
		return fmt.Errorf("the stalled process was not taken for dead, or its replica stayed:%s", views())
	}
	return nil
}

// raceScenario races the members of a room the replicas hold together:
// u0 runs the maze's solution through the launcher's process, the others
// make random moves through theirs (a move runs a corridor: some reach
// the goal too), and the last member, halfway through,
// leaves and comes back through the next process. Then every replica
// still held must agree, u0 done on each, and each finish recorded once.
// A replica left with no member connected may leave (idle) meanwhile. A
// scenario that kills a process kills the one the switcher neither leaves
// nor reaches, unless it is the launcher's: its first member runs the
// solution too, and the process dies once that member's last move was
// answered. Its members must then be offline in the others' replicas,
// and that finish recorded by another process.
func raceScenario(t *testing.T, rnd *rand.Rand, games *memGames, p procs, members [][]string, views func() string, sc scenario) error {
	patience := sc.patience
	sol, err := solutionMoves(mazeOf(t, p.roomAt(0)))
	if err != nil {
		return err
	}
	type racer struct {
		user  string
		at    int
		moves []string
		pause *rand.Rand // its own: a Rand is not for two goroutines
	}
	switcherAt := len(members) - 1 // the last member's
	// third is the process the switcher neither leaves nor reaches.
	third := 3 - switcherAt - (switcherAt+1)%len(members)
	victim := -1
	if sc.kill && third != 0 {
		victim = third
	}
	var racers []racer
	for at, us := range members {
		for j, u := range us {
			moves := sol
			if u != "u0" && (at != victim || j != 0) && !sc.rematch {
				moves = make([]string, 12)
				for i := range moves {
					moves[i] = string("nsew"[rnd.IntN(4)])
				}
			}
			racers = append(racers, racer{u, at, moves, rand.New(rand.NewPCG(rnd.Uint64(), 3))})
		}
	}
	switcher := &racers[len(racers)-1]
	var killed atomic.Bool
	errs := make(chan error, len(racers))
	var wg sync.WaitGroup
	if sc.stall {
		after := time.Duration(100+rnd.IntN(300)) * time.Millisecond
		wg.Go(func() {
			time.Sleep(after)
			sc.bus.(staller).stall(third, deadAfter+time.Second)
		})
	}
	for _, rc := range racers {
		wg.Go(func() {
			at := rc.at
			for i := 0; i < len(rc.moves); i++ {
				dir := rc.moves[i]
				if at == victim && killed.Load() {
					return // its process died
				}
				if rc.user == switcher.user && i == len(rc.moves)/2 {
					next := (at + 1) % len(members)
					if err := p.roomAt(at).put(event{Kind: evBye, User: rc.user}); err != nil {
						errs <- err
						return
					}
					if err := p.roomAt(next).put(event{Kind: evHello, User: rc.user, Name: rc.user}); err != nil {
						errs <- err
						return
					}
					at = next
					// Its hello, through the bus, comes before its next move.
					if !within(patience, func() bool { return strings.Contains(describe(t, p.roomAt(at)), " "+rc.user+"@") }) {
						errs <- fmt.Errorf("%s's hello through process %d never came:%s", rc.user, at, views())
						return
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), patience)
				finish := at == victim && rc.user == members[victim][0] && i == len(rc.moves)-1
				if finish {
					// Its process dies once its finish is on the bus, before
					// its own replica plays it, and records it: no answer
					// comes.
					sc.bus.(killer).killAtMove(victim, rc.user)
					killed.Store(true)
					cancel()
					ctx, cancel = context.WithTimeout(context.Background(), time.Second)
				}
				r := p.roomAt(at)
				why := r.move(ctx, nil, rc.user, dir)
				cancel()
				switch {
				case at == victim && killed.Load():
					return // its process died: no answer, or any
				case left(r):
					// Its replica left (taken for dead: a stall): the member
					// reconnects, and moves again.
					if err := p.rejoin(at, r); err != nil {
						errs <- err
						return
					}
					i--
					continue
				case rc.user == "u0" && why != "":
					errs <- fmt.Errorf("u0's move %d (%s) refused: %s:%s", i, dir, why, views())
					return
				case why == refusedFinished:
					return // its corridor runs reached the goal
				case why != "" && why != refusedWall:
					errs <- fmt.Errorf("%s's move %d (%s) refused: %s:%s", rc.user, i, dir, why, views())
					return
				}
				time.Sleep(time.Duration(rc.pause.IntN(10)) * time.Millisecond)
			}
		})
	}
	wg.Wait()
	close(errs)
	if err, failed := <-errs; failed {
		return err
	}
	settled := func() bool {
		var first string
		for i := range members {
			r := p.roomAt(i)
			if ended(r) || i == victim {
				continue // idle, it left; or dead
			}
			d := describe(t, r)
			if first == "" {
				first = d
			}
			if d != first || !strings.Contains(d, " u0@") || !doneIn(d, "u0") {
				return false
			}
		}
		if victim >= 0 && slices.ContainsFunc(members[victim], func(u string) bool { return !strings.Contains(first, " "+u+"@") || onlineIn(first, u) }) {
			return false
		}
		// Each finish recorded once: by its member's process, or, if that
		// died, perhaps before its own replica played the finish, by the
		// process that found it dead.
		recorded := games.finishedBy()
		for u, n := range recorded {
			if n > 1 || !doneIn(first, u) {
				return false
			}
		}
		return !slices.ContainsFunc(slices.Concat(members...), func(u string) bool { return doneIn(first, u) && recorded[u] == 0 })
	}
	if !within(patience, settled) {
		return fmt.Errorf("after the race the replicas differ, a dead process's member is online, or a finish is not recorded once (recorded %v; process %d killed):%s",
			games.finishedBy(), victim, views())
	}
	if !sc.rematch {
		return nil
	}
	where := map[string]int{}
	for at, us := range members {
		for _, u := range us {
			where[u] = at
		}
	}
	where[switcher.user] = (switcher.at + 1) % len(members)
	return rematchScenario(t, rnd, games, p, where, views, patience)
}

// rematchScenario: once every racer finished, u0 and a member of another
// process press Rematch at once, each with a maze of its own; every
// replica must race the one the bus ordered first, with every member, and
// once each ran its solution, every member's second finish be recorded
// once.
func rematchScenario(t *testing.T, rnd *rand.Rand, games *memGames, p procs, where map[string]int, views func() string, patience time.Duration) error {
	var first mazecore.ID
	p.roomAt(0).inspect(func(st *state) { first = st.maze.ID() })
	var other string
	for u, at := range where {
		if at != where["u0"] && (other == "" || u < other) {
			other = u
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for i, u := range []string{"u0", other} {
		next := first
		next.Seed = first.Seed + 1 + uint64(i)
		pause := time.Duration(rnd.IntN(2)) * time.Millisecond // drawn here: a Rand is not for two goroutines
		wg.Go(func() {
			time.Sleep(pause)
			errs <- p.roomAt(where[u]).put(event{Kind: evRematch, User: u, Maze: next.String()})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	live := func() []*room {
		return slices.DeleteFunc(p.all(), ended)
	}
	agreed := func(cond func(string) bool) bool {
		rooms := live()
		d := describe(t, rooms[0])
		for _, r := range rooms[1:] {
			if describe(t, r) != d {
				return false
			}
		}
		return cond(d)
	}
	everyone := func(d string, with string) bool {
		for u := range where {
			if !strings.Contains(playerIn(d, u), with) {
				return false
			}
		}
		return true
	}
	if !within(patience, func() bool {
		return agreed(func(d string) bool {
			return !strings.HasPrefix(d, first.String()) && strings.Contains(d, " race ") && everyone(d, "game=true")
		})
	}) {
		return fmt.Errorf("the rematch is not raced alike everywhere:%s", views())
	}
	sol, err := solutionMoves(mazeOf(t, p.roomAt(where["u0"])))
	if err != nil {
		return err
	}
	errs = make(chan error, len(where))
	for u, at := range where {
		wg.Go(func() {
			for i, dir := range sol {
				ctx, cancel := context.WithTimeout(context.Background(), patience)
				why := p.roomAt(at).move(ctx, nil, u, dir)
				cancel()
				if why != "" {
					errs <- fmt.Errorf("%s's move %d (%s) in the rematch refused: %s:%s", u, i, dir, why, views())
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err, failed := <-errs; failed {
		return err
	}
	if !within(patience, func() bool {
		recorded := games.finishedBy()
		for u := range where {
			if recorded[u] != 2 {
				return false
			}
		}
		return agreed(func(d string) bool { return everyone(d, "done=true") })
	}) {
		return fmt.Errorf("after the rematch the replicas differ, or a finish is not recorded once (recorded %v):%s", games.finishedBy(), views())
	}
	return nil
}

// procs is a scenario's processes as its race sees them: each one's
// replica now, and how its members reconnect when that one left.
type procs struct {
	roomAt func(i int) *room
	all    func() []*room // every process's, in order
	rejoin func(i int, old *room) error
}

// ended tells whether r's loop returned: it left, or dropped itself idle.
func ended(r *room) bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// left tells whether r left the room (rejoin), its members to reconnect.
func left(r *room) bool {
	if !ended(r) {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// playerIn is user's part of a room's description (describe), "" if
// they are not in it.
func playerIn(description, user string) string {
	_, rest, _ := strings.Cut(description, " "+user+"@")
	player, _, _ := strings.Cut(rest, " u")
	return player
}

// onlineIn tells whether user is online in a room's description.
func onlineIn(description, user string) bool {
	return strings.Contains(playerIn(description, user), "online=true")
}

// doneIn tells whether user is done in a room's description.
func doneIn(description, user string) bool {
	return strings.HasSuffix(playerIn(description, user), "done=true")
}

// within polls cond until it holds (true) or d passed (false).
func within(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// jitterBus delivers every message to every subscriber in the order
// published, each after a random delay up to jitter: one total order, at
// uneven times, as a shared bus under load.
type jitterBus struct {
	orderedBus
	queue chan []byte
}

func newJitterBus(t *testing.T, jitter time.Duration, seed uint64) *jitterBus {
	b := &jitterBus{queue: make(chan []byte, 4096)}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	rnd := rand.New(rand.NewPCG(seed, 2))
	go func() {
		for {
			select {
			case <-stop:
				return
			case msg := <-b.queue:
				time.Sleep(time.Duration(rnd.Int64N(int64(jitter))))
				_ = busEnd{&b.orderedBus}.Publish(context.Background(), msg)
			}
		}
	}()
	return b
}

func (b *jitterBus) end() Bus { return jitterEnd{busEnd{&b.orderedBus}, b} }

type jitterEnd struct {
	busEnd
	b *jitterBus
}

func (e jitterEnd) Publish(_ context.Context, msg []byte) error {
	e.b.queue <- slices.Clone(msg)
	return nil
}

func (e jitterEnd) Send(ctx context.Context, msg []byte) error { return e.Publish(ctx, msg) }

// lagBus delivers every message to every end in one order, each end after
// a lag of its own plus a random jitter taken once a message: listeners
// behind each other, as on a loaded machine.
type lagBus struct {
	mu     sync.Mutex // the order
	ends   []*lagEnd
	lags   []time.Duration
	jitter time.Duration
	rnd    *rand.Rand
	stop   chan struct{}
}

type lagEnd struct {
	bus    *lagBus
	lag    time.Duration
	queue  chan lateMsg
	dead   atomic.Bool // killed: it sends and hears nothing
	killAt []byte      // under bus.mu: a move that kills it once sent
	// Under bus.mu: while stalled, what it sends is held, and what it is
	// sent is due no sooner.
	stalledUntil time.Time
	held         [][]byte
	mu           sync.Mutex
	deliver      func([]byte)
}

// killAtMove kills the process of end i once it sent user's next move.
func (b *lagBus) killAtMove(i int, user string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ends[i].killAt = []byte(`"u":"` + user + `"`)
}

func newLagBus(t *testing.T, jitter time.Duration, seed uint64, lags []time.Duration) *lagBus {
	b := &lagBus{lags: lags, jitter: jitter, rnd: rand.New(rand.NewPCG(seed, 5)), stop: make(chan struct{})}
	t.Cleanup(func() { close(b.stop) })
	return b
}

// end is the next process's end, with the next lag.
func (b *lagBus) end() Bus {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := &lagEnd{bus: b, lag: b.lags[len(b.ends)], queue: make(chan lateMsg, 1<<14)}
	b.ends = append(b.ends, e)
	go func() {
		for {
			select {
			case <-b.stop:
				return
			case m := <-e.queue:
				time.Sleep(time.Until(m.due))
				e.mu.Lock()
				deliver := e.deliver
				e.mu.Unlock()
				if deliver != nil && !e.dead.Load() {
					deliver(m.msg)
				}
			}
		}
	}()
	return e
}

// stall stalls the process of end i for d.
func (b *lagBus) stall(i int, d time.Duration) {
	b.mu.Lock()
	e := b.ends[i]
	e.stalledUntil = time.Now().Add(d)
	b.mu.Unlock()
	go func() {
		select {
		case <-b.stop:
			return
		case <-time.After(d):
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, msg := range e.held {
			b.order(msg)
		}
		e.held = nil
	}()
}

func (e *lagEnd) Publish(_ context.Context, msg []byte) error {
	b := e.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if e.dead.Load() {
		return nil // it died before its message had a place
	}
	if time.Now().Before(e.stalledUntil) || len(e.held) > 0 {
		e.held = append(e.held, slices.Clone(msg))
		return nil
	}
	b.order(msg)
	if e.killAt != nil && bytes.Contains(msg, e.killAt) && bytes.Contains(msg, []byte(`"k":"move"`)) {
		e.dead.Store(true)
	}
	return nil
}

// order gives msg its place in the bus's order: each end is sent it
// after its lag, and a stalled one once its stall ended. b.mu is held.
func (b *lagBus) order(msg []byte) {
	sent := time.Now().Add(time.Duration(b.rnd.Int64N(int64(b.jitter))))
	for _, to := range b.ends {
		due := sent.Add(to.lag)
		if due.Before(to.stalledUntil) {
			due = to.stalledUntil
		}
		to.queue <- lateMsg{slices.Clone(msg), due}
	}
}

func (e *lagEnd) Send(ctx context.Context, msg []byte) error { return e.Publish(ctx, msg) }

func (e *lagEnd) Subscribe(deliver func([]byte)) {
	e.mu.Lock()
	e.deliver = deliver
	e.mu.Unlock()
}

func (*lagEnd) Shared() bool { return true }
func (*lagEnd) Close() error { return nil }
