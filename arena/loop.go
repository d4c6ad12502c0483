package arena

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
)

// room is one Activity instance's race, as this process holds it. Its
// state belongs to one goroutine, the loop (run): the inputs come on in,
// in the bus's order, apply computes the next state, and the loop does
// the effects (broadcasts, the games' store calls, timers). What the
// connections share with the loop is under mu.
type room struct {
	h        *hub
	instance string
	in       chan *event       // the inputs, in the bus's order
	peek     chan func(*state) // a look at the state, for tests and syncs
	ready    chan struct{}     // closed once the room is usable here
	done     chan struct{}     // closed when the loop returned

	// shared: another process holds the room too, so its inputs go
	// through the bus (see put).
	shared atomic.Bool

	mu      sync.Mutex
	conns   map[*conn]bool     // this process's, true once welcomed
	replies map[string]awaited // the moves waiting for their verdict, by nonce
	phase   string             // the loop's, for the connections' checks
	launch  string             // the launcher, likewise
	maze    string             // the maze's ID, likewise
	rematch bool               // a rematch may be asked (state.rematchable), likewise
	racers  map[string]bool    // the members who race (the others watch), likewise
	ghosts  map[string][]byte  // each racer's GhostsMsg here, for their reconnects
	// predictions are the games this process answers its members' moves
	// on ahead of a shared bus (predict.go), by member.
	predictions map[string]*prediction
	// starting holds a place for each of the room's game starts in the
	// store (startsAtOnce).
	starting chan struct{}
	// moves and requests are the members' buckets here for moves, and for
	// Start and picks: one of each for all of a member's connections, so
	// that more connections bring no more moves.
	moves, requests memberBuckets
	// inflight counts the inputs this process put on the bus that have not
	// come back yet: the room is played without the bus again only when
	// none is on its way, so that none comes after an input put later.
	inflight int
	// dropped: the replica left the room (dropIdle); a connection that
	// finds it opens the room again.
	dropped bool
}

// awaited is a move waiting for the loop's verdict: why it was refused,
// "" once played. The loop sends the mover's connection its PosMsg
// itself, in order with what the room says next (a finish's room).
type awaited struct {
	c       *conn
	verdict chan string
}

// moveTick is how often a room sends its connections the dots that moved
// (MovesMsg): a member sees the others' moves within it, while the mover
// is answered at once. A message a move to every connection was a write
// a move a connection, which took the server's cores (BenchmarkArena).
// At 50 ms the others saw a move 50 ms after it (broadcast-p50 50 ms,
// p99 55 ms, for 2,000 racers over 200 rooms); at 16 ms, 16 and 20 ms,
// with the same cores used and the same moves played: 15 keeps the p99
// under the 20 ms a live race asks.
const moveTick = 15 * time.Millisecond

// startsAtOnce is how many of a room's game starts may be in the store
// at once; the others wait their turn, which no timeout counts. A race's
// start asks for every member's game together, and 100 at once on
// SQLite's one writer waited past their timeout (startWithin), and those
// members watched.
const startsAtOnce = 4

// startWithin bounds one game's start in the store, once its turn came.
const startWithin = 10 * time.Second

// inbox is how many inputs may wait for a room's loop: the bus's
// deliveries block past it, which slows every room. A place is a pointer
// (an event by value was some 220 bytes a place, 56 kB a room, used or
// not).
const inbox = 256

// Requests (Start, a pick) a member may send: a burst, then a few a
// second. Each pick sends every member a new maze, and each request is
// an input for every process on the bus, so a flood of them costs the
// whole room.
const (
	requestRate  = 2
	requestBurst = 5
)

func newRoom(h *hub, st roomState, m *mazecore.Maze) *room {
	r := &room{h: h, instance: st.Instance, in: make(chan *event, inbox), peek: make(chan func(*state)),
		ready: make(chan struct{}), done: make(chan struct{}), starting: make(chan struct{}, startsAtOnce),
		conns: map[*conn]bool{}, racers: map[string]bool{}, ghosts: map[string][]byte{}, predictions: map[string]*prediction{}, replies: map[string]awaited{}, phase: st.Phase, launch: st.Launcher, maze: st.Maze,
		moves: newMemberBuckets(h.cfg.MoveRate, h.cfg.MoveBurst), requests: newMemberBuckets(requestRate, requestBurst)}
	return r
}

