package arena

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/metrics"
	"mazebot/play"
)

// pendingTTL is how long a launch waits for its instance to open a room:
// Discord opens the Activity within seconds of LAUNCH_ACTIVITY.
const pendingTTL = 10 * time.Minute

// syncWait bounds how long a process that opens a room on a shared bus
// waits for another's state once its own sync came back through the bus
// (the others hear it about then), beyond twice the sync's own trip
// through the bus (the answer's trip back): past it, none holds the room.
const syncWait = 750 * time.Millisecond

// syncGiveUp is how long a process waits for the state of a room it sees
// another hold (its inputs come), or for its own sync to come back, a
// syncWait at a time: on a loaded bus the answer may take longer than
// syncWait, and a listener may be deaf before it knows it (pgbus asks
// after 5 s of quiet); a replica that took the room afresh would start
// apart from the others. Past it the open fails, and the member's client
// tries again.
const syncGiveUp = 10 * time.Second

// launchWait bounds the wait for a launch that is on its way (see
// awaitLaunch); an instance Discord launched itself (its own launcher,
// not the Race button or /race) has none, and waits this long once.
const launchWait = 2 * time.Second

// followupFor is how long after a launch its result card may follow it:
// Discord takes an interaction's followups for 15 minutes, less the
// card's drawing and a 429's wait.
const followupFor = 14 * time.Minute

// pending is a launch waiting for its room.
type pending struct {
	maze     string
	launcher string
	noCard   bool // the bot may not post in the channel
	followup string
	at       time.Time
}

// hub is this process's rooms and the launches waiting for one, kept by
// the events of the bus.
type hub struct {
	cfg  Config
	log  *slog.Logger
	bus  Bus
	proc string // this process, as events name their origin
	now  func() time.Time
	// startWithin bounds a game's start in the store (a test's is shorter).
	startWithin time.Duration
	// syncGiveUp bounds a new replica's wait for the state of a room
	// another process is seen to hold (a test's is shorter).
	syncGiveUp time.Duration
	// ctx ends when the server closes: the rooms' loops and what they
	// started stop with it, and wg waits for them.
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu      sync.Mutex // taken after a room's, never before
	rooms   map[string]*room
	pending map[string]pending // by channel
	// left is when this process's replica of each room it left last did
	// (room.dropIdle), by instance: a member coming back opens the room
	// again at once, with no launch to wait for (awaitLaunch).
	left map[string]time.Time
	// syncs is the syncs heard of rooms not held here, by instance: each
	// origin's replica's nonce, and when it came (a real clock). A replica
	// made here later knows those processes hold the room, or are making
	// it, though it did not hear them (heardSync).
	syncs map[string]map[string]heard

	// application is the application's id, for a card that follows its
	// launch: Config.AppID, or (a Server's) Discord's answer, asked once.
	application func(context.Context) (string, error)
	// sealer seals a launch's interaction token for the bus (session.go).
	sealer sealer
}

func newHub(cfg Config) *hub {
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.Nop{}
	}
	if cfg.Linger == 0 {
		cfg.Linger = defaultLinger
	}
	if cfg.BeatEvery == 0 {
		cfg.BeatEvery = defaultBeatEvery
	}
	if cfg.DeadAfter == 0 {
		cfg.DeadAfter = defaultDeadAfter
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	ctx, stop := context.WithCancel(context.Background())
	h := &hub{cfg: cfg, log: cfg.Log, bus: cfg.Bus, proc: hex.EncodeToString(b[:]), now: cfg.Now, startWithin: startWithin, syncGiveUp: syncGiveUp, ctx: ctx, stop: stop,
		rooms: map[string]*room{}, pending: map[string]pending{}, left: map[string]time.Time{}, syncs: map[string]map[string]heard{}, sealer: newSealer(cfg)}
	h.application = func(context.Context) (string, error) {
		if cfg.AppID == "" {
			return "", errors.New("arena: the application's id is not known")
		}
		return cfg.AppID, nil
	}
	h.bus.Subscribe(h.deliver)
	if g, ok := h.bus.(GapReporter); ok {
		g.OnGap(h.busGap)
	}
	if h.bus.Shared() {
		h.goTracked(h.beating)
	}
	return h
}

// beating beats every BeatEvery while this process holds a room, until
// the server closes.
func (h *hub) beating(ctx context.Context) {
	t := time.NewTicker(h.cfg.BeatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.beat()
		}
	}
}

