package pictures

import (
	"context"
	"errors"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"mazebot/bot"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/metrics"
)

// Defaults of a Queue.
const (
	// DefaultCacheBytes bounds the cached pictures: about a hundred
	// solutions of 1001×1001 mazes (some 300 KiB each).
	DefaultCacheBytes = 32 << 20
	// DefaultCooldown is the least time between two big pictures of one
	// member.
	DefaultCooldown = 10 * time.Second
	// maxCooldowns bounds the members remembered; expired ones go first.
	maxCooldowns = 100_000
	// busyMargin is the part of an interaction's time a wait in the queue
	// leaves for saying "busy" when it gives up.
	busyMargin = 5 * time.Second
)

// Config sizes a Queue; zero fields take the defaults.
type Config struct {
	Workers    int            // pictures made at once in each pool, big and small; 0: GOMAXPROCS
	CacheBytes int64          // 0: DefaultCacheBytes; negative: no cache
	Cooldown   time.Duration  // 0: DefaultCooldown; negative: none
	Metrics    metrics.Render // hears the queue and each picture; nil: none
	// Small names the largest picture that is not big, for the cooldown's
	// refusal ("pictures up to 301×301 come at once").
	Small lang.Localizable
}

// Queue makes pictures on bounded pools, caches them, and keeps each
// member's cooldown. It is safe for concurrent use; one serves the whole
// process.
//
// Big pictures have one pool; small pictures asked for by a member have
// a pool of their own, as they take milliseconds: the default /maze is a
// picture, and it must not wait behind a channel's burst of 1001×1001
// solutions. The posts nobody asked for (thousands of daily posts at one
// minute) have a third, a worker smaller than the others (one at least),
// so that a backlog of them leaves a core to the members' replies.
type Queue struct {
	pool     *pool // big pictures
	quick    *pool // small pictures members asked for
	posts    *pool // posts nobody asked for
	cache    *cache[Shown]
	cooldown *cooldown // by member
	now      func() time.Time
	metrics  metrics.Render
	small    lang.Localizable
	waiting  atomic.Int64 // pictures waiting for a worker
}

// New makes a queue on the clock now.
func New(cfg Config, now func() time.Time) *Queue {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.CacheBytes == 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	if cfg.Cooldown == 0 {
		cfg.Cooldown = DefaultCooldown
	}
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.Nop{}
	}
	return &Queue{
		pool: newPool(cfg.Workers), quick: newPool(cfg.Workers), posts: newPool(max(1, cfg.Workers-1)), cache: newCache(max(cfg.CacheBytes, 0), shownSize),
		cooldown: newCooldown(cfg.Cooldown, maxCooldowns, now), now: now, metrics: cfg.Metrics, small: cfg.Small,
	}
}

// ErrBusy is the refusal of a picture that waited for a worker until
// nearly the end of its interaction's time.
var ErrBusy = bot.Refuse("error.busy")

// Shown is a reply made on the queue and the maze it shows (zero when
// it shows none): they are cached together, so a maze chosen while the
// picture was drawn (a difficulty's) is known without reading the reply.
type Shown struct {
	Reply bot.Reply
	Maze  mazecore.ID
}

// Draw returns the reply build makes, built on the pool: from the cache
// under key ("" caches nothing) if it is there.
func (q *Queue) Draw(ctx context.Context, key string, build func() (bot.Reply, error)) (bot.Reply, error) {
	s, err := q.draw(ctx, q.pool, key, nil, replyOnly(build))
	return s.Reply, err
}

// Post is Draw for a post nobody asked for, on the posts' pool.
func (q *Queue) Post(ctx context.Context, key string, build func() (bot.Reply, error)) (bot.Reply, error) {
	s, err := q.draw(ctx, q.posts, key, nil, replyOnly(build))
	return s.Reply, err
}

// replyOnly is build as a maker of a Shown that names no maze.
func replyOnly(build func() (bot.Reply, error)) func() (Shown, error) {
	return func() (Shown, error) {
		r, err := build()
		return Shown{Reply: r}, err
	}
}