// allow takes one of a member's moves from their bucket.
func (r *room) allow(userID string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.moves.take(userID, now)
}

// allowRequest takes one of a member's requests from their bucket.
func (r *room) allowRequest(userID string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests.take(userID, now)
}

// info is the phase and the launcher, as the loop last left them.
func (r *room) info() (phase, launcher string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.phase, r.launch
}

// input hands ev to the loop; once the room ended it is dropped.
func (r *room) input(ev event) {
	select {
	case r.in <- &ev:
	case <-r.done:
	}
}

// put hands the room one of this process's inputs: on the bus while
// another process holds the room, so that every replica plays it in one
// order; else straight to the loop, as the MemoryBus does, with no round
// trip through a database (a room whose members all reach one process
// needs none). The loop sends one that came while it was alone but
// finds the room shared on to the bus (see run).
func (r *room) put(ev event) error {
	ev.Instance = r.instance
	r.mu.Lock()
	dropped, shared := r.dropped, r.shared.Load()
	if shared && !dropped {
		r.inflight++
	}
	r.mu.Unlock()
	switch {
	case dropped:
		return nil // a timer's input, after the replica left
	case shared:
		return r.h.publish(ev)
	}
	ev.Origin, ev.local = r.h.proc, true
	if ev.At == 0 {
		ev.At = r.h.now().UnixMilli()
	}
	r.input(ev)
	return nil
}

// refuse answers the move waiting as nonce, if one does, with why.
func (r *room) refuse(nonce, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.replies[nonce]; ok {
		a.verdict <- why
	}
}

// inspect runs f on the state in the loop, and waits for it; false if
// the room ended.
func (r *room) inspect(f func(*state)) bool {
	ran := make(chan struct{})
	select {
	case r.peek <- func(st *state) { f(st); close(ran) }:
		<-ran
		return true
	case <-r.done:
		return false
	}
}

// move plays a member's move from connection c: why it was refused, ""
// once played and c sent its PosMsg. Every process holding the room plays
// it alike, in the bus's order; on a shared bus this process answers it
// first on its prediction (predict.go) and only puts it on the bus, else
// it waits for the loop's verdict. The other connections see it in the
// room's next MovesMsg.
func (r *room) move(ctx context.Context, c *conn, userID, dir string) string {
	nonce := newNonce()
	if r.shared.Load() {
		ev := event{Kind: evMove, Instance: r.instance, User: userID, Dir: dir, Nonce: nonce, At: r.h.now().UnixMilli()}
		if why, ok := r.predict(c, ev); ok {
			if why == "" && r.h.send(ev) != nil {
				r.unsent(userID, nonce)
				return refusedError
			}
			return why
		}
	}
	verdict := make(chan string, 1)
	r.mu.Lock()
	r.replies[nonce] = awaited{c: c, verdict: verdict}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.replies, nonce)
		r.mu.Unlock()
	}()
	if r.put(event{Kind: evMove, User: userID, Dir: dir, Nonce: nonce}) != nil {
		return refusedError
	}
	select {
	case why := <-verdict:
		return why
	case <-r.done:
		return refusedFinished
	case <-ctx.Done():
		return refusedError
	}
}

// holdsIt: an input of kind from another process shows that it holds the
// room. Not a sync (its process asks, as this one does, and two opening a
// room at once would wait for each other), a drop, or a beat (which comes
// to every room held here, whichever rooms its process holds).
func holdsIt(kind string) bool {
	switch kind {
	case evSync, evDrop, evBeat, evTick:
		return false
	}
	return true
}

