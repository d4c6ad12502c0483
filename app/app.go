package app

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/arena"
	"mazebot/bot"
	"mazebot/bot/discord"
	"mazebot/commands"
	"mazebot/commands/views"
	"mazebot/health"
	"mazebot/metrics"
	"mazebot/metrics/prom"
	"mazebot/render"
	"mazebot/store"
	"mazebot/store/pgbus"
	"mazebot/store/sqldb"
)

// App is the whole bot wired together: store, commands, gateway. The
// end-to-end tests build one against a fake Discord.
type App struct {
	Router *bot.Router
	db     store.DB
	bot    *discord.Bot
	log    *slog.Logger
	// The HTTP interactions endpoint, when HTTP_ADDR is set. The listener
	// is opened by NewApp so a taken port fails at start and tests can
	// learn an ephemeral port before Run.
	httpSrv *http.Server
	httpLn  net.Listener
	// The metrics and health endpoints, when METRICS_ADDR is set; opened
	// by NewApp for the same reasons.
	opsSrv *http.Server
	opsLn  net.Listener
	ready  *health.Readiness
	// Maze Arena, the Activity, when DISCORD_CLIENT_SECRET is set: its
	// server, listening on ACTIVITY_ADDR (opened by NewApp too).
	arena    *arena.Server
	arenaSrv *http.Server
	arenaLn  net.Listener
}

// httpShutdownTimeout bounds the wait for requests in flight on the HTTP
// endpoint at shutdown; each waits at most about 3 s for its answer.
const httpShutdownTimeout = 10 * time.Second

// Options are what tests change in the wiring: the clock, and extra
// features (test-only commands) registered before the command sync.
type Options struct {
	Now   func() time.Time // nil: the real clock
	Extra []bot.Feature
	// IdentifyInterval, when set, replaces Discord's 5 s between the
	// IDENTIFYs of a rate-limit bucket, for a fake Discord that allows it.
	IdentifyInterval time.Duration
	// ArenaObserveMove, when set, is told how long each of Maze Arena's
	// moves took in the process (a benchmark's measure).
	ArenaObserveMove func(time.Duration)
	// ArenaObserveBroadcast, when set, is told how long each move waited
	// in the process for the room's message that showed it to the others.
	ArenaObserveBroadcast func(time.Duration)
	// ArenaObserveBusLag, when set, is told how long each move another
	// process put on the bus took to reach this one.
	ArenaObserveBusLag func(time.Duration)
}

// Build opens the store and prepares the bot without connecting: the one
// wiring, used by main and by the end-to-end tests.
func Build(ctx context.Context, cfg Config, log *slog.Logger, opts Options) (*App, error) {
	if cfg.Token == "" {
		return nil, errors.New("DISCORD_TOKEN is not set")
	}
	if cfg.HTTPAddr != "" && len(cfg.PublicKey) != ed25519.PublicKeySize {
		return nil, errors.New("HTTP_ADDR is set but DISCORD_PUBLIC_KEY is not")
	}
	if cfg.APIBase != nil {
		log.Info("using a custom Discord API base", "base", cfg.APIBase.String())
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	var (
		ops   *prom.Metrics
		opsLn net.Listener
		err   error
	)
	if cfg.MetricsAddr != "" {
		if opsLn, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			return nil, fmt.Errorf("METRICS_ADDR %s: %w", cfg.MetricsAddr, err)
		}
		ops = prom.New()
	}
	var rec recorder = metrics.Nop{}
	if ops != nil {
		rec = ops
	}
	// Every store call is bounded (store.DefaultTimeout) and its failures
	// counted in rec.
	db, err := openStore(ctx, cfg.Database, store.WithMetrics(rec))
	if err != nil {
		closeListener(opsLn)
		return nil, fmt.Errorf("open database: %w", err)
	}
	log.Info("database open", "store", store.Kind(cfg.Database), "db", store.Redact(cfg.Database))
	app, err := wire(ctx, cfg, log, opts, now, db, rec)
	if err != nil {
		closeListener(opsLn)
		db.Close()
		return nil, err
	}
	if ops != nil {
		app.serveOps(ops, opsLn)
	}
	return app, nil
}

