package fakediscord_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// gwFrame is a gateway payload as a client reads it.
type gwFrame struct {
	Op int             `json:"op"`
	S  int64           `json:"s"`
	T  string          `json:"t"`
	D  json.RawMessage `json:"d"`
}

// rawClient speaks the gateway protocol by hand, like one process of a bot
// running one shard.
type rawClient struct {
	t  *testing.T
	ws *websocket.Conn
}

// dialGateway connects to srv's gateway and reads HELLO.
func dialGateway(t *testing.T, srv *discord) *rawClient {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=9&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	c := &rawClient{t: t, ws: ws}
	if f := c.read(); f.Op != opHello {
		t.Fatalf("first frame op %d, want HELLO", f.Op)
	}
	return c
}

func (c *rawClient) send(op int, d any) {
	c.t.Helper()
	if err := c.ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		c.t.Fatal(err)
	}
}

// readMessage reads the next frame's bytes (the error ends the connection).
func (c *rawClient) readMessage() ([]byte, error) {
	_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, b, err := c.ws.ReadMessage()
	return b, err
}

func (c *rawClient) read() gwFrame {
	c.t.Helper()
	b, err := c.readMessage()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var f gwFrame
	if err := json.Unmarshal(b, &f); err != nil {
		c.t.Fatalf("frame %s: %v", b, err)
	}
	return f
}

// identify sends IDENTIFY (with shard unless it is nil) and returns the
// answer: READY, or op 9.
func (c *rawClient) identify(shard []int) gwFrame {
	c.t.Helper()
	d := map[string]any{"token": testToken, "intents": 0, "properties": map[string]string{}}
	if shard != nil {
		d["shard"] = shard
	}
	c.send(opIdentify, d)
	return c.read()
}

// ready identifies and heartbeats, failing unless READY comes; it returns
// the session id.
func (c *rawClient) ready(shard []int) string {
	c.t.Helper()
	f := c.identify(shard)
	var r struct {
		SessionID string `json:"session_id"`
		Shard     []int  `json:"shard"`
	}
	if err := json.Unmarshal(f.D, &r); err != nil || f.T != "READY" {
		c.t.Fatalf("IDENTIFY %v: %+v %s, want READY", shard, f, f.D)
	}
	c.send(opHeartbeat, f.S)
	if ack := c.read(); ack.Op != opHeartbeatACK {
		c.t.Fatalf("heartbeat answered %+v", ack)
	}
	return r.SessionID
}

// closeCode reads until the server closes and returns the close code.
func (c *rawClient) closeCode() int {
	c.t.Helper()
	for {
		_, err := c.readMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		if err != nil {
			c.t.Fatalf("read: %v, want a close frame", err)
		}
	}
}

// guildOnShard returns a guild id whose events go to shard of count.
func guildOnShard(t *testing.T, shard, count int) string {
	t.Helper()
	for n := uint64(1); ; n++ {
		id := strconv.FormatUint(n<<22|1, 10)
		if fakediscord.ShardOf(id, count) == shard {
			return id
		}
	}
}

func testServer(t *testing.T, sh fakediscord.Sharding) (*discord, context.Context) {
	t.Helper()
	srv := newDiscord(t, fakediscord.Config{Token: testToken, Sharding: sh})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return srv, ctx
}

func TestGatewayBot(t *testing.T) {
	t.Parallel()
	_, fake, sess := setup(t)
	fake.SetSharding(fakediscord.Sharding{Shards: 4, MaxConcurrency: 2})
	gb, err := sess.GatewayBot()
	if err != nil {
		t.Fatal(err)
	}
	if gb.Shards != 4 || gb.SessionStartLimit.MaxConcurrency != 2 || gb.SessionStartLimit.Total != 1000 ||
		gb.SessionStartLimit.Remaining != 1000-fake.Identifies() || gb.SessionStartLimit.ResetAfter <= 0 {
		t.Errorf("GET /gateway/bot = %+v %+v", gb, gb.SessionStartLimit)
	}
	fake.Reset()
	if gb, err := sess.GatewayBot(); err != nil || gb.Shards != 1 || gb.SessionStartLimit.MaxConcurrency != 1 {
		t.Errorf("after Reset: %v %+v, want the defaults 1 and 1", err, gb)
	}
}

