package fakediscord

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Defaults used when a Config or a spec leaves a field empty.
const (
	DefaultToken             = "Bot fake.discord.token"
	DefaultAppID             = "1100000000000000001"
	DefaultBotUsername       = "mazebot"
	DefaultHeartbeatInterval = 41250 * time.Millisecond
	DefaultResponseDeadline  = discordgo.InteractionDeadline // 3 s
	DefaultTokenLifetime     = 15 * time.Minute

	DefaultGuildID   = "1200000000000000001"
	DefaultChannelID = "1300000000000000001"
	DefaultUserID    = "1400000000000000001"
	DefaultUsername  = "tester"
	DefaultLocale    = "en-US"
)

// Errors returned by the waiting methods.
var (
	// ErrClosed is returned by waiting methods once the Server is closed.
	ErrClosed = errors.New("fakediscord: server closed")
	// ErrNoResponse is returned when an interaction was not acknowledged
	// before its response deadline (Discord shows "This interaction failed").
	ErrNoResponse = errors.New("fakediscord: interaction not acknowledged before the response deadline")
	// ErrNoMessage is returned by WaitFinal when the interaction was answered
	// without a message (a modal or autocomplete choices).
	ErrNoMessage = errors.New("fakediscord: interaction was answered without a message")
	// ErrDeleted is returned by WaitFinal when the message was deleted.
	ErrDeleted = errors.New("fakediscord: message deleted")
)

// Config configures a Server. Zero fields take the Default* values.
type Config struct {
	// Token is the full Authorization value expected, e.g. "Bot abc.def". The
	// gateway IDENTIFY must carry exactly this token.
	Token string
	// AppID is the application id; it is also the bot user's id.
	AppID string
	// BotUsername is the bot user's name in READY and /users/@me.
	BotUsername string
	// HeartbeatInterval is sent in HELLO (default 41.25 s).
	HeartbeatInterval time.Duration
	// ResponseDeadline is the time allowed for the first interaction callback
	// (default 3 s). SetResponseDeadline changes it for later interactions.
	ResponseDeadline time.Duration
	// TokenLifetime is how long an interaction token accepts followups and
	// edits (default 15 min).
	TokenLifetime time.Duration
	// Sharding is how the gateway shards and rate-limits IDENTIFY, and what
	// GET /gateway/bot recommends (default: one shard, max_concurrency 1).
	// SetSharding changes it.
	Sharding Sharding
	// NonceWindow is how long a message nonce sent with enforce_nonce
	// dedupes later creates (default DefaultNonceWindow, 5 min).
	// SetNonceWindow changes it.
	NonceWindow time.Duration
	// Logf, if set, receives one line per gateway event and REST error.
	// Do not pass a testing.T's Logf to a Server that outlives the test.
	Logf func(format string, args ...any)
}

// Server is a fake Discord API and gateway. All methods are safe for
// concurrent use.
type Server struct {
	cfg    Config
	hs     *httptest.Server
	routes []route

	mu      sync.Mutex
	changed chan struct{} // closed and replaced whenever state changes
	closed  bool
	quit    chan struct{} // closed by Close: ends held requests
	lastID  uint64

	// gateway
	conns        map[*gwConn]struct{}
	sessions     map[string]*gwSession // live (resumable) sessions by id
	identifies   int
	resumes      int
	shardResumes map[int]int
	identifyLog  []IdentifyRecord
	lastIdentify map[int]time.Time // the last accepted IDENTIFY by rate-limit bucket
	sharding     Sharding
	started      time.Time
	deadline     time.Duration
	httpURL      string // deliver interactions here instead of the gateway
	httpKey      ed25519.PrivateKey

	// data
	messages     map[string]*Message
	order        []string   // message ids in creation order
	sent         []*Message // every version of every message the bot sent (Sent)
	interactions map[string]*Interaction
	byToken      map[string]*Interaction
	issued       []string                                   // every interaction token, kept across Reset
	channels     map[string]channelInfo                     // what interactions told about channels
	guildLocales map[string]string                          // a server's preferred_locale, when set
	commands     map[string][]*discordgo.ApplicationCommand // by guild id, "" = global
	cmdGuild     string
	puts         int
	restErrors   []RESTError
	perms        map[string]int64  // the bot's permissions by channel, when set
	nonces       map[string]string // nonceKey -> id of the newest message with it
	nonceWindow  time.Duration

	// REST faults
	faults []*faultRule

	// The request log has its own lock: the status is recorded as an
	// answer is written, often while a handler holds mu. Lock order: mu,
	// then reqMu.
	reqMu      sync.Mutex
	requests   []*Request
	reqChanged chan struct{} // closed and replaced whenever a request is answered
}