// recorder is what the parts report into: the Prometheus metrics with
// METRICS_ADDR, else metrics.Nop.
type recorder interface {
	metrics.Interactions
	metrics.Render
	metrics.Store
	metrics.Unknowns
	metrics.Arena
}

// openStore opens the database MAZEBOT_DB names: SQLite, or PostgreSQL
// for a postgres:// URL or a keyword/value string.
func openStore(ctx context.Context, dsn string, opts ...store.Option) (store.DB, error) {
	return store.Open(ctx, dsn, opts...)
}

func closeListener(ln net.Listener) {
	if ln != nil {
		_ = ln.Close() // never served: nothing to report
	}
}

// wire builds everything on the open store db: the domain services, the
// Discord features, the bot and, with HTTP_ADDR, the endpoint. The parts
// report into rec.
func wire(ctx context.Context, cfg Config, log *slog.Logger, opts Options, now func() time.Time, db store.DB, rec recorder) (*App, error) {
	// Play buttons are signed; every process sharing the database must use
	// one key, so without MAZEBOT_SECRET the first process stores one there.
	secret := cfg.Secret
	if len(secret) == 0 {
		var err error
		secret, err = db.Secret(ctx, "play-hmac", func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			return nil, fmt.Errorf("play secret: %w", err)
		}
	}
	dailyKey, err := dailyKey(ctx, cfg, db)
	if err != nil {
		return nil, err
	}
	session, err := discord.NewSession(cfg.Token, cfg.APIBase)
	if err != nil {
		return nil, err
	}
	// Every request with the bot's token, whichever job makes it, within
	// Discord's global limit; interaction responses pass at once.
	session.Client.Transport = discord.GlobalLimit(session.Client.Transport, cmp.Or(cfg.RESTRate, discord.GlobalRate), discord.GlobalBurst)
	poster := discord.NewPoster(session)
	deps := commands.Deps{
		Attachments: bot.NewAttachments(cfg.APIBase),
		Store:       db, Poster: poster, Guilds: poster, Roles: poster,
		PlaySecret: secret, DailyKey: dailyKey,
		Now: now, Seed: randomSeed, Log: log, Metrics: rec,
		Replays: db,
		Extra:   opts.Extra,
		Arena:   cfg.ClientSecret != "",
	}
	// The domain once: the features and Maze Arena's rooms play the same
	// games, and the Arena is built before the features that launch it.
	deps.Domain = commands.NewDomain(deps)
	app := &App{db: db, log: log}
	if deps.Arena {
		if err := app.buildArena(ctx, cfg, log, opts, now, rec, deps.Domain, poster, deps.PlaySecret); err != nil {
			return nil, err
		}
		deps.Races = app.arena
	}
	b, err := app.buildBot(cfg, opts, deps, session)
	if err != nil {
		app.closeArena()
		return nil, err
	}
	app.bot = b
	// Watched whether or not anything probes: an outage is logged.
	app.ready = health.NewReadiness(b.Shards, db.Ping, log.With("component", "health"))
	if cfg.HTTPAddr != "" {
		ln, err := net.Listen("tcp", cfg.HTTPAddr)
		if err == nil {
			app.httpSrv, app.httpLn, err = b.InteractionsServer(cfg.PublicKey, ln)
		}
		if err != nil {
			closeListener(ln)
			app.closeArena()
			return nil, fmt.Errorf("HTTP_ADDR %s: %w", cfg.HTTPAddr, err)
		}
	}
	return app, nil
}

