package pgbus

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// MaxMessage bounds a message: a room's state answering a sync is the
// largest (a hundred racers' games), far below it.
const MaxMessage = 1 << 20

// keep is how long a message stays in the table for a listener that
// missed its notification.
const keep = time.Minute

// Bus is the Arena's bus for several processes sharing one PostgreSQL
// database. The messages a transaction of the writer commits are rows of
// one unlogged table, as many a row as a notification carries, numbered
// by a sequence under an advisory lock taken until the transaction
// commits, so that the numbers are the commit order; a row's NOTIFY
// carries its number, and its messages when they fit in it. A
// listener delivers a notification's messages when its number follows the
// last it delivered, and else reads every row after that last from the
// table, so a lost notification (its connection cut, then back) is
// repaired from the table at the next one or at the reconnect, in order,
// and no message is bound by NOTIFY's 8,000 bytes. Numbers follow each
// other when one bot's processes alone use the table's sequence.
type Bus struct {
	pool    *pgxpool.Pool
	channel string
	lock    int64 // the advisory lock that orders the publications
	log     *slog.Logger

	mu      sync.Mutex
	deliver func([]byte)
	gap     func() // OnGap's

	// relisten, if set, is called before listening again after a failure:
	// a test holds the bus down there.
	relisten func()
	// tableReads counts the listener's reads of the table, which a
	// notification carrying its batch spares (a test's measure).
	tableReads atomic.Int64
	// commits counts the writer's transactions (a test's measure).
	commits atomic.Int64
	// hearing: the listener is in place and has read what it missed.
	hearing atomic.Bool

	ready   chan struct{} // closed once LISTEN is in place
	stop    context.CancelFunc
	done    chan struct{}
	cleaned chan struct{} // closed when clean returned

	// queue takes the publications to the writer, which commits what
	// waits in one statement (see write).
	queue   chan publication
	stopped chan struct{} // closed when the writer returned
}

// publication is one message on its way, and where its outcome goes
// (nil: Send's, whose failure the writer logs).
type publication struct {
	msg  string
	done chan error
}

// queued is how many publications may wait for the writer: Send returns
// once its message is among them, its place in the order taken.
const queued = 4096

