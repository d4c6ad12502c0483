package arena

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// PGBus is the Bus of several processes sharing one PostgreSQL database:
// LISTEN/NOTIFY on one channel. PostgreSQL delivers the notifications of
// committed transactions in commit order, the same order to every
// listener, so every process applies the rooms' events alike. A
// notification is lost to a process whose listening connection is down
// at the time; it reconnects and goes on (its rooms resync when next
// opened).
type PGBus struct {
	pool    *pgxpool.Pool
	channel string
	log     *slog.Logger

	subscription
	ready chan struct{} // closed once LISTEN is in place
	stop  context.CancelFunc
	done  chan struct{}
}

var _ Bus = (*PGBus)(nil)

// NewPGBus listens on dsn's database. The channel is named after scope
// (what the bot's processes share: its token) and the schema, hashed, so
// bots (and tests) sharing a server never hear each other. It returns
// once LISTEN is in place.
func NewPGBus(ctx context.Context, dsn, scope string, log *slog.Logger) (*PGBus, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("arena bus: %w", err)
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("arena bus: %w", err)
	}
	var schema string
	if err := pool.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("arena bus: %w", err)
	}
	sum := sha256.Sum256([]byte(scope + "/" + schema))
	run, stop := context.WithCancel(context.Background())
	b := &PGBus{pool: pool, channel: "mazebot_arena_" + hex.EncodeToString(sum[:8]), log: log,
		ready: make(chan struct{}), stop: stop, done: make(chan struct{})}
	go b.listen(run)
	select {
	case <-b.ready:
		return b, nil
	case <-ctx.Done():
		b.Close()
		return nil, fmt.Errorf("arena bus: LISTEN: %w", ctx.Err())
	case <-time.After(30 * time.Second):
		b.Close()
		return nil, errors.New("arena bus: LISTEN did not start in 30 s")
	}
}

// listen holds a connection LISTENing and delivers what it hears, in
// order; it reconnects when the connection fails.
func (b *PGBus) listen(ctx context.Context) {
	defer close(b.done)
	var once sync.Once
	for ctx.Err() == nil {
		err := b.listenOnce(ctx, func() { once.Do(func() { close(b.ready) }) })
		if ctx.Err() != nil {
			return
		}
		b.log.Warn("arena bus: listening failed; reconnecting", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func (b *PGBus) listenOnce(ctx context.Context, listening func()) error {
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+b.channel); err != nil {
		return err
	}
	listening()
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			// A connection that LISTENs must not serve NOTIFYs later: close
			// it, and the pool drops it on Release.
			_ = conn.Conn().Close(context.Background())
			return err
		}
		b.mu.Lock()
		deliver := b.deliver
		b.mu.Unlock()
		if deliver != nil {
			deliver([]byte(n.Payload))
		}
	}
}

// Publish sends msg as a notification.
func (b *PGBus) Publish(ctx context.Context, msg []byte) error {
	if len(msg) > MaxMessage {
		return fmt.Errorf("arena bus: a message of %d bytes (at most %d)", len(msg), MaxMessage)
	}
	if _, err := b.pool.Exec(ctx, "SELECT pg_notify($1, $2)", b.channel, string(msg)); err != nil {
		return fmt.Errorf("arena bus: NOTIFY: %w", err)
	}
	return nil
}

// Shared is true: other processes may be listening.
func (b *PGBus) Shared() bool { return true }

// Close stops listening and closes the connections.
func (b *PGBus) Close() error {
	b.stop()
	<-b.done
	b.pool.Close()
	return nil
}
