package discord

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Every IDENTIFY a shard sends waits for its rate-limit bucket's turn:
// Discord allows one per bucket every 5 seconds, counts 1,000 a day, and
// resets the bot's token beyond that. discordgo sends one in Open, which
// the bot calls in identify rounds, but also on its own: at once, after an
// INVALID_SESSION (op 9), and again at each op 9 a too-early IDENTIFY
// earns, so invalidated sessions would identify hundreds of times a
// second. It has no hook for that, so the shard's websocket connection
// holds back every IDENTIFY frame itself until the bucket's turn comes:
// the turns of this process, spaced by the interval, and those of every
// process sharing the database (IdentifyTurns).

// IdentifyTurns hands out turns at identifying: one per rate-limit bucket
// every window, among all the processes that share it. Discord counts the
// limit per bot, not per process, and answers an IDENTIFY too soon with
// op 9, which discordgo answers with another IDENTIFY at once, and again:
// processes that start together (a deploy) must take turns. store/sqlite
// and store/postgres implement it.
type IdentifyTurns interface {
	// ClaimIdentify gives the caller bucket's turn, at at, when the
	// bucket's last turn was window or more before; otherwise it reports
	// when that turn's window ends.
	ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (free time.Time, ok bool, err error)
}

// identifyPrefix starts the JSON of an IDENTIFY as discordgo writes it
// (identifyOp{Op: 2, Data: …}).
var identifyPrefix = []byte(`{"op":2,`)

// turns spaces the IDENTIFYs of this process's buckets by interval, and
// through shared (nil: none) those of every process sharing the database.
type turns struct {
	interval time.Duration
	shared   IdentifyTurns
	sleep    func(ctx context.Context, d time.Duration) error
	log      *slog.Logger

	mu   sync.Mutex
	last map[int]time.Time // the last IDENTIFY of each bucket
	lock map[int]*sync.Mutex
}

// take waits for bucket's next turn in this process and in the database
// (sharedTurn), and marks it taken.
func (t *turns) take(ctx context.Context, bucket int) error {
	t.mu.Lock()
	if t.lock == nil {
		t.lock, t.last = map[int]*sync.Mutex{}, map[int]time.Time{}
	}
	l := t.lock[bucket]
	if l == nil {
		l = &sync.Mutex{}
		t.lock[bucket] = l
	}
	t.mu.Unlock()
	l.Lock() // one IDENTIFY of a bucket at a time in this process
	defer l.Unlock()
	t.mu.Lock()
	wait := time.Until(t.last[bucket].Add(t.interval))
	t.mu.Unlock()
	if wait > 0 {
		if err := t.sleep(ctx, wait); err != nil {
			return err
		}
	}
	if err := t.sharedTurn(ctx, bucket); err != nil {
		return err
	}
	t.mu.Lock()
	t.last[bucket] = time.Now()
	t.mu.Unlock()
	return nil
}

// sharedTurn waits for bucket's turn to identify among the processes
// sharing the database. The window has a margin over Discord's interval
// for clocks that differ between machines, and for the time from a turn to
// its IDENTIFY. A database that does not answer is no reason to stay
// offline: the shard then identifies without a turn, as it would alone.
func (t *turns) sharedTurn(ctx context.Context, bucket int) error {
	if t.shared == nil {
		return nil
	}
	window := t.window()
	for {
		free, ok, err := t.shared.ClaimIdentify(ctx, bucket, time.Now(), window)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			t.log.Warn("no identify turn from the database; identifying without one", "bucket", bucket, "err", err)
			return nil
		}
		if ok {
			return nil
		}
		// A turn far in the future comes from a clock that is ahead: it
		// costs one window's wait at most, after which the store lets it
		// be taken over.
		wait := min(max(time.Until(free), time.Millisecond), window)
		t.log.Info("another process is identifying in this bucket; waiting for its turn to pass", "bucket", bucket, "wait", wait)
		if err := t.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// identifyMargin is what a bucket's turn adds to Discord's interval.
const identifyMargin = 250 * time.Millisecond

// window is a bucket's turn among the processes: Discord's
// interval and a margin for clocks that differ between machines, and for
// the time from a turn to its IDENTIFY.
func (t *turns) window() time.Duration {
	return t.interval + min(identifyMargin, t.interval/5)
}

// gatedDialer is the websocket dialer of a shard's session, whose
// IDENTIFYs wait for turn. Through an HTTP proxy the connection's bytes
// are the proxy's tunnel, which this cannot read: there the turns hold for
// the identify rounds only, and the log says so.
func gatedDialer(log *slog.Logger, shardID int, turn func() error) *websocket.Dialer {
	d := *websocket.DefaultDialer
	if proxied(gatewayURL) {
		log.Warn("the gateway is reached through a proxy: IDENTIFYs after an invalid session are not spaced by mazebot", "shard", shardID)
		return &d
	}
	d.Proxy = nil
	var dialer net.Dialer
	d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &gatedConn{Conn: c, turn: turn}, nil
	}
	d.NetDialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			c.Close()
			return nil, err
		}
		tc := tls.Client(c, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12})
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, err
		}
		return &gatedConn{Conn: tc, turn: turn}, nil
	}
	return &d
}