func TestShardRouting(t *testing.T) {
	t.Parallel()
	srv, ctx := testServer(t, fakediscord.Sharding{Shards: 2})
	shard0, shard1 := dialGateway(t, srv), dialGateway(t, srv)
	shard0.ready([]int{0, 2})
	if srv.Connected() {
		t.Error("Connected with one of two shards")
	}
	sid1 := shard1.ready([]int{1, 2})
	if err := srv.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	g0, g1 := guildOnShard(t, 0, 2), guildOnShard(t, 1, 2)

	// expect sends an interaction and checks which shard got it: each
	// connection's next frame must be the interaction sent to it.
	expect := func(c *rawClient, want int, spec member.SlashSpec) {
		t.Helper()
		ix := srv.slash(t, ctx, spec)
		if ix.Shard != want {
			t.Errorf("guild %q went to shard %d, want %d", spec.GuildID, ix.Shard, want)
		}
		f := c.read()
		var p struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(f.D, &p); err != nil || f.T != "INTERACTION_CREATE" || p.ID != ix.ID {
			t.Errorf("shard %d read %+v, want interaction %s", want, f, ix.ID)
		}
	}
	expect(shard1, 1, member.SlashSpec{Name: "a", GuildID: g1})
	expect(shard0, 0, member.SlashSpec{Name: "b", GuildID: g0})
	expect(shard0, 0, member.SlashSpec{Name: "c", DM: true, ChannelID: "990"})
	expect(shard1, 1, member.SlashSpec{Name: "d", GuildID: g1})

	// While shard 1 is down its guild's interactions wait; shard 0's do not.
	srv.DropShard(1)
	if info := srv.Shard(1); info.Connected || len(info.Sessions) != 1 || !srv.Shard(0).Connected {
		t.Errorf("after DropShard(1): shard 1 %+v, shard 0 connected %v", info, srv.Shard(0).Connected)
	}
	expect(shard0, 0, member.SlashSpec{Name: "e", GuildID: g0})
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := srv.SlashCommand(short, member.SlashSpec{Name: "f", GuildID: g1}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("interaction for a disconnected shard: %v, want it to wait", err)
	}
	// Shard 1 resumes its own session on a new connection; shard 0's
	// session is untouched.
	seq0 := srv.Shard(0).Sessions[0].Seq
	again := dialGateway(t, srv)
	again.send(opResume, map[string]any{"token": testToken, "session_id": sid1, "seq": srv.Shard(1).Sessions[0].Seq})
	if f := again.read(); f.T != "RESUMED" {
		t.Fatalf("RESUME of shard 1: %+v", f)
	}
	expect(again, 1, member.SlashSpec{Name: "g", GuildID: g1})
	if info := srv.Shard(1); info.Resumes != 1 || info.Identifies != 1 || !info.Connected {
		t.Errorf("shard 1 = %+v", info)
	}
	if got := srv.Shard(0).Sessions[0].Seq; got != seq0 {
		t.Errorf("shard 0 seq %d → %d: shard 1's resume touched it", seq0, got)
	}
}

func TestIdentifyRateLimit(t *testing.T) {
	t.Parallel()
	t.Run("ErrSameBucketTooSoon", func(t *testing.T) {
		t.Parallel()
		srv, _ := testServer(t, fakediscord.Sharding{Shards: 2, EnforceIdentifyLimit: true})
		dialGateway(t, srv).ready([]int{0, 2})
		// Shard 1 shares bucket 0 (1 % max_concurrency 1) and comes within
		// the 5 s: Discord answers op 9 and starts no session.
		f := dialGateway(t, srv).identify([]int{1, 2})
		if f.Op != opInvalidSession || string(f.D) != "false" {
			t.Fatalf("second IDENTIFY in the bucket: %+v, want op 9 false", f)
		}
		v := srv.IdentifyViolations()
		if len(v) != 1 || v[0].Shard != 1 || v[0].Bucket != 0 || !v[0].InvalidSession || v[0].SessionID != "" {
			t.Errorf("violations=%+v", v)
		}
		if info := srv.Shard(1); info.Identifies != 0 || len(info.Sessions) != 0 {
			t.Errorf("shard 1 = %+v, want no session", info)
		}
	})

	t.Run("OKDifferentBuckets", func(t *testing.T) {
		t.Parallel()
		srv, ctx := testServer(t, fakediscord.Sharding{Shards: 2, MaxConcurrency: 2, EnforceIdentifyLimit: true})
		dialGateway(t, srv).ready([]int{0, 2})
		dialGateway(t, srv).ready([]int{1, 2})
		if err := srv.WaitReady(ctx); err != nil {
			t.Fatal(err)
		}
		if v := srv.IdentifyViolations(); len(v) != 0 {
			t.Errorf("violations=%+v, want none with max_concurrency 2", v)
		}
		if log := srv.IdentifyLog(); len(log) != 2 || log[0].Bucket != 0 || log[1].Bucket != 1 {
			t.Errorf("log=%+v", log)
		}
	})

	t.Run("OKRecordedNotEnforcedByDefault", func(t *testing.T) {
		t.Parallel()
		srv, _ := testServer(t, fakediscord.Sharding{})
		dialGateway(t, srv).ready(nil)
		dialGateway(t, srv).ready(nil) // a restarted bot, a second later
		v := srv.IdentifyViolations()
		if len(v) != 1 || v[0].SessionID == "" || v[0].InvalidSession {
			t.Errorf("violations=%+v, want one recorded, accepted", v)
		}
	})

	t.Run("OKAfterTheInterval", func(t *testing.T) {
		t.Parallel()
		const interval = 200 * time.Millisecond
		srv, _ := testServer(t, fakediscord.Sharding{Shards: 2, IdentifyInterval: interval, EnforceIdentifyLimit: true})
		dialGateway(t, srv).ready([]int{0, 2})
		c := dialGateway(t, srv)
		if f := c.identify([]int{1, 2}); f.Op != opInvalidSession {
			t.Fatalf("IDENTIFY within the interval: %+v", f)
		}
		// The limit is about time passing, so wait for it to pass.
		time.Sleep(time.Until(srv.IdentifyLog()[0].Time.Add(interval)))
		c.ready([]int{1, 2})
	})
}

