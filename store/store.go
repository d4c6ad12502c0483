package store

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/metrics"
	"mazebot/play"
	"mazebot/store/postgres"
	"mazebot/store/sqldb"
	"mazebot/store/sqlite"
)

// DB is an open mazebot database, whichever kind holds it: the domain's
// stores, and what a bot process needs besides. store/sqldb implements it
// over SQLite and PostgreSQL; store/storetest holds both to it.
type DB interface {
	play.Store
	play.RunStore
	play.RunCleaner
	contest.DailyStore
	contest.ReminderStore
	contest.ChampionStore
	contest.EventStore
	contest.Posts
	// Secret returns the value kept under key, storing generate's result
	// the first time; processes racing to create it all get the same one.
	Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error)
	// FirstSeen records that an interaction arrived at at and reports
	// whether its id is new: true for exactly one caller per id, whichever
	// process asks, until ForgetSeen removes it. An empty id is refused.
	// (The bot's ReplayGuard.)
	FirstSeen(ctx context.Context, interactionID string, at time.Time) (bool, error)
	// ForgetSeen deletes the ids seen strictly before before and returns
	// how many it deleted.
	ForgetSeen(ctx context.Context, before time.Time) (int64, error)
	// ClaimIdentify gives bucket's turn to identify, at at, to the caller
	// when the bucket's last turn was window or more before, reporting ok
	// and when the turn's window ends; otherwise it reports when the last
	// turn's window ends. Of racing callers exactly one gets a turn. (The
	// bot's IdentifyTurns.)
	ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (free time.Time, ok bool, err error)
	// CommandGuilds lists the servers given mazebot's commands of their
	// own (DISCORD_GUILD_ID); AddCommandGuild records one, at a time, and
	// RemoveCommandGuild forgets it once its commands are gone. (The
	// bot's CommandGuilds.)
	CommandGuilds(ctx context.Context) ([]string, error)
	AddCommandGuild(ctx context.Context, guildID string, at time.Time) error
	RemoveCommandGuild(ctx context.Context, guildID string) error
	// SaveImage keeps a picture made into a mask under its hash, which
	// a maze ID names, so that its maze can be drawn again; saving it
	// again changes nothing. Image returns it, or wraps ErrNotFound.
	SaveImage(ctx context.Context, img *mazecore.Image, at time.Time) error
	Image(ctx context.Context, hash [16]byte) (*mazecore.Image, error)
	// Ping tells whether the database answers: for readiness checks.
	Ping(ctx context.Context) error
	Close() error
}

var _ DB = (*sqldb.Store)(nil)

// Option configures Open.
type Option = sqldb.Option

// DefaultTimeout bounds every store call unless WithTimeout says
// otherwise.
const DefaultTimeout = sqldb.DefaultTimeout

// WithMetrics reports every failed store call to m, by method name: not
// the contract's answers (ErrNotFound, ErrConflict), nor a call whose
// caller gave up.
func WithMetrics(m metrics.Store) Option { return sqldb.WithMetrics(m) }

// WithTimeout bounds every store call by d (DefaultTimeout when d is not
// positive).
func WithTimeout(d time.Duration) Option { return sqldb.WithTimeout(d) }

// Kinds of database, as Kind names them.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Kind tells which database dsn selects: Postgres for a postgres:// or
// postgresql:// URL (the scheme in any case) or a keyword/value string
// such as "host=db user=mazebot dbname=mazebot"; SQLite for anything else
// (a file path, or ":memory:").
func Kind(dsn string) string {
	if scheme, _, isURL := strings.Cut(dsn, "://"); isURL && isPostgresScheme(scheme) {
		return Postgres
	}
	if pairs, ok := keywordValues(dsn); ok {
		for _, p := range pairs {
			if libpqKeywords[strings.ToLower(p.key)] {
				return Postgres
			}
		}
	}
	return SQLite
}

func isPostgresScheme(scheme string) bool {
	return strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql")
}

// libpqKeywords are the connection keywords that make a keyword/value
// string PostgreSQL's: a file name made of key=value words would have to
// use one of them.
var libpqKeywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true, "passfile": true,
	"service": true, "sslmode": true, "sslpassword": true, "connect_timeout": true, "application_name": true,
	"options": true, "target_session_attrs": true,
}

// Open opens the database dsn names (see Kind) and applies its
// migrations. Its errors show dsn only redacted, and never a password.
func Open(ctx context.Context, dsn string, opts ...Option) (DB, error) {
	return open(ctx, dsn, opts...)
}

