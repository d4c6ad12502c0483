package arena

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// discord is what the Activity's server asks Discord: the code exchange,
// whose token a connection brings, and whether an instance has them.
// Its errors never carry a token, a code or the secret.
//
// Two clients: the requests with the bot's token (the application's id,
// the instance checks) go through bot, the Discord wing's one client, so
// that they share the bot's rate limiter and its one record of a 429 on
// the token (a global 429 on the token holds every request with it,
// whichever job made it). The OAuth2 requests stay here, on client: the
// code exchange is authorised by the client id and secret and
// /users/@me by the member's own access token, neither by the bot's
// token, so Discord limits them apart from it (a member's token has its
// own limits; the exchange's are the application's), and the wing's
// client sends only the bot's token.
type discord struct {
	api    string // https://discord.com/api/v9, as rebased
	client *http.Client
	bot    BotAPI
	secret string // the OAuth2 client secret: sent to Discord only
	log    *slog.Logger

	// appMu lets one request at a time ask for the application's id.
	appMu sync.Mutex
	mu    sync.Mutex
	appID string // the application's id, once known
	// appErr is the last failure to learn it, which stands until appRetry.
	appErr   error
	appRetry time.Time
	// limited is when each rate-limited OAuth2 route may be asked again
	// (by its route key; globalLimit for every route).
	limited map[string]time.Time
}

// BotAPI asks Discord with the bot's token: the Discord wing's one client
// (the wiring's *discord.Poster), whose rate limiter every request with
// the token shares.
type BotAPI interface {
	// Get sends GET path (below /api/v9) under the rate-limit bucket
	// bucket and answers Discord's status and body; status 429, unsent,
	// while a 429 holds the token or the bucket.
	Get(ctx context.Context, path, bucket string) (status int, body []byte, err error)
}

// A 429 stops the route it answered (or, global, every route) until its
// retry_after has passed: a request sent before then would only be
// refused again, and every 429 counts toward the invalid requests for
// which Discord bans an IP (10,000 in 10 minutes), the bot's included.
var errRateLimited = errors.New("discord is rate limiting these requests")

const globalLimit = "global"

func newDiscord(transport http.RoundTripper, appID, secret string, bot BotAPI, log *slog.Logger) *discord {
	if transport == nil {
		transport = http.DefaultTransport
	}
	return &discord{
		api:    "https://discord.com/api/v9",
		client: &http.Client{Timeout: 10 * time.Second, Transport: transport},
		appID:  appID, secret: secret, bot: bot, log: log, limited: map[string]time.Time{},
	}
}

// application is the application's id: as configured, else what GET
// /applications/@me says of the bot token's, once. One request asks at a
// time, and after a failure none does for appFailureStands: every page load
// needs the id, and a flood of them must not become a flood at Discord.
func (d *discord) application(ctx context.Context) (string, error) {
	d.mu.Lock()
	id := d.appID
	d.mu.Unlock()
	if id != "" {
		return id, nil
	}
	d.appMu.Lock()
	defer d.appMu.Unlock()
	d.mu.Lock()
	id, failed, retry := d.appID, d.appErr, d.appRetry
	d.mu.Unlock()
	switch {
	case id != "":
		return id, nil
	case failed != nil && time.Now().Before(retry):
		return "", failed
	}
	var app struct {
		ID string `json:"id"`
	}
	status, err := d.botGet(ctx, "/applications/@me", "GET /applications/@me", &app)
	switch {
	case err != nil:
		err = fmt.Errorf("applications/@me: %w", err)
	case status != http.StatusOK || app.ID == "":
		err = fmt.Errorf("applications/@me: HTTP %d", status)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		if ctx.Err() == nil { // not this request's own end
			d.appErr, d.appRetry = err, time.Now().Add(appFailureStands)
		}
		return "", err
	}
	d.appID = app.ID
	return app.ID, nil
}

// appFailureStands is how long a failure to learn the application's id stands.
const appFailureStands = 5 * time.Second

// Errors of the exchange and checks, for the edge to map.
var (
	errBadCode      = errors.New("discord refused the authorization code")
	errBadToken     = errors.New("discord does not know the access token")
	errNoInstance   = errors.New("no such activity instance")
	errClientSecret = errors.New("discord refused the client id or secret")
)

// exchangeRoute is the code exchange's route key.
const exchangeRoute = "POST /oauth2/token"