// beat tells the other processes holding this one's rooms that it is
// alive, at its clock's time: their replicas take its members offline
// once it falls silent (state.heard), and its beats keep their time.
func (h *hub) beat() {
	if h.count() > 0 {
		h.publish(event{Kind: evBeat})
	}
}

// publish puts ev on the bus, stamped with this process and its clock,
// and waits until the bus took it; a failure is logged, and returned for
// a caller that can tell a member.
func (h *hub) publish(ev event) error { return h.toBus(ev, true) }

// send puts ev on the bus as publish does but waits only for its place in
// the bus's order, not for the bus to deliver it (Bus.Send): a predicted
// move's answer is given already.
func (h *hub) send(ev event) error { return h.toBus(ev, false) }

func (h *hub) toBus(ev event, wait bool) error {
	ev.Origin = h.proc
	if ev.At == 0 {
		ev.At = h.now().UnixMilli()
	}
	msg, err := encodeEvent(&ev)
	switch {
	case err != nil:
	case !wait:
		// Send bounds its own wait: no context a move.
		err = h.bus.Send(h.ctx, msg)
	case h.bus.Shared():
		ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
		err = h.bus.Publish(ctx, msg)
		cancel()
	default:
		// One process's bus delivers at once, with no I/O to bound; a
		// context derived here for each move took the server's context's
		// one lock.
		err = h.bus.Publish(h.ctx, msg)
	}
	if err != nil {
		h.log.Error("arena: publish", "kind", ev.Kind, "instance", ev.Instance, "err", err)
	}
	return err
}

// goTracked runs f on its own goroutine, which shutdown waits for; its
// context ends with the server.
func (h *hub) goTracked(f func(ctx context.Context)) {
	h.wg.Go(func() { f(h.ctx) })
}

// record records a finish played in memory through Games, once: the only
// store write of a race's moves; and then its run, if it is a daily's
// that counted, for the ghosts of the day's later racers. A rescue's
// finish may be recorded already (by its dead process): that is no error.
func (h *hub) record(ctx context.Context, instance string, g *play.Game, run *play.Run, rescue bool) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var turn contest.Turn
	err := h.protect("record a finish", func() (err error) {
		turn, err = h.cfg.Games.Finish(ctx, g)
		return err
	})
	if errors.Is(err, play.ErrConflict) {
		// The finish is recorded already. A rescuer's dead process had
		// recorded it; a process cut off from the bus for a while finds
		// that another took it for dead and recorded it: no error.
		if !rescue {
			h.log.Warn("arena: a finish recorded already, by a process that took this one for dead", "instance", instance, "user", g.UserID)
		}
		return
	}
	if rescue && err == nil {
		h.log.Info("arena: recorded a finish that a dead process had not", "instance", instance, "user", g.UserID)
	}
	if err != nil {
		h.log.Error("arena: record a finish", "instance", instance, "user", g.UserID, "err", err)
		return
	}
	if run == nil || h.cfg.Runs == nil || turn.Game == nil || turn.Game.Contest != run.Contest || turn.Game.Lapsed != "" ||
		(turn.Award.Daily != nil && turn.Award.Daily.Late) {
		return // a late run is no day's ghost
	}
	err = h.protect("keep a run", func() error {
		_, err := h.cfg.Runs.SaveRun(ctx, *run)
		return err
	})
	if err != nil {
		h.log.Error("arena: keep a run", "instance", instance, "user", g.UserID, "err", err)
	}
}

// protect runs f, turning a panic into an error logged with its stack:
// the Activity shares its process with the bot, so a panic in what a room
// calls (the games and their store, the poster) or in applying an event
// fails that one call, as the router does for a command, and ends no
// other server's work.
func (h *hub) protect(what string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("arena: panic", "in", what, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("%s: panic: %v", what, p)
		}
	}()
	return f()
}

// deliver takes one message of the bus, in its order.
func (h *hub) deliver(msg []byte) {
	_ = h.protect("a bus message", func() error { h.applyMessage(msg); return nil })
}

func (h *hub) applyMessage(msg []byte) {
	var ev event
	if err := decodeEvent(msg, &ev); err != nil {
		h.log.Warn("arena: an unreadable bus message", "err", err)
		return
	}
	if ev.Kind == evBeat {
		// A process's beat is an input of every room held here.
		for _, r := range h.held() {
			r.input(ev)
		}
		return
	}
	if ev.Kind == evPend {
		h.mu.Lock()
		h.pending[ev.Channel] = pending{maze: ev.Maze, launcher: ev.User, noCard: ev.NoCard, followup: ev.Followup, at: time.UnixMilli(ev.At)}
		h.mu.Unlock()
		return
	}
	h.mu.Lock()
	r := h.rooms[ev.Instance]
	if r == nil && ev.Origin != h.proc {
		h.heardSync(ev)
	}
	h.mu.Unlock()
	if r != nil {
		lag := h.now().Sub(time.UnixMilli(ev.At))
		h.cfg.Metrics.ArenaBusLag(lag)
		if observe := h.cfg.ObserveBusLag; observe != nil && ev.Kind == evMove && ev.Origin != h.proc {
			observe(lag)
		}
		r.input(ev)
	}
}

