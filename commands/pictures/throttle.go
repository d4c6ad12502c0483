package pictures

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"
)

// errPoolBusy: no worker came free before the wait's deadline.
var errPoolBusy = errors.New("pictures: all workers busy")

// pool runs at most its size of jobs at once; the others wait in arrival
// order.
type pool struct{ slots chan struct{} }

// newPool is a pool of workers jobs at once.
func newPool(workers int) *pool { return &pool{slots: make(chan struct{}, workers)} }

// Busy tells how many workers are taken.
func (p *pool) Busy() int { return len(p.slots) }

// Acquire takes a worker: at once when one is free; else it calls queued
// (once, e.g. to acknowledge a request that now has to wait; its error is
// returned) and waits, until margin before ctx's deadline at most, which
// leaves the caller time to say it is busy: errPoolBusy then. Release the
// worker when done.
func (p *pool) Acquire(ctx context.Context, margin time.Duration, queued func() error) error {
	select {
	case p.slots <- struct{}{}:
		return nil
	default:
	}
	if queued != nil {
		if err := queued(); err != nil {
			return err
		}
	}
	wait := ctx
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(ctx, deadline.Add(-margin))
		defer cancel()
	}
	select {
	case p.slots <- struct{}{}:
		return nil
	case <-wait.Done():
		if err := ctx.Err(); err != nil {
			return err
		}
		return errPoolBusy
	}
}

// Release gives back a worker Acquire took.
func (p *pool) Release() { <-p.slots }

// cache keeps values by key, least recently used first out, within a
// budget of bytes that size measures. It is safe for concurrent use.
type cache[V any] struct {
	size func(V) int64

	mu    sync.Mutex
	max   int64
	used  int64
	order *list.List // of *entry[V], most recent first
	byKey map[string]*list.Element
}

type entry[V any] struct {
	key   string
	value V
	size  int64
}

// newCache keeps at most maxBytes of values, each weighing size(v).
func newCache[V any](maxBytes int64, size func(V) int64) *cache[V] {
	return &cache[V]{size: size, max: maxBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the value under key; "" is never kept.
func (c *cache[V]) Get(key string) (V, bool) {
	var zero V
	if key == "" {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry[V]).value, true
}

// Put keeps v under key, dropping the least recently used to make room.
// A value bigger than an eighth of the budget is not kept: one would
// otherwise push out many.
func (c *cache[V]) Put(key string, v V) {
	size := c.size(v)
	if key == "" || size > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.used -= el.Value.(*entry[V]).size
		c.order.Remove(el)
	}
	c.byKey[key] = c.order.PushFront(&entry[V]{key: key, value: v, size: size})
	c.used += size
	for c.used > c.max {
		last := c.order.Back()
		old := last.Value.(*entry[V])
		c.order.Remove(last)
		delete(c.byKey, old.key)
		c.used -= old.size
	}
}

// Used is the bytes kept.
func (c *cache[V]) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// cooldown lets each key act once per period. It remembers at most limit
// keys in a cooldown, forgetting the expired ones first when full.
type cooldown struct {
	period time.Duration
	limit  int
	now    func() time.Time

	mu    sync.Mutex
	until map[string]time.Time
}

// newCooldown gives each key one turn per period, on the clock now; a
// period of zero or less never makes anyone wait.
func newCooldown(period time.Duration, limit int, now func() time.Time) *cooldown {
	return &cooldown{period: period, limit: limit, now: now, until: map[string]time.Time{}}
}

// Period is the time between two turns of a key.
func (c *cooldown) Period() time.Duration { return c.period }

// Take starts key's turn, which runs until until, and reports ok; or, when
// key is still in its cooldown, reports when that ends. With a period of
// zero or less every turn is ok and ends at once.
func (c *cooldown) Take(key string) (until time.Time, ok bool) {
	now := c.now()
	if c.period <= 0 {
		return now, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if until := c.until[key]; now.Before(until) {
		return until, false
	}
	if len(c.until) >= c.limit {
		for k, t := range c.until {
			if !now.Before(t) {
				delete(c.until, k)
			}
		}
	}
	c.until[key] = now.Add(c.period)
	return c.until[key], true
}

// GiveBack ends the turn of key that Take started and said runs until
// until, as if it had not been taken: for work that was then refused. A
// later turn of key is left alone.
func (c *cooldown) GiveBack(key string, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.until[key]; ok && t.Equal(until) {
		delete(c.until, key)
	}
}

// Len is the keys remembered.
func (c *cooldown) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.until)
}