// buildBot builds the features on deps (their domain built) and the bot
// that serves them.
func (a *App) buildBot(cfg Config, opts Options, deps commands.Deps, session *discordgo.Session) (*discord.Bot, error) {
	set, err := commands.New(deps)
	if err != nil {
		return nil, err
	}
	a.Router = set.Router
	botCfg := discord.Config{ShardCount: cfg.ShardCount, ShardIDs: cfg.ShardIDs, GuildID: cfg.GuildID}
	botCfg.IdentifyInterval = opts.IdentifyInterval
	botCfg.IdentifyTurns = a.db
	botCfg.CommandGuilds = a.db
	// The recorder (wire's rec) counts what Discord sent that this build
	// does not understand.
	botCfg.Unknowns, _ = deps.Metrics.(metrics.Unknowns)
	return discord.New(botCfg, session, set.Router, scheduled(set.Tickers), deps.Log.With("component", "bot"))
}

// scheduled marks the store calls of the tickers as scheduled work's, so
// that on SQLite a member's write never waits behind a backlog of posts
// (sqldb.Scheduled).
func scheduled(tickers []bot.Ticker) []bot.Ticker {
	out := make([]bot.Ticker, len(tickers))
	for i, t := range tickers {
		out[i] = bot.Ticker{Name: t.Name, Run: func(ctx context.Context) error { return t.Run(sqldb.Scheduled(ctx)) }}
	}
	return out
}

// closeArena releases a Maze Arena built but never served.
func (a *App) closeArena() {
	if a.arena == nil {
		return
	}
	closeListener(a.arenaLn)
	_ = a.arena.Close() // never served: nothing to report
}

// The PostgreSQL bus tells the rooms when it lost messages for good, and
// whether it hears the other processes.
var (
	_ arena.GapReporter = (*pgbus.Bus)(nil)
	_ arena.Hearing     = (*pgbus.Bus)(nil)
)

// buildArena prepares Maze Arena on ACTIVITY_ADDR: its rooms play through
// games, post result cards through poster, and reach the other processes
// over PostgreSQL's LISTEN/NOTIFY when the database is PostgreSQL.
func (a *App) buildArena(ctx context.Context, cfg Config, log *slog.Logger, opts Options, now func() time.Time, rec metrics.Arena, domain *commands.Domain, poster *discord.Poster, secret []byte) error {
	alog := log.With("component", "arena")
	var bus arena.Bus
	if store.Kind(cfg.Database) == store.Postgres {
		pg, err := pgbus.New(ctx, cfg.Database, cfg.Token, alog)
		if err != nil {
			return err
		}
		bus = pg
	}
	srv, err := arena.New(arena.Config{
		ClientSecret: cfg.ClientSecret, BotToken: cfg.Token, Transport: discord.Rebase(cfg.APIBase, nil),
		Bot:           poster, // the bot token's requests on the bot's one client and rate limiter
		SessionSecret: secret, // the buttons' key: the same on every process
		Games:         domain.Games, Grids: domain.Grids, Runs: a.db, Poster: cardPoster{poster, alog}, Language: domain.ServerLanguage, Bus: bus, Log: alog, Seed: randomSeed,
		ObserveMove: opts.ArenaObserveMove, ObserveBroadcast: opts.ArenaObserveBroadcast, ObserveBusLag: opts.ArenaObserveBusLag, Now: now, Metrics: rec,
	})
	if err != nil {
		if bus != nil {
			_ = bus.Close() // never used
		}
		return err
	}
	ln, err := net.Listen("tcp", cfg.ActivityAddr)
	if err != nil {
		_ = srv.Close() // never served
		return fmt.Errorf("ACTIVITY_ADDR %s: %w", cfg.ActivityAddr, err)
	}
	// The interactions endpoint's timeouts and cap: a connection that
	// sends nothing, or a request slowly, is dropped, and idle ones make
	// way for new ones, so that a flood of them can neither lock members
	// out nor take the process's descriptors (and /healthz with them).
	// A member's WebSocket, once upgraded, sets its own deadlines.
	limit := discord.LimitListener(ln, arena.MaxConnections)
	a.arena, a.arenaLn = srv, limit
	a.arenaSrv = &http.Server{
		Handler:           srv.Handler(),
		ConnState:         limit.ConnState,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    discord.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(alog.Handler(), slog.LevelWarn),
	}
	return nil
}

