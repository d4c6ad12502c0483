package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/app"
	"mazebot/internal/fakediscord"
	"mazebot/internal/pgtest"
	"mazebot/mazecore"
)

// BenchmarkArena races on one process, the store a SQLite file: 8 players
// in one room and 200 over 25 rooms, each moving 10 times a second (the
// figures of issue 39's "today"); 2,000 over 200 rooms and 100 in one
// room, each moving 8 times a second. Every player moves back and forth
// along the first corridor from the start, until b.N moves are played in
// all, and for 5 s at least. It reports the moves a second sustained, the
// server's time per move from its message's receipt to its broadcast by
// the room (p50, p99), and the heap a room takes with its players
// connected (the test's own ends of the WebSockets included, not the
// messages they were sent before the race).
//
//	go test ./e2e -run '^$' -bench 'BenchmarkArena$' -benchtime 4000x -count 3
func BenchmarkArena(b *testing.B) {
	for _, c := range []struct{ players, rooms, rate int }{{8, 1, 10}, {200, 25, 10}, {2000, 200, 8}, {100, 1, 8}} {
		b.Run(fmt.Sprintf("players=%d/rooms=%d", c.players, c.rooms), func(b *testing.B) {
			benchArena(b, filepath.Join(b.TempDir(), "mazebot.db"), c.players, c.rooms, c.rate)
		})
	}
}

// BenchmarkArenaPostgres is BenchmarkArena on one process whose store is
// PostgreSQL (MAZEBOT_TEST_POSTGRES): the rooms' inputs then go through
// the PostgreSQL bus (store/pgbus), a row and a NOTIFY each, and come
// back to the process's listener before they are played.
//
//	go test ./e2e -run '^$' -bench 'BenchmarkArenaPostgres' -benchtime 4000x
func BenchmarkArenaPostgres(b *testing.B) {
	for _, c := range []struct{ players, rooms, rate int }{{8, 1, 10}, {200, 25, 10}, {2000, 200, 8}} {
		b.Run(fmt.Sprintf("players=%d/rooms=%d", c.players, c.rooms), func(b *testing.B) {
			benchArena(b, pgtest.Schema(b), c.players, c.rooms, c.rate)
		})
	}
}

func benchArena(b *testing.B, dsn string, players, rooms, rate int) {
	fake := newDiscord(b)
	fake.EnableActivities()
	var (
		mu        sync.Mutex
		latencies []time.Duration
	)
	observe := func(d time.Duration) {
		mu.Lock()
		latencies = append(latencies, d)
		mu.Unlock()
	}
	cfg := fake.config(dsn)
	cfg.ActivityAddr, cfg.ClientSecret = "127.0.0.1:0", fakediscord.DefaultClientSecret
	a := fake.launchOptions(b, cfg, app.Options{ArenaObserveMove: observe})
	maze := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 42}
	m, err := mazecore.Generate(maze)
	if err != nil {
		b.Fatal(err)
	}
	open := ""
	for _, d := range mazecore.Dirs {
		if m.Open(m.Start().X/2, m.Start().Y/2, d) {
			open = dirLetter(d)
		}
	}
	back := map[string]string{"e": "w", "w": "e", "n": "s", "s": "n"}[open]
	buttons, _ := json.Marshal([]discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Race", CustomID: "race:" + maze.String(), Style: discordgo.SecondaryButton}}}})

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	perRoom := players / rooms
	var clients []*roomClient
	for r := range rooms {
		channel := "13000000000000" + strconv.Itoa(10000+r)
		post := fake.PostChannelMessage(channel, fakediscord.Message{Content: "race", AuthorID: fake.Config().AppID, ComponentsJSON: buttons})
		var instance string
		for p := range perRoom {
			user := strconv.Itoa(1400000000000100000 + r*1000 + p)
			if p == 0 {
				ix, err := fake.ClickButton(testContext(b), memberButton(post, "race:"+maze.String(), user, "p"+user[len(user)-4:]))
				if err != nil {
					b.Fatal(err)
				}
				resp, err := ix.Wait(testContext(b))
				if err != nil || resp.Instance == "" {
					b.Fatalf("Race: %+v %v", resp, err)
				}
				instance = resp.Instance
			} else {
				fake.JoinActivity(channel, user, "p"+user[len(user)-4:])
			}
			c := join(b, a, signIn(b, fake, a, user, instance), instance)
			clients = append(clients, c)
		}
		clients[len(clients)-perRoom].send(map[string]any{"t": "start"})
	}
	for _, c := range clients {
		c.racing(c.me)
	}
	for _, c := range clients {
		// What the room says is read and dropped: decoding every racer's
		// moves for every client took much of the two cores the server
		// shares with its clients here.
		c.discard.Store(true)
	drain:
		for {
			select {
			case <-c.msgs:
			default:
				break drain
			}
		}
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	each := max((b.N+players-1)/players, 5*rate)
	var sent atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() {
			tick := time.NewTicker(time.Second / time.Duration(rate))
			defer tick.Stop()
			for i := range each {
				dir := open
				if i%2 == 1 {
					dir = back
				}
				if err := c.ws.WriteMessage(1, []byte(`{"t":"move","dir":"`+dir+`"}`)); err != nil {
					return
				}
				sent.Add(1)
				<-tick.C
			}
		})
	}
	wg.Wait()
	want := int(sent.Load())
	// Wait for the moves in flight: until all are played, or none more
	// for a second (refused ones never are).
	last, lastAt := -1, time.Now()
	for {
		mu.Lock()
		n := len(latencies)
		mu.Unlock()
		if n != last {
			last, lastAt = n, time.Now()
		}
		if n >= want || time.Since(lastAt) > time.Second {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	elapsed := time.Since(start)
	b.StopTimer()

	mu.Lock()
	defer mu.Unlock()
	if len(latencies) == 0 {
		b.Fatal("no move was played")
	}
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds())
	}
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "moves/s")
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(rooms), "heap-B/room")
	// Moves the server did not play: refused by the rate limit when a
	// connection's messages, held up behind the store, reach it at once.
	b.ReportMetric(float64(want-len(latencies)), "unplayed")
	b.ReportMetric(0, "ns/op") // a paced load: the time per op says nothing
}
