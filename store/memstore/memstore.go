package memstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"mazebot/contest"
	"mazebot/play"
)

// Store keeps a mazebot database in memory. The zero value is not
// usable; New makes one. It is safe for concurrent use: every call holds
// one lock, which is what makes its conditional writes atomic.
type Store struct {
	mu     sync.Mutex
	closed bool

	games    map[int64]play.Record
	finishes []finish // in the order recorded: ids ascend
	lastID   int64    // of games, finishes and events alike: never reused

	dailies map[string]contest.DailySettings // by guild
	posts   map[day]contest.DailyPost
	mazes   map[day]contest.DailyMaze
	events  map[int64]contest.Event
	shown   []contest.Post // in the order added

	settings map[string][]byte
	seen     map[string]time.Time
	turns    map[int]time.Time

	commandGuilds map[string]time.Time

	community community // recaps and reminders (community.go)
}

// day is a server's day: the key of its post and its maze.
type day struct{ guild, date string }

// New returns an empty store.
func New() *Store {
	return &Store{
		games: map[int64]play.Record{}, dailies: map[string]contest.DailySettings{}, posts: map[day]contest.DailyPost{},
		mazes: map[day]contest.DailyMaze{}, events: map[int64]contest.Event{}, settings: map[string][]byte{},
		seen: map[string]time.Time{}, turns: map[int]time.Time{}, commandGuilds: map[string]time.Time{},
	}
}

// errClosed is every call's error once the store is closed.
var errClosed = errors.New("memstore: closed")

// lock takes the store's lock for one call, unless the call's context is
// done or the store closed. The caller unlocks.
func (s *Store) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errClosed
	}
	return nil
}

// nextID is the key of a new row.
func (s *Store) nextID() int64 {
	s.lastID++
	return s.lastID
}

// Ping tells whether the store answers: until Close.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	s.mu.Unlock()
	return nil
}

// Close closes the store: every later call fails.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// lookup returns m[k], read under the store's lock, or an error wrapping
// ErrNotFound that names what (a format of args).
func lookup[K comparable, V any](ctx context.Context, s *Store, m map[K]V, k K, what string, args ...any) (V, error) {
	var zero V
	if err := s.lock(ctx); err != nil {
		return zero, err
	}
	defer s.mu.Unlock()
	v, ok := m[k]
	if !ok {
		return zero, fmt.Errorf("%s: %w", fmt.Sprintf(what, args...), play.ErrNotFound)
	}
	return v, nil
}

// remove deletes m[k] under the store's lock.
func remove[K comparable, V any](ctx context.Context, s *Store, m map[K]V, k K) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	delete(m, k)
	return nil
}

// deleteBefore deletes, under the store's lock, the entries of m whose
// time (as timeOf reads it) is before cut, to the millisecond as in the
// databases, and reports how many it deleted.
func deleteBefore[K comparable, V any](ctx context.Context, s *Store, m map[K]V, cut time.Time, timeOf func(V) time.Time) (int64, error) {
	if err := s.lock(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var n int64
	for k, v := range m {
		if timeOf(v).UnixMilli() < cut.UnixMilli() {
			delete(m, k)
			n++
		}
	}
	return n, nil
}

// instant is t as a database keeps it: UTC, to the millisecond.
func instant(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()).UTC() }

// optional is instant for a time whose zero value means "never" (kept
// as 0 ms).
func optional(t time.Time) time.Time {
	if t.IsZero() || t.UnixMilli() == 0 {
		return time.Time{}
	}
	return instant(t)
}

// refused is the error of a record the store can't keep, as a database's
// CHECK constraint would refuse it.
func refused(what string, args ...any) error {
	return fmt.Errorf("memstore: refused: "+what, args...)
}

// Secret returns the value kept under key, storing generate's result the
// first time.
func (s *Store) Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if v, ok := s.settings[key]; ok {
		return bytes.Clone(v), nil
	}
	v, err := generate()
	if err != nil {
		return nil, fmt.Errorf("setting %q: generate: %w", key, err)
	}
	if len(v) == 0 {
		return nil, fmt.Errorf("setting %q: generated an empty value", key)
	}
	s.settings[key] = bytes.Clone(v)
	return bytes.Clone(v), nil
}

// FirstSeen records that the interaction id arrived at, and reports
// whether it is new.
func (s *Store) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	if id == "" {
		return false, errors.New("first seen: empty interaction id")
	}
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	if _, ok := s.seen[id]; ok {
		return false, nil
	}
	s.seen[id] = instant(at)
	return true, nil
}

// ForgetSeen deletes the interactions seen before before and returns how
// many it deleted.
func (s *Store) ForgetSeen(ctx context.Context, before time.Time) (int64, error) {
	return deleteBefore(ctx, s, s.seen, before, func(at time.Time) time.Time { return at })
}

// ClaimIdentify gives the caller bucket's turn to identify at at, when
// the bucket's last turn was window or more before, or is more than
// window ahead (from a clock running ahead); otherwise it reports when
// that turn's window ends.
func (s *Store) ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (time.Time, bool, error) {
	if bucket < 0 {
		return time.Time{}, false, fmt.Errorf("claim identify: bucket %d is negative", bucket)
	}
	if err := s.lock(ctx); err != nil {
		return time.Time{}, false, err
	}
	defer s.mu.Unlock()
	last, ok := s.turns[bucket]
	if ok && last.UnixMilli() > at.UnixMilli()-window.Milliseconds() && last.UnixMilli() <= at.UnixMilli()+window.Milliseconds() {
		return last.Add(window), false, nil
	}
	s.turns[bucket] = instant(at)
	return at.Add(window), true, nil
}

// CommandGuilds lists the servers given mazebot's commands of their own.
func (s *Store) CommandGuilds(ctx context.Context) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.commandGuilds)), nil
}

// AddCommandGuild records that a server was given mazebot's commands of
// its own at at.
func (s *Store) AddCommandGuild(ctx context.Context, guildID string, at time.Time) error {
	if guildID == "" {
		return refused("a command guild without an ID")
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.commandGuilds[guildID] = instant(at)
	return nil
}

// RemoveCommandGuild forgets a server's own commands, once removed.
func (s *Store) RemoveCommandGuild(ctx context.Context, guildID string) error {
	return remove(ctx, s, s.commandGuilds, guildID)
}