// draw is Draw that calls queued, once, before waiting for a worker when
// none is free: an interaction defers there. A wait stops short of ctx's
// deadline, leaving time to say the bot is busy.
func (q *Queue) draw(ctx context.Context, p *pool, key string, queued func() error, build func() (Shown, error)) (Shown, error) {
	if shown, ok := q.cache.Get(key); ok {
		return shown, nil
	}
	asked := time.Now()
	q.metrics.RenderQueueDepth(int(q.waiting.Add(1)))
	err := p.Acquire(ctx, busyMargin, queued)
	q.metrics.RenderQueueDepth(int(q.waiting.Add(-1)))
	if errors.Is(err, errPoolBusy) {
		return Shown{}, ErrBusy
	} else if err != nil {
		return Shown{}, err
	}
	defer p.Release()
	if shown, ok := q.cache.Get(key); ok { // drawn while this one waited
		return shown, nil
	}
	start := time.Now()
	shown, err := build()
	q.metrics.Rendered(start.Sub(asked), time.Since(start))
	if err == nil {
		q.cache.Put(key, shown)
	}
	return shown, err
}

// Request is an interaction's reply that shows a picture.
type Request struct {
	Key       string // the cache key; "" caches nothing
	Big       bool   // counts against the member's cooldown, and defers at once
	Ephemeral bool
}

// Reply makes the picture reply to in that build makes: from the cache;
// else, for a big one, after the member's cooldown and a deferral, on
// the big pool; else on the small pool, deferring first if it must wait.
func (q *Queue) Reply(ctx context.Context, in *bot.Interaction, req Request, build func() (bot.Reply, error)) (bot.Reply, error) {
	s, err := q.Show(ctx, in, req, replyOnly(build))
	return s.Reply, err
}

// Show is Reply for a reply that shows a maze, which comes back with it.
func (q *Queue) Show(ctx context.Context, in *bot.Interaction, req Request, build func() (Shown, error)) (Shown, error) {
	if shown, ok := q.cache.Get(req.Key); ok {
		shown.Reply.Ephemeral = req.Ephemeral
		return shown, nil
	}
	deferred := false
	deferNow := func() error {
		if deferred {
			return nil
		}
		deferred = true
		return in.Respond.Defer(ctx, req.Ephemeral)
	}
	giveBack, lane := func() {}, q.quick
	if req.Big {
		lane = q.pool
		var err error
		if giveBack, err = q.take(in.UserID()); err != nil {
			return Shown{}, err
		}
		if err := deferNow(); err != nil {
			giveBack()
			return Shown{}, err
		}
	}
	shown, err := q.draw(ctx, lane, req.Key, deferNow, build)
	if errors.Is(err, ErrBusy) {
		giveBack() // nothing was drawn: the member may try again at once
	}
	shown.Reply.Ephemeral = req.Ephemeral
	return shown, err
}

// take starts a member's cooldown, or says how long it still runs. The
// turn it starts can be given back with giveBack.
func (q *Queue) take(userID string) (giveBack func(), err error) {
	if userID == "" {
		return func() {}, nil
	}
	until, ok := q.cooldown.Take(userID)
	if ok {
		return func() { q.cooldown.GiveBack(userID, until) }, nil
	}
	wait := time.Duration(math.Ceil(until.Sub(q.now()).Seconds())) * time.Second
	every := time.Duration(math.Ceil(q.cooldown.Period().Seconds())) * time.Second
	return nil, bot.Refuse("error.cooldown", lang.Args{
		"Every": lang.Span(every),
		"Wait":  lang.Span(wait),
		"At":    until.Unix() + 1,
		"Small": q.small,
	})
}

// shownSize is what a cached reply holds in memory, roughly.
func shownSize(s Shown) int64 {
	r := s.Reply
	n := int64(len(r.Content)) + 512 // the struct, the buttons
	for _, f := range r.Files {
		n += int64(len(f.Data) + len(f.Name))
	}
	return n
}
