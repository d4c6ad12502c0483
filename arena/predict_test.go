package arena

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// heldBus is an orderedBus that holds what is sent (Send: the moves
// answered ahead of it) while hold is set, as a database slow to commit
// does; Publish delivers at once. drop loses what it holds.
type heldBus struct {
	orderedBus
	hmu     sync.Mutex
	holding bool
	held    [][]byte
}

type heldEnd struct {
	busEnd
	h *heldBus
}

func (b *heldBus) end() Bus { return heldEnd{busEnd{&b.orderedBus}, b} }

func (e heldEnd) Send(ctx context.Context, msg []byte) error {
	e.h.hmu.Lock()
	if e.h.holding {
		e.h.held = append(e.h.held, msg)
		e.h.hmu.Unlock()
		return nil
	}
	e.h.hmu.Unlock()
	return e.Publish(ctx, msg)
}

func (b *heldBus) hold() {
	b.hmu.Lock()
	b.holding = true
	b.hmu.Unlock()
}

// release delivers what it held, in order, and holds no more.
func (b *heldBus) release() {
	b.hmu.Lock()
	held := b.held
	b.held, b.holding = nil, false
	b.hmu.Unlock()
	for _, msg := range held {
		_ = busEnd{&b.orderedBus}.Publish(context.Background(), msg)
	}
}

// drop loses what it held.
func (b *heldBus) drop() {
	b.hmu.Lock()
	b.held = nil
	b.hmu.Unlock()
}

func (b *heldBus) count() int {
	b.hmu.Lock()
	defer b.hmu.Unlock()
	return len(b.held)
}

func (g *memGames) finishCount() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.finishes
}

// testConn is a welcomed connection of user to r, whose messages wait in
// its queue.
func testConn(r *room, user string) *conn {
	c := &conn{nonce: "c-" + user, user: user, out: make(chan []byte, sendQueue), gone: make(chan struct{})}
	r.mu.Lock()
	r.conns[c] = true
	r.mu.Unlock()
	return c
}

// sentPos is the places c was sent (its PosMsgs), in order, and drops
// the rest of its queue.
func sentPos(c *conn) []PosMsg {
	var got []PosMsg
	for len(c.out) > 0 {
		var msg PosMsg
		if json.Unmarshal(<-c.out, &msg) == nil && msg.T == "pos" {
			got = append(got, msg)
		}
	}
	return got
}

// agreed is user's place in r's agreed state: clicks, and whether done.
func agreed(r *room, user string) (clicks int, done bool) {
	r.inspect(func(st *state) {
		if p := st.player(user); p != nil {
			clicks, done = p.Clicks, p.Done
		}
	})
	return clicks, done
}

// adaOnHeldBus is two processes' hubs, a and b, on a heldBus, and the
// room a launched, which ada (u1) joined through a, connected as ada.
func adaOnHeldBus(t *testing.T) (bus *heldBus, games *memGames, a, b *hub, ra *room, in instance, ada *conn) {
	t.Helper()
	bus, games = &heldBus{}, &memGames{games: map[int64]*play.Game{}}
	a, b = testHub(t, bus.end(), games), testHub(t, bus.end(), games)
	ra, in, _ = launch(t, a)
	ada = testConn(ra, "u1")
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada", Nonce: ada.nonce})
	return bus, games, a, b, ra, in, ada
}

