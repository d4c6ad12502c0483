package e2e

// Maze Arena's front door: what outsiders can send its address without an
// account (made-up sign-in codes, idle connections, a flood of messages)
// must neither reach Discord at a rate that could get the bot's IP banned
// nor take the process's descriptors.

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// signInFlood posts made-up codes to the app's POST /api/token from
// clients at once, each one after the other, until the flood has lasted
// for; it returns the answers' statuses.
func signInFlood(t *testing.T, addr string, clients int, lasting time.Duration) map[int]int {
	t.Helper()
	var (
		mu       sync.Mutex
		statuses = map[int]int{}
		wg       sync.WaitGroup
	)
	end := time.Now().Add(lasting)
	// Each client keeps its connection, as a flood would: no port runs
	// out.
	transport := &http.Transport{MaxIdleConnsPerHost: clients}
	defer transport.CloseIdleConnections()
	client := &http.Client{Timeout: 20 * time.Second, Transport: transport}
	for c := range clients {
		wg.Go(func() {
			for i := 0; time.Now().Before(end); i++ {
				res, err := client.Post("http://"+addr+"/api/token", "application/json",
					strings.NewReader(fmt.Sprintf(`{"code":"made-up-%d-%d","instance":"i-%d"}`, c, i, c)))
				if err != nil {
					t.Errorf("POST /api/token: %v", err)
					return
				}
				res.Body.Close()
				mu.Lock()
				statuses[res.StatusCode]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return statuses
}

// TestArenaSignInFlood: 32 clients post made-up codes to POST /api/token
// for 3 s. With a wrong client secret (an operator's typo) Discord answers
// each exchange 401, each an invalid request toward its ban: the first
// stops them, until one probe a minute (on the app's clock), and the log
// says so once a minute. With the right secret, made-up codes are 400s at
// Discord: past 20 of them, one a second goes on.
func TestArenaSignInFlood(t *testing.T) {
	t.Parallel()
	const exchange = "POST /oauth2/token"
	const clients, lasting = 32, 3 * time.Second
	logLine := "check DISCORD_CLIENT_SECRET"

	t.Run("WrongSecret", func(t *testing.T) {
		t.Parallel()
		fake := newDiscord(t)
		fake.EnableActivities()
		clock := fake.useClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		cfg := fake.config(newDBFile(t))
		cfg.ActivityAddr, cfg.ClientSecret = "127.0.0.1:0", "not-the-client-secret"
		a := fake.launch(t, cfg)

		statuses := signInFlood(t, a.ActivityAddr(), clients, lasting)
		sent := len(fake.Requests(exchange))
		lines := strings.Count(a.logs.String(), logLine)
		t.Logf("wrong secret, %d clients for %v: %d requests answered %v; %d exchanges reached Discord (%.1f a second); %d log lines",
			clients, lasting, total(statuses), statuses, sent, float64(sent)/lasting.Seconds(), lines)
		if sent > 4 || lines != 1 || statuses[http.StatusOK] != 0 {
			t.Fatalf("%d exchanges at Discord (want at most the 4 one client may have in flight), %d log lines (want 1), %d signed in",
				sent, lines, statuses[http.StatusOK])
		}

		// Half a minute on: still nothing is sent. A minute on: one probe,
		// one more line.
		clock.Advance(30 * time.Second)
		signInFlood(t, a.ActivityAddr(), clients, time.Second)
		if again := len(fake.Requests(exchange)); again != sent {
			t.Fatalf("%d exchanges at Discord within the minute, want none", again-sent)
		}
		clock.Advance(31 * time.Second)
		signInFlood(t, a.ActivityAddr(), clients, time.Second)
		if again, lines := len(fake.Requests(exchange)), strings.Count(a.logs.String(), logLine); again != sent+1 || lines != 2 {
			t.Fatalf("a minute later: %d exchanges at Discord and %d log lines, want one probe and one line more", again-sent, lines-1)
		}
	})

	t.Run("MadeUpCodes", func(t *testing.T) {
		t.Parallel()
		fake := newDiscord(t)
		clock := fake.useClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		a := fake.startArenaApp(t, "")
		statuses := signInFlood(t, a.ActivityAddr(), clients, lasting)
		sent := len(fake.Requests(exchange))
		t.Logf("right secret, %d clients for %v: %d requests answered %v; %d exchanges reached Discord (%.1f a second)",
			clients, lasting, total(statuses), statuses, sent, float64(sent)/lasting.Seconds())
		// The 20 refusals the bucket holds, and the 4 in flight as it ran
		// out.
		if sent > 20+4 {
			t.Fatalf("%d exchanges at Discord, want at most 24", sent)
		}
		// Ten seconds on the app's clock let ten more through.
		clock.Advance(10 * time.Second)
		signInFlood(t, a.ActivityAddr(), clients, time.Second)
		if more := len(fake.Requests(exchange)) - sent; more > 10+4 {
			t.Fatalf("%d exchanges at Discord in 10 s of the app's clock, want at most 14", more)
		}
		if strings.Contains(a.logs.String(), logLine) {
			t.Fatal("the right secret logged as refused")
		}
	})
}

func total(statuses map[int]int) int {
	n := 0
	for _, c := range statuses {
		n += c
	}
	return n
}

// TestArenaStartFlood: {"t":"start"} sent again and again during a race
// is refused (quietly: two members may press Start at once) and counted
// as any refused message: the connection is dropped (1008). The member's
// other connection goes on.
func TestArenaStartFlood(t *testing.T) {
	t.Parallel()
	fake, a, r := arenaRace(t)
	adaTok := signIn(t, fake, a, ada, r.instance)
	adaC := join(t, a, adaTok, r.instance)
	adaC.send(map[string]any{"t": "start"})
	adaC.racing(ada)

	flood := join(t, a, adaTok, r.instance)
	for range 5000 {
		if err := flood.ws.WriteMessage(websocket.TextMessage, []byte(`{"t":"start"}`)); err != nil {
			break // dropped already
		}
	}
	if code := flood.closed(); code != websocket.ClosePolicyViolation {
		t.Fatalf("5,000 Starts during the race: closed with %d, want %d", code, websocket.ClosePolicyViolation)
	}
	adaC.send(map[string]any{"t": "move", "dir": dirLetter(wallDir(r.maze, r.maze.Start()))})
	if why := adaC.refusal(); why != "wall" {
		t.Fatalf("ada's other connection after the flood: a move into a wall refused %q, want wall", why)
	}
}
