package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/lang"
	"mazebot/metrics"
)

// Config tunes the bot.
type Config struct {
	GuildID string // sync commands to this guild only (instant); "" = global
	// HandlerTimeout bounds one interaction's work, replies included.
	// Zero means 30 s.
	HandlerTimeout time.Duration
	// DrainTimeout bounds the wait for replies in flight at shutdown.
	// Zero means 20 s.
	DrainTimeout time.Duration
	// TickEvery is how often scheduled work runs. Zero means 15 s.
	TickEvery time.Duration
	// ShardCount is the number of gateway shards; zero takes the count
	// GET /gateway/bot recommends.
	ShardCount int
	// ShardIDs are the shards this process runs, ascending; nil runs all.
	// Only the process that runs shard 0 syncs the commands.
	ShardIDs []int
	// IdentifyInterval spaces the IDENTIFYs of one rate-limit bucket.
	// Zero means DefaultIdentifyInterval, Discord's rule; only a test
	// against a fake Discord may shorten it.
	IdentifyInterval time.Duration
	// IdentifyTurns spaces the IDENTIFYs of a bucket across every process
	// sharing the database; nil spaces only this process's own.
	IdentifyTurns IdentifyTurns
	// CommandGuilds remembers the servers given commands of their own,
	// so that a later sync removes them (commandguilds.go); nil forgets.
	CommandGuilds CommandGuilds
	// Unknowns counts what Discord sent that this build does not
	// understand (decode.go); nil counts nothing.
	Unknowns metrics.Unknowns
}

// Dispatcher handles interactions; *bot.Router is one.
type Dispatcher interface {
	// Dispatch handles ix, answering through respond; bot.ErrReplayed
	// means it was dropped unanswered, any other error was told to the
	// member.
	Dispatch(ctx context.Context, ix *discordgo.Interaction, respond bot.Responder) error
	Definitions() []*discordgo.ApplicationCommand
}

// Bot is mazebot on Discord: one gateway session per shard it runs, and
// one REST session that every reply and post goes through.
type Bot struct {
	cfg     Config
	session *discordgo.Session // REST, and the model of the shards' sessions
	rest    restAPI            // the session; tests substitute a recorder
	router  Dispatcher
	tickers []bot.Ticker
	log     *slog.Logger
	unknown *unknownReporter // what Discord sent that this build cannot read
	gateway *gateway         // the shards (shards.go)
	sync    *commandSync     // the command sync (sync.go)

	// work is cancelled only after the drain, so replies in flight at
	// shutdown still reach Discord.
	work       context.Context
	cancelWork context.CancelFunc

	mu       sync.Mutex
	stopping bool
	inflight sync.WaitGroup
}

// NewSession makes the discordgo session for a bot token, never connected
// to the gateway itself: the Bot's REST session, which a Poster can use
// before the Bot exists, and the model of its shards' sessions. Its calls
// go to apiBase (nil: Discord) through its own transport, which the
// shards' sessions share.
func NewSession(token string, apiBase *url.URL) (*discordgo.Session, error) {
	quietDiscordgo()
	token = strings.TrimSpace(token)
	if token == "" {
		return nil, errors.New("no bot token")
	}
	if !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	session, err := discordgo.New(token)
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	session.Client = &http.Client{Timeout: session.Client.Timeout, Transport: Rebase(apiBase, nil)}
	// Interactions reach a bot whatever its intents; ask for nothing more.
	session.Identify.Intents = discordgo.IntentsGuilds
	session.LogLevel = discordgo.LogWarning
	// No blind retries: discordgo sleeps through a 429 whatever the
	// caller's deadline, and resends any request answered 502, which
	// Discord may have carried out (a POST then posts twice). Callers that
	// can afford to retry say so (the command sync) or retry themselves.
	session.ShouldRetryOnRateLimit = false
	session.MaxRestRetries = 0
	return session, nil
}

