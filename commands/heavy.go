package commands

import (
	"context"
	"errors"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"mazebot/commands/lang"
	"mazebot/internal/throttle"
	"mazebot/mazecore"
	"mazebot/metrics"
)

// Heavy work: a picture (PNG, GIF) of a big maze, with its generation and
// solution, costs tens of milliseconds of CPU and megabytes of memory. A
// burst of them (a channel's worth of /solve on 1001×1001 mazes) must
// neither starve the interactions around it of CPU, so that they miss
// Discord's 3 s deadline, nor grow the process without bound. So:
//
//   - pictures are made on a pool of workers sized from GOMAXPROCS; the
//     rest wait their turn in arrival order, each deferred before it waits,
//     and emoji replies never enter the pool;
//   - a member gets one big picture per cooldown;
//   - the pictures of /maze and /solve are cached, bounded by bytes.
//
// The cooldown is kept in memory, per process. It is fairness, not
// protection: what bounds a process's CPU and memory is its own pool, which
// no other process can share. Behind a load balancer a member whose
// requests land on n processes gets at most n big pictures per cooldown,
// from n pools that together have n times the capacity; a shared cooldown
// would cost a database write per picture to save nothing a process needs.

// Defaults of the renderer.
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
	// maxEmojiSide is the largest side an emoji grid can show in one
	// message (43×43 with newlines is 1891 code points).
	maxEmojiSide = 43
)

// RenderConfig sizes a Renderer; zero fields take the defaults.
type RenderConfig struct {
	Workers    int            // pictures made at once; 0: GOMAXPROCS
	CacheBytes int64          // 0: DefaultCacheBytes; negative: no cache
	Cooldown   time.Duration  // 0: DefaultCooldown; negative: none
	Metrics    metrics.Render // hears the queue and each render; nil: none
}

// Renderer makes pictures on a bounded pool, caches them, and keeps each
// member's cooldown. It is safe for concurrent use; one serves the whole
// process.
type Renderer struct {
	pool     *throttle.Pool
	cache    *throttle.Cache[Reply]
	cooldown *throttle.Cooldown // by member
	now      func() time.Time
	metrics  metrics.Render
	waiting  atomic.Int64 // renders waiting for a worker
}

// NewRenderer makes a renderer on the clock now.
func NewRenderer(cfg RenderConfig, now func() time.Time) *Renderer {
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
	return &Renderer{
		pool: throttle.NewPool(cfg.Workers), cache: throttle.NewCache(max(cfg.CacheBytes, 0), replySize),
		cooldown: throttle.NewCooldown(cfg.Cooldown, maxCooldowns, now), now: now, metrics: cfg.Metrics,
	}
}

var errBusy = refuse("error.busy")

// draw returns the reply build makes, built on the pool: from the cache
// under key ("" caches nothing) if it is there.
func (r *Renderer) draw(ctx context.Context, key string, build func() (Reply, error)) (Reply, error) {
	return r.drawQueued(ctx, key, nil, build)
}

// maybe draws on the pool when pictured, and builds right away otherwise:
// emoji replies don't wait behind pictures.
func (r *Renderer) maybe(ctx context.Context, pictured bool, key string, build func() (Reply, error)) (Reply, error) {
	if !pictured {
		return build()
	}
	return r.draw(ctx, key, build)
}

// drawQueued is draw that calls queued, once, before waiting for a worker
// when none is free: an interaction defers there. A wait stops short of
// ctx's deadline, leaving time to say the bot is busy.
func (r *Renderer) drawQueued(ctx context.Context, key string, queued func() error, build func() (Reply, error)) (Reply, error) {
	if reply, ok := r.cache.Get(key); ok {
		return reply, nil
	}
	asked := time.Now()
	r.metrics.RenderQueueDepth(int(r.waiting.Add(1)))
	err := r.pool.Acquire(ctx, busyMargin, queued)
	r.metrics.RenderQueueDepth(int(r.waiting.Add(-1)))
	if errors.Is(err, throttle.ErrBusy) {
		return Reply{}, errBusy
	} else if err != nil {
		return Reply{}, err
	}
	defer r.pool.Release()
	if reply, ok := r.cache.Get(key); ok { // drawn while this one waited
		return reply, nil
	}
	start := time.Now()
	reply, err := build()
	r.metrics.Rendered(start.Sub(asked), time.Since(start))
	if err == nil {
		r.cache.Put(key, reply)
	}
	return reply, err
}

