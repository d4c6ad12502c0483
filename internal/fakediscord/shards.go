package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"
)

// DefaultIdentifyInterval is the identify rate limit's window: one IDENTIFY
// per rate-limit bucket (shard_id % max_concurrency) every 5 seconds
// (discord-api-docs, events/gateway: "Rate Limiting" and "Max Concurrency").
const DefaultIdentifyInterval = 5 * time.Second

// Sharding is how the gateway shards. Zero fields take the defaults: one
// recommended shard, max_concurrency 1, DefaultIdentifyInterval.
type Sharding struct {
	// Shards is the recommended shard count GET /gateway/bot returns.
	Shards int
	// MaxConcurrency is session_start_limit.max_concurrency: how many
	// rate-limit buckets IDENTIFYs are spread over.
	MaxConcurrency int
	// IdentifyInterval is how long a bucket stays busy after an IDENTIFY.
	IdentifyInterval time.Duration
	// EnforceIdentifyLimit answers an IDENTIFY that comes too soon after
	// another in its bucket the way Discord does, with op 9 INVALID_SESSION
	// (d false) and no session. Off by default: the end-to-end tests start
	// a bot many times a second, and would each wait out the 5 s. Either
	// way it is recorded (IdentifyViolations). discordgo v0.29.0 answers
	// op 9 with an immediate IDENTIFY, so it loops until the send limit
	// closes the connection (4008) and reconnects: a shard refused this way
	// gets its session after the interval, with a hundred or so violations
	// recorded a second.
	EnforceIdentifyLimit bool
	// RequiredShards, if set, is the fewest shards the bot may run: an
	// IDENTIFY with fewer is closed with 4011 "Sharding required", as
	// Discord does for a bot in too many guilds (2500 per shard) for that.
	RequiredShards int
	// RejectMixedShardCounts closes with 4010 "Invalid shard" an IDENTIFY
	// whose num_shards differs from that of a connected session. Discord
	// allows mixed counts (events/gateway, "Sharding": sessions "with
	// different num_shards values"), so this is off by default; it is a
	// check for tests that want every process of a bot to agree.
	RejectMixedShardCounts bool
}

func (sh Sharding) withDefaults() Sharding {
	if sh.Shards < 1 {
		sh.Shards = 1
	}
	if sh.MaxConcurrency < 1 {
		sh.MaxConcurrency = 1
	}
	if sh.IdentifyInterval <= 0 {
		sh.IdentifyInterval = DefaultIdentifyInterval
	}
	return sh
}

// SetSharding changes the sharding rules for later requests and IDENTIFYs
// (zero fields take the defaults; Reset restores Config.Sharding). Sessions
// already started keep their shard.
func (s *Server) SetSharding(sh Sharding) {
	g := s.gateway
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sharding = sh.withDefaults()
}

// resetSharding restores Config.Sharding (Reset).
func (g *gateway) resetSharding() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sharding = g.s.cfg.Sharding
}

// dailySessionStarts is session_start_limit.total for a bot below large-bot
// sharding.
const dailySessionStarts = 1000

func (g *gateway) getGateway(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"url": g.s.GatewayURL()})
}

func (g *gateway) getGatewayBot(w http.ResponseWriter, _ *http.Request) {
	g.mu.Lock()
	day := 24 * time.Hour
	body := map[string]any{
		"url":    g.s.GatewayURL(),
		"shards": g.sharding.Shards,
		"session_start_limit": map[string]any{
			"total":           dailySessionStarts,
			"remaining":       max(0, dailySessionStarts-g.identifies),
			"reset_after":     (day - time.Since(g.started)%day).Milliseconds(),
			"max_concurrency": g.sharding.MaxConcurrency,
		},
	}
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, body)
}

// IdentifyRecord is one IDENTIFY the gateway received.
type IdentifyRecord struct {
	Time         time.Time
	Shard, Count int // as sent; [0, 1] when the IDENTIFY had no shard
	Bucket       int // the rate-limit key: Shard % max_concurrency
	// TooSoon: it came less than the identify interval after an accepted
	// IDENTIFY in the same bucket, breaking Discord's identify rate limit.
	TooSoon bool
	// SessionID is the session it started; "" when refused.
	SessionID string
	// InvalidSession: refused with op 9 (the identify rate limit, enforced).
	InvalidSession bool
	// CloseCode: refused by closing the connection (4004, 4010, 4011).
	CloseCode int
}

