package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
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

// Shards reports the shards this process runs, by id: none before Run has
// learnt which.
func (b *Bot) Shards() []metrics.ShardState { return b.gateway.states() }
