package arena

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"mazebot/play"
)

// TestSocketCap: past MaxSockets room WebSockets open on a process, an
// upgrade is answered 503 with Retry-After (the client tries again), and
// a socket that closes makes room for a new one. The sockets have left
// the listener's cap (MaxConnections) at their upgrade; this one bounds
// them.
func TestSocketCap(t *testing.T) {
	s, err := New(Config{ClientSecret: "secret", BotToken: "Bot token", Bot: stubBot{}, Games: &memGames{games: map[int64]*play.Game{}}, MaxSockets: 2})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	defer s.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/room"
	var open []*websocket.Conn
	for range 2 {
		ws, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			t.Fatalf("a socket within the cap: %v", err)
		}
		open = append(open, ws)
	}
	_, res, err := websocket.DefaultDialer.Dial(url, nil)
	if err == nil || res == nil || res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a third socket past a cap of 2: %v, %+v; want 503 with Retry-After", err, res)
	}
	open[0].Close()
	waitFor(t, "a place freed by the closed socket", func() bool {
		ws, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			return false
		}
		open = append(open, ws)
		return true
	})
	for _, ws := range open {
		ws.Close()
	}
}