// exchange trades an authorization code for an access token at
// /oauth2/token.
func (d *discord) exchange(ctx context.Context, code string) (string, error) {
	appID, err := d.application(ctx)
	if err != nil {
		return "", err
	}
	form := url.Values{
		"client_id": {appID}, "client_secret": {d.secret},
		"grant_type": {"authorization_code"}, "code": {code},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.api+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var out struct {
		AccessToken string `json:"access_token"`
	}
	status, err := d.do(req, exchangeRoute, &out)
	switch {
	case err != nil:
		return "", fmt.Errorf("oauth2 token: %w", err)
	case status == http.StatusUnauthorized:
		return "", errClientSecret
	case status == http.StatusBadRequest:
		return "", errBadCode
	case status != http.StatusOK || out.AccessToken == "":
		return "", fmt.Errorf("oauth2 token: HTTP %d", status)
	}
	return out.AccessToken, nil
}

// user is a Discord user as the Activity shows them.
type user struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

// Name is the name to show: the display name, else the username.
func (u user) Name() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// me asks whose access token this is.
func (d *discord) me(ctx context.Context, token string) (user, error) {
	var u user
	// A user's token has limits of its own: one member's 429 stops
	// nobody else.
	sum := sha256.Sum256([]byte(token))
	status, err := d.get(ctx, "/users/@me", "GET /users/@me "+hex.EncodeToString(sum[:8]), "Bearer "+token, &u)
	switch {
	case err != nil:
		return user{}, fmt.Errorf("users/@me: %w", err)
	case status == http.StatusUnauthorized:
		return user{}, errBadToken
	case status != http.StatusOK || u.ID == "":
		return user{}, fmt.Errorf("users/@me: HTTP %d", status)
	}
	return u, nil
}

// instance is a running Activity instance.
type instance struct {
	ID       string `json:"instance_id"`
	LaunchID string `json:"launch_id"`
	Location struct {
		Kind      string `json:"kind"`
		ChannelID string `json:"channel_id"`
		GuildID   string `json:"guild_id"`
	} `json:"location"`
	Users []string `json:"users"`
}

// instance describes a running instance of the app's Activity.
func (d *discord) instance(ctx context.Context, id string) (instance, error) {
	appID, err := d.application(ctx)
	if err != nil {
		return instance{}, err
	}
	var in instance
	status, err := d.botGet(ctx, "/applications/"+url.PathEscape(appID)+"/activity-instances/"+url.PathEscape(id),
		"GET /applications/{app}/activity-instances/{id}", &in)
	switch {
	case err != nil:
		return instance{}, fmt.Errorf("activity instance: %w", err)
	case status == http.StatusNotFound:
		return instance{}, errNoInstance
	case status != http.StatusOK || in.ID != id || in.Location.ChannelID == "":
		return instance{}, fmt.Errorf("activity instance: HTTP %d", status)
	}
	return in, nil
}

// botGet asks for path (of the route key route) with the bot's token,
// through the wing's client, and decodes a 200's JSON into out.
func (d *discord) botGet(ctx context.Context, path, route string, out any) (int, error) {
	status, body, err := d.bot.Get(ctx, path, route)
	switch {
	case err != nil:
		return 0, err
	case status == http.StatusTooManyRequests:
		return status, errRateLimited
	case status == http.StatusOK:
		if err := json.Unmarshal(body, out); err != nil {
			return 0, fmt.Errorf("decode: %w", err)
		}
	}
	return status, nil
}

// get asks for path (of the route key route) with the Authorization
// auth (a member's), and decodes a 200's JSON into out.
func (d *discord) get(ctx context.Context, path, route, auth string, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.api+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", auth)
	return d.do(req, route, out)
}

// do sends req, of the route key route, unless a 429 stops the route,
// and decodes a 200's JSON into out; its error never holds the URL.
func (d *discord) do(req *http.Request, route string, out any) (int, error) {
	if d.stoppedFor(route, time.Now()) > 0 {
		return http.StatusTooManyRequests, errRateLimited
	}
	req.Header.Set("User-Agent", "DiscordBot (mazebot arena, 1)")
	res, err := d.client.Do(req)
	if err != nil {
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err
		}
		return 0, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return 0, err
	}
	switch res.StatusCode {
	case http.StatusOK:
		if err := json.Unmarshal(body, out); err != nil {
			return 0, fmt.Errorf("decode: %w", err)
		}
	case http.StatusTooManyRequests:
		d.stop(route, req.Header.Get("Authorization"), res.Header, body, time.Now())
		return res.StatusCode, errRateLimited
	}
	return res.StatusCode, nil
}

// stoppedFor is how long a 429 still stops route (0: not stopped).
func (d *discord) stoppedFor(route string, now time.Time) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return max(d.limited[route].Sub(now), d.limited[globalLimit].Sub(now), 0)
}

// stop records a 429 of a request with the Authorization auth: the route
// waits for the body's retry_after, else the Retry-After header (a second
// at least). A global limit stops every route, unless it is a member's
// token's own (auth "Bearer …").
func (d *discord) stop(route, auth string, h http.Header, body []byte, now time.Time) {
	var limit struct {
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	_ = json.Unmarshal(body, &limit)
	wait := time.Duration(limit.RetryAfter * float64(time.Second))
	if secs, err := strconv.Atoi(h.Get("Retry-After")); wait <= 0 && err == nil {
		wait = time.Duration(secs) * time.Second
	}
	wait = min(max(wait, time.Second), time.Hour)
	if (limit.Global || h.Get("X-RateLimit-Global") == "true") && !strings.HasPrefix(auth, "Bearer ") {
		route = globalLimit
	}
	d.log.Warn("arena: Discord is rate limiting; waiting", "route", route, "retry_after", wait)
	d.mu.Lock()
	defer d.mu.Unlock()
	for r, until := range d.limited {
		if !now.Before(until) {
			delete(d.limited, r)
		}
	}
	d.limited[route] = now.Add(wait)
}