// heardSyncFor is how long a sync of a room not held here is kept: past
// its process's wait for an answer (syncGiveUp), with a margin for a bus
// behind.
const heardSyncFor = 3 * syncGiveUp

// heardSync keeps a sync (or forgets a drop) of a room not held here; h.mu
// is held. A process that makes its replica while another makes its own
// hears the other's sync only if its replica was made before the sync
// came: else, with no other input of the room on the way (the other
// answers none while it syncs itself), it took the room for its own and
// played its members' inputs without the bus, and the other never saw
// them (TestReplicasStayTogetherBehind).
func (h *hub) heardSync(ev event) {
	switch ev.Kind {
	case evSync:
		now := time.Now()
		for instance, origins := range h.syncs {
			for origin, s := range origins {
				if now.Sub(s.at) > heardSyncFor {
					delete(origins, origin)
				}
			}
			if len(origins) == 0 {
				delete(h.syncs, instance)
			}
		}
		if h.syncs[ev.Instance] == nil {
			h.syncs[ev.Instance] = map[string]heard{}
		}
		h.syncs[ev.Instance][ev.Origin] = heard{nonce: ev.Nonce, at: now}
	case evDrop:
		if s, ok := h.syncs[ev.Instance][ev.Origin]; ok && s.nonce == ev.Nonce {
			delete(h.syncs[ev.Instance], ev.Origin)
		}
	}
}

// heard is a sync heard of a room not held here: its replica's nonce, and
// when it came.
type heard struct {
	nonce string
	at    time.Time
}

// pend records a launch in a channel, on every process; card: the bot
// may post the race's result card there; followup: else, the launch's
// interaction token, for the card to follow it ("" for none).
func (h *hub) pend(channelID, userID string, maze mazecore.ID, card bool, followup string) {
	ev := event{Kind: evPend, Channel: channelID, User: userID, Maze: maze.String(), NoCard: !card}
	if !card {
		ev.Followup = h.sealer.seal(followup)
	}
	h.publish(ev)
}

// Why a replica was not made: the bus hears nothing (Hearing), or no
// state came from the processes holding the room (syncGiveUp). The
// member's client tries again.
var (
	errDeaf    = errors.New("arena: the bus hears nothing just now")
	errNoState = errors.New("arena: no state came from the processes holding the room")
)