// cardPoster posts Maze Arena's result cards as the bot's posts: the
// podium over the picture of the race, drawn here (arena imports no
// renderer). A picture that cannot be drawn (too large) leaves the card
// its text.
type cardPoster struct {
	p   *discord.Poster
	log *slog.Logger
}

func (c cardPoster) Post(ctx context.Context, channelID, nonce string, card arena.Card) error {
	reply := views.RaceResult(card.Text, c.picture(card))
	// A 429 was not carried out, and the nonce makes a repeat no second
	// card: post again once its retry_after has passed.
	return discord.RetryRateLimited(ctx, cardTries, func() error {
		_, err := c.p.Post(ctx, channelID, nonce, reply)
		return err
	})
}

// Follow posts the card as the launch's followup (a group DM's). The
// interactions' way retries a 429 itself, and repeats nothing whose
// outcome is unknown: a followup takes no nonce.
func (c cardPoster) Follow(ctx context.Context, appID, token string, card arena.Card) error {
	return c.p.Followup(ctx, appID, token, views.RaceResult(card.Text, c.picture(card)))
}

// cardTries bounds the tries of a result card's post that Discord rate
// limits.
const cardTries = 3

// picture draws the race's picture, nil for none.
func (c cardPoster) picture(card arena.Card) *bot.File {
	if card.Maze == nil || len(card.Walks) == 0 {
		return nil
	}
	walks := make([]render.RaceWalk, len(card.Walks))
	for i, w := range card.Walks {
		walks[i] = render.RaceWalk{Cells: w.Cells, Colour: w.Colour}
	}
	var buf bytes.Buffer
	if err := render.RacePNG(&buf, card.Maze, walks, render.GridOptions{}); err != nil {
		c.log.Warn("arena: draw the result card's picture", "maze", card.Maze.ID().String(), "err", err)
		return nil
	}
	return &bot.File{Name: "race.png", ContentType: "image/png", Data: buf.Bytes(), Description: card.Alt}
}

// ActivityAddr is the address Maze Arena listens on ("" when it is off).
func (a *App) ActivityAddr() string {
	if a.arenaLn == nil {
		return ""
	}
	return a.arenaLn.Addr().String()
}