// run is the room's loop: it owns st until the room ends or the process
// shuts down. A shared bus's new replica first waits for the state of
// the processes already holding the room (syncing).
func (r *room) run(st state, syncNonce string, making map[string]string) {
	defer close(r.done)
	h := r.h
	var (
		syncing   = syncNonce != ""
		sawSync   bool
		buffer    []event
		syncTimer <-chan time.Time
		countdown *time.Timer
		lingering *time.Timer
		// moved is the dots moved since the last MovesMsg, each once at
		// its latest place (movedAt: its index); flush fires a tick after
		// the first of them.
		moved   []Dot
		movedAt = map[string]int{}
		since   []int64 // each moved dot's oldest move since the last MovesMsg, Unix ms
		ticker  = time.NewTimer(moveTick)
		flush   <-chan time.Time
		// idle fires Linger after the last member here left a room that
		// others still race in: the replica then leaves (dropIdle).
		idle  *time.Timer
		idleC <-chan time.Time
		// early is the processes heard from before this replica's sync,
		// whose inputs the state it takes may not show, and those whose
		// syncs the hub heard before the replica was made (making): each
		// with its replica's nonce, where its sync named it.
		early = making
		// heldElsewhere: while syncing, an input of the room came from a
		// process that held it at this replica's sync, so its state will
		// come; newer is the processes whose sync came after this one's.
		heldElsewhere bool
		newer         = map[string]bool{}
		// left: the replica left (rejoin): this process was taken for
		// dead, or the bus lost messages.
		left bool
		// tookItNew: no state came within the sync's wait, and the
		// replica took the room as new; playedAlone: since then it
		// played an input of its own without the bus.
		tookItNew, playedAlone bool
	)
	ticker.Stop()
	defer ticker.Stop()
	sendMoved := func() {
		if len(moved) > 0 {
			if observe := h.cfg.ObserveBroadcast; observe != nil {
				now := h.now().UnixMilli()
				for _, at := range since {
					observe(time.Duration(now-at) * time.Millisecond)
				}
			}
			r.broadcast(MovesMsg{T: "moves", Moves: moved})
			moved, since = moved[:0], since[:0]
			clear(movedAt)
		}
		flush = nil
	}
	defer func() {
		if countdown != nil {
			countdown.Stop()
		}
		if lingering != nil {
			lingering.Stop()
		}
		if idle != nil {
			idle.Stop()
		}
	}()
	var syncClock *time.Timer
	syncSince := time.Now()
	opened := st.roomState // the room as this replica made it, at its sync
	if syncing {
		syncClock = time.NewTimer(syncWait)
		defer syncClock.Stop()
		syncTimer = syncClock.C
	} else {
		close(r.ready)
	}
	var do func(fx []effect)
	step := func(ev event) {
		start := time.Now()
		var fx []effect
		st, fx = apply(st, ev)
		do(fx)
		if ev.Kind == evGame {
			r.gameHere(&st, ev.User)
		}
		if r.shared.Load() {
			r.goAlone(&st)
		} else if !st.alone() && !r.shared.Swap(true) {
			// Another process holds a replica, and its inputs' arrival
			// did not make the room shared: they came while this replica
			// synced, and the replay of what it buffered let it go alone
			// at an input that names no holder (a beat) before theirs.
			// Its members' inputs then stayed here, and the others never
			// saw them (three processes' 200 racers: a room's start).
			r.predictHere(&st)
		}
		if r.shared.Load() && ev.Kind != evMove {
			// A move connects nobody, so the members' connections are not
			// walked for every move (a dead process's members, whom a move
			// may take offline, are seen at the next beat).
			here, elsewhere := st.onlineVia()
			if here && idle != nil {
				idle.Stop() // a member is back: the wait begins again when they go
				idleC = nil
			}
			if !here && elsewhere && idleC == nil && syncNonce != "" {
				idle = time.NewTimer(st.linger)
				idleC = idle.C
			}
		}
		h.cfg.Metrics.ArenaTick(time.Since(start))
	}
	// finishSync puts the replica in step, on the state of the process
	// from (none: the room is new).
	finishSync := func(from string) {
		syncing, syncTimer = false, nil
		if from == "" {
			from, tookItNew = "none: a new room", true
		}
		h.log.Debug("arena: a replica of a shared room is in step", "instance", r.instance, "state_from", from,
			"players", len(st.Players), "phase", st.Phase, "buffered", len(buffer), "waited", time.Since(syncSince).Round(time.Millisecond))
		if st.Holders == nil {
			st.Holders = map[string]string{}
		}
		st.Holders[h.proc] = syncNonce
		for origin, nonce := range early {
			if _, ok := st.Holders[origin]; !ok {
				st.Holders[origin] = nonce
			}
		}
		if !st.alone() && !r.shared.Swap(true) {
			// Held elsewhere, though no input of the others came here
			// (their syncs came before this replica was made): its
			// members' inputs go through the bus.
			r.predictHere(&st)
		}
		for _, ev := range buffer {
			step(ev)
		}
		buffer = nil
		if st.Phase == phaseCountdown {
			do([]effect{{kind: effSchedule, at: st.StartAt}})
		}
		close(r.ready)
	}
	do = func(fx []effect) {
		for _, f := range fx {
			switch f.kind {
			case effBroadcast:
				sendMoved() // what the room says comes in the order it happened
				r.broadcast(f.msg)
			case effMoved:
				pos := f.msg.(PosMsg)
				r.settle(&st, pos.ID, f.nonce, &pos)
				dot := Dot{ID: pos.ID, X: pos.X, Y: pos.Y, Tiles: pos.Tiles, Clicks: pos.Clicks}
				if i, ok := movedAt[dot.ID]; ok {
					moved[i] = dot
					break
				}
				if len(moved) == 0 {
					ticker.Reset(moveTick)
					flush = ticker.C
				}
				movedAt[dot.ID] = len(moved)
				moved = append(moved, dot)
				since = append(since, f.at)
			case effWelcome:
				r.welcome(f.nonce, f.user, &st)
				if g := st.games[f.user]; g != nil && !r.hasGhosts(f.user) {
					// A racer who comes to this process mid-race (theirs
					// died, or they reconnected through another) has
					// their ghosts read here.
					game := *g
					h.goTracked(func(ctx context.Context) { r.sendGhosts(ctx, &game) })
				}
			case effReply:
				if f.why == "" {
					h.cfg.Metrics.ArenaMoved()
				} else {
					r.settle(&st, f.user, f.nonce, nil)
				}
				r.mu.Lock()
				if a, ok := r.replies[f.nonce]; ok {
					if f.why == "" && a.c != nil {
						if b, err := json.Marshal(f.msg); err == nil {
							a.c.send(b)
						}
					}
					a.verdict <- f.why
				}
				r.mu.Unlock()
			case effStartGame:
				m, g, guild, channel := st.maze, st.grid, st.Guild, st.Channel
				h.goTracked(func(ctx context.Context) { r.startGame(ctx, m, g, f.user, guild, channel) })
			case effRecord:
				h.goTracked(func(ctx context.Context) { h.record(ctx, r.instance, f.game, f.run, f.rescue) })
			case effSchedule:
				if countdown != nil {
					countdown.Stop()
				}
				at := f.at
				countdown = time.AfterFunc(max(time.UnixMilli(at).Sub(h.now()), 0), func() {
					// The race begins when this process's clock says StartAt came.
					r.input(event{Kind: evTick, At: max(h.now().UnixMilli(), at)})
				})
			case effLinger:
				if lingering != nil {
					lingering.Stop()
				}
				at := f.at
				lingering = time.AfterFunc(max(time.UnixMilli(at).Sub(h.now()), 0), func() {
					h.goTracked(func(context.Context) {
						r.put(event{Kind: evExpire, At: max(h.now().UnixMilli(), at)})
					})
				})
			case effSendState:
				snap := st.snapshot()
				h.goTracked(func(context.Context) {
					h.publish(event{Kind: evState, Instance: r.instance, Nonce: f.nonce, State: &snap})
				})
			case effCard:
				snap, m, g := st.snapshot(), st.maze, st.grid // mazes are never changed: shared safely
				// A race a rematch ended has its card, on its maze.
				if f.race != nil {
					snap, m, g = f.race.room, f.race.maze, f.race.grid
				}
				h.goTracked(func(ctx context.Context) { h.card(ctx, snap, m, g) })
			case effEnd:
				h.drop(r)
			case effTakenForDead:
				r.rejoin(syncNonce)
				left = true
			}
		}
		r.mu.Lock()
		if r.maze != st.Maze {
			clear(r.ghosts) // a rematch's maze: the day's runs are not its ghosts
		}
		r.phase, r.launch, r.maze, r.rematch = st.Phase, st.Launcher, st.Maze, st.rematchable()
		if st.Phase != phaseRace {
			clear(r.predictions) // a rematch's games are new
		}
		clear(r.racers)
		for _, p := range st.Players {
			if !p.Watching {
				r.racers[p.ID] = true
			}
		}
		r.mu.Unlock()
	}
	for !st.ended && !left {
		select {
		case <-h.ctx.Done():
			return
		case f := <-r.peek:
			f(&st)
		case <-flush:
			sendMoved()
		case <-syncTimer:
			switch {
			case sawSync && !heldElsewhere:
				finishSync("") // nobody answered: no other process holds the room
			case time.Since(syncSince) < h.syncGiveUp:
				// Its own sync has not come back (a loaded bus, or one deaf
				// without knowing it yet, which would never bring the
				// answers), or another process holds the room (its inputs
				// come) and has not answered yet. Taking the room afresh
				// would start this replica apart from the others.
				syncClock.Reset(syncWait)
			default:
				why := "arena: no state came for a room another process holds"
				if !sawSync {
					why = "arena: this process's sync did not come back through the bus"
				}
				h.log.Warn(why, "instance", r.instance, "waited", time.Since(syncSince).Round(time.Millisecond))
				r.mu.Lock()
				r.leave()
				r.mu.Unlock()
				// The others took its sync for a replica: it is none.
				h.goTracked(func(context.Context) { h.publish(event{Kind: evDrop, Instance: r.instance, Nonce: syncNonce}) })
				return
			}
		case <-idleC:
			idleC = nil
			if r.dropIdle(&st, syncNonce) {
				return
			}
		case in := <-r.in:
			ev := *in
			if ev.Kind == evGap && ev.local {
				// The bus lost messages (busGap): this replica may lack
				// inputs the others played.
				if r.shared.Load() {
					r.rejoin(syncNonce)
					left = true
				}
				continue
			}
			if ev.Origin != h.proc && ev.Instance == r.instance && !r.shared.Swap(true) {
				// Another process holds the room now (a sync, or its
				// inputs): the moves of the members here are answered on
				// predictions from their next one on.
				r.predictHere(&st)
			}
			if ev.Origin == h.proc && !ev.local && ev.Instance == r.instance && viaPut(ev.Kind) {
				r.mu.Lock()
				if r.inflight > 0 { // one an earlier replica here put is not this one's
					r.inflight-- // back from the bus
				}
				r.mu.Unlock()
			}
			if ev.local && r.shared.Load() {
				// It was put while the room was this process's alone, and
				// another holds it now (and was sent the state without
				// it): it goes through the bus, after what the other saw.
				ev.local = false
				r.mu.Lock()
				r.inflight++
				r.mu.Unlock()
				if h.send(ev) != nil && ev.Kind == evMove {
					r.refuse(ev.Nonce, refusedError)
				}
				continue
			}
			switch {
			case tookItNew && ev.Kind == evState && ev.Nonce == syncNonce && ev.Origin != h.proc && ev.State != nil && (playedAlone || lacked(opened, ev.State)):
				// An answer to this replica's sync after it took the room
				// as new, holding what the new room lacked, or after it
				// played inputs of its own without the bus: a process held
				// the room (or made it), heard the sync late (its bus
				// behind this one's by more than the wait, or it synced
				// itself), and plays it from a state this replica never
				// had, or without this one's members' inputs, which
				// stayed here. Taking that state now would lose what
				// happened here meanwhile on no rule; rejoining (as a
				// process taken for dead does) has the members reconnect
				// at once to a replica that syncs again, and is answered.
				// (Two processes opening a room at once answer each other
				// late with the same new room: nothing lacked, no rejoin.)
				h.log.Info("arena: a late answer to a replica's sync: it started apart from the process holding the room, and rejoins",
					"instance", r.instance, "state_from", ev.Origin, "waited", time.Since(syncSince).Round(time.Millisecond))
				r.rejoin(syncNonce)
				left = true
				continue
			case !syncing:
				playedAlone = playedAlone || (tookItNew && ev.local)
				step(ev)
			case ev.Kind == evSync && ev.Nonce == syncNonce:
				// The others answer once they hear it, about now, and
				// their answer takes the bus about as long as the sync
				// took (a loaded bus: the sync's trip is its lag now), so
				// the wait begins here, and is that much longer. A quiet
				// holder (a lobby, no input to show it holds the room)
				// answered after syncWait on a bus a second behind, and the
				// replica had started apart.
				sawSync = true
				syncClock.Reset(syncWait + 2*time.Since(syncSince))
			case ev.Kind == evState && ev.Nonce == syncNonce && sawSync && ev.State != nil:
				st.adopt(*ev.State)
				finishSync(ev.Origin)
			case sawSync:
				buffer = append(buffer, ev)
			case ev.Origin != h.proc && ev.Instance == r.instance:
				// As hold does: a sync names its replica, which a drop of
				// that name ends.
				switch nonce, ok := early[ev.Origin]; {
				case ev.Kind == evSync:
					early[ev.Origin] = ev.Nonce
				case ev.Kind == evDrop:
					if ok && ev.Nonce != "" && nonce == ev.Nonce {
						delete(early, ev.Origin)
					}
				case !ok:
					early[ev.Origin] = ""
				}
			}
			if syncing && ev.Origin != h.proc && ev.Instance == r.instance {
				switch {
				case ev.Kind == evSync && sawSync:
					// Its replica is newer than this one: it takes this
					// sync for one before its own, and answers none.
					newer[ev.Origin] = true
				case holdsIt(ev.Kind) && !newer[ev.Origin]:
					heldElsewhere = true
				}
			}
		}
	}
}

