package pgbus

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mazebot/internal/pgtest"
)

// inbox collects what a bus delivers.
type inbox struct {
	mu   sync.Mutex
	msgs []string
}

func (in *inbox) deliver(m []byte) {
	in.mu.Lock()
	in.msgs = append(in.msgs, string(m))
	in.mu.Unlock()
}

func (in *inbox) all() []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]string(nil), in.msgs...)
}

func (in *inbox) await(t *testing.T, n int, within time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(within)
	for len(in.all()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d messages after %v, want %d: %v", len(in.all()), within, n, in.all())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return in.all()
}

func open(t *testing.T, url string) (*Bus, *inbox) {
	t.Helper()
	b, err := New(context.Background(), url, "token", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	in := &inbox{}
	b.Subscribe(in.deliver)
	return b, in
}

// TestOrderAndSize: every process gets every message, its own included,
// in one order, and a message is not bound by NOTIFY's 8,000 bytes.
func TestOrderAndSize(t *testing.T) {
	url := pgtest.Schema(t)
	a, ina := open(t, url)
	b, inb := open(t, url)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 20 {
		bus := a
		if i%2 == 1 {
			bus = b
		}
		wg.Go(func() {
			if err := bus.Publish(ctx, []byte(fmt.Sprint("m", i))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	big := strings.Repeat("x", 50_000)
	if err := a.Publish(ctx, []byte(big)); err != nil {
		t.Fatal(err)
	}
	got, other := ina.await(t, 21, 10*time.Second), inb.await(t, 21, 10*time.Second)
	if strings.Join(got, ",") != strings.Join(other, ",") {
		t.Fatalf("two orders:\n%v\n%v", got, other)
	}
	if got[20] != big {
		t.Fatalf("the large message arrived as %d bytes", len(got[20]))
	}
}

// TestCutListener: a process whose LISTEN connection is cut for a second
// gets what was published meanwhile, in order, once it is back
// (PostgreSQL drops the notifications of a listener that is away; the bus
// reads them from its table). Without the table they were lost.
func TestCutListener(t *testing.T) {
	url := pgtest.Schema(t)
	a, ina := open(t, url)
	b, inb := open(t, url)
	ctx := context.Background()
	if err := a.Publish(ctx, []byte("before")); err != nil {
		t.Fatal(err)
	}
	ina.await(t, 1, 10*time.Second)
	inb.await(t, 1, 10*time.Second)
	if !b.Hearing() {
		t.Fatal("b, listening, says it hears nothing")
	}

	back := cutListener(t, url, b)
	if b.Hearing() {
		t.Fatal("b, cut off, says it hears")
	}
	for _, m := range []string{"finish", "after"} {
		if err := a.Publish(ctx, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Second)
	returned := time.Now()
	close(back)
	got := inb.await(t, 3, 5*time.Second)
	// A second is the promise; without the table's read they never come
	// (the wait above fails). The bound leaves room for a loaded machine:
	// beside another go test under -race they once took 1.5 s.
	took := time.Since(returned)
	t.Logf("the missed messages came %v after the bus's return", took)
	if took > 3*time.Second {
		t.Errorf("the missed messages came %v after the bus's return, want about a second", took)
	}
	if strings.Join(got, ",") != "before,finish,after" {
		t.Fatalf("b got %v", got)
	}
	if !b.Hearing() {
		t.Fatal("b, back with what it missed, says it hears nothing")
	}
}

// cutListener cuts the LISTEN connections in url's database and returns
// once b's listener noticed: it waits to listen again until back is
// closed.
func cutListener(t *testing.T, url string, b *Bus) (back chan struct{}) {
	t.Helper()
	held, back := make(chan struct{}), make(chan struct{})
	var once sync.Once
	b.relisten = func() {
		once.Do(func() { close(held) })
		<-back
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' OR query LIKE 'SELECT seq, payload%'`); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("the listener did not notice the cut")
	}
	return back
}

// TestDeafListener: a listener whose connection the network dropped
// without a word (nothing passes, nothing is closed) notices within
// quietFor and answerWithin, listens again, and gets what it missed. Before,
// it waited on the dead connection for as long as TCP took to give up.
func TestDeafListener(t *testing.T) {
	// A ping answered late under -race on a loaded machine would leave a
	// live connection: the answer's wait is generous.
	setFor(t, &quietFor, 300*time.Millisecond)
	setFor(t, &answerWithin, 2*time.Second)
	url := pgtest.Schema(t)
	proxy := newFreezer(t, url)
	a, _ := open(t, url)
	b, inb := open(t, proxy.url)
	ctx := context.Background()
	if err := a.Publish(ctx, []byte("m1")); err != nil {
		t.Fatal(err)
	}
	inb.await(t, 1, 10*time.Second)
	// Quiet on a live connection: asked and answered, it stays.
	reads := b.tableReads.Load()
	time.Sleep(4 * quietFor)
	if again := b.tableReads.Load() - reads; again != 0 {
		t.Fatalf("a quiet live connection was left: the table read %d times more", again)
	}
	proxy.freeze()
	if err := a.Publish(ctx, []byte("m2")); err != nil {
		t.Fatal(err)
	}
	if got := inb.await(t, 2, 10*time.Second); strings.Join(got, ",") != "m1,m2" {
		t.Fatalf("b got %v", got)
	}
	// Before b closes: a frozen connection's close waits for the
	// database's goodbye (15 s).
	proxy.cut()
}

// setFor sets *v to value for the test.
func setFor[T any](t *testing.T, v *T, value T) {
	before := *v
	*v = value
	t.Cleanup(func() { *v = before })
}

// freezer is a TCP proxy to a database whose connections can be frozen:
// from then on nothing passes either way, and nothing is closed, as when
// a network drops the route without a reset. Connections made after are
// not frozen.
type freezer struct {
	url   string // the database's url, through the proxy
	mu    sync.Mutex
	all   []*atomic.Bool // each connection's frozen
	conns []net.Conn     // both ends of each
}

func newFreezer(t *testing.T, dsn string) *freezer {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	target := u.Host
	u.Host = ln.Addr().String()
	f := &freezer{url: u.String()}
	var pipes sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		f.cut()
		pipes.Wait()
	})
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			frozen := &atomic.Bool{}
			f.mu.Lock()
			f.all = append(f.all, frozen)
			f.conns = append(f.conns, client, server)
			f.mu.Unlock()
			pipe := func(to, from net.Conn) {
				defer to.Close()
				buf := make([]byte, 32<<10)
				for {
					n, err := from.Read(buf)
					if err != nil {
						return
					}
					if !frozen.Load() {
						if _, err := to.Write(buf[:n]); err != nil {
							return
						}
					}
				}
			}
			pipes.Go(func() { pipe(server, client) })
			pipes.Go(func() { pipe(client, server) })
		}
	}()
	return f
}

// cut closes every connection.
func (f *freezer) cut() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.conns {
		c.Close()
	}
}

// freeze stops every connection made so far.
func (f *freezer) freeze() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, frozen := range f.all {
		frozen.Store(true)
	}
}

// TestGapReported: a listener back after longer than gapAfter, when the
// table may have lost rows, reports a gap before it delivers what it
// reads there; one back sooner reports none.
func TestGapReported(t *testing.T) {
	setFor(t, &gapAfter, 3*time.Second)
	url := pgtest.Schema(t)
	a, _ := open(t, url)
	b, inb := open(t, url)
	b.OnGap(func() { inb.deliver([]byte("GAP")) })
	ctx := context.Background()
	publish := func(m string) {
		t.Helper()
		if err := a.Publish(ctx, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	publish("m1")
	inb.await(t, 1, 10*time.Second)

	back := cutListener(t, url, b)
	publish("m2")
	close(back) // at once: away for some 200 ms
	inb.await(t, 2, 10*time.Second)

	back = cutListener(t, url, b)
	publish("m3")
	time.Sleep(gapAfter + 500*time.Millisecond)
	close(back)
	got := inb.await(t, 4, 10*time.Second)
	if strings.Join(got, ",") != "m1,m2,GAP,m3" {
		t.Fatalf("b got %v, want a gap reported only after the long absence, before what it missed", got)
	}
}

// TestSendKeepsOrder: Send returns before its message is committed, and a
// process's sends and publishes reach every process in the order it made
// them (the Arena answers a move before the bus delivers it, and counts
// on its moves coming back in the order sent).
func TestSendKeepsOrder(t *testing.T) {
	url := pgtest.Schema(t)
	a, ina := open(t, url)
	_, inb := open(t, url)
	ctx := context.Background()
	var want []string
	for i := range 200 {
		msg := fmt.Sprint("m", i)
		want = append(want, msg)
		send := a.Send
		if i%50 == 49 {
			send = a.Publish
		}
		if err := send(ctx, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	for name, in := range map[string]*inbox{"a": ina, "b": inb} {
		if got := in.await(t, len(want), 30*time.Second); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s got %v, want %v", name, got, want)
		}
	}
	if err := a.Send(ctx, make([]byte, MaxMessage+1)); err == nil {
		t.Fatal("a message over MaxMessage was sent")
	}
}

// TestNotificationsCarryBatches: a batch that fits in a notification
// reaches the other processes without a read of the table; one too large
// for it, or holding a newline (the notification's separator), is read
// from the table, whole and in order.
func TestNotificationsCarryBatches(t *testing.T) {
	url := pgtest.Schema(t)
	a, ina := open(t, url)
	b, inb := open(t, url)
	ctx := context.Background()
	reads := b.tableReads.Load()
	var want []string
	for i := range 50 {
		msg := fmt.Sprint(`{"k":"move","n":`, i, `}`)
		want = append(want, msg)
		if err := a.Publish(ctx, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	inb.await(t, len(want), 10*time.Second)
	if n := b.tableReads.Load() - reads; n > 0 {
		t.Errorf("50 small batches took %d reads of the table", n)
	}
	// Sent at once, they wait for the writer together: a batch larger
	// than a notification, committed as rows that each fit in one.
	reads = b.tableReads.Load()
	for i := range 2000 {
		msg := fmt.Sprintf(`{"k":"move","n":%d,"pad":"%s"}`, i, strings.Repeat("p", 80))
		want = append(want, msg)
		if err := a.Send(ctx, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	inb.await(t, len(want), 30*time.Second)
	if n := b.tableReads.Load() - reads; n > 0 {
		t.Errorf("2,000 messages sent at once took %d reads of the table", n)
	}
	reads = b.tableReads.Load()
	for _, msg := range []string{strings.Repeat("y", 9000), "two\nlines", "", "last"} {
		want = append(want, msg)
		if err := a.Publish(ctx, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	for name, in := range map[string]*inbox{"a": ina, "b": inb} {
		if got := in.await(t, len(want), 10*time.Second); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("%s got %q, want %q", name, got, want)
		}
	}
	if n := b.tableReads.Load() - reads; n < 1 {
		t.Errorf("the large and the two-line batches took %d reads of the table, want them read there", n)
	}
}

// TestCommitsSpaced: messages sent one by one, faster than commits are
// apart, share commits: at most one a commitGap, however fast the
// database commits, and all of them delivered in order.
func TestCommitsSpaced(t *testing.T) {
	url := pgtest.Schema(t)
	a, ina := open(t, url)
	ctx := context.Background()
	commits := a.commits.Load()
	start := time.Now()
	var want []string
	for i := 0; time.Since(start) < 300*time.Millisecond; i++ {
		msg := fmt.Sprint("m", i)
		want = append(want, msg)
		if err := a.Send(ctx, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Microsecond)
	}
	if got := ina.await(t, len(want), 30*time.Second); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
	elapsed := time.Since(start)
	n := a.commits.Load() - commits
	if most := int64(elapsed/commitGap) + 1; n > most {
		t.Errorf("%d messages over %v took %d commits, want at most %d (one a %v)", len(want), elapsed, n, most, commitGap)
	}
}

// TestCleanOnce: rows older than keep go, every channel's; newer stay.
func TestCleanOnce(t *testing.T) {
	url := pgtest.Schema(t)
	a, _ := open(t, url)
	ctx := context.Background()
	if _, err := a.pool.Exec(ctx, `INSERT INTO arena_bus_batch (channel, payloads, at) VALUES
		('old', '{a}', now() - interval '2 minutes'), ('other', '{b}', now() - interval '61 seconds'), ('new', '{c}', now() - interval '30 seconds')`); err != nil {
		t.Fatal(err)
	}
	if err := a.cleanOnce(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := a.pool.Query(ctx, "SELECT channel FROM arena_bus_batch ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	left, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || strings.Join(left, " ") != "new" {
		t.Fatalf("left %v (%v), want the new row alone", left, err)
	}
}

// TestCleanedWhileListening: the old rows are deleted while notifications
// come in order (the listener reads the table once, for the old row's
// number, and then not again).
func TestCleanedWhileListening(t *testing.T) {
	defer func(was time.Duration) { cleanEvery = was }(cleanEvery)
	cleanEvery = 50 * time.Millisecond
	url := pgtest.Schema(t)
	a, ina := open(t, url)
	ctx := context.Background()
	if _, err := a.pool.Exec(ctx, `INSERT INTO arena_bus_batch (channel, payloads, at) VALUES ('old', '{a}', now() - interval '2 minutes')`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		if err := a.Publish(ctx, []byte(fmt.Sprint("m", i))); err != nil {
			t.Fatal(err)
		}
		var old int
		if err := a.pool.QueryRow(ctx, "SELECT count(*) FROM arena_bus_batch WHERE channel = 'old'").Scan(&old); err != nil {
			t.Fatal(err)
		}
		if old == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the old row is there after %d messages", i+1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ina.await(t, 1, time.Second)
}

// TestRows: a batch is cut into rows that each fit in a notification, in
// order, a message too large or holding a newline alone.
func TestRows(t *testing.T) {
	big, nl := strings.Repeat("b", inlineBytes), "a\nb"
	small := strings.Repeat("s", 3000)
	for _, c := range []struct {
		in   []string
		want [][]string
	}{
		{[]string{"a"}, [][]string{{"a"}}},
		{[]string{"a", "", "c"}, [][]string{{"a", "", "c"}}},
		{[]string{small, small, small}, [][]string{{small, small}, {small}}},
		{[]string{"a", big, "c"}, [][]string{{"a"}, {big}, {"c"}}},
		{[]string{nl, "a", nl}, [][]string{{nl}, {"a"}, {nl}}},
		{[]string{big}, [][]string{{big}}},
	} {
		got := rows(c.in)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("rows of %d messages: %d rows %v, want %d", len(c.in), len(got), lens(got), len(c.want))
		}
		for _, row := range got {
			if p := inline(row); p == "" && len(row) > 1 {
				t.Errorf("a row of %d messages does not fit in a notification", len(row))
			}
		}
	}
}

func lens(rows [][]string) [][]int {
	var out [][]int
	for _, r := range rows {
		var l []int
		for _, m := range r {
			l = append(l, len(m))
		}
		out = append(out, l)
	}
	return out
}
