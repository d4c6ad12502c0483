package fakediscord

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync"
	"time"
)

// signals tells waiters that something changed: a waiter takes the
// channel of a topic, reads the state, and if what it waits for is not
// there yet, waits for the channel, which the next change of that topic
// closes. Taking the channel before reading means no change is missed.
// Its lock is a leaf: it is taken under any other and holds none.
type signals struct {
	mu      sync.Mutex
	waiting map[string]chan struct{}
}

// Topics of changes.
const (
	topicGateway  = "gateway"  // a connection, session or IDENTIFY
	topicRequests = "requests" // a REST request answered
)

func topicInteraction(id string) string { return "interaction/" + id }
func topicMessage(id string) string     { return "message/" + id }
func topicChannel(id string) string     { return "channel/" + id }

// wait returns the channel the next change of topic closes.
func (s *signals) wait(topic string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting == nil {
		s.waiting = map[string]chan struct{}{}
	}
	ch, ok := s.waiting[topic]
	if !ok {
		ch = make(chan struct{})
		s.waiting[topic] = ch
	}
	return ch
}

// fire wakes the waiters of topics.
func (s *signals) fire(topics ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range topics {
		if ch, ok := s.waiting[t]; ok {
			close(ch)
			delete(s.waiting, t)
		}
	}
}

// fireAll wakes every waiter (Reset, Close).
func (s *signals) fireAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t, ch := range s.waiting {
		close(ch)
		delete(s.waiting, t)
	}
}

// discordEpoch is 2015-01-01T00:00:00Z in Unix milliseconds.
const discordEpoch = 1420070400000

// snowflakes makes ids as Discord does: milliseconds since the Discord
// epoch in the high bits, strictly increasing. Its lock is a leaf.
type snowflakes struct {
	mu   sync.Mutex
	last uint64
}

func (f *snowflakes) next() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	if id <= f.last {
		id = f.last + 1
	}
	f.last = id
	return strconv.FormatUint(id, 10)
}

// snowflakeTime is the creation time encoded in a snowflake (zero if id is
// not one).
func snowflakeTime(id string) time.Time {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(int64(n>>22) + discordEpoch).UTC()
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// await calls check until it reports done or an error, waiting between
// calls for the next change of topic; it fails when ctx ends or the
// Server closes.
func (s *Server) await(ctx context.Context, topic string, check func() (bool, error)) error {
	for {
		changed := s.changes.wait(topic)
		done, err := check()
		if done || err != nil {
			return err
		}
		select {
		case <-changed:
		case <-s.quit:
			return ErrClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
