package guard_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"mazebot/play"
	"mazebot/store/guard"
	"mazebot/store/sqlite"
)

// errorLog records the ops reported as failed.
type errorLog struct {
	mu  sync.Mutex
	ops []string
}

func (l *errorLog) StoreError(op string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ops = append(l.ops, op)
}

func (l *errorLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ops...)
}

// stub is a Store whose Game answers err, or hangs until its context
// ends when hang is set; its other methods are not used.
type stub struct {
	guard.Store
	err  error
	hang bool
}

func (s *stub) Game(ctx context.Context, _ int64) (play.Record, error) {
	if s.hang {
		<-ctx.Done()
		return play.Record{}, ctx.Err()
	}
	return play.Record{}, s.err
}

func TestHangingCallIsBounded(t *testing.T) {
	log := &errorLog{}
	g := guard.Wrap(&stub{hang: true}, log, 50*time.Millisecond)
	start := time.Now()
	_, err := g.Game(context.Background(), 1)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the guard's deadline", err)
	}
	// Generous: the point is that it ends, not how precisely.
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("a hanging call took %v under a 50 ms guard", took)
	}
	if got := log.list(); len(got) != 1 || got[0] != "Game" {
		t.Fatalf("reported %v, want [Game]", got)
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
			log := &errorLog{}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancelled {
				cancel()
			}
			defer cancel()
			_, err := guard.Wrap(&stub{err: tc.err}, log, 0).Game(ctx, 1)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v passed through", err, tc.err)
			}
			if got := len(log.list()) == 1; got != tc.counted {
				t.Fatalf("reported %v, want counted=%v", log.list(), tc.counted)
			}
		})
	}
}

// TestEveryMethodIsGuarded calls every method of a wrapped closed
// database: each must fail, be reported under its own name, and so have
// gone through the guard.
func TestEveryMethodIsGuarded(t *testing.T) {
	db, err := sqlite.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	log := &errorLog{}
	g := reflect.ValueOf(guard.Wrap(db, log, 0))
	iface := reflect.TypeFor[guard.Store]()
	for i := range iface.NumMethod() {
		m := iface.Method(i)
		if m.Name == "Close" {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			before := len(log.list())
			args := []reflect.Value{reflect.ValueOf(context.Background())}
			for j := 1; j < m.Type.NumIn(); j++ {
				args = append(args, reflect.Zero(m.Type.In(j)))
			}
			out := g.MethodByName(m.Name).Call(args)
			if out[len(out)-1].IsNil() {
				t.Fatalf("%s on a closed database succeeded", m.Name)
			}
			if got := log.list(); len(got) != before+1 || got[before] != m.Name {
				t.Fatalf("reported %v after %s, want it under its name", got[before:], m.Name)
			}
		})
	}
}