// New prepares a bot on session (from NewSession), dispatching to router
// and running tickers; Run connects its shards.
func New(cfg Config, session *discordgo.Session, router Dispatcher, tickers []bot.Ticker, log *slog.Logger) (*Bot, error) {
	if cfg.HandlerTimeout == 0 {
		cfg.HandlerTimeout = 30 * time.Second
	}
	if cfg.DrainTimeout == 0 {
		cfg.DrainTimeout = 20 * time.Second
	}
	if cfg.TickEvery == 0 {
		cfg.TickEvery = 15 * time.Second
	}
	if cfg.IdentifyInterval == 0 {
		cfg.IdentifyInterval = DefaultIdentifyInterval
	}
	if cfg.ShardCount < 0 || cfg.ShardCount > MaxShards {
		return nil, fmt.Errorf("shard count %d: want 0 (auto) to %d", cfg.ShardCount, MaxShards)
	}
	if cfg.ShardCount > 0 {
		if err := CheckShardIDs(cfg.ShardIDs, cfg.ShardCount, false); err != nil {
			return nil, err
		}
	}
	work, cancel := context.WithCancel(context.Background())
	b := &Bot{cfg: cfg, session: session, rest: newInteractionREST(session), router: router, tickers: tickers, log: log, work: work, cancelWork: cancel}
	b.unknown = newUnknownReporter(log, cfg.Unknowns)
	b.gateway = &gateway{
		session: session, count: cfg.ShardCount, ids: cfg.ShardIDs, interval: cfg.IdentifyInterval,
		turns:   &turns{interval: cfg.IdentifyInterval, shared: cfg.IdentifyTurns, sleep: sleepCtx, log: log},
		onEvent: b.onGatewayEvent, stopping: b.isStopping, log: log, work: work,
	}
	b.sync = &commandSync{session: session, guildID: cfg.GuildID, log: log,
		guilds: guildCommands{store: cfg.CommandGuilds, session: session, guildID: cfg.GuildID, log: log}}
	return b, nil
}

// Run connects the shards, syncs the commands when it runs shard 0, and
// serves until ctx ends; then it stops taking interactions, lets the ones
// in flight finish, and disconnects.
func (b *Bot) Run(ctx context.Context) error {
	defer b.close()
	ready, err := b.gateway.connect(ctx)
	if ctx.Err() != nil {
		return nil // asked to stop while connecting: not a failure
	}
	if err != nil {
		return err
	}
	// Only the process that runs shard 0 writes the commands, once per
	// start: N processes must not make N writes.
	if ready != nil {
		if err := b.sync.sync(ctx, ready, b.router.Definitions()); err != nil {
			if ctx.Err() != nil {
				return nil // asked to stop while syncing: not a failure
			}
			return err
		}
	} else {
		b.log.Info("not syncing commands: the process that runs shard 0 does")
	}
	b.tickLoop(ctx)
	return nil
}

// tickLoop runs scheduled work now (catching up on what fell due while the
// bot was down) and then every TickEvery, until ctx ends: each ticker on
// a schedule of its own, so that one with a backlog (a thousand
// reminders at Discord's pace) does not make another (the daily posts)
// late. Scheduled work counts as in flight, so shutdown waits for a post
// being made.
func (b *Bot) tickLoop(ctx context.Context) {
	var wg, first sync.WaitGroup
	first.Add(len(b.tickers))
	for _, t := range b.tickers {
		wg.Go(func() { b.tickerLoop(ctx, t, first.Done) })
	}
	first.Wait()
	b.log.Debug("scheduled work done")
	wg.Wait()
}

// tickerLoop runs one ticker now and then every TickEvery, each run with
// the handler timeout, until ctx ends; firstDone is called after the
// first run.
func (b *Bot) tickerLoop(ctx context.Context, t bot.Ticker, firstDone func()) {
	ticker := time.NewTicker(b.cfg.TickEvery)
	defer ticker.Stop()
	for {
		if b.begin() {
			tctx, cancel := context.WithTimeout(b.work, b.cfg.HandlerTimeout)
			if err := runTicker(tctx, t); err != nil {
				b.log.Error("scheduled work", "err", fmt.Errorf("%s: %w", t.Name, err))
			}
			cancel()
			b.inflight.Done()
		}
		if firstDone != nil {
			firstDone()
			firstDone = nil
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// Tick runs every ticker once, now; their errors are joined. Each has the
// handler timeout to itself: one slow ticker (a big hour of daily posts)
// does not leave the next without time. The loop calls it, and so can a
// test that moves a clock.
func (b *Bot) Tick(ctx context.Context) error {
	var errs []error
	for _, t := range b.tickers {
		tctx, cancel := context.WithTimeout(ctx, b.cfg.HandlerTimeout)
		if err := runTicker(tctx, t); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.Name, err))
		}
		cancel()
	}
	return errors.Join(errs...)
}

// runTicker runs one ticker: a failing or panicking one doesn't stop the
// others.
func runTicker(ctx context.Context, t bot.Ticker) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return t.Run(ctx)
}

// close drains and disconnects. discordgo's Close waits about a second.
func (b *Bot) close() {
	b.mu.Lock()
	b.stopping = true
	b.mu.Unlock()
	b.log.Info("stopping: no new interactions; waiting for the replies in flight")
	drained := make(chan struct{})
	go func() { b.inflight.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(b.cfg.DrainTimeout):
		b.log.Warn("shutdown: replies still in flight after the drain timeout")
	}
	b.cancelWork()
	b.gateway.close()
	b.log.Info("disconnected")
}

