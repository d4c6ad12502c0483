package app

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"strconv"
	"strings"

	"github.com/joho/godotenv"

	"mazebot/bot/discord"
)

// Config is the bot's configuration, parsed and checked once, from the
// environment after loading .env (real environment variables win over
// .env). Every field is already in the type its users need.
type Config struct {
	Token   string // DISCORD_TOKEN, "Bot " and all; never logged
	GuildID string // DISCORD_GUILD_ID: sync commands to this server only
	// APIBase is DISCORD_API_BASE: another host for Discord's REST API
	// (a REST proxy, or a fake Discord in tests); nil is Discord itself.
	APIBase *url.URL
	// Database is MAZEBOT_DB: a SQLite file path or a PostgreSQL URL;
	// logged only redacted.
	Database string
	// Secret is MAZEBOT_SECRET: it signs the play buttons and keys the
	// daily mazes; nil keeps generated keys in the database. Never logged.
	Secret []byte
	// HTTPAddr is HTTP_ADDR: also serve POST /interactions here; then
	// PublicKey (DISCORD_PUBLIC_KEY) verifies the requests.
	HTTPAddr  string
	PublicKey ed25519.PublicKey
	// ShardCount is DISCORD_SHARD_COUNT: 0 for auto (Discord's
	// recommendation), else the number of shards.
	ShardCount int
	// ShardIDs is DISCORD_SHARD_IDS: the shards this process runs,
	// ascending; nil runs all.
	ShardIDs []int
	// MetricsAddr is METRICS_ADDR: serve /metrics, /healthz and /readyz
	// here.
	MetricsAddr string
	// RESTRate is DISCORD_REST_RATE: the most requests a second this
	// process makes with the bot's token (discord.GlobalRate unless set);
	// Discord's 50 a second are the bot's, across its processes.
	RESTRate int
	// ActivityAddr is ACTIVITY_ADDR: serve Maze Arena, the Activity, here;
	// ClientSecret (DISCORD_CLIENT_SECRET, the OAuth2 client secret, never
	// logged or sent to a browser) turns it on. Both or neither.
	ActivityAddr string
	ClientSecret string
	LogLevel     slog.Level // LOG_LEVEL
	LogJSON      bool       // LOG_FORMAT=json
}

// discordGlobalLimit is Discord's global rate limit: requests a second
// with a bot's token.
const discordGlobalLimit = 50

// DefaultDatabase is MAZEBOT_DB when it is not set.
const DefaultDatabase = "mazebot.db"

// LoadDotEnv reads path (.env) into the environment if it exists; a
// variable already set keeps its value.
func LoadDotEnv(path string) error {
	if err := godotenv.Load(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// ParseConfig reads the configuration from getenv (os.Getenv). Every
// variable that cannot be used is reported, each naming the variable and
// what it accepts, so that one run shows every mistake.
func ParseConfig(getenv func(string) string) (Config, error) {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	cfg := Config{
		Token:       botToken(get("DISCORD_TOKEN")),
		GuildID:     get("DISCORD_GUILD_ID"),
		Database:    get("MAZEBOT_DB"),
		HTTPAddr:    get("HTTP_ADDR"),
		MetricsAddr: get("METRICS_ADDR"),
		// ACTIVITY_ADDR and DISCORD_CLIENT_SECRET
		ActivityAddr: get("ACTIVITY_ADDR"),
		ClientSecret: get("DISCORD_CLIENT_SECRET"),
	}
	if s := getenv("MAZEBOT_SECRET"); s != "" {
		cfg.Secret = []byte(s)
	}
	if cfg.Database == "" {
		cfg.Database = DefaultDatabase
	}
	var errs []error
	check := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if cfg.GuildID != "" && !isSnowflake(cfg.GuildID) {
		check(fmt.Errorf("DISCORD_GUILD_ID %q: want a server ID, the digits Developer Mode's Copy Server ID gives", cfg.GuildID))
	}
	if base := get("DISCORD_API_BASE"); base != "" {
		u, err := discord.ParseAPIBase(base)
		check(err)
		cfg.APIBase = u
	}
	if cfg.HTTPAddr != "" {
		key, err := discord.ParsePublicKey(get("DISCORD_PUBLIC_KEY"))
		if err != nil {
			err = fmt.Errorf("HTTP_ADDR is set but %w", err)
		}
		check(err)
		cfg.PublicKey = key
	}
	switch {
	case cfg.ActivityAddr != "" && cfg.ClientSecret == "":
		check(fmt.Errorf("ACTIVITY_ADDR is set but DISCORD_CLIENT_SECRET is not: Maze Arena signs members in with the application's OAuth2 client secret (Developer Portal → OAuth2 → Client Secret)"))
	case cfg.ClientSecret != "" && cfg.ActivityAddr == "":
		check(fmt.Errorf("DISCORD_CLIENT_SECRET is set but ACTIVITY_ADDR is not: say where Maze Arena, the Activity, listens, e.g. :8090"))
	}
	var err error
	cfg.ShardCount, err = discord.ParseShardCount(get("DISCORD_SHARD_COUNT"))
	check(err)
	cfg.ShardIDs, err = discord.ParseShardIDs(get("DISCORD_SHARD_IDS"))
	check(err)
	if err == nil && cfg.ShardCount > 0 {
		// An id beyond an explicit count is an error now; one beyond
		// Discord's recommendation when the bot starts.
		check(discord.CheckShardIDs(cfg.ShardIDs, cfg.ShardCount, false))
	}
	cfg.RESTRate = discord.GlobalRate
	if rate := get("DISCORD_REST_RATE"); rate != "" {
		n, err := strconv.Atoi(rate)
		if err != nil || n < 1 || n > discordGlobalLimit {
			check(fmt.Errorf("DISCORD_REST_RATE %q: want the requests a second this process may make, 1 to %d (Discord's limit for the whole bot): %d by default, its share of them with several processes (e.g. 13 each for three)", rate, discordGlobalLimit, discord.GlobalRate))
		} else {
			cfg.RESTRate = n
		}
	}
	if level := get("LOG_LEVEL"); level != "" {
		if err := cfg.LogLevel.UnmarshalText([]byte(level)); err != nil {
			check(fmt.Errorf("LOG_LEVEL %q: use debug, info, warn or error", level))
		}
	}
	switch format := get("LOG_FORMAT"); strings.ToLower(format) {
	case "", "text":
	case "json":
		cfg.LogJSON = true
	default:
		check(fmt.Errorf("LOG_FORMAT %q: use text or json", format))
	}
	return cfg, errors.Join(errs...)
}

// botToken is DISCORD_TOKEN as Discord's Authorization header wants it:
// the portal shows the token without its "Bot " prefix.
func botToken(s string) string {
	if s == "" || strings.HasPrefix(s, "Bot ") {
		return s
	}
	return "Bot " + s
}

// isSnowflake tells whether s is a Discord ID: 1 to 20 decimal digits.
func isSnowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
