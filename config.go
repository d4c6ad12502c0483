package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"strings"

	"github.com/joho/godotenv"

	"mazebot/bot"
)

// Config is the bot's configuration, read from the environment after
// loading .env (real environment variables win over .env).
type Config struct {
	Token     string // DISCORD_TOKEN; never logged
	GuildID   string // DISCORD_GUILD_ID
	APIBase   string // DISCORD_API_BASE
	Database  string // MAZEBOT_DB: a SQLite file path or a postgres:// URL; logged only redacted
	Secret    string // MAZEBOT_SECRET; never logged
	PublicKey string // DISCORD_PUBLIC_KEY (hex); never logged
	HTTPAddr  string // HTTP_ADDR: also serve POST /interactions here
	LogLevel  string // LOG_LEVEL
	LogFormat string // LOG_FORMAT
	// ShardCount is DISCORD_SHARD_COUNT: auto (the default) or a number.
	ShardCount string
	// ShardIDs is DISCORD_SHARD_IDS: all (the default) or a list of ids
	// and ranges such as 0-2,5.
	ShardIDs string
	// MetricsAddr is METRICS_ADDR: serve /metrics, /healthz and /readyz
	// on this address.
	MetricsAddr string
}

// loadDotEnv reads .env into the environment if it exists.
func loadDotEnv(path string) error {
	if err := godotenv.Load(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

func loadConfig(getenv func(string) string) Config {
	cfg := Config{
		Token:     strings.TrimSpace(getenv("DISCORD_TOKEN")),
		GuildID:   strings.TrimSpace(getenv("DISCORD_GUILD_ID")),
		APIBase:   strings.TrimSpace(getenv("DISCORD_API_BASE")),
		Database:  strings.TrimSpace(getenv("MAZEBOT_DB")),
		Secret:    getenv("MAZEBOT_SECRET"),
		PublicKey: strings.TrimSpace(getenv("DISCORD_PUBLIC_KEY")),
		HTTPAddr:  strings.TrimSpace(getenv("HTTP_ADDR")),
		LogLevel:  strings.TrimSpace(getenv("LOG_LEVEL")),
		LogFormat: strings.TrimSpace(getenv("LOG_FORMAT")),

		ShardCount:  strings.TrimSpace(getenv("DISCORD_SHARD_COUNT")),
		ShardIDs:    strings.TrimSpace(getenv("DISCORD_SHARD_IDS")),
		MetricsAddr: strings.TrimSpace(getenv("METRICS_ADDR")),
	}
	if cfg.Database == "" {
		cfg.Database = "mazebot.db"
	}
	return cfg
}

// newLogger builds the one logger, from LOG_LEVEL (debug, info, warn,
// error) and LOG_FORMAT (text, json).
func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lvl slog.Level
	if level != "" {
		if err := lvl.UnmarshalText([]byte(level)); err != nil {
			return nil, fmt.Errorf("LOG_LEVEL %q: use debug, info, warn or error", level)
		}
	}
	opts := &slog.HandlerOptions{Level: lvl, ReplaceAttr: redactTokens}
	switch strings.ToLower(format) {
	case "", "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("LOG_FORMAT %q: use text or json", format)
}

// redactTokens keeps interaction and webhook tokens out of every log line,
// whichever error or text carries their URL.
func redactTokens(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		if s := a.Value.String(); bot.RedactTokens(s) != s {
			a.Value = slog.StringValue(bot.RedactTokens(s))
		}
	case slog.KindAny:
		if err, ok := a.Value.Any().(error); ok && err != nil {
			if s := err.Error(); bot.RedactTokens(s) != s {
				a.Value = slog.StringValue(bot.RedactTokens(s))
			}
		}
	}
	return a
}

const noTokenHelp = `mazebot: DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run the bot: copy .env.example to .env and put your bot token in it
(see README.md, "Run it on Discord"), then run: go run .

Meanwhile, here is what the offline command makes (go run . help for more):
  go run . maze sidewinder 21
  go run . maze backtracking 41 --solve

`
