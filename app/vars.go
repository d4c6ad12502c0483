package app

// Variable is one setting of the bot, read from the environment or .env.
type Variable struct {
	Name, Default, Help string
}

// Variables lists every setting ParseConfig reads, for `mazebot bot
// --help`; .env.example explains each at length (a test holds the two
// together).
var Variables = []Variable{
	{"DISCORD_TOKEN", "", "the bot token (Developer Portal → your application → Bot → Reset Token); required"},
	{"DISCORD_GUILD_ID", "", "sync the commands to this server only, where they show at once; empty: global"},
	{"DISCORD_API_BASE", "https://discord.com", "another base for Discord's REST API, such as a REST proxy"},
	{"MAZEBOT_DB", DefaultDatabase, "a SQLite file, or a PostgreSQL URL (postgres://…) for several processes"},
	{"MAZEBOT_SECRET", "", "signs the play buttons and keys the dailies; the same on every process of one database"},
	{"HTTP_ADDR", "", "also serve Discord's HTTP interactions endpoint (POST /interactions) here, e.g. :8080"},
	{"DISCORD_PUBLIC_KEY", "", "the application's public key (64 hex digits); required with HTTP_ADDR"},
	{"DISCORD_SHARD_COUNT", "auto", "gateway shards in all: auto (Discord's recommendation) or a number"},
	{"DISCORD_SHARD_IDS", "all", "the shards this process runs: all, or ids and ranges such as 0-2,5"},
	{"DISCORD_REST_RATE", "40", "the most requests a second this process makes with the token (posts, DMs, roles, Maze Arena's instance checks), 1-50: each process its share"},
	{"METRICS_ADDR", "", "serve /metrics, /healthz and /readyz here, e.g. 127.0.0.1:9101"},
	{"ACTIVITY_ADDR", "", "serve Maze Arena, the Activity, here, e.g. :8090 (with DISCORD_CLIENT_SECRET)"},
	{"DISCORD_CLIENT_SECRET", "", "the OAuth2 client secret: turns Maze Arena on; never logged or sent to a browser"},
	{"LOG_LEVEL", "info", "debug, info, warn or error"},
	{"LOG_FORMAT", "text", "text or json"},
}