// gatewayURL is where the shards connect, as far as is known before
// they do: Discord's gateway, unless GET /gateway names another.
const gatewayURL = "wss://gateway.discord.gg/"

// proxied tells whether the environment sends a connection to u through
// an HTTP proxy (HTTPS_PROXY and its kin).
func proxied(u string) bool {
	parsed, err := url.Parse(u)
	if err != nil {
		return false
	}
	parsed.Scheme = "https" // as the websocket dialer asks it
	p, err := http.ProxyFromEnvironment(&http.Request{URL: parsed})
	return err == nil && p != nil
}

// gatedConn passes a websocket client's frames through, holding each
// IDENTIFY until turn returns. It reads the frames' headers to know where
// each one starts, from the first frame on: the HTTP upgrade before it is
// written before anything is read (framing). The websocket library writes
// a small frame, header and payload, in one Write, and should a header
// ever be split across Writes, it stops reading them (lost) rather than
// guess.
type gatedConn struct {
	net.Conn
	turn    func() error
	framing atomic.Bool // the upgrade's answer has been read

	mu        sync.Mutex
	remaining int64 // bytes of the current frame not yet written
	lost      bool
}

func (c *gatedConn) Read(p []byte) (int, error) {
	c.framing.Store(true)
	return c.Conn.Read(p)
}

func (c *gatedConn) Write(p []byte) (int, error) {
	if !c.framing.Load() {
		return c.Conn.Write(p) // the HTTP upgrade request
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.lost && c.remaining == 0 && isIdentify(p) {
		if err := c.turn(); err != nil {
			return 0, err
		}
	}
	n, err := c.Conn.Write(p)
	c.advance(p[:n])
	return n, err
}

// advance follows the frames in written, bytes just written.
func (c *gatedConn) advance(written []byte) {
	for len(written) > 0 && !c.lost {
		if c.remaining > 0 {
			k := min(c.remaining, int64(len(written)))
			written, c.remaining = written[k:], c.remaining-k
			continue
		}
		header, payload, ok := frameSize(written)
		if !ok {
			c.lost = true
			return
		}
		c.remaining = int64(header) + payload
	}
}

// frameSize reads a client frame's header at the start of p: its length
// and that of its payload.
func frameSize(p []byte) (header int, payload int64, ok bool) {
	if len(p) < 2 {
		return 0, 0, false
	}
	header = 2
	payload = int64(p[1] & 0x7f)
	switch payload {
	case 126:
		if len(p) < 4 {
			return 0, 0, false
		}
		payload, header = int64(binary.BigEndian.Uint16(p[2:4])), 4
	case 127:
		if len(p) < 10 {
			return 0, 0, false
		}
		payload, header = int64(binary.BigEndian.Uint64(p[2:10])), 10
	}
	if p[1]&0x80 != 0 {
		header += 4 // the mask key
	}
	return header, payload, true
}

// isIdentify tells whether p starts a whole text frame (FIN, opcode 1)
// that holds an IDENTIFY.
func isIdentify(p []byte) bool {
	header, payload, ok := frameSize(p)
	if !ok || p[0] != 0x81 || payload < int64(len(identifyPrefix)) || len(p) < header+len(identifyPrefix) {
		return false
	}
	start := make([]byte, len(identifyPrefix))
	copy(start, p[header:])
	if p[1]&0x80 != 0 {
		mask := p[header-4 : header]
		for i := range start {
			start[i] ^= mask[i%4]
		}
	}
	return bytes.Equal(start, identifyPrefix)
}