// picture is an interaction's reply that shows a picture.
type picture struct {
	key       string // the cache key; "" caches nothing
	big       bool   // counts against the member's cooldown, and defers at once
	ephemeral bool
}

// reply makes the picture reply to in that build makes: from the cache;
// else, for a big one, after the member's cooldown and a deferral; else
// on the pool, deferring first if it must wait.
func (r *Renderer) reply(ctx context.Context, in *Interaction, p picture, build func() (Reply, error)) (Reply, error) {
	if reply, ok := r.cache.Get(p.key); ok {
		reply.Ephemeral = p.ephemeral
		return reply, nil
	}
	deferred := false
	deferNow := func() error {
		if deferred {
			return nil
		}
		deferred = true
		return deferReply(ctx, in, p.ephemeral)
	}
	giveBack := func() {}
	if p.big {
		var err error
		if giveBack, err = r.take(in.UserID()); err != nil {
			return Reply{}, err
		}
		if err := deferNow(); err != nil {
			giveBack()
			return Reply{}, err
		}
	}
	reply, err := r.drawQueued(ctx, p.key, deferNow, build)
	if errors.Is(err, errBusy) {
		giveBack() // nothing was drawn: the member may try again at once
	}
	reply.Ephemeral = p.ephemeral
	return reply, err
}

// answer answers in with the picture reply build makes (see reply).
func (r *Renderer) answer(ctx context.Context, in *Interaction, p picture, build func() (Reply, error)) error {
	reply, err := r.reply(ctx, in, p, build)
	if err != nil {
		return err
	}
	return answer(ctx, in, reply)
}

// take starts a member's cooldown, or says how long it still runs. The
// turn it starts can be given back with giveBack.
func (r *Renderer) take(userID string) (giveBack func(), err error) {
	if userID == "" {
		return func() {}, nil
	}
	until, ok := r.cooldown.Take(userID)
	if ok {
		return func() { r.cooldown.GiveBack(userID, until) }, nil
	}
	wait := time.Duration(math.Ceil(until.Sub(r.now()).Seconds())) * time.Second
	every := time.Duration(math.Ceil(r.cooldown.Period().Seconds())) * time.Second
	return nil, refuse("error.cooldown", lang.Args{
		"Every": durationIn(every),
		"Wait":  durationIn(wait),
		"At":    until.Unix() + 1,
		"Small": lang.M("format.size", lang.Args{"Width": bigSide, "Height": bigSide}),
	})
}

// bigSide: a square maze up to this side is not a big picture (the old
// slow-PNG bound, slowPNGTiles).
const bigSide = 301

// bigRender tells whether the picture of id in mode is big: a GIF, or more
// tiles than slowPNGTiles. Big pictures defer at once and count against the
// member's cooldown.
func bigRender(id mazecore.ID, mode string) bool {
	return mode == renderGIF || id.Width*id.Height > slowPNGTiles
}

// pictured tells whether the reply that shows id in mode is made on the
// pool: a picture, or an emoji grid too big for a message, which is
// refused only once the maze is made.
func pictured(id mazecore.ID, mode string) bool {
	switch mode {
	case renderGIF, renderPNG:
		return true
	case renderEmoji:
		return id.Width > maxEmojiSide || id.Height > maxEmojiSide
	}
	return id.Width > AutoEmojiMaxWidth || id.Height > maxEmojiSide
}

// mazeKey and solutionKey are the cache keys of /maze's reply in a mode
// and of a maze's (public) solution, each in a language: the replies hold
// their words as well as their pictures.
func mazeKey(l *lang.Lang, id mazecore.ID, mode string) string {
	return "maze|" + l.Code() + "|" + mode + "|" + id.String()
}
func solutionKey(l *lang.Lang, id mazecore.ID) string {
	return "solution|" + l.Code() + "|" + id.String()
}

// replySize is what a reply holds in memory, roughly.
func replySize(r Reply) int64 {
	n := int64(len(r.Content)) + 512 // the struct, the buttons
	for _, f := range r.Files {
		n += int64(len(f.Data) + len(f.Name))
	}
	return n
}