// New listens on dsn's database. The channel is named after scope (what
// the bot's processes share: its token) and the schema, hashed, so bots
// (and tests) sharing a server never hear each other. It returns once
// LISTEN is in place.
func New(ctx context.Context, dsn, scope string, log *slog.Logger) (*Bus, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("arena bus: %w", err)
	}
	cfg.MaxConns = 8
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("arena bus: %w", err)
	}
	var schema string
	if err := pool.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("arena bus: %w", err)
	}
	// The table is the bus's own, not the store's: unlogged (a message
	// outlives a minute at most, never a crash of the database), and
	// made here so that the store's schema does not know the Arena. A row
	// is a batch: the messages one statement of the writer committed, in
	// order (a row a message was 16,000 rows written and 48,000 read a
	// second for three processes' 2,000 racers, which the database, on
	// the processes' two cores, did not keep up with).
	if _, err := pool.Exec(ctx, `CREATE UNLOGGED TABLE IF NOT EXISTS arena_bus_batch (
		seq BIGSERIAL PRIMARY KEY, channel TEXT NOT NULL, payloads TEXT[] NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		pool.Close()
		return nil, fmt.Errorf("arena bus: the table: %w", err)
	}
	sum := sha256.Sum256([]byte(scope + "/" + schema))
	run, stop := context.WithCancel(context.Background())
	b := &Bus{pool: pool, channel: "mazebot_arena_" + hex.EncodeToString(sum[:8]), lock: int64(binary.LittleEndian.Uint64(sum[8:16])),
		log: log, ready: make(chan struct{}), stop: stop, done: make(chan struct{}), cleaned: make(chan struct{}),
		queue: make(chan publication, queued), stopped: make(chan struct{})}
	go b.listen(run)
	go b.write(run)
	go b.clean(run, cleanEvery)
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

// Subscribe sets the one subscriber.
func (b *Bus) Subscribe(deliver func([]byte)) {
	b.mu.Lock()
	b.deliver = deliver
	b.mu.Unlock()
}

// OnGap sets what to call when the listener was away so long that the
// messages published meanwhile may be gone from the table (see gapAfter):
// what is delivered next may not follow what was delivered before.
func (b *Bus) OnGap(gap func()) {
	b.mu.Lock()
	b.gap = gap
	b.mu.Unlock()
}

// gapAfter is the listener's silence past which the table's repair is not
// trusted: a row is kept for keep, and deleted by the next clean after
// that, so half of it leaves a margin for clocks and a slow return. A bus
// in use is never this silent while it listens: a process holding a room
// beats every 2 s. (A test's is shorter.)
var gapAfter = keep / 2

// quietFor is how long the listener waits for a notification before it
// asks its connection whether the database is still there, and
// answerWithin how long it waits for an answer to that or any other
// small request (a connection, LISTEN): a connection cut without a word
// (a network that dropped the route, a NAT that forgot it) would
// otherwise be waited on for as long as TCP takes to give up, minutes,
// with every room deaf meanwhile. (A test's are shorter.) Reading what
// it missed from the table, a minute's rows at most, may take longer.
var (
	quietFor      = 5 * time.Second
	answerWithin  = 5 * time.Second
	catchUpWithin = keep / 2
)

// retry is the wait before listening again after the connection failed.
const retry = 200 * time.Millisecond

// listen holds a connection LISTENing and delivers what it hears, in
// order; it reconnects when the connection fails, and reads what it
// missed meanwhile from the table.
func (b *Bus) listen(ctx context.Context) {
	defer close(b.done)
	var once sync.Once
	last := int64(-1)   // the last message delivered; -1 until the first LISTEN
	var heard time.Time // when the listener last heard from the database
	for ctx.Err() == nil {
		err := b.listenOnce(ctx, &last, &heard, func() { once.Do(func() { close(b.ready) }) })
		if ctx.Err() != nil {
			return
		}
		b.log.Warn("arena bus: listening failed; reconnecting", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(retry):
		}
		if b.relisten != nil {
			b.relisten()
		}
	}
}

func (b *Bus) listenOnce(ctx context.Context, last *int64, heard *time.Time, listening func()) error {
	defer b.hearing.Store(false)
	setup, cancel := context.WithTimeout(ctx, answerWithin)
	defer cancel()
	conn, err := b.pool.Acquire(setup)
	if err != nil {
		return err
	}
	defer conn.Release()
	fail := func(err error) error {
		// A connection that LISTENs must not serve NOTIFYs later: close
		// it, and the pool drops it on Release.
		_ = conn.Conn().Close(context.Background())
		return err
	}
	if _, err := conn.Exec(setup, "LISTEN "+b.channel); err != nil {
		return fail(err)
	}
	if *last < 0 {
		// What was published before this process listened is not its.
		if err := conn.QueryRow(setup, "SELECT COALESCE(MAX(seq), 0) FROM arena_bus_batch").Scan(last); err != nil {
			return fail(err)
		}
	} else if time.Since(*heard) > gapAfter {
		// Back after so long that rows may be gone: told before the
		// table's rows, so that none is applied over the gap.
		b.mu.Lock()
		gap := b.gap
		b.mu.Unlock()
		b.log.Info("arena bus: listening again after a silence longer than the table surely keeps a message; the rooms shared with other processes ask them for their state again",
			"silent", time.Since(*heard).Round(time.Second))
		if gap != nil {
			gap()
		}
	}
	for {
		// Every row after the last delivered: what the notification
		// announced, and any whose notification this connection missed.
		if err := b.catchUp(ctx, conn, last); err != nil {
			return fail(err)
		}
		*heard = time.Now()
		b.hearing.Store(true)
		listening()
		for {
			wait, cancel := context.WithTimeout(ctx, quietFor)
			n, err := conn.Conn().WaitForNotification(wait)
			cancel()
			if err != nil && ctx.Err() == nil && wait.Err() != nil {
				// Quiet: a connection the network dropped without a word
				// (no reset) hears nothing for good, and this one must not
				// be it. A notification that comes meanwhile waits for the
				// next WaitForNotification.
				ping, cancel := context.WithTimeout(ctx, answerWithin)
				_, err = conn.Exec(ping, "SELECT 1")
				cancel()
				if err != nil {
					return fail(fmt.Errorf("quiet for %v, and no answer: %w", quietFor, err))
				}
				*heard = time.Now()
				continue
			}
			if err != nil {
				return fail(err)
			}
			*heard = time.Now()
			if !b.deliverInline(n.Payload, last) {
				break // not the next batch, or not inline: the table has it
			}
		}
	}
}

// cleanEvery is how often a bus deletes the rows older than keep (a
// test's is shorter).
var cleanEvery = keep / 4

// clean deletes the rows older than keep, every interval, on a
// connection of its own. The listener did it, but only when it read the
// table (a gap), so while every notification came in order, none was
// deleted and the table grew for as long as members raced; on its
// connection a delete would also hold up the notifications behind it.
func (b *Bus) clean(ctx context.Context, interval time.Duration) {
	defer close(b.cleaned)
	every := time.NewTicker(interval)
	defer every.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-every.C:
		}
		if err := b.cleanOnce(ctx); err != nil && ctx.Err() == nil {
			b.log.Warn("arena bus: deleting old messages", "err", err)
		}
	}
}

// cleanOnce deletes the rows older than keep, every channel's: a bot's
// rows outlive its processes.
func (b *Bus) cleanOnce(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, keep/4)
	defer cancel()
	_, err := b.pool.Exec(ctx, "DELETE FROM arena_bus_batch WHERE at < now() - $1::interval", keep.String())
	return err
}

// deliverInline delivers the batch a notification carries, if it carries
// it and it is the next after last; true if there is nothing to read from
// the table (it was delivered now or before). A listener that read the
// table once a notification took three processes' 2,000 racers 9,000
// queries a second, on the two cores that also ran the processes.
func (b *Bus) deliverInline(payload string, last *int64) bool {
	head, batch, inline := strings.Cut(payload, "\n")
	seq, err := strconv.ParseInt(head, 10, 64)
	switch {
	case err != nil:
		return false
	case seq <= *last:
		return true // the table gave it with an earlier one
	case seq != *last+1 || !inline:
		// A gap: a batch whose notification was lost, a number a failed
		// insert took, or another channel's batch between (all read from
		// the table, in order).
		return false
	}
	*last = seq
	b.mu.Lock()
	deliver := b.deliver
	b.mu.Unlock()
	if deliver != nil {
		for msg := range strings.SplitSeq(batch, "\n") {
			deliver([]byte(msg))
		}
	}
	return true
}

// inlineBytes bounds a notification's payload: PostgreSQL's is under
// 8,000 bytes. A row whose messages fit is carried whole, after its
// number; a larger one (one large message) is announced by its number,
// and read from the table.
const inlineBytes = 7900

// rows cuts a batch into the rows it is committed as: as many messages a
// row as fit in a notification (a message too large, or holding a
// newline, the notification's separator, is a row alone), in order.
func rows(msgs []string) [][]string {
	var out [][]string
	start, size := 0, 0
	for i, m := range msgs {
		alone := len(m)+1 > inlineBytes || strings.IndexByte(m, '\n') >= 0
		if i > start && (alone || size+1+len(m) > inlineBytes) {
			out = append(out, msgs[start:i])
			start, size = i, 0
		}
		size += 1 + len(m)
		if alone {
			out = append(out, msgs[i:i+1])
			start, size = i+1, 0
		}
	}
	if start < len(msgs) {
		out = append(out, msgs[start:])
	}
	return out
}

// inline is the payload after a row's number: its messages, each on a
// line, or "" when they do not fit or one holds a newline.
func inline(msgs []string) string {
	n := 0
	for _, m := range msgs {
		n += 1 + len(m)
		if n > inlineBytes || strings.IndexByte(m, '\n') >= 0 {
			return ""
		}
	}
	return "\n" + strings.Join(msgs, "\n")
}

// catchUp delivers, in order, the messages after last.
func (b *Bus) catchUp(ctx context.Context, conn *pgxpool.Conn, last *int64) error {
	ctx, cancel := context.WithTimeout(ctx, catchUpWithin)
	defer cancel()
	b.tableReads.Add(1)
	rows, err := conn.Query(ctx, "SELECT seq, payloads FROM arena_bus_batch WHERE channel = $1 AND seq > $2 ORDER BY seq", b.channel, *last)
	if err != nil {
		return err
	}
	defer rows.Close()
	var msgs [][]byte
	for rows.Next() {
		var payloads []string
		if err := rows.Scan(last, &payloads); err != nil {
			return err
		}
		for _, p := range payloads {
			msgs = append(msgs, []byte(p))
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	deliver := b.deliver
	b.mu.Unlock()
	if deliver != nil {
		for _, m := range msgs {
			deliver(m)
		}
	}
	return nil
}

// Publish adds msg to the table and notifies the listeners: the writer
// commits it with whatever else waits, in one statement, and Publish
// returns once that committed.
func (b *Bus) Publish(ctx context.Context, msg []byte) error {
	p := publication{msg: string(msg), done: make(chan error, 1)}
	if err := b.enqueue(ctx, p); err != nil {
		return err
	}
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("arena bus: publish: %w", ctx.Err())
	case <-b.stopped:
		return errors.New("arena bus: closed")
	}
}

// Send is Publish that returns once msg waits for the writer, before it
// is committed: the order of a process's messages is the order they
// were sent in. A failure to commit it is logged. It waits at most
// sendWithin for a place (the writer is behind by queued messages), so
// that a caller need not make a context with a deadline for each (a move
// each, which all took the parent context's one lock).
func (b *Bus) Send(ctx context.Context, msg []byte) error {
	p := publication{msg: string(msg)}
	if len(p.msg) <= MaxMessage {
		select {
		case b.queue <- p:
			return nil
		default:
		}
	}
	ctx, cancel := context.WithTimeout(ctx, sendWithin)
	defer cancel()
	return b.enqueue(ctx, p)
}

// sendWithin bounds Send's wait for a place in the queue.
const sendWithin = 5 * time.Second

// enqueue hands p to the writer, in order.
func (b *Bus) enqueue(ctx context.Context, p publication) error {
	if len(p.msg) > MaxMessage {
		return fmt.Errorf("arena bus: a message of %d bytes (at most %d)", len(p.msg), MaxMessage)
	}
	select {
	case b.queue <- p:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("arena bus: publish: %w", ctx.Err())
	case <-b.stopped:
		return errors.New("arena bus: closed")
	}
}

// maxBatch bounds the messages one transaction commits, and batchBytes
// their size. A writer commits at most maxBatch messages a commit; on a
// loaded machine a commit took some 100 ms, so 512 a commit kept up with
// no more than 5,000 messages a second, under the 5,300 a process's
// members sent with three processes' 2,000 racers (BenchmarkArenaPostgres):
// the queue filled for the whole race, the moves waited in Send, and the
// bus's lag passed a second. 4,096 (some 1 MB of moves: a notification's
// 7,900 bytes carried 33 to 36 of them) keeps up.
const (
	maxBatch   = 4096
	batchBytes = 4 * MaxMessage
)

// commitGap is the least time between the starts of a writer's commits:
// what is sent meanwhile waits, and goes in the next one. A message sent
// after a quiet spell is committed at once; under load, commits were a
// few moves each, some 400 a second a process, and the database took a
// quarter of the machine's two cores for them (three processes' 1,000
// racers, BenchmarkArenaPostgres, a run each: db-cpu-cores 0.45 with
// none, 0.22 at 5 ms, 0.17 at 10 ms; broadcast p99 76, 32 and 45 ms).
const commitGap = 5 * time.Millisecond

// write commits the publications as they come, each batch in one
// transaction of a row a notification's worth (rows): the advisory lock,
// held until it commits, makes the sequence's order the commit order,
// which every listener reads, and a NOTIFY a row announces it. One
// statement a message took the lock once a message: the processes'
// inputs queued behind it at some 1,500 a second (BenchmarkArenaPostgres);
// a batch takes it once for all that waited meanwhile.
func (b *Bus) write(ctx context.Context) {
	defer close(b.stopped)
	var last time.Time // when the last commit began
	gap := time.NewTimer(commitGap)
	gap.Stop()
	for {
		var batch []publication
		select {
		case <-ctx.Done():
			return
		case p := <-b.queue:
			batch = append(batch, p)
		}
		size := len(batch[0].msg)
		// What comes before the gap since the last commit is over joins
		// this one, and then what waits.
		gap.Reset(max(commitGap-time.Since(last), 0))
		waiting := true
	gather:
		for len(batch) < maxBatch && size < batchBytes {
			var p publication
			if waiting {
				select {
				case p = <-b.queue:
				case <-gap.C:
					waiting = false
					continue
				case <-ctx.Done():
					break gather
				}
			} else {
				select {
				case p = <-b.queue:
				default:
					break gather
				}
			}
			batch = append(batch, p)
			size += len(p.msg)
		}
		gap.Stop()
		msgs := make([]string, len(batch))
		for i, p := range batch {
			msgs[i] = p.msg
		}
		// One transaction, one round trip: a statement a row, in order,
		// pipelined (the first takes the lock until the commit).
		var stmts pgx.Batch
		for _, row := range rows(msgs) {
			stmts.Queue(`WITH l AS (SELECT pg_advisory_xact_lock($1)),
				i AS (INSERT INTO arena_bus_batch (channel, payloads) SELECT $2, $3::text[] FROM l RETURNING seq)
				SELECT pg_notify($2, seq::text || $4) FROM i`, b.lock, b.channel, row, inline(row))
		}
		last = time.Now()
		b.commits.Add(1)
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := b.pool.SendBatch(wctx, &stmts).Close()
		cancel()
		if err != nil {
			err = fmt.Errorf("arena bus: publish: %w", err)
		}
		sent := 0
		for _, p := range batch {
			if p.done == nil {
				sent++
				continue
			}
			p.done <- err
		}
		if err != nil && sent > 0 {
			b.log.Error("arena bus: messages sent were lost", "count", sent, "err", err)
		}
	}
}

// Hearing tells whether the listener is in place and has read what it
// missed: a room is not made without it (arena.Hearing).
func (b *Bus) Hearing() bool { return b.hearing.Load() }

// Shared is true: other processes may be listening.
func (b *Bus) Shared() bool { return true }

// Close stops listening and closes the connections.
func (b *Bus) Close() error {
	b.stop()
	<-b.done
	<-b.stopped
	<-b.cleaned
	b.pool.Close()
	return nil
}
