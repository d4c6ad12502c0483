package app

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// env is a getenv over a map.
func env(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestParseConfig(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public().(ed25519.PublicKey)
	cfg, err := ParseConfig(env(map[string]string{
		"DISCORD_TOKEN":       " abc.def ",
		"DISCORD_GUILD_ID":    "1200000000000000001",
		"DISCORD_API_BASE":    "http://127.0.0.1:8080/",
		"MAZEBOT_SECRET":      "s3cret",
		"HTTP_ADDR":           ":8080",
		"DISCORD_PUBLIC_KEY":  hex.EncodeToString(key),
		"DISCORD_SHARD_COUNT": "4",
		"DISCORD_SHARD_IDS":   "3,0-1",
		"LOG_LEVEL":           "debug",
		"LOG_FORMAT":          "JSON",
		"DISCORD_REST_RATE":   "13",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.Token, "Bot abc.def"; got != want {
		t.Errorf("Token=%q, want %q", got, want)
	}
	if got, want := cfg.APIBase.String(), "http://127.0.0.1:8080"; got != want {
		t.Errorf("APIBase=%q, want %q", got, want)
	}
	if got, want := cfg.Database, DefaultDatabase; got != want {
		t.Errorf("Database=%q, want %q", got, want)
	}
	if got, want := string(cfg.Secret), "s3cret"; got != want {
		t.Errorf("Secret=%q, want %q", got, want)
	}
	if !key.Equal(cfg.PublicKey) {
		t.Errorf("PublicKey=%x, want %x", cfg.PublicKey, key)
	}
	if got, want := cfg.ShardIDs, []int{0, 1, 3}; cfg.ShardCount != 4 || !slices.Equal(got, want) {
		t.Errorf("shards %d %v, want 4 %v", cfg.ShardCount, got, want)
	}
	if cfg.LogLevel != slog.LevelDebug || !cfg.LogJSON {
		t.Errorf("log %v json=%v, want debug json", cfg.LogLevel, cfg.LogJSON)
	}
	if cfg.RESTRate != 13 {
		t.Errorf("RESTRate=%d, want 13", cfg.RESTRate)
	}
}

func TestParseConfigDefaults(t *testing.T) {
	cfg, err := ParseConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Token != "" || cfg.APIBase != nil || cfg.Secret != nil || cfg.ShardCount != 0 || cfg.ShardIDs != nil ||
		cfg.LogLevel != slog.LevelInfo || cfg.LogJSON || cfg.Database != DefaultDatabase || cfg.RESTRate != 40 {
		t.Fatalf("defaults %+v", cfg)
	}
}

// TestParseConfigErrors: each unusable variable is named, with what it
// takes, all in one error; no error repeats a key it refused.
func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		vars map[string]string
		want []string
	}{
		{"ErrPublicKeyMissing", map[string]string{"HTTP_ADDR": ":0"}, []string{"DISCORD_PUBLIC_KEY is not set"}},
		{"ErrPublicKeyNotHex", map[string]string{"HTTP_ADDR": ":0", "DISCORD_PUBLIC_KEY": "not-hex"}, []string{"DISCORD_PUBLIC_KEY is not a valid public key"}},
		{"ErrPublicKeyShort", map[string]string{"HTTP_ADDR": ":0", "DISCORD_PUBLIC_KEY": strings.Repeat("ab", 31)}, []string{"DISCORD_PUBLIC_KEY is not a valid public key"}},
		{"ErrShardCount", map[string]string{"DISCORD_SHARD_COUNT": "six"}, []string{"DISCORD_SHARD_COUNT"}},
		{"ErrShardIDs", map[string]string{"DISCORD_SHARD_IDS": "0-"}, []string{"DISCORD_SHARD_IDS"}},
		{"ErrShardIDBeyondCount", map[string]string{"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "1-2"}, []string{"lists shard 2, but DISCORD_SHARD_COUNT is 2"}},
		{"ErrAPIBase", map[string]string{"DISCORD_API_BASE": "discord.com"}, []string{"DISCORD_API_BASE"}},
		{"ErrGuildID", map[string]string{"DISCORD_GUILD_ID": "my server"}, []string{"DISCORD_GUILD_ID"}},
		{"ErrLogLevel", map[string]string{"LOG_LEVEL": "loud"}, []string{"LOG_LEVEL", "debug, info, warn or error"}},
		{"ErrLogFormat", map[string]string{"LOG_FORMAT": "xml"}, []string{"LOG_FORMAT", "text or json"}},
		{"ErrRESTRateAboveDiscords", map[string]string{"DISCORD_REST_RATE": "60"}, []string{"DISCORD_REST_RATE", "1 to 50"}},
		{"ErrRESTRateZero", map[string]string{"DISCORD_REST_RATE": "0"}, []string{"DISCORD_REST_RATE"}},
		{"ErrSeveral", map[string]string{"LOG_LEVEL": "loud", "DISCORD_SHARD_COUNT": "six"}, []string{"LOG_LEVEL", "DISCORD_SHARD_COUNT"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig(env(tc.vars))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q, want it to say %q", err, want)
				}
			}
			if k := tc.vars["DISCORD_PUBLIC_KEY"]; k != "" && strings.Contains(err.Error(), k) {
				t.Errorf("the error repeats the key: %v", err)
			}
		})
	}
}

// TestBuildRefusesBeforeTouchingTheDatabase: a configuration Build cannot
// use stops it before the database is created.
func TestBuildRefusesBeforeTouchingTheDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"ErrNoToken", Config{}, "DISCORD_TOKEN"},
		{"ErrNoPublicKey", Config{Token: "Bot x", HTTPAddr: "127.0.0.1:0"}, "DISCORD_PUBLIC_KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Database = filepath.Join(t.TempDir(), "mazebot.db")
			a, err := Build(context.Background(), tc.cfg, slog.New(slog.DiscardHandler), Options{})
			if err == nil {
				a.Close()
				t.Fatal("Build accepted it")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want it to say %q", err, tc.want)
			}
			if _, err := os.Stat(tc.cfg.Database); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the database was created: %v", err)
			}
		})
	}
}