// lacked tells whether answer, a state answering a replica's sync, holds
// what opened, the room as that replica made it new, lacks: members, a
// race, another maze or launcher. The answer is the room at the sync's
// place in the bus's order, where the new replica took opened.
func lacked(opened roomState, answer *roomState) bool {
	return len(answer.Players) > 0 || answer.Phase != opened.Phase || answer.Maze != opened.Maze ||
		answer.Launcher != opened.Launcher || answer.Round != opened.Round
}

// goAlone plays the room without the bus once no other process holds a
// replica of it and none of this process's inputs is still on the bus;
// the predictions go with the bus, and are made again if another process
// comes (as for a room made here alone).
func (r *room) goAlone(st *state) {
	if !st.alone() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight == 0 {
		r.shared.Store(false)
		clear(r.predictions)
	}
}

// dropIdle ends this replica of a shared room none of whose members has
// been connected here for Linger while others race on elsewhere: the
// others then play it without this process, alone without the bus if
// they are one. It says whether it did; not if a member connected here
// meanwhile. A member who comes back here gets a new replica, which asks
// the others for the state.
func (r *room) dropIdle(st *state, nonce string) bool {
	here, elsewhere := st.onlineVia()
	if here || !elsewhere || !r.shared.Load() {
		return false
	}
	r.mu.Lock()
	leave := len(r.conns) == 0 && r.leave()
	r.mu.Unlock()
	if leave {
		r.h.publish(event{Kind: evDrop, Instance: r.instance, Nonce: nonce})
	}
	return leave
}

