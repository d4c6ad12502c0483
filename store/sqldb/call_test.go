package sqldb

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/play"
)

// hang waits for the call's deadline.
func hang(q q) (int, error) {
	<-q.ctx.Done()
	return 0, q.ctx.Err()
}

func TestHangingCallIsBounded(t *testing.T) {
	log := &ErrorLog{}
	s := &Store{metrics: log, timeout: 50 * time.Millisecond}
	start := time.Now()
	_, err := call(s, context.Background(), "Game", "game 1", reads, hang)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the store's deadline", err)
	}
	// Generous: the point is that it ends, not how precisely.
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("a hanging call took %v under a 50 ms deadline", took)
	}
	if got := log.List(); len(got) != 1 || got[0] != "Game" {
		t.Fatalf("reported %v, want [Game]", got)
	}
}

// TestWriteTurnIsBounded: a write waiting for the turn another holds
// waits no longer than its deadline, and that counts as a failure.
func TestWriteTurnIsBounded(t *testing.T) {
	log := &ErrorLog{}
	s := &Store{metrics: log, timeout: 50 * time.Millisecond, writer: make(chan struct{}, 1)}
	s.writer <- struct{}{} // another write holds the turn
	ran := false
	err := do(s, context.Background(), "SaveGame", "save game 1", writes, func(q) error { ran = true; return nil })
	if !errors.Is(err, context.DeadlineExceeded) || ran {
		t.Fatalf("err %v (ran: %v), want the deadline, before the write ran", err, ran)
	}
	if got := log.List(); len(got) != 1 || got[0] != "SaveGame" {
		t.Fatalf("reported %v, want [SaveGame]", got)
	}
	// A read doesn't wait for the turn.
	if err := do(s, context.Background(), "Game", "game 1", reads, func(q) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestScheduledWritesLetMembersIn: while scheduled work's writes queue
// for the write turn (eight workers of a backlog of posts), a member's
// write waits behind at most one of them; without the gate it waited
// behind them all.
func TestScheduledWritesLetMembersIn(t *testing.T) {
	s := &Store{metrics: &ErrorLog{}, timeout: DefaultTimeout, writer: make(chan struct{}, 1), scheduled: make(chan struct{}, 1)}
	s.writer <- struct{}{} // another write holds the turn
	var mu sync.Mutex
	var order []string
	write := func(ctx context.Context, name string) {
		if err := do(s, ctx, "Save", "save", writes, func(q) error {
			mu.Lock()
			defer mu.Unlock()
			order = append(order, name)
			return nil
		}); err != nil {
			t.Error(err)
		}
	}
	var wg sync.WaitGroup
	scheduled := Scheduled(context.Background())
	for i := range 4 {
		wg.Go(func() { write(scheduled, fmt.Sprintf("post %d", i)) })
	}
	waitQueued(t, 4) // one for the turn, three for their gate
	wg.Go(func() { write(context.Background(), "member") })
	waitQueued(t, 5) // the member for the turn, behind the one
	<-s.writer
	wg.Wait()
	if i := slices.Index(order, "member"); i > 1 {
		t.Fatalf("writes in the order %q: the member's waited behind %d scheduled ones, want at most one", order, i)
	}
}

// waitQueued waits until n calls wait in run for a turn to write: a
// channel's waiting senders go in arrival order, so once they wait the
// order of the writes is settled, however loaded the machine (a sleep
// was a guess at how long queueing takes).
func waitQueued(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	buf := make([]byte, 1<<20)
	for {
		got := 0
		stacks := string(buf[:runtime.Stack(buf, true)])
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, " [select") && strings.Contains(g, "mazebot/store/sqldb.run[") {
				got++
			}
		}
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls wait for the turn, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestWhatCounts(t *testing.T) {
	for _, tc := range []struct {
		name      string
		err       error
		cancelled bool
		counted   bool
	}{
		{name: "OK"},
		{name: "NotFound", err: play.ErrNotFound},
		{name: "Conflict", err: play.ErrConflict},
		{name: "WrappedNotFound", err: errors.Join(errors.New("game 3"), play.ErrNotFound)},
		{name: "Failure", err: errors.New("connection refused"), counted: true},
		{name: "CallerGaveUp", err: context.Canceled, cancelled: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &ErrorLog{}
			s := &Store{metrics: log, timeout: DefaultTimeout}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancelled {
				cancel()
			}
			defer cancel()
			err := do(s, ctx, "Game", "game 1", reads, func(q) error { return tc.err })
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v passed through", err, tc.err)
			}
			if got := len(log.List()) == 1; got != tc.counted {
				t.Fatalf("reported %v, want counted=%v", log.List(), tc.counted)
			}
		})
	}
}
