package discord

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// ConnLimit caps the connections a server has open at once. While the
// cap is reached, a new connection is let in by closing one that holds its
// place doing nothing: the one idle longest between requests (a
// keep-alive), or else the oldest that has not sent a request at all. A
// connection handling a request is never closed. So a client that opens
// connections and leaves them open cannot lock Discord out, while the
// cap still bounds the memory connections take; only when every place
// holds a request in progress do further clients wait in the kernel's
// queue.
//
// A hijacked connection (a WebSocket) leaves the cap at once: it is no
// longer the http.Server's, whose timeouts the cap works with, and
// whoever took it bounds such connections (arena.MaxSockets), so that
// long-lived sockets cannot fill the places plain requests need.
//
// Listen gives the listener to serve, and ConnState goes into the
// http.Server, which tells it what each connection is doing.
type ConnLimit struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	mu    sync.Mutex
	conns map[*limitConn]connState
}

// connState is what a connection was last seen doing, and since when.
type connState struct {
	state http.ConnState
	since time.Time
}

// LimitListener caps the connections accepted from l at n.
func LimitListener(l net.Listener, n int) *ConnLimit {
	return &ConnLimit{Listener: l, slots: make(chan struct{}, n), done: make(chan struct{}), conns: map[*limitConn]connState{}}
}

func (l *ConnLimit) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	// A new client is here: take a free place, or free one held by a
	// connection doing nothing, or wait for one to close.
	for {
		select {
		case l.slots <- struct{}{}:
		default:
			if l.evict() {
				continue
			}
			select {
			case l.slots <- struct{}{}:
			case <-l.done:
				c.Close()
				return nil, net.ErrClosed
			}
		}
		break
	}
	lc := &limitConn{Conn: c}
	lc.release = func() {
		l.mu.Lock()
		delete(l.conns, lc)
		l.mu.Unlock()
		<-l.slots
	}
	l.mu.Lock()
	l.conns[lc] = connState{state: http.StateNew, since: time.Now()}
	l.mu.Unlock()
	return lc, nil
}

// evict closes the connection that does least: the longest idle, else the
// oldest new one. It reports whether it closed one, whose place is free
// once it returns.
func (l *ConnLimit) evict() bool {
	l.mu.Lock()
	var victim *limitConn
	var best connState
	for c, s := range l.conns {
		if s.state != http.StateIdle && s.state != http.StateNew {
			continue
		}
		// Idle ones go before new ones, the oldest first.
		if victim == nil || (s.state == http.StateIdle && best.state == http.StateNew) ||
			(s.state == best.state && s.since.Before(best.since)) {
			victim, best = c, s
		}
	}
	if victim != nil {
		delete(l.conns, victim) // not chosen twice
	}
	l.mu.Unlock()
	if victim == nil {
		return false
	}
	victim.Close()
	return true
}

// ConnState follows what each connection does; set it as the server's
// ConnState.
func (l *ConnLimit) ConnState(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitConn)
	if !ok {
		return
	}
	if state == http.StateHijacked {
		lc.once.Do(lc.release) // its place is free; its Close frees none
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, open := l.conns[lc]; !open {
		return // closed, or being evicted
	}
	switch state {
	case http.StateClosed:
		delete(l.conns, lc)
	default:
		l.conns[lc] = connState{state: state, since: time.Now()}
	}
}

// Close also ends an Accept waiting for a free place.
func (l *ConnLimit) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn frees its place when closed, once.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