// leave marks this replica as left (a connection is turned away, an
// input dropped) and takes it out of the hub, remembering the room, so
// that a connection that comes for it opens a new replica at once (one
// that never held the room waits for a launch). r.mu is held; it says
// whether the replica was still the hub's (not if the room ended).
func (r *room) leave() bool {
	r.dropped = true
	h := r.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rooms[r.instance] != r {
		return false
	}
	delete(h.rooms, r.instance)
	now := h.now()
	for instance, at := range h.left {
		// Past an hour, one coming back waits for a launch once, as on
		// a process that never held the room: the map stays small.
		if now.Sub(at) > time.Hour {
			delete(h.left, instance)
		}
	}
	h.left[r.instance] = now
	return true
}

// rejoin ends this replica, which may lack inputs the others played: the
// other processes took this one for dead (its bus was away longer than
// DeadAfter), and from that input on play the room without it; or the
// bus lost messages (busGap). It says goodbye for its connections, as
// their closing would (no input reaches a replica that left), and closes
// them with closeRejoin, which the client answers by reconnecting at
// once: the replica they then open asks the others for the room, and
// says hello for them again. (Without the goodbyes, a member who came
// back counted two connections through this process in the others'
// replicas, and stayed online there for good once they left.) It then
// drops the replica (nonce) in their rooms, if they still hold it.
func (r *room) rejoin(nonce string) {
	r.mu.Lock()
	r.leave()
	conns := make([]*conn, 0, len(r.conns))
	for c := range r.conns {
		conns = append(conns, c)
	}
	r.mu.Unlock()
	h := r.h
	// Off the loop: the goodbyes wait for the bus, and a close frame may
	// wait a second for a slow client.
	h.goTracked(func(context.Context) {
		for _, c := range conns {
			c.left.Do(func() { _ = h.publish(event{Kind: evBye, Instance: r.instance, User: c.user}) })
		}
		if nonce != "" {
			_ = h.publish(event{Kind: evDrop, Instance: r.instance, Nonce: nonce})
		}
		for _, c := range conns {
			c.closeWith(closeRejoin, "reconnecting to the race")
		}
	})
}

