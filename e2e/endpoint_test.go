package e2e

// The HTTP interactions endpoint under a client that holds connections
// (issue 16 row 14), and replies edited after a first response that went
// back in the HTTP body (row 23).

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// holdConn opens a connection to addr, sends head (nothing when empty),
// reads the answer to it and keeps the connection open, idle, until the
// end of the test. It reports whether the server closed the connection
// with its answer (Connection: close).
func holdConn(t *testing.T, addr, head string) (closed bool) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if head == "" {
		return false
	}
	if _, err := conn.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to %q: %v", strings.SplitN(head, "\r\n", 2)[0], err)
	}
	res.Body.Close()
	return res.Close
}

// signedPing is a PING as Discord signs it, written out as an HTTP/1.1
// request that keeps its connection alive.
func signedPing(host string, key ed25519.PrivateKey, i int) string {
	body, _ := json.Marshal(map[string]any{"id": strconv.Itoa(1_300_000_000_000_000_000 + i), "application_id": fakediscord.DefaultAppID, "type": 1, "token": "ping", "version": 1})
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := fmt.Sprintf("%x", ed25519.Sign(key, append([]byte(ts), body...)))
	return fmt.Sprintf("POST /interactions HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nX-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %s\r\n\r\n%s",
		host, len(body), sig, ts, body)
}

// TestE2EHTTPEndpointHeldConnections (row 14): one client fills the
// endpoint's 1,024 connections and leaves them open doing nothing: after
// a request on another path (each GET /x), after a PING kept alive, or
// without a word. Discord's signed interactions are answered all the same.
func TestE2EHTTPEndpointHeldConnections(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startHTTPApp(t)
	addr, key := app.HTTPAddr(), fake.httpKey(t)
	const conns = 1024
	for i := range conns {
		switch i % 3 {
		case 0:
			// Another path has no business staying open: closed at once.
			if !holdConn(t, addr, "GET /x HTTP/1.1\r\nHost: "+addr+"\r\n\r\n") {
				t.Fatal("GET /x left its connection open")
			}
		case 1:
			holdConn(t, addr, signedPing(addr, key, i))
		case 2:
			holdConn(t, addr, "")
		}
	}
	for i := range 3 {
		ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", UserID: fmt.Sprintf("14000000000000%05d", i), Options: []member.Option{opt("size", 9+2*i)}})
		if err != nil {
			t.Fatal(err)
		}
		if msg := final(t, ix); !strings.Contains(msg.Text(), fmt.Sprintf("%d×%d", 9+2*i, 9+2*i)) {
			t.Fatalf("interaction %d with the connections held: %q", i, msg.Text())
		}
	}
}

// slowReturn forwards TCP connections to target, delaying what target
// sends back by latency: the network between Discord and a bot, on which
// the body of an HTTP response reaches Discord a while after the bot
// wrote it (and Discord applies it after that), while the bot's next
// request goes over another connection. It stops at the end of t.
func slowReturn(t *testing.T, target string, latency time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, c); up.Close() }()
				buf := make([]byte, 64<<10)
				for {
					n, err := up.Read(buf)
					if n > 0 {
						time.Sleep(latency) // the way back, not a wait for anything
						if _, werr := c.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// TestE2EHTTPEventStarts (row 23): thirty managers start an event over the
// HTTP endpoint, whose deferral goes back in the HTTP body and whose reply
// is edited in at once after, while the body takes a quarter of a second
// to reach Discord: every manager sees that the event started, none is
// left on "thinking…".
func TestE2EHTTPEventStarts(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startHTTPApp(t)
	_, key := fake.HTTPEndpoint()
	fake.UseHTTPEndpoint("http://"+slowReturn(t, app.HTTPAddr(), 250*time.Millisecond)+"/interactions", key)
	const managers = 30
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i := range managers {
		wg.Go(func() {
			ix, err := fake.SlashCommand(ctx, member.SlashSpec{
				Name: "event", ChannelID: fmt.Sprintf("13000000000000%05d", 500+i), UserID: fmt.Sprintf("14000000000000%05d", i), Permissions: e2eManagePerms,
				Options: []member.Option{sub("start", opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "30m"), opt("name", fmt.Sprintf("Race %d", i)))},
			})
			if err != nil {
				t.Error(err)
				return
			}
			msg, err := ix.WaitFinal(ctx, func(m *fakediscord.Message) bool { return !m.Loading() })
			if err != nil || !strings.Contains(msg.Text(), "Event started") {
				text, loading := "", false
				if orig := ix.Original(); orig != nil {
					text, loading = orig.Text(), orig.Loading()
				}
				var codes []int
				for _, r := range ix.Rejections() {
					codes = append(codes, r.Code)
				}
				t.Errorf("manager %d (%v): the reply reads %q (thinking… %v), Discord refused codes %v; want the event started", i, err, text, loading, codes)
			}
		})
	}
	wg.Wait()
}