func TestIdentifyShardChecks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		sh    fakediscord.Sharding
		first []int // identified (and kept connected) before
		shard any
		code  int
	}{
		{"ErrShardNotBelowCount", fakediscord.Sharding{}, nil, []int{2, 2}, closeInvalidShard},
		{"ErrZeroShards", fakediscord.Sharding{}, nil, []int{0, 0}, closeInvalidShard},
		{"ErrNegativeShard", fakediscord.Sharding{}, nil, []int{-1, 2}, closeInvalidShard},
		{"ErrOneNumber", fakediscord.Sharding{}, nil, []int{1}, closeInvalidShard},
		{"ErrNotNumbers", fakediscord.Sharding{}, nil, []string{"0", "2"}, closeInvalidShard},
		{"ErrShardingRequired", fakediscord.Sharding{RequiredShards: 2}, nil, nil, closeShardingRequired},
		{"ErrMixedCountsWhenRejected", fakediscord.Sharding{Shards: 2, MaxConcurrency: 4, RejectMixedShardCounts: true}, []int{0, 2}, []int{1, 3}, closeInvalidShard},
		{"OKMixedCountsAsDiscordAllows", fakediscord.Sharding{Shards: 2, MaxConcurrency: 4}, []int{0, 2}, []int{1, 3}, 0},
		{"OKNoShardIsZeroOfOne", fakediscord.Sharding{}, nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := testServer(t, tt.sh)
			if tt.first != nil {
				dialGateway(t, srv).ready(tt.first)
			}
			c := dialGateway(t, srv)
			d := map[string]any{"token": testToken}
			if tt.shard != nil {
				d["shard"] = tt.shard
			}
			c.send(opIdentify, d)
			if tt.code != 0 {
				if got := c.closeCode(); got != tt.code {
					t.Errorf("close code %d, want %d", got, tt.code)
				}
				if log := srv.IdentifyLog(); log[len(log)-1].CloseCode != tt.code {
					t.Errorf("log=%+v", log)
				}
				return
			}
			if f := c.read(); f.T != "READY" {
				t.Fatalf("answer %+v, want READY", f)
			}
			want := []int{0, 1}
			if tt.shard != nil {
				want = tt.shard.([]int)
			}
			var last fakediscord.SessionInfo
			for _, g := range srv.Sessions() {
				if g.Started.After(last.Started) {
					last = g
				}
			}
			if last.Shard != want[0] || last.Count != want[1] {
				t.Errorf("session %+v, want shard %v", last, want)
			}
		})
	}
}

func TestGatewaySendLimit(t *testing.T) {
	t.Parallel()
	srv, _ := testServer(t, fakediscord.Sharding{})
	c := dialGateway(t, srv)
	c.ready(nil)
	for range sendLimit + 1 {
		c.send(opPresenceUpdate, map[string]any{"status": "online", "afk": false, "activities": []any{}})
	}
	if got := c.closeCode(); got != closeRateLimited {
		t.Errorf("after %d payloads: close %d, want %d", sendLimit+1, got, closeRateLimited)
	}
}