// startGame starts a member's game through Games, which counts it for the
// daily or event running on the maze in the channel, and tells the room.
func (r *room) startGame(ctx context.Context, m *mazecore.Maze, grid *mazecore.GridMaze, userID, guild, channel string) {
	h := r.h
	select {
	case r.starting <- struct{}{}:
		defer func() { <-r.starting }()
	case <-ctx.Done():
		return // the server closes
	}
	ctx, cancel := context.WithTimeout(ctx, h.startWithin)
	defer cancel()
	var g *play.Game
	err := h.protect("start a game", func() (err error) {
		who := play.Record{UserID: userID, GuildID: guild, ChannelID: channel}
		if grid != nil {
			g, err = h.cfg.Games.StartOnGrid(ctx, grid, who)
		} else {
			g, err = h.cfg.Games.Start(ctx, m, who)
		}
		return err
	})
	if err != nil {
		h.log.Error("arena: start a game", "instance", r.instance, "user", userID, "err", err)
		// Its held moves are refused; the member may join again.
		r.put(event{Kind: evGame, User: userID})
		return
	}
	r.put(event{Kind: evGame, User: userID, Game: g.ID, Key: g.Contest, At: g.StartedAt.UnixMilli()})
	r.sendGhosts(ctx, g)
}

// hasGhosts: this process sent user their ghosts.
func (r *room) hasGhosts(user string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ghosts[user] != nil
}

