package e2e

import (
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/sys/unix"

	"mazebot/internal/fakediscord"
)

// activityAddr is the Maze Arena address of a bot process.
type activityAddr string

func (a activityAddr) ActivityAddr() string { return string(a) }

// arenaAddr waits for the process to log where Maze Arena listens.
func (p *botProcess) arenaAddr(t testing.TB) activityAddr {
	t.Helper()
	return activityAddr(p.loggedAddr(t, "Maze Arena listening"))
}

// TestArenaIdleConnections runs the bot as its own process with a
// descriptor limit of 1,536 and opens 4,000 connections to ACTIVITY_ADDR
// that send nothing or half a request's headers, and 100 that send 9
// bytes of a body and no more, and 1,280 WebSockets that never say hello.
// Its connections are capped (an idle one
// makes way for a new one), so the process stays under its limit,
// /healthz answers within a second, and so does a member's join (sign-in,
// WebSocket, welcome); the slow bodies are cut off by the read timeout.
// Uncapped, the process ran out of descriptors and /healthz hung.
func TestArenaIdleConnections(t *testing.T) {
	t.Parallel()
	const limit, idle, slowBodies, silentSockets = 1536, 4000, 100, 1280
	const need = idle + slowBodies + silentSockets + limit
	var own unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &own); err != nil || own.Cur < need {
		t.Fatalf("the test itself needs %d descriptors, has %d (%v): raise its hard limit", need, own.Cur, err)
	}
	fake := newDiscord(t)
	fake.EnableActivities()
	bot := fake.startProcess(t, t.TempDir(), "ACTIVITY_ADDR=127.0.0.1:0", "DISCORD_CLIENT_SECRET="+fakediscord.DefaultClientSecret,
		"METRICS_ADDR=127.0.0.1:0", "LOG_LEVEL=info")
	pid := bot.cmd.Process.Pid
	if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: limit, Max: limit}, nil); err != nil {
		t.Fatal(err)
	}
	healthz := bot.metricsBase(t) + "/healthz"
	arena := bot.arenaAddr(t)
	fake.waitSynced(t, 1)
	r := fake.raceEvent(t, ada, adaName)

	// The slow bodies first (each holds a request in progress, which no
	// new connection may close), then the idle ones, 16 dialing at once.
	var held []net.Conn
	var mu sync.Mutex
	// open dials n connections and writes first on every one in each.
	open := func(n int, first string, each int) {
		var wg sync.WaitGroup
		for w := range 16 {
			wg.Go(func() {
				for i := w; i < n; i += 16 {
					c, err := net.DialTimeout("tcp", string(arena), 10*time.Second)
					if err != nil {
						t.Errorf("connection %d: %v", i, err)
						return
					}
					if i%each == 0 {
						_, _ = c.Write([]byte(first)) // a closed one may refuse it
					}
					mu.Lock()
					held = append(held, c)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
	open(slowBodies, "POST /api/token HTTP/1.1\r\nHost: arena\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"code\":\"", 1)
	slow := append([]net.Conn(nil), held...)           // before any other is held
	open(idle, "GET / HTTP/1.1\r\nHost: arena\r\n", 2) // half of them half a request
	// WebSockets that never say hello, 1,280 of them, more than the cap,
	// opened by 32 at once while the member joins: they leave the
	// listener's cap at their upgrade (so the process may hold 1,024
	// plain connections and its sockets), and the room closes the one
	// waiting longest past 256.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	upgraded := 0
	for range 32 {
		wg.Go(func() {
			var mine []*websocket.Conn
			defer func() {
				for _, ws := range mine {
					ws.Close()
				}
			}()
			for len(mine) < silentSockets/32 {
				ws, _, err := websocket.DefaultDialer.Dial("ws://"+string(arena)+"/api/room", nil)
				if err != nil {
					continue // closed for a newer one before its upgrade: as the cap may
				}
				mine = append(mine, ws)
				mu.Lock()
				upgraded++
				mu.Unlock()
			}
			<-stop
		})
	}
	var once sync.Once
	stopFlood := func() { once.Do(func() { close(stop); wg.Wait() }) }
	defer stopFlood()
	waitFor(t, "1,000 silent WebSockets", func() bool { mu.Lock(); defer mu.Unlock(); return upgraded >= 1000 })
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})

	began := time.Now()
	res, err := (&http.Client{Timeout: 10 * time.Second}).Get(healthz)
	if err != nil {
		t.Fatalf("/healthz during the flood: %v", err)
	}
	res.Body.Close()
	healthzTook := time.Since(began)
	if took := healthzTook; res.StatusCode != http.StatusOK || took > time.Second {
		t.Fatalf("/healthz during the flood: %d in %v, want 200 within a second", res.StatusCode, took)
	}
	began = time.Now()
	c := join(t, arena, signIn(t, fake, arena, ada, r.instance), r.instance)
	joinTook := time.Since(began)
	if took := joinTook; took > time.Second || c.me != ada {
		t.Fatalf("ada's join during the flood: welcomed as %q in %v, want ada within a second", c.me, took)
	}
	fds, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	stopFlood()
	t.Logf("%d connections and %d WebSockets opened; the process holds %d descriptors of %d; /healthz answered in %v, the join in %v",
		len(held), upgraded, len(fds), limit, healthzTook, joinTook)
	if len(fds) >= limit || strings.Contains(bot.logs.String(), "too many open files") {
		t.Fatalf("the process holds %d descriptors of %d, or logged running out", len(fds), limit)
	}

	// The slow bodies are cut off by the read timeout (10 s).
	for i, c := range slow {
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		b := make([]byte, 512)
		for {
			if _, err := c.Read(b); err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					t.Fatalf("slow body %d: still held after 30 s", i)
				}
				break
			}
		}
	}
}