// New starts a fake Discord on 127.0.0.1. Close it when done.
func New(cfg Config) *Server {
	if cfg.Token == "" {
		cfg.Token = DefaultToken
	}
	if cfg.AppID == "" {
		cfg.AppID = DefaultAppID
	}
	if cfg.BotUsername == "" {
		cfg.BotUsername = DefaultBotUsername
	}
	if cfg.HeartbeatInterval <= 0 {
		cfg.HeartbeatInterval = DefaultHeartbeatInterval
	}
	if cfg.ResponseDeadline <= 0 {
		cfg.ResponseDeadline = DefaultResponseDeadline
	}
	if cfg.TokenLifetime <= 0 {
		cfg.TokenLifetime = DefaultTokenLifetime
	}
	cfg.Sharding = cfg.Sharding.withDefaults()
	if cfg.NonceWindow <= 0 {
		cfg.NonceWindow = DefaultNonceWindow
	}
	s := &Server{
		cfg:        cfg,
		changed:    make(chan struct{}),
		quit:       make(chan struct{}),
		reqChanged: make(chan struct{}),
		conns:      make(map[*gwConn]struct{}),
		deadline:   cfg.ResponseDeadline,

		sessions:     make(map[string]*gwSession),
		shardResumes: make(map[int]int),
		lastIdentify: make(map[int]time.Time),
		sharding:     cfg.Sharding,
		started:      time.Now(),
	}
	s.resetDataLocked()
	s.routes = s.routeTable()
	mux := http.NewServeMux()
	mux.HandleFunc("/gateway", s.serveGateway)
	mux.HandleFunc("/gateway/", s.serveGateway)
	mux.HandleFunc("/attachments/", s.serveAttachment)
	mux.HandleFunc("/", s.serveAPI)
	s.hs = httptest.NewServer(mux)
	return s
}

// URL is the server's base URL, "http://127.0.0.1:PORT", the value for
// DISCORD_API_BASE. REST lives under URL()+"/api/v9/".
func (s *Server) URL() string { return s.hs.URL }

// GatewayURL is the websocket URL returned by GET /gateway.
func (s *Server) GatewayURL() string { return "ws" + s.hs.URL[len("http"):] + "/gateway" }

// Config returns the configuration in use, defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// Close closes every gateway connection and shuts the server down. Waiting
// methods return ErrClosed.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.quit)
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.broadcastLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
	s.hs.Close()
}

// Reset forgets messages, interactions, commands, recorded REST errors and
// requests, injected faults and channel permissions, restores the configured
// response deadline, nonce window and sharding rules, and switches
// interaction delivery back to the gateway. Gateway sessions, their
// connections, the identify log and the Identifies/Resumes counters are
// kept.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ix := range s.interactions {
		if ix.timer != nil {
			ix.timer.Stop()
		}
	}
	s.resetDataLocked()
	s.deadline = s.cfg.ResponseDeadline
	s.sharding = s.cfg.Sharding
	s.httpURL, s.httpKey = "", nil
	s.broadcastLocked()
}

func (s *Server) resetDataLocked() {
	s.messages = make(map[string]*Message)
	s.order = nil
	s.sent = nil
	s.interactions = make(map[string]*Interaction)
	s.byToken = make(map[string]*Interaction)
	s.channels = make(map[string]channelInfo)
	s.guildLocales = make(map[string]string)
	s.commands = make(map[string][]*discordgo.ApplicationCommand)
	s.cmdGuild = ""
	s.puts = 0
	s.restErrors = nil
	s.perms = make(map[string]int64)
	s.nonces = make(map[string]string)
	s.nonceWindow = s.cfg.NonceWindow
	s.faults = nil
	s.reqMu.Lock()
	s.requests = nil
	s.reqMu.Unlock()
}

// SetResponseDeadline sets the first-response deadline of interactions
// created from now on (Reset restores Config.ResponseDeadline).
func (s *Server) SetResponseDeadline(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d <= 0 {
		d = s.cfg.ResponseDeadline
	}
	s.deadline = d
}

// RESTError is a non-2xx answer the fake gave to a REST request.
type RESTError struct {
	Method, Path string
	Status       int
	Code         int    // Discord JSON error code (0 for plain HTTP errors)
	Message      string // Discord's message, e.g. "Unknown interaction"
	Detail       string // the fake's explanation (field errors etc.)
}

// RESTErrors lists the errors the fake returned since New or Reset, oldest
// first. An end-to-end test can assert the bot made no invalid request.
func (s *Server) RESTErrors() []RESTError {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RESTError(nil), s.restErrors...)
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf("fakediscord: "+format, args...)
	}
}

// broadcastLocked wakes every waiter. s.mu must be held.
func (s *Server) broadcastLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// waitFor calls check under s.mu until it reports done or an error, the
// context ends or the server closes.
func (s *Server) waitFor(ctx context.Context, check func() (bool, error)) error {
	for {
		s.mu.Lock()
		done, err := check()
		ch, closed := s.changed, s.closed
		s.mu.Unlock()
		if done || err != nil {
			return err
		}
		if closed {
			return ErrClosed
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// discordEpoch is 2015-01-01T00:00:00Z in Unix milliseconds.
const discordEpoch = 1420070400000

// newIDLocked returns a snowflake: milliseconds since the Discord epoch in the
// high bits, strictly increasing. s.mu must be held.
func (s *Server) newIDLocked() string {
	id := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatUint(id, 10)
}

// snowflakeTime is the creation time encoded in a snowflake (zero if id is
// not one).
func snowflakeTime(id string) time.Time {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(int64(n>>22) + discordEpoch).UTC()
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}