// serveOps prepares the metrics and health endpoints on ln; the shards
// are read at each scrape.
func (a *App) serveOps(ops *prom.Metrics, ln net.Listener) {
	ops.ObserveShards(a.bot.Shards)
	if a.arena != nil {
		ops.ObserveArena(a.arena.State)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", ops.Handler())
	mux.Handle("/", health.Handler(a.ready))
	a.opsLn = ln
	a.opsSrv = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
}

// MetricsAddr is the address the metrics and health endpoints listen on
// ("" without METRICS_ADDR).
func (a *App) MetricsAddr() string {
	if a.opsLn == nil {
		return ""
	}
	return a.opsLn.Addr().String()
}

// dailyKey is the key the dailies' mazes are derived under, so that nobody
// can work out a future daily: derived from MAZEBOT_SECRET when it is set
// (every process sharing the database has it), else generated once and
// kept in the database, as the button key is.
func dailyKey(ctx context.Context, cfg Config, db store.DB) ([]byte, error) {
	if len(cfg.Secret) > 0 {
		mac := hmac.New(sha256.New, cfg.Secret)
		mac.Write([]byte("mazebot daily maze key"))
		return mac.Sum(nil), nil
	}
	key, err := db.Secret(ctx, "daily-hmac", func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("daily key: %w", err)
	}
	return key, nil
}

// HTTPAddr is the address the interactions endpoint listens on ("" without
// HTTP_ADDR): the real port when HTTP_ADDR asked for port 0.
func (a *App) HTTPAddr() string {
	if a.httpLn == nil {
		return ""
	}
	return a.httpLn.Addr().String()
}

// Run serves until ctx ends: the gateway, the HTTP endpoint and the
// metrics and health endpoints when set. Any of them failing stops the
// others. At the end the interactions endpoint stops taking requests and
// finishes those in flight while the bot drains its replies; the health
// endpoints answer until the bot has stopped (/readyz 503, /healthz 200).
func (a *App) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opsErr := serve(a.opsSrv, a.opsLn, "metrics and health endpoints", cancel)
	readyDone := make(chan struct{})
	go func() { a.ready.Run(ctx); close(readyDone) }()
	if a.opsSrv != nil {
		a.log.Info("metrics and health endpoints listening", "addr", a.MetricsAddr(), "paths", "/metrics /healthz /readyz")
	}
	httpErr := serve(a.httpSrv, a.httpLn, "HTTP endpoint", cancel)
	if a.httpSrv != nil {
		a.log.Info("HTTP interactions endpoint listening", "addr", a.HTTPAddr(), "path", "/interactions")
	}
	arenaErr := serve(a.arenaSrv, a.arenaLn, "Maze Arena", cancel)
	if a.arenaSrv != nil {
		a.log.Info("Maze Arena listening", "addr", a.ActivityAddr())
	}
	botErr := make(chan error, 1)
	go func() {
		err := a.bot.Run(ctx)
		cancel()
		botErr <- err
	}()
	<-ctx.Done()
	errs := []error{shutdown(a.httpSrv, "HTTP endpoint"), <-botErr}
	<-readyDone
	// The Activity's WebSockets are hijacked connections, which Shutdown
	// does not wait for: Close ends them.
	if a.arenaSrv != nil {
		errs = append(errs, a.arenaSrv.Close())
	}
	errs = append(errs, shutdown(a.opsSrv, "metrics and health endpoints"), <-httpErr, <-opsErr, <-arenaErr)
	return errors.Join(errs...)
}

// serve runs srv on ln (nothing when srv is nil) until it is shut down;
// failing to serve cancels the app. The channel gets its error at the end.
func serve(srv *http.Server, ln net.Listener, what string, cancel context.CancelFunc) <-chan error {
	done := make(chan error, 1)
	if srv == nil {
		done <- nil
		return done
	}
	go func() {
		err := srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		} else {
			err = fmt.Errorf("%s: %w", what, err)
			cancel()
		}
		done <- err
	}()
	return done
}

// shutdown stops srv taking requests and waits for those in flight.
func shutdown(srv *http.Server, what string) error {
	if srv == nil {
		return nil
	}
	ctx, stop := context.WithTimeout(context.Background(), httpShutdownTimeout)
	defer stop()
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("%s shutdown: %w", what, err)
	}
	return nil
}

// Tick runs the scheduled work once (daily posts, ending events,
// cleanup), as the bot does every tick: for tests that move a clock.
func (a *App) Tick(ctx context.Context) error { return a.bot.Tick(ctx) }

// Store is the app's database, for tests that look at what it kept.
func (a *App) Store() store.DB { return a.db }

// Close releases the store (and the endpoints' listeners if Run never
// served them). Call it after Run returns.
func (a *App) Close() error {
	closeListener(a.httpLn) // already closed after Run: nothing to report
	closeListener(a.opsLn)
	closeListener(a.arenaLn)
	var errs []error
	if a.arena != nil {
		errs = append(errs, a.arena.Close())
	}
	return errors.Join(append(errs, a.db.Close())...)
}

// randomSeed draws a 32-bit seed: enough variety, and it keeps IDs short.
func randomSeed() uint64 {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // never fails on supported platforms
	}
	return uint64(binary.LittleEndian.Uint32(b[:]))
}