// TestPredictedMoves: on a shared bus, the process a racer is connected to
// answers their move at once, on its prediction, while the bus has not
// delivered it (the old loop answered only once the bus did: a database's
// round trip, p99 318 ms under load); a wall is refused there and sent to
// nobody; the agreed state, the other members and the finish's record follow
// the bus; and where the bus played it otherwise (a move of theirs came
// through another process, a move was lost), the member is sent where they
// stand.
func TestPredictedMoves(t *testing.T) {
	bus, games, a, b, ra, in, ada := adaOnHeldBus(t)
	ctx := context.Background()
	rb, err := b.open(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	bob := testConn(rb, "u2")
	b.publish(event{Kind: evHello, Instance: in.ID, User: "u2", Name: "bob", Nonce: bob.nonce})
	a.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "ada's prediction", func() bool {
		ra.mu.Lock()
		defer ra.mu.Unlock()
		return ra.predictions["u1"] != nil
	})
	m := mazeOf(t, ra)
	open := letter(openFromStart(m))
	back := letter(openFromStart(m).Opposite())
	sentPos(ada)
	sentPos(bob)

	// Answered at once, the bus holding the move.
	bus.hold()
	quick, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if why := ra.move(quick, ada, "u1", open); why != "" {
		t.Fatalf("ada's move with the bus held: refused %q, want answered ahead of the bus", why)
	}
	got := sentPos(ada)
	if len(got) != 1 || got[0].Clicks != 1 {
		t.Fatalf("ada was sent %+v, want her place after 1 click", got)
	}
	wall := ""
	for _, d := range mazecore.Dirs {
		if !m.Open(got[0].X/2, got[0].Y/2, d) {
			wall = letter(d)
		}
	}
	if why := ra.move(quick, ada, "u1", wall); why != refusedWall {
		t.Fatalf("%s from where ada stands: %q, want a wall", wall, why)
	}
	if bus.count() != 1 {
		t.Fatalf("%d messages on the bus, want ada's one move (a wall is sent to nobody)", bus.count())
	}
	for _, r := range []*room{ra, rb} {
		if clicks, _ := agreed(r, "u1"); clicks != 0 {
			t.Fatalf("the agreed state played ada's move before the bus delivered it: %d clicks", clicks)
		}
	}
	bus.release()
	waitFor(t, "both replicas at ada's click", func() bool {
		ca, _ := agreed(ra, "u1")
		cb, _ := agreed(rb, "u1")
		return ca == 1 && cb == 1
	})
	waitFor(t, "bob seeing ada move", func() bool {
		for len(bob.out) > 0 {
			var msg MovesMsg
			if json.Unmarshal(<-bob.out, &msg) == nil && msg.T == "moves" && len(msg.Moves) == 1 && msg.Moves[0].ID == "u1" && msg.Moves[0].Clicks == 1 {
				return true
			}
		}
		return false
	})
	if got := sentPos(ada); len(got) != 0 {
		t.Fatalf("ada was sent %+v once the bus played her move as answered, want nothing", got)
	}

	// A move of hers through another process: she is sent where she stands.
	if why := rb.move(ctx, nil, "u1", back); why != "" {
		t.Fatalf("ada's move through the other process: %q", why)
	}
	toldAtStart := func(what string) {
		t.Helper()
		waitFor(t, what, func() bool {
			return slices.ContainsFunc(sentPos(ada), func(p PosMsg) bool { return p.Clicks == 2 && p.X == 1 && p.Y == 1 })
		})
	}
	toldAtStart("ada told she is back at the start")

	// A move lost on the bus, and one answered after it on the place it
	// led to: the bus refuses the second (a wall from where she really
	// stands), and she is sent that place.
	bus.hold()
	if why := ra.move(quick, ada, "u1", open); why != "" {
		t.Fatalf("a move that will be lost: %q", why)
	}
	bus.drop()
	bus.hold()
	if why := ra.move(quick, ada, "u1", back); why != "" {
		t.Fatalf("a move back from where she was told she stands: %q", why)
	}
	if got := sentPos(ada); len(got) != 2 || got[1].Clicks != 4 {
		t.Fatalf("ada was sent %+v, want two places, the last after 4 clicks", got)
	}
	bus.release()
	toldAtStart("ada told she stands at the start, after 2 clicks")

	// The finish counts once the bus played it, not before.
	bus.hold()
	for i, dir := range solutionOf(t, m) {
		if why := ra.move(quick, ada, "u1", dir); why != "" {
			t.Fatalf("the way to the goal, move %d: %q", i, why)
		}
	}
	if _, done := agreed(ra, "u1"); done || games.finishCount() != 0 {
		t.Fatalf("ada's finish counted before the bus delivered it (done %v, %d finishes)", done, games.finishCount())
	}
	bus.release()
	waitFor(t, "ada's finish recorded once", func() bool {
		_, done := agreed(rb, "u1")
		return done && games.finishCount() == 1
	})
	if why := ra.move(quick, ada, "u1", back); why != refusedFinished {
		t.Fatalf("a move after her finish: %q, want finished", why)
	}
}

// TestPredictedOnceShared: a member racing in a room their process held
// alone has their next move answered ahead of the bus as soon as another
// process holds the room too, not only after a move of theirs went
// through the bus.
func TestPredictedOnceShared(t *testing.T) {
	bus, _, a, b, ra, in, ada := adaOnHeldBus(t)
	ctx := context.Background()
	a.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "ada racing", func() bool { return strings.Contains(describe(t, ra), "game=true") })
	if _, err := b.open(ctx, in); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the room shared", func() bool { return ra.shared.Load() })
	sentPos(ada)

	bus.hold()
	defer bus.release()
	if why := ra.move(ctx, ada, "u1", letter(openFromStart(mazeOf(t, ra)))); why != "" {
		t.Fatalf("ada's first move once shared: refused %q", why)
	}
	if got := sentPos(ada); len(got) != 1 || got[0].Clicks != 1 {
		t.Fatalf("ada was sent %+v, want her place after 1 click", got)
	}
	if clicks, _ := agreed(ra, "u1"); clicks != 0 || bus.count() != 1 {
		t.Fatalf("ada's move waited for the bus (the agreed state at %d clicks, %d held on the bus), want it answered ahead of it", clicks, bus.count())
	}
}