func (c *gwConn) identifyLocked(raw json.RawMessage) {
	gw, s := c.g, c.g.s
	var d struct {
		Shard json.RawMessage `json:"shard"`
	}
	code, text := c.checkStartLocked(raw, &d)
	if code == closeAlreadyAuthed || code == closeDecodeError {
		c.closeLocked(code, text)
		return
	}
	now := time.Now()
	rec := IdentifyRecord{Time: now, Shard: 0, Count: 1}
	defer func() {
		gw.identifyLog = append(gw.identifyLog, rec)
		gw.changedLocked()
	}()
	refuse := func(code int, text string) {
		rec.CloseCode = code
		c.closeLocked(code, text)
	}
	if code != 0 {
		refuse(code, text) // a wrong token
		return
	}
	if !isNull(d.Shard) {
		var sh []int
		if json.Unmarshal(d.Shard, &sh) != nil || len(sh) != 2 {
			refuse(closeInvalidShard, "Invalid shard.")
			return
		}
		rec.Shard, rec.Count = sh[0], sh[1]
	}
	rec.Bucket = rec.Shard % gw.sharding.MaxConcurrency
	switch {
	case rec.Count < 1 || rec.Shard < 0 || rec.Shard >= rec.Count:
		refuse(closeInvalidShard, "Invalid shard.")
		return
	case rec.Count < gw.sharding.RequiredShards:
		refuse(closeShardingRequired, "Sharding required.")
		return
	case gw.sharding.RejectMixedShardCounts && gw.mixedCountLocked(rec.Count):
		refuse(closeInvalidShard, "Invalid shard.")
		return
	}
	if last, ok := gw.lastIdentify[rec.Bucket]; ok && now.Sub(last) < gw.sharding.IdentifyInterval {
		rec.TooSoon = true
		s.logf("gateway: shard %d IDENTIFY %v after the last in bucket %d", rec.Shard, now.Sub(last), rec.Bucket)
		if gw.sharding.EnforceIdentifyLimit {
			rec.InvalidSession = true
			c.sendJSON(map[string]any{"op": opInvalidSession, "d": false, "s": nil, "t": nil})
			return
		}
	}
	g := &gwSession{id: randomHex(16), shard: rec.Shard, count: rec.Count, started: now, conn: c}
	rec.SessionID = g.id
	gw.sessions[g.id] = g
	gw.lastIdentify[rec.Bucket] = now
	gw.identifies++
	c.authed, c.sess = true, g
	g.dispatchLocked("READY", map[string]any{
		"v":                  9,
		"user":               s.botUser(),
		"guilds":             []any{},
		"session_id":         g.id,
		"session_type":       "normal",
		"resume_gateway_url": s.GatewayURL(),
		"shard":              []int{g.shard, g.count},
		"application":        map[string]any{"id": s.cfg.AppID, "flags": 1 << 23},
		"private_channels":   []any{},
		"presences":          []any{},
		"relationships":      []any{},
		"user_settings":      map[string]any{},
		"_trace":             []string{"fakediscord"},
	})
	c.ready = true
	s.logf("gateway: shard [%d, %d] IDENTIFY -> READY (session %s)", g.shard, g.count, g.id)
}

// mixedCountLocked reports whether a connected session runs another count.
func (gw *gateway) mixedCountLocked(count int) bool {
	for _, g := range gw.sessions {
		if g.conn != nil && g.count != count {
			return true
		}
	}
	return false
}

