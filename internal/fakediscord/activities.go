package fakediscord

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Activities, as Discord documents them (activities/*, topics/oauth2):
//
//   - OAuth2's authorization-code grant: the member authorizes the app in
//     Discord's client (Authorize, which the SDK's AUTHORIZE command stands
//     for) and gets a code; the app's server exchanges it at POST
//     /oauth2/token (form: client_id, client_secret, grant_type, code) for
//     an access token, once; GET /users/@me with "Authorization: Bearer
//     <token>" tells whose token it is.
//   - Activity instances: a LAUNCH_ACTIVITY callback (type 12) starts the
//     app's Activity in the interaction's channel, or puts the member in
//     the one running there; GET /applications/{app}/activity-instances/{id}
//     (bot token) describes a running instance, 404 once everyone left.
//   - Where: in a server's channel (location kind "gc"), and in a DM or
//     group DM (kind "pc", no guild) only through the member's own install
//     of the app (USER_INSTALL in authorizing_integration_owners); a
//     launch there through a server's install alone is refused.

// DefaultClientSecret is the OAuth2 client secret of the fake's
// application: a secret the bot must never log or show.
const DefaultClientSecret = "fake-client-secret-5b2e9c71d04a"

// accessTokenLifetime is Discord's expires_in of an access token (7 days).
const accessTokenLifetime = 7 * 24 * time.Hour

// activityStore is OAuth2's grants and the running Activity instances.
// Its lock is a leaf.
type activityStore struct {
	s *Server

	mu        sync.Mutex
	enabled   bool                 // the app has Activities (EnableActivities)
	codes     map[string]*grant    // authorization code → grant
	tokens    map[string]*grant    // access token → grant
	instances map[string]*Instance // by id, running ones only
	byChannel map[string]string    // channel → its running instance
	names     map[string]string    // user → the name they acted with
	issued    []string             // every code and token, across Reset
	launches  int
}

// grant is one authorization of the app by a member.
type grant struct {
	userID  string
	scopes  []string
	used    bool // a code is good once
	expires time.Time
}

// Instance is a running Activity instance: where it runs and who is in it.
type Instance struct {
	ID        string
	LaunchID  string
	GuildID   string // "" in a DM or group DM
	ChannelID string
	Users     []string // in the order they joined
}

func (a *activityStore) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.enabled = false
	a.codes, a.tokens = map[string]*grant{}, map[string]*grant{}
	a.instances, a.byChannel = map[string]*Instance{}, map[string]string{}
	a.names = map[string]string{}
	a.launches = 0
}

// EnableActivities turns the app's Activities on, as the developer
// portal does: it creates the default Entry Point command, "launch" (type
// 4, handler 2 DISCORD_LAUNCH_ACTIVITY), among the global commands, and
// lets interactions be answered with LAUNCH_ACTIVITY. Reset turns them off.
func (s *Server) EnableActivities() {
	s.activities.mu.Lock()
	s.activities.enabled = true
	s.activities.mu.Unlock()
	s.commands.seedEntryPoint()
}

// DisableActivities turns the app's Activities off again, as the
// developer portal does: LAUNCH_ACTIVITY is then refused. Its Entry Point
// command stays, as a bot's sync keeps it.
func (s *Server) DisableActivities() {
	s.activities.mu.Lock()
	s.activities.enabled = false
	s.activities.mu.Unlock()
}

// Authorize is a member authorizing the app for scopes in Discord's client
// (the OAuth2 consent the SDK's authorize command opens): it returns the
// authorization code the SDK hands the Activity.
func (s *Server) Authorize(userID string, scopes ...string) string {
	a := s.activities
	code := randomHex(15)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.codes[code] = &grant{userID: userID, scopes: slices.Clone(scopes), expires: time.Now().Add(10 * time.Minute)}
	a.issued = append(a.issued, code)
	return code
}

// OAuthSecrets lists what the fake's OAuth2 side holds secret: the client
// secret, and every code and access token issued since New.
func (s *Server) OAuthSecrets() []string {
	a := s.activities
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string{s.cfg.ClientSecret}, a.issued...)
}

// Instance returns the running instance id (nil when none runs).
func (s *Server) Instance(id string) *Instance {
	a := s.activities
	a.mu.Lock()
	defer a.mu.Unlock()
	if in := a.instances[id]; in != nil {
		cp := *in
		cp.Users = slices.Clone(in.Users)
		return &cp
	}
	return nil
}

// InstanceIn returns the instance running in a channel (nil when none).
func (s *Server) InstanceIn(channelID string) *Instance {
	a := s.activities
	a.mu.Lock()
	id := a.byChannel[channelID]
	a.mu.Unlock()
	return s.Instance(id)
}

// Launches counts the LAUNCH_ACTIVITY callbacks taken since New or Reset.
func (s *Server) Launches() int {
	s.activities.mu.Lock()
	defer s.activities.mu.Unlock()
	return s.activities.launches
}

// JoinActivity puts a member in the instance running in a channel, as
// clicking the Activity's "Join" in Discord does; it returns the
// instance, or nil when none runs there.
func (s *Server) JoinActivity(channelID, userID, username string) *Instance {
	a := s.activities
	a.mu.Lock()
	in := a.instances[a.byChannel[channelID]]
	if in != nil && !slices.Contains(in.Users, userID) {
		in.Users = append(in.Users, userID)
	}
	if username != "" {
		a.names[userID] = username
	}
	a.mu.Unlock()
	if in == nil {
		return nil
	}
	return s.Instance(in.ID)
}

// LeaveActivity takes a member out of an instance, as closing the
// Activity does; the instance ends when its last member leaves.
func (s *Server) LeaveActivity(instanceID, userID string) {
	a := s.activities
	a.mu.Lock()
	defer a.mu.Unlock()
	in := a.instances[instanceID]
	if in == nil {
		return
	}
	in.Users = slices.DeleteFunc(in.Users, func(u string) bool { return u == userID })
	if len(in.Users) == 0 {
		delete(a.instances, instanceID)
		delete(a.byChannel, in.ChannelID)
	}
}

// launch starts the Activity in ix's channel for its member, or puts them
// in the instance running there. ix.mu is held; this lock is a leaf.
func (a *activityStore) launch(ix *Interaction) (*Instance, *apiError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.enabled {
		return nil, withDetail(errInvalidRespType, "the application has no Activity (LAUNCH_ACTIVITY needs Activities enabled)")
	}
	// Outside a server an Activity runs only for an app the member
	// installed to their account (activities/building-an-activity:
	// "User Install" is what lets it launch in DMs and group DMs;
	// resources/application: an app installed only to servers cannot be
	// used in a user's DMs). Discord documents no error code for it.
	if ix.GuildID == "" && ix.owners["1"] == "" {
		return nil, withDetail(errInvalidRespType, "LAUNCH_ACTIVITY in a DM or group DM needs the app installed to the member (user install)")
	}
	a.launches++
	if name, _ := ix.user["username"].(string); name != "" {
		a.names[ix.UserID] = name
	}
	in := a.instances[a.byChannel[ix.ChannelID]]
	if in == nil {
		where := "-gc-" + ix.GuildID + "-" // as Discord's: i-{launch}-gc-{guild}-{channel}, i-{launch}-pc-{channel}
		if ix.GuildID == "" {
			where = "-pc-"
		}
		in = &Instance{ID: "i-" + a.s.ids.next() + where + ix.ChannelID, LaunchID: a.s.ids.next(),
			GuildID: ix.GuildID, ChannelID: ix.ChannelID}
		a.instances[in.ID], a.byChannel[ix.ChannelID] = in, in.ID
	}
	if !slices.Contains(in.Users, ix.UserID) {
		in.Users = append(in.Users, ix.UserID)
	}
	cp := *in
	cp.Users = slices.Clone(in.Users)
	return &cp, nil
}

// oauthError answers as Discord's OAuth2 endpoints do: {"error": …,
// "error_description": …}, not the REST API's {"code", "message"}.
func (s *Server) oauthError(w http.ResponseWriter, r *http.Request, status int, code, description string) {
	s.rest.recordError(RESTError{Method: r.Method, Path: r.URL.Path, Status: status, Message: code, Detail: description})
	s.logf("REST %s %s -> %d %s", r.Method, r.URL.Path, status, code)
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}

// postToken exchanges an authorization code for an access token.
func (a *activityStore) postToken(w http.ResponseWriter, r *http.Request) {
	s := a.s
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); strings.TrimSpace(ct) != "application/x-www-form-urlencoded" {
		s.oauthError(w, r, http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.oauthError(w, r, http.StatusBadRequest, "invalid_request", "unreadable form")
		return
	}
	id, secret := r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	if u, p, ok := r.BasicAuth(); ok {
		id, secret = u, p
	}
	if id != s.cfg.AppID || subtle.ConstantTimeCompare([]byte(secret), []byte(s.cfg.ClientSecret)) != 1 {
		s.oauthError(w, r, http.StatusUnauthorized, "invalid_client", "")
		return
	}
	if gt := r.PostForm.Get("grant_type"); gt != "authorization_code" {
		s.oauthError(w, r, http.StatusBadRequest, "unsupported_grant_type", "Unsupported grant type")
		return
	}
	code := r.PostForm.Get("code")
	a.mu.Lock()
	g := a.codes[code]
	if g == nil || g.used || time.Now().After(g.expires) {
		a.mu.Unlock()
		s.oauthError(w, r, http.StatusBadRequest, "invalid_grant", `Invalid "code" in request.`)
		return
	}
	g.used = true
	token, refresh := randomHex(15), randomHex(15)
	a.tokens[token] = &grant{userID: g.userID, scopes: g.scopes, expires: time.Now().Add(accessTokenLifetime)}
	a.issued = append(a.issued, token, refresh)
	scope := strings.Join(g.scopes, " ")
	a.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": token, "token_type": "Bearer", "expires_in": int(accessTokenLifetime / time.Second),
		"refresh_token": refresh, "scope": scope,
	})
}

// bearer is the grant of a request's "Authorization: Bearer <token>", or
// nil.
func (a *activityStore) bearer(r *http.Request) *grant {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	g := a.tokens[token]
	if g == nil || time.Now().After(g.expires) {
		return nil
	}
	return g
}

// me answers GET /users/@me for a bearer token: the user who authorized
// it (with the identify scope).
func (a *activityStore) me(w http.ResponseWriter, r *http.Request, g *grant) {
	if !slices.Contains(g.scopes, "identify") {
		a.s.fail(w, r, errUnauthorized, nil)
		return
	}
	a.mu.Lock()
	name := a.names[g.userID]
	a.mu.Unlock()
	if name == "" {
		name = "user" + g.userID
	}
	u := userObject(g.userID, name)
	u["locale"], u["mfa_enabled"], u["flags"], u["premium_type"] = DefaultLocale, false, 0, 0
	writeJSON(w, http.StatusOK, u)
}

// getInstance answers GET /applications/{app}/activity-instances/{id}.
func (a *activityStore) getInstance(w http.ResponseWriter, r *http.Request) {
	in := a.s.Instance(r.PathValue("instance"))
	if in == nil {
		a.s.fail(w, r, withDetail(errNotFound, "no running instance "+r.PathValue("instance")), nil)
		return
	}
	kind := "gc"
	if in.GuildID == "" {
		kind = "pc"
	}
	location := map[string]any{"id": kind + "-" + in.ChannelID, "kind": kind, "channel_id": in.ChannelID}
	if in.GuildID != "" {
		location["guild_id"] = in.GuildID
	}
	b, _ := json.Marshal(map[string]any{
		"application_id": a.s.cfg.AppID, "instance_id": in.ID, "launch_id": in.LaunchID,
		"location": location, "users": in.Users,
	})
	writeRaw(w, http.StatusOK, b)
}
