package arena

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
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
// Every replica must then hold every member, racing, in the same room.
// The beats and the syncs' interleavings are what let a new room go alone
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

func togetherScenario(t *testing.T, seed uint64) error {
	rnd := rand.New(rand.NewPCG(seed, 1))
	bus := newJitterBus(t, 15*time.Millisecond, seed)
	games := &memGames{games: map[int64]*play.Game{}}
	hubs := make([]*hub, 3)
	for i := range hubs {
		hubs[i] = newHub(Config{Games: games, Bus: bus.end(), Log: slog.New(slog.DiscardHandler), Now: time.Now,
			Countdown: time.Millisecond, BeatEvery: 200 * time.Millisecond})
		t.Cleanup(hubs[i].shutdown)
	}
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
	rooms := make([]*room, len(hubs))
	var wg sync.WaitGroup
	errs := make(chan error, len(hubs))
	for i, h := range hubs {
		wg.Go(func() {
			time.Sleep(delays[i])
			r, err := h.open(context.Background(), in)
			for errors.Is(err, errNoState) { // the member's client tries again
				r, err = h.open(context.Background(), in)
			}
			if err != nil {
				errs <- fmt.Errorf("process %d: %w", i, err)
				return
			}
			rooms[i] = r
			for _, u := range members[i] {
				if err := r.put(event{Kind: evHello, User: u, Name: u}); err != nil {
					errs <- fmt.Errorf("%s's hello: %w", u, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err, failed := <-errs; failed {
		return err
	}
	everyone := slices.Concat(members...)
	holdsAll := func(r *room) bool {
		d := describe(t, r)
		return !slices.ContainsFunc(everyone, func(u string) bool { return !strings.Contains(d, " "+u+"@") })
	}
	together := func() bool {
		first := describe(t, rooms[0])
		for _, r := range rooms[1:] {
			if describe(t, r) != first {
				return false
			}
		}
		return strings.Contains(first, " race ")
	}
	views := func() string {
		var b strings.Builder
		for i, r := range rooms {
			fmt.Fprintf(&b, "\n process %d (opened after %v, members %v): %s", i, delays[i], members[i], describe(t, r))
		}
		return b.String()
	}
	if !within(5*time.Second, func() bool { return !slices.ContainsFunc(rooms, func(r *room) bool { return !holdsAll(r) }) }) {
		return fmt.Errorf("a replica lacks a member:%s", views())
	}
	if err := rooms[launcherAt].put(event{Kind: evStart, User: "u0"}); err != nil {
		return err
	}
	if !within(5*time.Second, together) {
		return fmt.Errorf("the replicas are not together in the race:%s", views())
	}
	return nil
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