// TestLoggerRedactsTokens: whatever error or text carries an interaction
// or webhook URL, the logger writes it without the token.
func TestLoggerRedactsTokens(t *testing.T) {
	const token = "c2VjcmV0LWludGVyYWN0aW9uLXRva2Vu"
	for _, json := range []bool{false, true} {
		var buf bytes.Buffer
		log := NewLogger(&buf, Config{LogLevel: slog.LevelDebug, LogJSON: json})
		log.Error("call failed",
			"err", fmt.Errorf("respond: %w", &url.Error{Op: "Post", URL: "http://127.0.0.1:1/api/v9/interactions/1/" + token + "/callback", Err: context.DeadlineExceeded}),
			"url", "https://discord.com/api/v9/webhooks/2/"+token+"/messages/@original")
		out := buf.String()
		if strings.Contains(out, token) || strings.Count(out, "{token}") != 2 || !strings.Contains(out, "deadline exceeded") {
			t.Fatalf("json=%v log line %q, want both URLs with {token} and the cause kept", json, out)
		}
	}
}

// TestVariablesDocumented: every variable the bot reads is listed for
// --help and explained in .env.example, and .env.example sets no other.
func TestVariablesDocumented(t *testing.T) {
	raw, err := os.ReadFile("../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	inExample := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		if name, _, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			inExample[strings.TrimSpace(name)] = true
		}
	}
	listed := map[string]bool{}
	for _, v := range Variables {
		listed[v.Name] = true
		if !inExample[v.Name] {
			t.Errorf("%s is not in .env.example", v.Name)
		}
		// Each is read: setting it to something unusable is noticed, or it
		// changes the configuration.
		if v.Name == "DISCORD_TOKEN" || v.Name == "MAZEBOT_SECRET" {
			continue
		}
		vars := map[string]string{v.Name: "bogus value"}
		if v.Name == "DISCORD_PUBLIC_KEY" {
			vars["HTTP_ADDR"] = ":0" // read only for the endpoint
		}
		cfg, err := ParseConfig(env(vars))
		switch {
		case err != nil && !strings.Contains(err.Error(), v.Name):
			t.Errorf("%s: the error %q does not name it", v.Name, err)
		case err == nil && reflect.DeepEqual(cfg, Config{Database: DefaultDatabase}):
			t.Errorf("%s: ParseConfig does not read it", v.Name)
		}
	}
	for name := range inExample {
		if !listed[name] {
			t.Errorf(".env.example sets %s, which Variables does not list", name)
		}
	}
}