func (b *Bot) isStopping() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stopping
}

// begin registers one interaction as in flight, unless shutting down.
func (b *Bot) begin() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopping {
		return false
	}
	b.inflight.Add(1)
	return true
}

// onGatewayEvent takes INTERACTION_CREATE from the raw event, not from
// discordgo's typed one: discordgo fails the whole event on a component
// type it does not know and hands it on half-decoded (decode.go).
func (b *Bot) onGatewayEvent(_ *discordgo.Session, ev *discordgo.Event) {
	if ev == nil || ev.Type != "INTERACTION_CREATE" {
		return
	}
	ix, unknown, err := decodeInteraction(ev.RawData)
	b.unknown.report(unknown)
	if err != nil {
		b.log.Warn("dropped a malformed interaction", "reason", "undecodable", "err", err)
		return
	}
	b.dispatch(newResponder(b.rest, ix, nil, b.log))
}

// outcome is what dispatch did with an interaction; the HTTP endpoint
// answers by it.
type outcome uint8

const (
	handled   outcome = iota // the router ran, or the member was told why not
	malformed                // dropped: not an interaction that can be answered
	replayed                 // dropped: this interaction was handled before
)

// dispatch is the one path every interaction takes, from the gateway or the
// HTTP endpoint (which gives r an inline sink for its first callback): a
// panic guard, checks of the payload, in-flight tracking, refusal during
// shutdown and the handler timeout around the router, whose middleware
// does the rest.
func (b *Bot) dispatch(r *responder) (out outcome) {
	// First of all: nothing in this goroutine may take the process down.
	// The router recovers handler panics itself.
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("interaction panicked outside the router", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	ix := r.ix
	newType := newInteractionType(ix)
	if why := unanswerable(ix); why != "" && !newType {
		id := ""
		if ix != nil {
			id = ix.ID
		}
		b.log.Warn("dropped a malformed interaction", "reason", why, "interaction", id)
		return malformed
	}
	ctx, cancel := context.WithTimeout(b.work, b.cfg.HandlerTimeout)
	defer cancel()
	if !b.begin() {
		// Stopping: say so rather than let the interaction fail silently.
		err := r.Reply(ctx, bot.Reply{Content: lang.For(ix.Locale).T("bot.restarting"), Ephemeral: true})
		if err != nil {
			b.log.Warn("refuse during shutdown", "err", err)
		}
		return handled
	}
	defer b.inflight.Done()
	if newType {
		// Discord added a kind of interaction: say so rather than let the
		// member meet "The application did not respond".
		if err := r.Reply(ctx, bot.Reply{Content: lang.For(ix.Locale).T("bot.unsupported"), Ephemeral: true}); err != nil {
			b.log.Warn("answer an interaction of a new type", "type", int(ix.Type), "err", err)
		}
		return handled
	}
	if errors.Is(b.router.Dispatch(ctx, ix, r), bot.ErrReplayed) {
		return replayed
	}
	return handled
}

// newInteractionType says whether ix is answerable but of a type newer
// than this build: it has what a reply needs, and a type past the modal.
func newInteractionType(ix *discordgo.Interaction) bool {
	return ix != nil && ix.Type > discordgo.InteractionModalSubmit && ix.ID != "" && ix.Token != "" && ix.AppID != ""
}

// unanswerable says why ix cannot be handled, or "" when it can. discordgo
// hands handlers whatever it could decode: nothing for "d": null, a blank
// or half-filled interaction when a field has the wrong type.
func unanswerable(ix *discordgo.Interaction) string {
	if ix == nil {
		return "no interaction"
	}
	if ix.ID == "" || ix.Token == "" || ix.AppID == "" {
		return "no id, token or application id"
	}
	if (ix.Member == nil || ix.Member.User == nil) && ix.User == nil {
		return "no user"
	}
	switch ix.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		if d, ok := ix.Data.(discordgo.ApplicationCommandInteractionData); !ok || d.Name == "" {
			return "no command data"
		}
	case discordgo.InteractionMessageComponent:
		if d, ok := ix.Data.(discordgo.MessageComponentInteractionData); !ok || d.CustomID == "" {
			return "no component data"
		}
	case discordgo.InteractionModalSubmit:
		if d, ok := ix.Data.(discordgo.ModalSubmitInteractionData); !ok || d.CustomID == "" {
			return "no modal data"
		}
	default:
		return fmt.Sprintf("unknown type %d", int(ix.Type))
	}
	return ""
}

// Shards reports the shards this process runs, by id: none before Run has
// learnt which.
func (b *Bot) Shards() []metrics.ShardState { return b.gateway.states() }
