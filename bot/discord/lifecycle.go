package discord

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

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