// sendGhosts sends a racer whose game g counts for a daily the day's best
// run in the server so far and their own, replayed on the maze, and keeps
// them for the racer's reconnects. Ghosts are this process's, not the
// room's state: a failure here costs the ghosts, never the race.
func (r *room) sendGhosts(ctx context.Context, g *play.Game) {
	h := r.h
	key, ok := contest.ParseKey(g.Contest)
	if _, _, daily := key.Daily(); !ok || !daily || h.cfg.Runs == nil {
		return
	}
	var ghosts []Ghost
	err := h.protect("ghosts", func() error {
		best, found, err := h.cfg.Runs.BestRun(ctx, g.Contest, "")
		if err != nil || !found {
			return err
		}
		runs := []play.Run{best}
		if best.UserID != g.UserID {
			own, found, err := h.cfg.Runs.BestRun(ctx, g.Contest, g.UserID)
			if err != nil {
				return err
			}
			if found {
				runs = append(runs, own)
			}
		}
		for _, run := range runs {
			if run.MazeID != g.MazeID {
				continue
			}
			steps, err := replayRun(g.Maze(), g.Grid(), run.Moves)
			if err != nil {
				return fmt.Errorf("the run of %s: %w", run.UserID, err)
			}
			kind := GhostBest
			if run.UserID == g.UserID {
				kind = GhostOwn
			}
			ghosts = append(ghosts, Ghost{Kind: kind, Name: run.Name, Ms: run.Ms, Steps: steps})
		}
		return nil
	})
	if err != nil {
		h.log.Warn("arena: ghosts", "instance", r.instance, "user", g.UserID, "err", err)
	}
	if len(ghosts) == 0 {
		return
	}
	msg, err := json.Marshal(GhostsMsg{T: "ghosts", Ghosts: ghosts})
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ghosts[g.UserID] = msg
	for c, welcomed := range r.conns {
		if welcomed && c.user == g.UserID {
			c.send(msg)
		}
	}
}