func open(ctx context.Context, dsn string, opts ...Option) (*sqldb.Store, error) {
	if Kind(dsn) == Postgres {
		if scheme, rest, isURL := strings.Cut(dsn, "://"); isURL {
			dsn = strings.ToLower(scheme) + "://" + rest // pgx reads the scheme in lower case only
		}
		db, err := postgres.Open(ctx, dsn, opts...)
		if err != nil {
			// pgx's errors name the user and database, not the password;
			// scrubbed all the same.
			return nil, scrub(fmt.Errorf("open %s: %w", Redact(dsn), err), dsn)
		}
		return db, nil
	}
	if scheme, _, isURL := strings.Cut(dsn, "://"); isURL {
		// Not a path anyone means: a typo of the scheme, or another
		// database's URL. SQLite would make a file of it.
		return nil, fmt.Errorf("open %s: unknown database URL scheme %q: use a postgres:// URL, a PostgreSQL keyword/value string or a SQLite file path", Redact(dsn), scheme)
	}
	return sqlite.Open(ctx, dsn, opts...) // its errors name the path
}

// redacted stands for a password in Redact's output.
const redacted = "xxxxx"

// Redact returns dsn fit for a log line or an error: a URL's password,
// whether in its user info or in a password parameter (of any case), and
// a keyword/value string's password, replaced by xxxxx. A file path comes
// back as it is.
func Redact(dsn string) string {
	scheme, _, isURL := strings.Cut(dsn, "://")
	if !isURL {
		if Kind(dsn) != Postgres {
			return dsn
		}
		pairs, _ := keywordValues(dsn)
		var b strings.Builder
		last := 0
		for _, p := range pairs {
			if isPasswordKey(p.key) {
				b.WriteString(dsn[last:p.start] + redacted)
				last = p.end
			}
		}
		return b.String() + dsn[last:]
	}
	u, err := url.Parse(dsn)
	if err != nil {
		// Unparseable, so nobody can tell where a password would be.
		return scheme + "://" + redacted
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), redacted)
	}
	q := u.Query()
	changed := false
	for key := range q {
		if isPasswordKey(key) {
			q.Set(key, redacted)
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func isPasswordKey(key string) bool {
	return strings.EqualFold(key, "password") || strings.EqualFold(key, "sslpassword")
}

// scrub returns err with every password dsn holds replaced by xxxxx in
// its text (still wrapping err), in case a driver quoted one.
func scrub(err error, dsn string) error {
	text := err.Error()
	changed := false
	for _, pw := range passwords(dsn) {
		if pw != "" && strings.Contains(text, pw) {
			text = strings.ReplaceAll(text, pw, redacted)
			changed = true
		}
	}
	if !changed {
		return err
	}
	return &scrubbed{text: text, err: err}
}

type scrubbed struct {
	text string
	err  error
}

func (e *scrubbed) Error() string { return e.text }
func (e *scrubbed) Unwrap() error { return e.err }

// passwords lists the passwords dsn holds, as written and as read.
func passwords(dsn string) []string {
	var out []string
	if _, _, isURL := strings.Cut(dsn, "://"); !isURL {
		pairs, _ := keywordValues(dsn)
		for _, p := range pairs {
			if isPasswordKey(p.key) {
				raw := dsn[p.start:p.end]
				out = append(out, raw, strings.Trim(raw, "'"), unescape(raw))
			}
		}
		return out
	}
	// The user info and query as written: url.Parse may refuse the URL.
	rest := dsn[strings.Index(dsn, "://")+3:]
	if at := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); at >= 0 {
		if _, pw, ok := strings.Cut(rest[:at], ":"); ok {
			out = append(out, pw)
			if dec, err := url.PathUnescape(pw); err == nil {
				out = append(out, dec)
			}
		}
	}
	if _, query, ok := strings.Cut(rest, "?"); ok {
		for _, kv := range strings.Split(query, "&") {
			if k, v, ok := strings.Cut(kv, "="); ok && isPasswordKey(k) {
				out = append(out, v)
				if dec, err := url.QueryUnescape(v); err == nil {
					out = append(out, dec)
				}
			}
		}
	}
	return out
}

// pair is one keyword = value of a keyword/value string, with where its
// value (quotes included) lies in the string.
type pair struct {
	key        string
	start, end int
}

// keywordValues splits a libpq keyword/value string ("host=db
// password='a b'"): keywords of letters, digits and '_', values bare
// (up to a space) or single-quoted, with \ escaping a quote or itself.
// ok is false for anything else, a file path above all.
func keywordValues(s string) (pairs []pair, ok bool) {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	isWord := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	for {
		skip()
		if i == len(s) {
			return pairs, len(pairs) > 0
		}
		k := i
		for i < len(s) && isWord(s[i]) {
			i++
		}
		key := s[k:i]
		skip()
		if key == "" || i == len(s) || s[i] != '=' {
			return nil, false
		}
		i++
		skip()
		start := i
		if i < len(s) && s[i] == '\'' {
			for i++; i < len(s) && s[i] != '\''; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				return nil, false // unterminated
			}
			i++
		} else {
			for ; i < len(s) && !isSpace(s[i]); i++ {
				if s[i] == '\\' {
					i++
				}
			}
			i = min(i, len(s))
		}
		pairs = append(pairs, pair{key: key, start: start, end: i})
	}
}

// unescape is a keyword/value string's value as libpq reads it.
func unescape(v string) string {
	v = strings.TrimSuffix(strings.TrimPrefix(v, "'"), "'")
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}
