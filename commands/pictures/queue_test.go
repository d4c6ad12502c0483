package pictures

import (
	"context"
	"errors"
	"fmt"
	"mazebot/bot"
	"mazebot/bot/bottest"
	"mazebot/mazecore"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestQueuePool: no more pictures are made at once than there are
// workers; whoever has to wait is deferred before it waits, and only
// they are.
func TestQueuePool(t *testing.T) {
	r := New(Config{Workers: 2}, time.Now)
	release := make(chan struct{})
	var (
		running, peak atomic.Int32
		started       = make(chan struct{}, 8)
		wg            sync.WaitGroup
		deferred      [6]atomic.Bool
	)
	build := func() (bot.Reply, error) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		started <- struct{}{}
		<-release
		running.Add(-1)
		return bot.Reply{Content: "done"}, nil
	}
	// Two take the workers; then four more queue behind them.
	for i := range deferred {
		wg.Go(func() {
			queued := func() error { deferred[i].Store(true); return nil }
			if shown, err := r.draw(context.Background(), r.pool, "", queued, replyOnly(build)); err != nil || shown.Reply.Content != "done" {
				t.Errorf("draw %d: %q, %v", i, shown.Reply.Content, err)
			}
		})
		if i < 2 {
			<-started // the first two hold the workers before the rest arrive
		}
	}
	// The four are deferred (queued) before any of them may run.
	deadline := time.Now().Add(10 * time.Second)
	for n := 0; n < 4 && time.Now().Before(deadline); {
		n = 0
		for i := range deferred {
			if deferred[i].Load() {
				n++
			}
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Fatalf("%d pictures made at once, want the 2 workers", p)
	}
	for i := range deferred {
		if got, want := deferred[i].Load(), i >= 2; got != want {
			t.Fatalf("draw %d deferred=%v, want %v (only those that waited)", i, got, want)
		}
	}
}

// TestQueueBusy: a picture that cannot start before its interaction's
// time is nearly up is refused as busy, leaving time to say so.
func TestQueueBusy(t *testing.T) {
	r := New(Config{Workers: 1}, time.Now)
	release := make(chan struct{})
	defer close(release)
	go r.Draw(context.Background(), "", func() (bot.Reply, error) { <-release; return bot.Reply{}, nil }) //nolint:errcheck // holds the worker
	for r.pool.Busy() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), busyMargin+50*time.Millisecond)
	defer cancel()
	_, err := r.Draw(ctx, "", func() (bot.Reply, error) { t.Error("built while the worker was busy"); return bot.Reply{}, nil })
	if !errors.Is(err, ErrBusy) || ctx.Err() != nil {
		t.Fatalf("err=%v (ctx %v), want ErrBusy before the deadline", err, ctx.Err())
	}
}

// TestBusyGivesTheTurnBack: a big picture refused as busy was never drawn,
// so it does not count against the member's cooldown.
func TestBusyGivesTheTurnBack(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r := New(Config{Workers: 1}, func() time.Time { return now })
	release := make(chan struct{})
	defer close(release)
	go r.Draw(context.Background(), "", func() (bot.Reply, error) { <-release; return bot.Reply{}, nil }) //nolint:errcheck // holds the worker
	for r.pool.Busy() == 0 {
		time.Sleep(time.Millisecond)
	}
	in := &bot.Interaction{Interaction: &discordgo.Interaction{Member: &discordgo.Member{User: &discordgo.User{ID: "u1"}}}, Respond: &bottest.Recorder{}}
	ctx, cancel := context.WithTimeout(context.Background(), busyMargin+50*time.Millisecond)
	defer cancel()
	_, err := r.Reply(ctx, in, Request{Big: true}, func() (bot.Reply, error) { t.Error("built while the worker was busy"); return bot.Reply{}, nil })
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("err=%v, want ErrBusy", err)
	}
	if _, err := r.take("u1"); err != nil {
		t.Fatalf("after a busy refusal the member still waits: %v", err)
	}
	if _, err := r.take("u1"); err == nil {
		t.Fatal("a drawn turn's cooldown did not hold") // the check above took one
	}
}

