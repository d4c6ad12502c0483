package pictures

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"
)

// TestPoolBusy: with the one worker held, a job whose time is nearly up
// is refused as busy before its deadline, after saying it is queued.
func TestPoolBusy(t *testing.T) {
	p := newPool(1)
	if err := p.Acquire(context.Background(), 0, func() error { t.Error("queued with a free worker"); return nil }); err != nil {
		t.Fatal(err)
	}
	const margin = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), margin+50*time.Millisecond)
	defer cancel()
	queued := 0
	err := p.Acquire(ctx, margin, func() error { queued++; return nil })
	if !errors.Is(err, errPoolBusy) || ctx.Err() != nil || queued != 1 {
		t.Fatalf("err=%v (ctx %v), queued %d times; want errPoolBusy before the deadline, queued once", err, ctx.Err(), queued)
	}
	p.Release()
	if err := p.Acquire(context.Background(), margin, nil); err != nil || p.Busy() != 1 {
		t.Fatalf("after the release: %v, %d busy", err, p.Busy())
	}
}

// TestPoolQueuedError: the error of the queued callback stops the wait.
func TestPoolQueuedError(t *testing.T) {
	p := newPool(1)
	_ = p.Acquire(context.Background(), 0, nil)
	stop := errors.New("cannot defer")
	if err := p.Acquire(context.Background(), 0, func() error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("err=%v, want the queued callback's", err)
	}
}

func TestCache(t *testing.T) {
	c := newCache(8*1000, func(n int) int64 { return int64(n) })
	c.Put("a", 400)
	c.Put("b", 400)
	c.Put("", 10)       // no key: not kept
	c.Put("huge", 1001) // over an eighth of the budget
	if _, ok := c.Get("huge"); ok {
		t.Fatal("an entry over an eighth of the budget was kept")
	}
	c.Get("a") // a is now the most recent
	for i := range 20 {
		c.Put(string(rune('c'+i)), 400)
		if c.Used() > 8*1000 {
			t.Fatalf("%d bytes kept, over the budget", c.Used())
		}
		if i < 10 {
			c.Get("a")
		}
	}
	if _, ok := c.Get("b"); ok {
		t.Fatal("the least recently used entry is still there")
	}
	if _, ok := c.Get(string(rune('c' + 19))); !ok {
		t.Fatal("the newest entry was dropped")
	}
	if _, ok := c.Get("a"); !ok {
		t.Fatal("the entry used all along was dropped")
	}
}

func TestCooldown(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c := newCooldown(10*time.Second, 3, func() time.Time { return now })
	if until, ok := c.Take("u1"); !ok || !until.Equal(now.Add(10*time.Second)) {
		t.Fatalf("first turn: ok %v until %v, want a turn to the end of the cooldown", ok, until)
	}
	if wait, ok := c.Take("u1"); ok || !wait.Equal(now.Add(10*time.Second)) {
		t.Fatalf("second turn: ok %v, waits until %v, want a wait to the end of the cooldown", ok, wait)
	}
	if _, ok := c.Take("u2"); !ok {
		t.Fatal("another key waits")
	}
	now = now.Add(10 * time.Second)
	if wait, ok := c.Take("u1"); !ok {
		t.Fatalf("after the cooldown: waits until %v", wait)
	}
	none := newCooldown(0, 3, func() time.Time { return now })
	for turn := range 2 {
		if wait, ok := none.Take("u"); !ok {
			t.Fatalf("turn %d: a zero period made a key wait until %v", turn, wait)
		}
	}
}

// TestCooldownGiveBack: a turn given back may be taken again at once; a
// stale give-back leaves a later turn alone.
func TestCooldownGiveBack(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c := newCooldown(10*time.Second, 3, func() time.Time { return now })
	first, _ := c.Take("u")
	c.GiveBack("u", first)
	if wait, ok := c.Take("u"); !ok {
		t.Fatalf("after giving the turn back: waits until %v", wait)
	}
	now = now.Add(10 * time.Second)
	later, ok := c.Take("u")
	if !ok {
		t.Fatal("no turn after the cooldown")
	}
	c.GiveBack("u", first.Add(-time.Second)) // an older turn's end
	if _, ok := c.Take("u"); ok {
		t.Fatal("giving back an older turn ended the later one")
	}
	c.GiveBack("u", later)
	if _, ok := c.Take("u"); !ok {
		t.Fatal("the later turn, given back, still holds")
	}
}

// TestCooldownForgetsExpired: a full cooldown forgets the expired keys
// before it remembers a new one.
func TestCooldownForgetsExpired(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	const limit = 100
	c := newCooldown(time.Second, limit, func() time.Time { return now })
	for i := range limit {
		c.Take(strconv.Itoa(i))
	}
	now = now.Add(time.Second)
	if wait, ok := c.Take("new"); !ok {
		t.Fatal(wait)
	}
	if n := c.Len(); n != 1 {
		t.Fatalf("%d keys remembered, want only the one in a cooldown", n)
	}
}