// welcome greets the connection nonce of user with the maze and the room
// (and the picker's algorithms in the member's language).
func (r *room) welcome(nonce, user string, st *state) {
	var msg []byte
	r.mu.Lock()
	defer r.mu.Unlock()
	for c, welcomed := range r.conns {
		if c.nonce != nonce || welcomed {
			continue
		}
		if msg == nil {
			msg, _ = json.Marshal(WelcomeMsg{T: "welcome", V: ProtocolVersion, You: user, Maze: st.drawn(), Room: st.view(),
				Now: r.h.now().UnixMilli(), Algorithms: algorithmChoices(c.locale), Grids: gridChoices(c.locale)})
		}
		r.conns[c] = true
		c.send(msg)
		if ghosts := r.ghosts[user]; ghosts != nil {
			c.send(ghosts)
		}
	}
}

// broadcast sends msg to every welcomed connection here.
func (r *room) broadcast(msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		r.h.log.Error("arena: encode", "err", err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for c, welcomed := range r.conns {
		if welcomed {
			c.send(b)
		}
	}
}

// snapshot copies the agreed state, the games' records with it, for a
// sync or the result card.
func (st *state) snapshot() roomState {
	out := st.roomState
	out.Seen = maps.Clone(st.Seen) // the loop goes on writing its own
	out.Holders = maps.Clone(st.Holders)
	out.Players = make([]*player, len(st.Players))
	for i, p := range st.Players {
		cp := *p
		cp.Conns = make(map[string]int, len(p.Conns))
		for k, v := range p.Conns {
			cp.Conns[k] = v
		}
		if g := st.games[p.ID]; g != nil {
			rec := g.Record
			rec.Trail = append([]byte(nil), rec.Trail...)
			cp.Rec = &rec
		}
		// A run stays with the replicas that played it from the start (up
		// to 16 KiB a racer would take a hundred racers' sync past the
		// bus's 1 MiB): one that takes this state keeps no ghost of it.
		if cp.Run != nil || cp.RunMoves > 0 {
			cp.Run, cp.RunMoves = nil, maxRunMoves+1
		}
		out.Players[i] = &cp
	}
	return out
}

// adopt takes a state another process sent: its maze and its games. The
// maze this replica opened the room on is kept when it is the same (an
// image's maze is built from the store, which adopt does not read).
func (st *state) adopt(in roomState) {
	m, grid := st.maze, st.grid
	if in.Maze != st.Maze {
		id, err := mazecore.Parse(in.Maze)
		if err != nil {
			return
		}
		// A rematch's maze of an image is made on the image's grid held
		// here, which the store's picture made.
		if m, grid, err = st.mazeOfKind(id); err != nil {
			return
		}
	}
	games := map[string]*play.Game{}
	for _, p := range in.Players {
		if p.Rec != nil {
			if g, err := resumeGame(m, grid, *p.Rec); err == nil {
				games[p.ID] = g
			}
			p.Rec = nil
		}
	}
	st.roomState, st.maze, st.grid, st.games = in, m, grid, games
}
