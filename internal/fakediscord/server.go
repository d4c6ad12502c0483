package fakediscord

import (
	"cmp"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Defaults used when a Config or an Actor leaves a field empty.
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

// ErrClosed is returned by waiting methods once the Server is closed.
var ErrClosed = errors.New("fakediscord: server closed")

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
	// ClientSecret is the application's OAuth2 client secret, which POST
	// /oauth2/token wants with the app's id (default DefaultClientSecret).
	ClientSecret string
	// Logf, if set, receives one line per gateway event and REST error.
	// Do not pass a testing.T's Logf to a Server that outlives the test.
	Logf func(format string, args ...any)
}

func (cfg Config) withDefaults() Config {
	cfg.Token = cmp.Or(cfg.Token, DefaultToken)
	cfg.AppID = cmp.Or(cfg.AppID, DefaultAppID)
	cfg.BotUsername = cmp.Or(cfg.BotUsername, DefaultBotUsername)
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
	cfg.ClientSecret = cmp.Or(cfg.ClientSecret, DefaultClientSecret)
	return cfg
}

// Server is a fake Discord API and gateway. All methods are safe for
// concurrent use.
//
// Its state is kept in parts that each guard their own (see doc.go's lock
// order): the gateway, what Discord knows of guilds and channels, the
// application commands, the messages, the interactions, and the log of
// REST requests with the faults to inject.
type Server struct {
	cfg     Config
	hs      *httptest.Server
	routes  []routePattern // the REST routes, for InjectFault and 405s
	quit    chan struct{}  // closed by Close: ends waits and held requests
	closing sync.Once

	ids          snowflakes
	changes      signals
	gateway      *gateway
	guilds       *directory
	commands     *commandStore
	messages     *messageStore
	interactions *interactionStore
	activities   *activityStore
	rest         *restLog
}

// New starts a fake Discord on 127.0.0.1. Close it when done.
func New(cfg Config) *Server {
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, quit: make(chan struct{})}
	s.gateway = newGateway(s)
	s.guilds = &directory{s: s}
	s.commands = &commandStore{s: s}
	s.messages = &messageStore{s: s}
	s.interactions = &interactionStore{s: s}
	s.activities = &activityStore{s: s}
	s.rest = &restLog{s: s}
	s.resetParts() // each part starts as Reset leaves it
	// Unstarted, so that s.hs is set before any handler can read it.
	s.hs = httptest.NewUnstartedServer(s.mux())
	s.hs.Start()
	return s
}

// URL is the server's base URL, "http://127.0.0.1:PORT", the value for
// DISCORD_API_BASE. REST lives under URL()+"/api/v9/".
func (s *Server) URL() string { return s.hs.URL }

// GatewayURL is the websocket URL returned by GET /gateway.
func (s *Server) GatewayURL() string { return "ws" + s.hs.URL[len("http"):] + "/gateway" }

// Config returns the configuration in use, defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// Done is closed once the Server is closed: a waiting caller stops there
// with ErrClosed.
func (s *Server) Done() <-chan struct{} { return s.quit }

// Close closes every gateway connection and shuts the server down. Waiting
// methods return ErrClosed.
func (s *Server) Close() {
	s.closing.Do(func() {
		close(s.quit)
		s.gateway.closeAll()
		s.interactions.stopTimers()
		s.hs.Close()
	})
}

// Reset forgets messages, interactions, commands, recorded REST errors and
// requests, injected faults, channel permissions and what interactions
// told of guilds and channels; restores the configured response deadline,
// nonce window and sharding rules; and switches interaction delivery back
// to the gateway. Gateway sessions, their connections, the identify log,
// the Identifies/Resumes counters and the issued interaction tokens are
// kept. Reset while the bot has requests in flight only if their outcome
// does not matter.
func (s *Server) Reset() {
	s.resetParts()
	s.gateway.resetSharding()
	s.changes.fireAll()
}

// resetParts empties every part of the state that Reset forgets.
func (s *Server) resetParts() {
	s.interactions.reset()
	s.activities.reset()
	s.messages.reset()
	s.commands.reset()
	s.guilds.reset()
	s.rest.reset()
}

// SetResponseDeadline sets the first-response deadline of interactions
// created from now on (Reset restores Config.ResponseDeadline).
func (s *Server) SetResponseDeadline(d time.Duration) {
	if d <= 0 {
		d = s.cfg.ResponseDeadline
	}
	s.interactions.setDeadline(d)
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf("fakediscord: "+format, args...)
	}
}

// closed reports whether Close was called.
func (s *Server) closed() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

// mux is the HTTP side: the gateway's websocket, the uploads, and the
// REST routes under /api/{version} (routes.go).
func (s *Server) mux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/gateway", s.gateway.serve)
	mux.HandleFunc("/gateway/", s.gateway.serve)
	mux.HandleFunc("GET /attachments/{channel}/{id}/{filename}", s.messages.serveAttachment)
	s.restRoutes(mux)
	return mux
}