// ShardOf is the shard that receives guildID's events among count shards:
// (guild_id >> 22) % num_shards. DMs (guildID "") and ids that are not
// snowflakes go to shard 0 (discord-api-docs, events/gateway, "Sharding
// Formula").
func ShardOf(guildID string, count int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || count < 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// routeLocked returns the ready session that receives guildID's events
// ("" for a DM), or nil. Each session owns the guilds of its shard under
// its own num_shards; when several ready sessions do, the newest wins (the
// handover Discord's docs describe for zero-downtime resharding).
func (gw *gateway) routeLocked(guildID string) *gwSession {
	var best *gwSession
	for _, g := range gw.sessions {
		if !g.readyLocked(false) || ShardOf(guildID, g.count) != g.shard {
			continue
		}
		if best == nil || g.started.After(best.started) || (g.started.Equal(best.started) && g.id > best.id) {
			best = g
		}
	}
	return best
}

// canDeliver reports whether a ready session would take an interaction in
// guildID ("" for a DM) now.
func (gw *gateway) canDeliver(guildID string) bool {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	return gw.routeLocked(guildID) != nil
}

// dispatchInteraction sends INTERACTION_CREATE with payload to the ready
// session whose shard owns guildID; ok is false when there is none.
func (gw *gateway) dispatchInteraction(guildID string, payload json.RawMessage) (shard int, sessionID string, ok bool) {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	g := gw.routeLocked(guildID)
	if g == nil {
		return 0, "", false
	}
	g.dispatchLocked("INTERACTION_CREATE", payload)
	return g.shard, g.id, true
}

// expectedCountLocked is the shard count the bot runs: that of the newest
// session, or the recommended count before any.
func (gw *gateway) expectedCountLocked() int {
	var newest *gwSession
	for _, g := range gw.sessions {
		if newest == nil || g.started.After(newest.started) {
			newest = g
		}
	}
	if newest == nil {
		return gw.sharding.Shards
	}
	return newest.count
}

// allReadyLocked reports whether every shard of the expected count has a
// ready session (that sent a heartbeat since, with beat).
func (gw *gateway) allReadyLocked(beat bool) bool {
	count := gw.expectedCountLocked()
	for id := range count {
		if !gw.shardReadyLocked(id, count, beat) {
			return false
		}
	}
	return true
}

// shardReadyLocked reports whether shard id has a ready session; count < 1
// accepts any count.
func (gw *gateway) shardReadyLocked(id, count int, beat bool) bool {
	for _, g := range gw.sessions {
		if g.shard == id && (count < 1 || g.count == count) && g.readyLocked(beat) {
			return true
		}
	}
	return false
}

// ready reports what WaitReady waits for (with beat) or Connected tells.
func (gw *gateway) ready(beat bool) bool {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	return gw.allReadyLocked(beat)
}

// WaitReady waits until every shard the bot runs (the num_shards of its
// newest session; before any, the recommended count, 1 by default) has a
// connection that IDENTIFYed or RESUMEd, received READY or RESUMED, and
// sent a heartbeat after it. discordgo sends its first heartbeat as soon as
// Open has processed READY/RESUMED, so the session is then settled:
// dropping the connection earlier can make discordgo v0.29.0 reconnect twice
// (its heartbeat goroutine fails on the closing socket and reconnects as
// well).
func (s *Server) WaitReady(ctx context.Context) error {
	return s.await(ctx, topicGateway, func() (bool, error) { return s.gateway.ready(true), nil })
}

// WaitShardReady is WaitReady for one shard id (of any count).
func (s *Server) WaitShardReady(ctx context.Context, id int) error {
	gw := s.gateway
	return s.await(ctx, topicGateway, func() (bool, error) {
		gw.mu.Lock()
		defer gw.mu.Unlock()
		return gw.shardReadyLocked(id, 0, true), nil
	})
}

// Connected reports whether every shard the bot runs (as in WaitReady) has
// a ready connection.
func (s *Server) Connected() bool { return s.gateway.ready(false) }

// Identifies counts accepted IDENTIFYs (new sessions), all shards together.
func (s *Server) Identifies() int {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	return gw.identifies
}

// Resumes counts accepted RESUMEs, all shards together.
func (s *Server) Resumes() int {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	return gw.resumes
}

// SessionID is the id of shard 0's newest gateway session ("" before the
// first READY and after InvalidateSession). Without sharding that is the
// bot's only session.
func (s *Server) SessionID() string {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	if g := gw.newestLocked(0); g != nil {
		return g.id
	}
	return ""
}

// newestLocked returns shard id's newest session, or nil.
func (gw *gateway) newestLocked(id int) *gwSession {
	var newest *gwSession
	for _, g := range gw.sessions {
		if g.shard == id && (newest == nil || g.started.After(newest.started)) {
			newest = g
		}
	}
	return newest
}

// IdentifyLog lists every IDENTIFY, accepted or refused, oldest first (kept
// across Reset, like Identifies).
func (s *Server) IdentifyLog() []IdentifyRecord {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	return append([]IdentifyRecord(nil), gw.identifyLog...)
}

// IdentifyViolations lists the IDENTIFYs that broke the identify rate limit
// (TooSoon), whether or not it was enforced.
func (s *Server) IdentifyViolations() []IdentifyRecord {
	var out []IdentifyRecord
	for _, r := range s.IdentifyLog() {
		if r.TooSoon {
			out = append(out, r)
		}
	}
	return out
}

// SessionInfo describes a live gateway session: one that can still be
// resumed.
type SessionInfo struct {
	ID           string
	Shard, Count int
	Started      time.Time
	Connected    bool  // a connection received READY or RESUMED and serves it
	Seq          int64 // the last sequence number dispatched
	Resumes      int
}

// Sessions lists the live sessions by shard, then start.
func (s *Server) Sessions() []SessionInfo {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	return gw.sessionsLocked(func(*gwSession) bool { return true })
}

func (gw *gateway) sessionsLocked(pick func(*gwSession) bool) []SessionInfo {
	var out []SessionInfo
	for _, g := range gw.sessions {
		if pick(g) {
			out = append(out, SessionInfo{ID: g.id, Shard: g.shard, Count: g.count, Started: g.started,
				Connected: g.readyLocked(false), Seq: g.seq, Resumes: g.resumes})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Shard != out[j].Shard {
			return out[i].Shard < out[j].Shard
		}
		return out[i].Started.Before(out[j].Started)
	})
	return out
}

// ShardInfo is what a test can see of one shard id.
type ShardInfo struct {
	ID         int
	Connected  bool // one of its sessions has a ready connection
	Identifies int  // accepted IDENTIFYs for this shard id
	Resumes    int
	Sessions   []SessionInfo // its live sessions, oldest first
}

// Shard reports on shard id (of any count).
func (s *Server) Shard(id int) ShardInfo {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	info := ShardInfo{ID: id, Resumes: gw.shardResumes[id]}
	info.Sessions = gw.sessionsLocked(func(g *gwSession) bool { return g.shard == id })
	for _, g := range info.Sessions {
		info.Connected = info.Connected || g.Connected
	}
	for _, r := range gw.identifyLog {
		if r.Shard == id && r.SessionID != "" {
			info.Identifies++
		}
	}
	return info
}

// detachLocked takes the connections away from the sessions pick selects
// (nil: all) and returns them; dispatches for those sessions go to their
// RESUME backlog until a client resumes.
func (gw *gateway) detachLocked(pick func(*gwSession) bool) []*gwConn {
	var out []*gwConn
	for _, g := range gw.sessions {
		if g.conn != nil && (pick == nil || pick(g)) {
			out = append(out, g.conn)
			g.conn = nil
		}
	}
	gw.changedLocked()
	return out
}

func (gw *gateway) dropSessions(pick func(*gwSession) bool, invalidate bool) {
	gw.mu.Lock()
	conns := gw.detachLocked(pick)
	if invalidate {
		for id, g := range gw.sessions {
			if pick == nil || pick(g) {
				delete(gw.sessions, id)
			}
		}
	}
	gw.mu.Unlock()
	for _, c := range conns {
		gw.s.logf("gateway: dropping %s", c.remote)
		c.kill()
	}
}

// DropGateway closes every session's websocket abruptly, without a close
// frame, like a network drop. discordgo then reconnects and RESUMEs;
// WaitReady waits for that.
func (s *Server) DropGateway() { s.gateway.dropSessions(nil, false) }

// DropShard is DropGateway for the sessions of shard id.
func (s *Server) DropShard(id int) {
	s.gateway.dropSessions(func(g *gwSession) bool { return g.shard == id }, false)
}

// InvalidateSession forgets every gateway session and drops the
// connections, so the client's RESUME gets op 9 INVALID_SESSION and it must
// IDENTIFY again.
func (s *Server) InvalidateSession() { s.gateway.dropSessions(nil, true) }

// InvalidateShard is InvalidateSession for the sessions of shard id.
func (s *Server) InvalidateShard(id int) {
	s.gateway.dropSessions(func(g *gwSession) bool { return g.shard == id }, true)
}

// RequestReconnect sends op 7 RECONNECT on every session's connection; the
// client should close it and RESUME on a new one. Until it does, WaitReady
// waits and dispatches only go to the RESUME backlog.
func (s *Server) RequestReconnect() {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	for _, c := range gw.detachLocked(nil) {
		c.sendJSON(map[string]any{"op": opReconnect, "d": nil, "s": nil, "t": nil})
	}
}

// ErrNoSession is returned when no gateway session serves the shard asked
// for.
var ErrNoSession = errors.New("fakediscord: no gateway session for the shard")

// SendDispatch sends an op 0 dispatch of event with data exactly as given
// (null, wrong-typed fields, an event the client does not know) to shard
// id's newest session, to test a client's robustness. It takes the next
// sequence number and is replayed on RESUME; while the session has no
// connection it only goes to the backlog. nil data is sent as null.
func (s *Server) SendDispatch(id int, event string, data json.RawMessage) (seq int64, err error) {
	if data == nil {
		data = json.RawMessage("null")
	}
	if !json.Valid(data) {
		return 0, fmt.Errorf("fakediscord: SendDispatch: data is not JSON (use SendRawFrame)")
	}
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	g := gw.newestLocked(id)
	if g == nil {
		return 0, ErrNoSession
	}
	seq = g.dispatchLocked(event, data)
	s.logf("gateway: shard %d raw dispatch %s seq %d", id, event, seq)
	return seq, nil
}

// SendRawFrame writes frame as one text message on the connection of shard
// id's newest session, byte for byte: no sequence number, no backlog. Use it
// for frames SendDispatch cannot express (not JSON, a missing op).
func (s *Server) SendRawFrame(id int, frame []byte) error {
	gw := s.gateway
	gw.mu.Lock()
	defer gw.mu.Unlock()
	g := gw.newestLocked(id)
	if g == nil || g.conn == nil {
		return ErrNoSession
	}
	g.conn.enqueue(outFrame{data: append([]byte(nil), frame...)})
	return nil
}