func TestRawDispatch(t *testing.T) {
	t.Parallel()
	srv, _ := testServer(t, fakediscord.Sharding{})
	c := dialGateway(t, srv)
	sid := c.ready(nil)
	for _, tt := range []struct{ event, data string }{
		{"INTERACTION_CREATE", "null"},
		{"INTERACTION_CREATE", `{"id":5,"type":"two","data":[],"member":"nobody"}`},
		{"NOT_AN_EVENT", `{"x":1}`},
	} {
		seq, err := srv.SendDispatch(0, tt.event, json.RawMessage(tt.data))
		if err != nil {
			t.Fatal(err)
		}
		f := c.read()
		if f.Op != opDispatch || f.S != seq || f.T != tt.event || string(f.D) != tt.data {
			t.Errorf("read %+v %s, want %s seq %d with d %s", f, f.D, tt.event, seq, tt.data)
		}
	}
	if err := srv.SendRawFrame(0, []byte("not json {")); err != nil {
		t.Fatal(err)
	}
	if b, err := c.readMessage(); err != nil || string(b) != "not json {" {
		t.Errorf("raw frame %q %v", b, err)
	}
	if _, err := srv.SendDispatch(1, "X", nil); !errors.Is(err, fakediscord.ErrNoSession) {
		t.Errorf("dispatch to a shard without a session: %v", err)
	}
	if _, err := srv.SendDispatch(0, "X", json.RawMessage("{")); err == nil {
		t.Error("SendDispatch sent data that is not JSON")
	}
	// A raw dispatch is part of the session: a RESUME replays it.
	srv.DropGateway()
	seq, err := srv.SendDispatch(0, "INTERACTION_CREATE", nil)
	if err != nil {
		t.Fatal(err)
	}
	again := dialGateway(t, srv)
	again.send(opResume, map[string]any{"token": testToken, "session_id": sid, "seq": seq - 1})
	if f := again.read(); f.S != seq || string(f.D) != "null" {
		t.Errorf("replayed %+v, want the raw dispatch", f)
	}
}

// TestShardsOverHTTP checks GET /gateway/bot without discordgo, with the
// remaining session starts going down.
func TestShardsOverHTTP(t *testing.T) {
	t.Parallel()
	srv, _ := testServer(t, fakediscord.Sharding{Shards: 3, MaxConcurrency: 16})
	dialGateway(t, srv).ready([]int{0, 3})
	req, _ := http.NewRequest("GET", srv.URL()+"/api/v9/gateway/bot", nil)
	req.Header.Set("Authorization", testToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var gb struct {
		URL   string `json:"url"`
		Shard int    `json:"shards"`
		Limit struct {
			Total          int `json:"total"`
			Remaining      int `json:"remaining"`
			ResetAfter     int `json:"reset_after"`
			MaxConcurrency int `json:"max_concurrency"`
		} `json:"session_start_limit"`
	}
	if err := json.NewDecoder(res.Body).Decode(&gb); err != nil {
		t.Fatal(err)
	}
	if gb.URL != srv.GatewayURL() || gb.Shard != 3 || gb.Limit.Total != 1000 || gb.Limit.Remaining != 999 ||
		gb.Limit.ResetAfter <= 0 || gb.Limit.MaxConcurrency != 16 {
		t.Errorf("gateway/bot=%+v", gb)
	}
}

// TestShardedDiscordgo runs a second discordgo session as shard 1 of 2
// beside the test's bot (shard 0 of 1): discordgo's IDENTIFY carries
// the shard, and the fake gives shard 1's guilds to it, the newest session
// owning them, and everything else to the bot's session.
func TestShardedDiscordgo(t *testing.T) {
	if testing.Short() { // testkit.SkipShort, which the fake may not import
		t.Skip("-short: a shard test (go test without -short runs it)")
	}
	t.Parallel()
	ctx, fake, sess := setup(t)
	shard1 := newSession(t, fake, testToken)
	shard1.ShardID, shard1.ShardCount = 1, 2
	got := make(chan string, 4)
	shard1.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { got <- ic.ID })
	if err := shard1.Open(); err != nil {
		t.Fatal(err)
	}
	defer shard1.Close()
	if err := fake.WaitShardReady(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if info := fake.Shard(1); len(info.Sessions) != 1 || info.Sessions[0].Count != 2 {
		t.Fatalf("shard 1 = %+v, want one session of 2 shards", info)
	}
	sess.on(t, "where", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return reply(s, i, &discordgo.InteractionResponseData{Content: "shard 0 of 1"})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "where", GuildID: guildOnShard(t, 1, 2)})
	select {
	case id := <-got:
		if id != ix.ID || ix.Shard != 1 {
			t.Errorf("shard 1 got %s (Shard %d), want %s", id, ix.Shard, ix.ID)
		}
	case <-ctx.Done():
		t.Fatal("shard 1's session did not get its guild's interaction")
	}
	other := fake.slash(t, ctx, member.SlashSpec{Name: "where", GuildID: guildOnShard(t, 0, 2)})
	if err := sess.result(t, other); err != nil || other.Shard != 0 || other.SessionID != fake.SessionID() {
		t.Errorf("guild of shard 0: %v, shard %d session %s", err, other.Shard, other.SessionID)
	}
}
