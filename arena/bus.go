package arena

import (
	"context"
	"sync"
)

// Bus carries the rooms' events between the processes of one bot, in one
// total order: every subscriber of every process gets every message in
// the order the bus took them, its own included. Rooms are state machines
// over that order, so that each process that holds a room's members holds
// the same room.
type Bus interface {
	// Publish hands msg to every subscriber, this process's included.
	Publish(ctx context.Context, msg []byte) error
	// Subscribe makes deliver receive every message, one at a time, in
	// the bus's order; only one subscriber is supported.
	Subscribe(deliver func(msg []byte))
	// Shared tells whether other processes are on the bus: a room then
	// asks them for its state when this process first holds it.
	Shared() bool
	// Close stops the deliveries.
	Close() error
}

// subscription is a Bus's one subscriber, which Subscribe may change while
// messages arrive.
type subscription struct {
	mu      sync.Mutex
	deliver func([]byte)
}

// Subscribe sets the subscriber.
func (s *subscription) Subscribe(deliver func([]byte)) {
	s.mu.Lock()
	s.deliver = deliver
	s.mu.Unlock()
}

// MemoryBus is the Bus of one process: Publish delivers at once, under a
// lock, so the order is the order of the calls.
type MemoryBus struct {
	subscription
}

var _ Bus = (*MemoryBus)(nil)

// Publish delivers msg before it returns.
func (b *MemoryBus) Publish(_ context.Context, msg []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.deliver != nil {
		b.deliver(msg)
	}
	return nil
}

// Shared is false: no other process is on a MemoryBus.
func (b *MemoryBus) Shared() bool { return false }

// Close stops the deliveries.
func (b *MemoryBus) Close() error {
	b.Subscribe(nil)
	return nil
}