// TestSmallPicturesDoNotWaitForBigOnes: with every worker of the big
// pool drawing, a small picture a member asks for is drawn at once,
// without a deferral; a big one waits (deferred) for the big pool.
func TestSmallPicturesDoNotWaitForBigOnes(t *testing.T) {
	r := New(Config{Workers: 1, Cooldown: -1}, time.Now)
	release := make(chan struct{})
	held := make(chan struct{})
	go r.Draw(context.Background(), "", func() (bot.Reply, error) { close(held); <-release; return bot.Reply{}, nil }) //nolint:errcheck // holds the big pool
	<-held
	member := func(id string, d *bottest.Recorder) *bot.Interaction {
		return &bot.Interaction{Interaction: &discordgo.Interaction{Member: &discordgo.Member{User: &discordgo.User{ID: id}}}, Respond: d}
	}
	var small bottest.Recorder
	ctx, cancel := context.WithTimeout(context.Background(), busyMargin+time.Second) // behind the big one: busy after 1 s
	defer cancel()
	reply, err := r.Reply(ctx, member("u1", &small), Request{}, func() (bot.Reply, error) { return bot.Reply{Content: "small"}, nil })
	if err != nil || reply.Content != "small" || len(small.Deferred) > 0 {
		t.Fatalf("small picture: %q, %v, deferred=%v; want it at once", reply.Content, err, len(small.Deferred) > 0)
	}
	var big bottest.Recorder
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := r.Reply(context.Background(), member("u2", &big), Request{Big: true}, func() (bot.Reply, error) { return bot.Reply{}, nil }); err != nil {
			t.Errorf("big picture: %v", err)
		}
	}()
	select {
	case <-done:
		t.Fatal("a big picture was drawn while the big pool was full")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-done
	if len(big.Deferred) == 0 {
		t.Fatal("the big picture was not deferred")
	}
}

// renderLog is a metrics.Render that keeps what it hears.
type renderLog struct {
	mu       sync.Mutex
	depths   []int
	rendered int
}

func (l *renderLog) RenderQueueDepth(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.depths = append(l.depths, n)
}

func (l *renderLog) Rendered(wait, took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if wait < 0 || took < 0 {
		panic("negative duration")
	}
	l.rendered++
}

// TestQueueMetrics: the queue's depth goes up while a render asks for
// a worker and back down when it has one; each render made is reported,
// one served from the cache is not.
func TestQueueMetrics(t *testing.T) {
	m := &renderLog{}
	r := New(Config{Workers: 1, Metrics: m}, time.Now)
	for range 2 {
		if _, err := r.Draw(context.Background(), "k", func() (bot.Reply, error) { return bot.Reply{Content: "x"}, nil }); err != nil {
			t.Fatal(err)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if fmt.Sprint(m.depths) != "[1 0]" || m.rendered != 1 {
		t.Fatalf("depths %v, %d renders; want [1 0] and one render (the second came from the cache)", m.depths, m.rendered)
	}
}

// TestShowKeepsTheMaze: the maze a reply shows comes back with it, from
// the cache too, where the build that chose it does not run again.
func TestShowKeepsTheMaze(t *testing.T) {
	q := New(Config{Workers: 1}, time.Now)
	in := &bot.Interaction{Interaction: &discordgo.Interaction{Member: &discordgo.Member{User: &discordgo.User{ID: "u1"}}}, Respond: &bottest.Recorder{}}
	chosen := mazecore.ID{Algorithm: mazecore.Digging, Width: 21, Height: 21, Seed: 9}
	builds := 0
	for range 2 {
		shown, err := q.Show(context.Background(), in, Request{Key: "k"}, func() (Shown, error) {
			builds++
			return Shown{Reply: bot.Reply{Content: "card"}, Maze: chosen}, nil
		})
		if err != nil || shown.Maze != chosen || shown.Reply.Content != "card" {
			t.Fatalf("shown %+v, %v; want the card and %v", shown, err, chosen)
		}
	}
	if builds != 1 {
		t.Fatalf("built %d times, want once (then the cache)", builds)
	}
}

// TestPostsLeaveAWorker: posts nobody asked for are drawn one worker
// short of the others (on two cores, one at a time), so a backlog of
// them leaves a core to the members; a big picture a member asks for is
// drawn beside them at once. They shared the big pool, all its workers.
func TestPostsLeaveAWorker(t *testing.T) {
	r := New(Config{Workers: 2}, time.Now)
	release := make(chan struct{})
	var running, peak atomic.Int32
	started := make(chan struct{}, 4)
	post := func() (bot.Reply, error) {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		started <- struct{}{}
		<-release
		running.Add(-1)
		return bot.Reply{}, nil
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if _, err := r.Post(context.Background(), "", post); err != nil {
				t.Error(err)
			}
		})
	}
	<-started // one post is drawn; the others wait for its worker
	for r.waiting.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	if _, err := r.Draw(context.Background(), "", func() (bot.Reply, error) { return bot.Reply{Content: "big"}, nil }); err != nil {
		t.Fatalf("a member's big picture beside the posts: %v", err)
	}
	close(release)
	wg.Wait()
	if p := peak.Load(); p != 1 {
		t.Fatalf("%d posts drawn at once on 2 workers, want 1", p)
	}
}
