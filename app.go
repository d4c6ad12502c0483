package main

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"mazebot/bot"
	"mazebot/cli"
	"mazebot/commands"
	"mazebot/contest"
	"mazebot/play"
	"mazebot/store/sqlite"
)

// App is the whole bot wired together: store, commands, gateway. Tests
// build one against a fake Discord and an in-memory store.
type App struct {
	Router *commands.Router
	db     *sqlite.DB
	bot    *bot.Bot
	log    *slog.Logger
	// The HTTP interactions endpoint, when HTTP_ADDR is set. The listener
	// is opened by NewApp so a taken port fails at start and tests can
	// learn an ephemeral port before Run.
	httpSrv *http.Server
	httpLn  net.Listener
}

// httpShutdownTimeout bounds the wait for requests in flight on the HTTP
// endpoint at shutdown; each waits at most about 3 s for its answer.
const httpShutdownTimeout = 10 * time.Second

// Options are what tests change in the wiring: the clock, and extra
// features (test-only commands) registered before the command sync.
type Options struct {
	Now   func() time.Time // nil: the real clock
	Extra []commands.Feature
}

// NewApp opens the store and prepares the bot without connecting.
func NewApp(ctx context.Context, cfg Config, log *slog.Logger, opts Options) (*App, error) {
	if cfg.Token == "" {
		return nil, errors.New("DISCORD_TOKEN is not set")
	}
	var publicKey ed25519.PublicKey
	if cfg.HTTPAddr != "" {
		key, err := bot.ParsePublicKey(cfg.PublicKey)
		if err != nil {
			return nil, fmt.Errorf("HTTP_ADDR is set but %w", err)
		}
		publicKey = key
	}
	if cfg.APIBase != "" {
		if err := bot.SetAPIBase(cfg.APIBase); err != nil {
			return nil, err
		}
		log.Info("using a custom Discord API base", "base", cfg.APIBase)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	db, err := sqlite.Open(ctx, cfg.DBPath)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	app, err := wire(ctx, cfg, log, opts, now, db, publicKey)
	if err != nil {
		db.Close()
		return nil, err
	}
	return app, nil
}

// wire builds everything on the open store db: the domain services, the
// Discord features, the bot and, with HTTP_ADDR, the endpoint.
func wire(ctx context.Context, cfg Config, log *slog.Logger, opts Options, now func() time.Time, db *sqlite.DB, publicKey ed25519.PublicKey) (*App, error) {
	// Play buttons are signed; every process sharing the database must use
	// one key, so without MAZEBOT_SECRET the first process stores one there.
	secret := []byte(cfg.Secret)
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
	session, err := bot.NewSession(cfg.Token)
	if err != nil {
		return nil, err
	}
	// One renderer for the process: its pool bounds the CPU and memory
	// that pictures take, whatever asks for them.
	renderer := commands.NewRenderer(commands.RenderConfig{}, now)
	contestLog := log.With("component", "contest")
	announcer := commands.NewAnnouncer(bot.NewPoster(session), db, renderer, now)
	contests := contest.Contests{
		Dailies: contest.NewDailies(db, announcer, dailyKey, now, contestLog),
		Events:  contest.NewEvents(db, announcer, now, contestLog),
	}
	games := play.NewService(db, now)
	commandLog := log.With("component", "commands")
	playFeature, err := commands.NewPlay(games, contests, secret, renderer, commandLog)
	if err != nil {
		return nil, err
	}
	features := append([]commands.Feature{
		commands.NewMazes(db, contests, renderer, randomSeed, now),
		playFeature,
		commands.NewEvents(contests.Events, randomSeed),
		commands.NewDaily(contests.Dailies, db, renderer, now),
		commands.Help{},
	}, opts.Extra...)
	router := commands.NewRouter(commandLog, features...)
	tickers := []bot.Ticker{
		{Name: "game cleanup", Run: func(ctx context.Context) error {
			n, err := games.Cleanup(ctx)
			if n > 0 {
				log.Info("deleted old games", "count", n)
			}
			return err
		}},
		{Name: "events", Run: contests.Events.Tick},
		{Name: "daily posts", Run: contests.Dailies.Tick},
	}
	b, err := bot.New(bot.Config{GuildID: cfg.GuildID}, session, router, tickers, log.With("component", "bot"))
	if err != nil {
		return nil, err
	}
	app := &App{Router: router, db: db, bot: b, log: log}
	if cfg.HTTPAddr != "" {
		handler, err := b.InteractionsHandler(publicKey)
		if err == nil {
			app.httpLn, err = net.Listen("tcp", cfg.HTTPAddr)
		}
		if err != nil {
			return nil, fmt.Errorf("HTTP_ADDR %s: %w", cfg.HTTPAddr, err)
		}
		mux := http.NewServeMux()
		mux.Handle("/interactions", handler)
		app.httpSrv = &http.Server{
			Handler:           mux,
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      10 * time.Second,
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		}
	}
	return app, nil
}

// dailyKey is the key the dailies' mazes are derived under, so that nobody
// can work out a future daily: derived from MAZEBOT_SECRET when it is set
// (every process sharing the database has it), else generated once and
// kept in the database, as the button key is.
func dailyKey(ctx context.Context, cfg Config, db *sqlite.DB) ([]byte, error) {
	if cfg.Secret != "" {
		mac := hmac.New(sha256.New, []byte(cfg.Secret))
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

// Run serves until ctx ends: the gateway, and the HTTP endpoint when set.
// Either failing stops the other. At the end the endpoint stops taking
// requests and finishes those in flight while the bot drains its replies.
func (a *App) Run(ctx context.Context) error {
	if a.httpSrv == nil {
		return a.bot.Run(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	serveErr := make(chan error, 1)
	go func() {
		err := a.httpSrv.Serve(a.httpLn)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		} else {
			err = fmt.Errorf("HTTP endpoint: %w", err)
			cancel()
		}
		serveErr <- err
	}()
	a.log.Info("HTTP interactions endpoint listening", "addr", a.HTTPAddr(), "path", "/interactions")
	botErr := make(chan error, 1)
	go func() {
		err := a.bot.Run(ctx)
		cancel()
		botErr <- err
	}()
	<-ctx.Done()
	shutCtx, stop := context.WithTimeout(context.Background(), httpShutdownTimeout)
	defer stop()
	var shutErr error
	if err := a.httpSrv.Shutdown(shutCtx); err != nil {
		shutErr = fmt.Errorf("HTTP endpoint shutdown: %w", err)
	}
	return errors.Join(<-botErr, <-serveErr, shutErr)
}

// Close releases the store (and the endpoint's listener if Run never
// served it). Call it after Run returns.
func (a *App) Close() error {
	if a.httpLn != nil {
		_ = a.httpLn.Close() // already closed after Run: nothing to report
	}
	return a.db.Close()
}

// randomSeed draws a 32-bit seed: enough variety, and it keeps IDs short.
func randomSeed() uint64 {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // never fails on supported platforms
	}
	return uint64(binary.LittleEndian.Uint32(b[:]))
}

// runBotMode runs the Discord bot until ctx ends, returning the exit code.
// Without a token it says how to set one and shows what mazebot does
// offline instead, so the first command anyone runs shows a maze.
func runBotMode(ctx context.Context, stdout, stderr io.Writer) int {
	if err := loadDotEnv(".env"); err != nil {
		fmt.Fprintln(stderr, "mazebot:", err)
		return 1
	}
	cfg := loadConfig(os.Getenv)
	log, err := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	if err != nil {
		fmt.Fprintln(stderr, "mazebot:", err)
		return 2
	}
	if cfg.Token == "" {
		fmt.Fprint(stderr, noTokenHelp)
		return cli.Run(ctx, []string{"maze", "backtracking", "21"}, stdout, stderr)
	}
	app, err := NewApp(ctx, cfg, log, Options{})
	if err != nil {
		log.Error("start", "err", err)
		return 1
	}
	defer app.Close()
	if err := app.Run(ctx); err != nil {
		log.Error("stopped", "err", err)
		return 1
	}
	log.Info("stopped cleanly")
	return 0
}
