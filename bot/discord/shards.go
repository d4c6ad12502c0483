package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/metrics"
)

// readyTimeout bounds the wait for a shard's READY after its IDENTIFY.
const readyTimeout = 30 * time.Second

// shard is one gateway session, identifying as [id, count]. Every shard
// hands its interactions to the one dispatch, and every reply goes over
// the bot's REST session, so which shard an interaction came in on makes
// no difference to how it is handled.
type shard struct {
	id      int
	session *discordgo.Session
	log     *slog.Logger
	ready   chan *discordgo.Ready // the first READY; buffered
	first   *discordgo.Ready      // the first READY, once open returns
	// everReady: a READY has arrived, so DataReady means a session and not
	// a connection still identifying.
	everReady atomic.Bool
}

// gateway is this process's shards: it plans them (count, from
// configuration or GET /gateway/bot; ids, nil for all), opens them in
// identify rounds, each IDENTIFY in its bucket's turn, hands their events
// to onEvent, and closes them.
type gateway struct {
	session  *discordgo.Session // REST, and the model of the shards' sessions
	count    int                // 0: GET /gateway/bot's recommendation
	ids      []int
	interval time.Duration // between identify rounds
	turns    *turns
	onEvent  func(*discordgo.Session, *discordgo.Event)
	stopping func() bool
	log      *slog.Logger
	// work ends the waits for a turn at shutdown.
	work context.Context

	mu     sync.Mutex
	shards []*shard // set once connect knows them
}

// newShard makes shard id's session from the bot's: the same token and
// intents, and its HTTP client and REST rate limiter, so the shards'
// requests (GET /gateway) count against the same limits.
func (g *gateway) newShard(id, count, maxConcurrency int) (*shard, error) {
	s, err := discordgo.New(g.session.Token)
	if err != nil {
		return nil, fmt.Errorf("shard %d: %w", id, err)
	}
	s.Identify.Intents = g.session.Identify.Intents
	s.LogLevel = g.session.LogLevel
	s.Client = g.session.Client
	s.Ratelimiter = g.session.Ratelimiter
	// discordgo sends shard [ShardID, ShardCount] in IDENTIFY when
	// ShardCount > 1; with one shard it sends none, which Discord reads
	// as [0, 1].
	s.ShardID, s.ShardCount = id, count
	bucket := id % max(1, maxConcurrency)
	// Every IDENTIFY, also those discordgo sends on its own, waits for
	// the bucket's turn (identify.go); the work context ends the wait at
	// shutdown.
	s.Dialer = gatedDialer(g.log, id, func() error { return g.turns.take(g.work, bucket) })
	// Uncompressed, so that every frame can be read as it passes.
	s.Identify.Compress = false
	sh := &shard{id: id, session: s, log: g.log.With("shard", id), ready: make(chan *discordgo.Ready, 1)}
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		sh.everReady.Store(true)
		sh.log.Info("gateway ready", "user", r.User.Username, "guilds", len(r.Guilds))
		select {
		case sh.ready <- r:
		default: // a later READY (after a full reconnect) needs no sync
		}
	})
	s.AddHandler(g.onEvent)
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) { sh.log.Info("gateway resumed") })
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) {
		if !g.stopping() {
			sh.log.Warn("gateway disconnected; reconnecting")
		}
	})
	return sh, nil
}

// open connects the shard and waits for its READY.
func (sh *shard) open(ctx context.Context) error {
	if err := sh.session.Open(); err != nil {
		return fmt.Errorf("shard %d: open gateway: %w", sh.id, err)
	}
	select {
	case sh.first = <-sh.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(readyTimeout):
		return fmt.Errorf("shard %d: no READY within %v", sh.id, readyTimeout)
	}
}

// connected reports whether the shard has a session on a live connection.
// discordgo sets DataReady under the session's lock once a connection has
// READY or RESUMED and sent a heartbeat, and clears it when the connection
// closes. The lock is held for the whole handshake while reconnecting, so
// a lock that stays taken means "not connected" rather than a wait.
func (sh *shard) connected() bool {
	if !sh.everReady.Load() {
		return false
	}
	for range 5 {
		if sh.session.TryRLock() {
			ok := sh.session.DataReady
			sh.session.RUnlock()
			return ok
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// connect learns the shard count and max_concurrency from GET
// /gateway/bot, makes this process's shards and opens them in identify
// rounds. It returns the first READY of shard 0 when this process runs
// it, for the command sync.
func (g *gateway) connect(ctx context.Context) (*discordgo.Ready, error) {
	gwCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	gw, gwErr := g.session.GatewayBot(discordgo.WithContext(gwCtx))
	cancel()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if refusedToken(gwErr) {
		return nil, ErrTokenRefused
	}
	plan, err := planShards(g.count, g.ids, gw, gwErr)
	if err != nil {
		return nil, err
	}
	if gwErr != nil {
		g.log.Warn("GET /gateway/bot failed; identifying one shard at a time", "err", gwErr)
	}
	shards := make([]*shard, 0, len(plan.ids))
	for _, id := range plan.ids {
		sh, err := g.newShard(id, plan.count, plan.maxConcurrency)
		if err != nil {
			return nil, err
		}
		shards = append(shards, sh)
	}
	g.mu.Lock()
	g.shards = shards
	g.mu.Unlock()
	rounds := identifyRounds(plan.ids, plan.maxConcurrency)
	g.log.Info("connecting shards", "shards", len(plan.ids), "of", plan.count, "max_concurrency", plan.maxConcurrency, "rounds", len(rounds))
	byID := map[int]*shard{}
	for _, sh := range shards {
		byID[sh.id] = sh
	}
	// The IDENTIFY each open sends waits for its bucket's turn there.
	open := func(ctx context.Context, id int) error { return byID[id].open(ctx) }
	if err := openInRounds(ctx, rounds, g.interval, open, g.turns.sleep); err != nil {
		return nil, err
	}
	if sh := byID[0]; sh != nil {
		return sh.first, nil
	}
	return nil, nil
}

// ErrTokenRefused is Discord's 401 to the bot's first request: the token
// is not a bot token of any application (a typo, a reset token, the
// client secret or public key pasted instead).
var ErrTokenRefused = errors.New("bot token refused by Discord (HTTP 401 Unauthorized): DISCORD_TOKEN, in the environment or in .env, is not a valid bot token; copy it again from the Developer Portal (your application → Bot → Reset Token)")

// refusedToken tells a 401 from Discord.
func refusedToken(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized
}

// states reports the shards, by id: none before connect has learnt which.
func (g *gateway) states() []metrics.ShardState {
	g.mu.Lock()
	shards := g.shards
	g.mu.Unlock()
	out := make([]metrics.ShardState, len(shards))
	for i, sh := range shards {
		out[i] = metrics.ShardState{ID: sh.id, Connected: sh.connected()}
	}
	slices.SortFunc(out, func(a, b metrics.ShardState) int { return a.ID - b.ID })
	return out
}

// close disconnects every shard at once: discordgo's Close waits
// about a second each.
func (g *gateway) close() {
	g.mu.Lock()
	shards := g.shards
	g.mu.Unlock()
	var wg sync.WaitGroup
	for _, sh := range shards {
		wg.Go(func() {
			if err := sh.session.Close(); err != nil && !errors.Is(err, discordgo.ErrWSNotFound) {
				sh.log.Warn("close gateway", "err", err)
			}
		})
	}
	wg.Wait()
}