// open returns the room of instance in, made here if this process holds
// none: on the maze launched in its channel, else one of its own. On a
// shared bus a room made here first asks the other processes for its
// state.
func (h *hub) open(ctx context.Context, in instance) (*room, error) {
	h.awaitLaunch(ctx, in)
	pictured := h.pictured(ctx, in)
	h.mu.Lock()
	r := h.rooms[in.ID]
	if r == nil {
		if bus, ok := h.bus.(Hearing); ok && !bus.Hearing() {
			h.mu.Unlock()
			return nil, errDeaf
		}
		st := roomState{Instance: in.ID, Guild: in.Location.GuildID, Channel: in.Location.ChannelID, Phase: phaseLobby}
		maze := defaultMaze(in.ID)
		if p, ok := h.pending[st.Channel]; ok && h.now().Sub(p.at) < pendingTTL {
			if id, err := mazecore.Parse(p.maze); err == nil && raceable(id) == nil {
				maze = id
			}
			st.Launcher, st.NoCard = p.launcher, p.noCard
			if p.followup != "" {
				st.Followup, st.FollowupBy = p.followup, p.at.Add(followupFor).UnixMilli()
			}
			delete(h.pending, st.Channel)
		}
		m, grid, err := buildMaze(maze)
		if errors.Is(err, errNeedsStore) {
			if grid, err = pictured, nil; grid == nil || grid.ID() != maze {
				// Its picture is gone from the store: the room races the
				// instance's own maze rather than none.
				h.log.Warn("arena: an image's maze cannot be built", "maze", maze.String())
				maze = defaultMaze(in.ID)
				m, grid, err = buildMaze(maze)
			}
		}
		if err != nil {
			h.mu.Unlock()
			return nil, fmt.Errorf("arena: maze %s: %w", maze, err)
		}
		st.Maze = maze.String()
		r = newRoom(h, st, m)
		delete(h.left, in.ID)
		syncNonce := ""
		if h.bus.Shared() {
			syncNonce = newNonce()
		}
		h.rooms[in.ID] = r
		making := map[string]string{} // the processes heard making the room, their replicas' nonces
		for origin, s := range h.syncs[in.ID] {
			making[origin] = s.nonce
		}
		delete(h.syncs, in.ID)
		h.wg.Go(func() {
			r.run(state{roomState: st, self: h.proc, maze: m, grid: grid, games: map[string]*play.Game{},
				countdown: h.cfg.Countdown, linger: h.cfg.Linger, deadAfter: h.cfg.DeadAfter}, syncNonce, making)
		})
		if syncNonce != "" {
			h.goTracked(func(context.Context) { h.publish(event{Kind: evSync, Instance: in.ID, Nonce: syncNonce}) })
		}
	}
	h.mu.Unlock()
	select {
	case <-r.ready:
		return r, nil
	case <-r.done:
		r.mu.Lock()
		left := r.dropped
		r.mu.Unlock()
		if left {
			return nil, errNoState // it gave up its sync (the loop logged it)
		}
		return nil, errors.New("arena: the room ended")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// pictured builds the maze of the launch waiting for instance in, when
// it is in an image's shape: through Config.Grids, which reads the
// picture from the store, before open takes the lock that every room's
// inputs take. Nil for any other maze, or when it cannot be built.
func (h *hub) pictured(ctx context.Context, in instance) *mazecore.GridMaze {
	h.mu.Lock()
	_, held := h.rooms[in.ID]
	p, launched := h.pending[in.Location.ChannelID]
	h.mu.Unlock()
	id, err := mazecore.Parse(p.maze)
	if held || !launched || err != nil || id.Shape.Kind != mazecore.ImageShape || h.cfg.Grids == nil {
		return nil
	}
	g, err := h.cfg.Grids(ctx, id)
	if err != nil {
		h.log.Warn("arena: an image's maze", "maze", p.maze, "err", err)
		return nil
	}
	return g
}

// shutdown says goodbye for every connection here and closes them, then
// stops the loops and waits for every goroutine the rooms started.
func (h *hub) shutdown() {
	for _, r := range h.held() {
		r.mu.Lock()
		conns := make([]*conn, 0, len(r.conns))
		for c := range r.conns {
			conns = append(conns, c)
		}
		r.mu.Unlock()
		for _, c := range conns {
			c.left.Do(func() { r.put(event{Kind: evBye, User: c.user}) })
			c.closeWith(websocket.CloseGoingAway, "restarting")
		}
	}
	h.stop()
	h.wg.Wait()
}

// awaitLaunch waits a little for the launch of an instance this process
// holds no room of: on another process's bus it may still be on its way.
func (h *hub) awaitLaunch(ctx context.Context, in instance) {
	deadline := time.Now().Add(launchWait) // a real wait, whatever the app's clock
	for {
		h.mu.Lock()
		_, held := h.rooms[in.ID]
		_, launched := h.pending[in.Location.ChannelID]
		_, wasHeld := h.left[in.ID]
		h.mu.Unlock()
		if held || launched || wasHeld || !time.Now().Before(deadline) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// busGap: the bus lost messages for good, so every shared replica here
// may have missed inputs: each leaves, as one taken for dead does, and
// its members reconnect to a new one, which asks the others for the room.
// A room this process holds alone took none of its inputs from the bus.
func (h *hub) busGap() {
	for _, r := range h.held() {
		if r.shared.Load() {
			r.input(event{Kind: evGap, local: true})
		}
	}
}

// drop forgets an ended room.
func (h *hub) drop(r *room) {
	h.mu.Lock()
	if h.rooms[r.instance] == r {
		delete(h.rooms, r.instance)
	}
	h.mu.Unlock()
}

// held is the rooms this process holds now.
func (h *hub) held() []*room {
	h.mu.Lock()
	defer h.mu.Unlock()
	rooms := make([]*room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	return rooms
}

// count is how many rooms this process holds.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rooms)
}

// defaultMaze is the maze of a room no launch named: a 21×21, seeded by
// the instance, so that every process opening it picks the same.
func defaultMaze(instanceID string) mazecore.ID {
	sum := sha256.Sum256([]byte(instanceID))
	return mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: binary.LittleEndian.Uint64(sum[:]) & (1<<32 - 1)}
}

func newNonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
