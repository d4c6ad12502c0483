package arena

import (
	"context"
	"sync/atomic"
)

// Bus carries the rooms' events between the processes of one bot, in one
// total order: every subscriber of every process gets every message in
// the order the bus took them, its own included. Rooms are state machines
// over that order, so that each process that holds a room's members holds
// the same room.
type Bus interface {
	// Publish hands msg to every subscriber, this process's included.
	Publish(ctx context.Context, msg []byte) error
	// Send is Publish that returns once msg has its place in the bus's
	// order, before it is delivered; the bus logs a later failure, and
	// bounds its own wait for that place.
	Send(ctx context.Context, msg []byte) error
	// Subscribe makes deliver receive every message in the bus's order;
	// only one subscriber is supported. A shared bus delivers one message
	// at a time; the MemoryBus may deliver concurrent publishes at once
	// (see there), so deliver must be safe for that.
	Subscribe(deliver func(msg []byte))
	// Shared tells whether other processes are on the bus: a room then
	// asks them for its state when this process first holds it.
	Shared() bool
	// Close stops the deliveries.
	Close() error
}

// GapReporter is a Bus that can tell when it lost messages for good (a
// listener away longer than its bus keeps them): what it delivers next
// may not follow what it delivered before. The MemoryBus loses none.
type GapReporter interface {
	OnGap(gap func())
}

// Hearing is a Bus that can tell whether it hears the other processes
// now: a replica made while it does not would hear no answer to its sync,
// take it that none holds the room, and start apart from those that do.
type Hearing interface {
	Hearing() bool
}

// subscription is a Bus's one subscriber, which Subscribe may change while
// messages arrive.
type subscription struct {
	deliver atomic.Pointer[func([]byte)]
}

// Subscribe sets the subscriber.
func (s *subscription) Subscribe(deliver func([]byte)) {
	if deliver == nil {
		s.deliver.Store(nil)
		return
	}
	s.deliver.Store(&deliver)
}

// MemoryBus is the Bus of one process: Publish delivers before it
// returns, on the caller's goroutine. With one process there is no other
// replica to agree with: a room's order is the order its loop takes its
// inputs in, and no order across rooms is needed, so concurrent publishes
// are delivered at once. (Under one lock, every room's moves queued
// behind each other's: BenchmarkArena's 200 players over 25 rooms spent
// 70% of their waiting there, p99 per move 271 ms on a loaded machine.)
type MemoryBus struct {
	subscription
}

var _ Bus = (*MemoryBus)(nil)

// Publish delivers msg before it returns.
func (b *MemoryBus) Publish(_ context.Context, msg []byte) error {
	if deliver := b.deliver.Load(); deliver != nil {
		(*deliver)(msg)
	}
	return nil
}

// Send is Publish: a MemoryBus delivers at once.
func (b *MemoryBus) Send(ctx context.Context, msg []byte) error { return b.Publish(ctx, msg) }

// Shared is false: no other process is on a MemoryBus.
func (b *MemoryBus) Shared() bool { return false }

// Close stops the deliveries.
func (b *MemoryBus) Close() error {
	b.Subscribe(nil)
	return nil
}
