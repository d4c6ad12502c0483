package bottest

import (
	"context"
	"sync"
	"time"
)

// Guard is a bot.ReplayGuard in memory.
type Guard struct {
	mu   sync.Mutex
	seen map[string]time.Time
	err  error
}

// NewGuard makes a Guard that has seen nothing.
func NewGuard() *Guard { return &Guard{seen: map[string]time.Time{}} }

// Fail makes every FirstSeen return err from now on (nil: none).
func (g *Guard) Fail(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.err = err
}

// FirstSeen records id at at and says whether it is new.
func (g *Guard) FirstSeen(_ context.Context, id string, at time.Time) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err != nil {
		return false, g.err
	}
	if _, ok := g.seen[id]; ok {
		return false, nil
	}
	g.seen[id] = at
	return true, nil
}

// ForgetSeen forgets the ids seen before before.
func (g *Guard) ForgetSeen(_ context.Context, before time.Time) (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var n int64
	for id, at := range g.seen {
		if at.Before(before) {
			delete(g.seen, id)
			n++
		}
	}
	return n, nil
}
