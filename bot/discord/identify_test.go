package discord

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestGatedConnHoldsIdentify: a shard's connection lets every frame
// through at once but an IDENTIFY, which waits for its turn; frames of
// every length before it keep the count of where frames start.
func TestGatedConnHoldsIdentify(t *testing.T) {
	got := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for {
			_, msg, err := c.ReadMessage()
			if err != nil {
				return
			}
			got <- string(msg)
		}
	}))
	defer srv.Close()
	var turns atomic.Int32
	release := make(chan struct{})
	d := gatedDialer(slog.New(slog.DiscardHandler), 0, func() error { turns.Add(1); <-release; return nil })
	conn, _, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	send := func(v any) {
		t.Helper()
		if err := conn.WriteJSON(v); err != nil {
			t.Error(err)
		}
	}
	heartbeat := map[string]any{"op": 1, "d": 7}
	for _, size := range []int{10, 200, 70_000} { // 7-bit, 16-bit and 64-bit lengths
		send(map[string]any{"op": 3, "d": strings.Repeat("x", size)})
		if msg := <-got; !strings.Contains(msg, `"op":3`) {
			t.Fatalf("got %.40q", msg)
		}
	}
	send(heartbeat)
	<-got
	if n := turns.Load(); n != 0 {
		t.Fatalf("%d turns taken before any IDENTIFY", n)
	}
	sent := make(chan struct{})
	go func() {
		send(identifyOp{Op: 2, Data: map[string]any{"token": "x"}})
		close(sent)
	}()
	select {
	case msg := <-got:
		t.Fatalf("the IDENTIFY went out before its turn: %q", msg)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-sent
	if msg := <-got; !strings.HasPrefix(msg, `{"op":2,`) || turns.Load() != 1 {
		t.Fatalf("after the turn: %q, %d turns", msg, turns.Load())
	}
	send(heartbeat)
	if msg := <-got; !strings.Contains(msg, `"op":1`) {
		t.Fatalf("after the IDENTIFY: %q", msg)
	}
	gc := conn.NetConn().(*gatedConn)
	gc.mu.Lock()
	defer gc.mu.Unlock()
	if gc.lost || gc.remaining != 0 {
		t.Fatalf("lost the frames: lost=%v, %d bytes of a frame to come", gc.lost, gc.remaining)
	}
}

// identifyOp is discordgo's IDENTIFY envelope, as it marshals it.
type identifyOp struct {
	Op   int `json:"op"`
	Data any `json:"d"`
}

func TestIsIdentify(t *testing.T) {
	raw, _ := json.Marshal(identifyOp{Op: 2, Data: 1})
	masked := append([]byte{0x81, 0x80 | byte(len(raw)), 1, 2, 3, 4}, raw...)
	for i := range raw {
		masked[6+i] ^= []byte{1, 2, 3, 4}[i%4]
	}
	unmasked := append([]byte{0x81, byte(len(raw))}, raw...)
	for name, tc := range map[string]struct {
		frame []byte
		want  bool
	}{
		"OKMasked":     {masked, true},
		"OKUnmasked":   {unmasked, true},
		"ErrBinary":    {append([]byte{0x82}, masked[1:]...), false},
		"ErrFragment":  {append([]byte{0x01}, masked[1:]...), false},
		"ErrHeartbeat": {append([]byte{0x81, 17}, `{"op":1,"d":null}`...), false},
		"ErrShort":     {[]byte{0x81}, false},
	} {
		if got := isIdentify(tc.frame); got != tc.want {
			t.Errorf("%s: isIdentify=%v, want %v", name, got, tc.want)
		}
	}
}
