package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"mazebot/bot"
	"mazebot/cli"
	"mazebot/commands"
	"mazebot/store/sqlite"
)

// App is the whole bot wired together: store, commands, gateway. Tests
// build one against a fake Discord and an in-memory store.
type App struct {
	Router *commands.Router
	db     *sqlite.DB
	bot    *bot.Bot
	log    *slog.Logger
}

// NewApp opens the store and prepares the bot without connecting.
func NewApp(ctx context.Context, cfg Config, log *slog.Logger) (*App, error) {
	if cfg.Token == "" {
		return nil, errors.New("DISCORD_TOKEN is not set")
	}
	if cfg.APIBase != "" {
		if err := bot.SetAPIBase(cfg.APIBase); err != nil {
			return nil, err
		}
		log.Info("using a custom Discord API base", "base", cfg.APIBase)
	}
	db, err := sqlite.Open(ctx, cfg.DBPath)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	// Play buttons are signed; every process sharing the database must use
	// one key, so without MAZEBOT_SECRET the first process stores one there.
	secret := []byte(cfg.Secret)
	if len(secret) == 0 {
		secret, err = db.Secret(ctx, "play-hmac", func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("play secret: %w", err)
		}
	}
	deps := &commands.Deps{
		Posts:  db,
		Logger: log.With("component", "commands"),
		Seed:   randomSeed,
		Games:  db,
		Secret: secret,
		Events: db,
		Daily:  db,
		Now:    cfg.Now,
	}
	router := commands.NewRouter(deps)
	b, err := bot.New(bot.Config{Token: cfg.Token, GuildID: cfg.GuildID}, router, log.With("component", "bot"))
	if err != nil {
		db.Close()
		return nil, err
	}
	deps.Poster = b
	return &App{Router: router, db: db, bot: b, log: log}, nil
}

// Run serves until ctx ends.
func (a *App) Run(ctx context.Context) error { return a.bot.Run(ctx) }

// Close releases the store. Call it after Run returns.
func (a *App) Close() error { return a.db.Close() }

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
	app, err := NewApp(ctx, cfg, log)
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
