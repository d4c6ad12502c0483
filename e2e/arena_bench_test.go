package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
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
// server's time per move from its message's receipt to the mover's answer
// (p50, p99; the other members get it in the room's next tick's moves,
// within moveTick, 50 ms), the heap a room takes with its players
// connected (the test's own ends of the WebSockets included, not the
// messages they were sent before the race), and the cores the whole test
// process used while the moves were played (cpu-cores: server and load
// generator together; the profile below tells them apart).
//
//	go test ./e2e -run '^$' -bench 'BenchmarkArena$' -benchtime 4000x -count 3
//
// The load generator (the racers' goroutines) runs under the pprof label
// side=load, so a profile of the race alone splits the two cores between
// it and the server:
//
//	MAZEBOT_BENCH_CPUPROFILE=/tmp/race.out go test ./e2e -run '^$' -bench 'BenchmarkArena$/players=2000' -benchtime 4000x
//	go tool pprof -top -tagfocus side=load /tmp/race.out   # the load generator
//	go tool pprof -top -tagignore side=load /tmp/race.out  # the server
func BenchmarkArena(b *testing.B) {
	for _, c := range []struct{ players, rooms, rate int }{{8, 1, 10}, {200, 25, 10}, {2000, 200, 8}, {100, 1, 8}} {
		b.Run(fmt.Sprintf("players=%d/rooms=%d", c.players, c.rooms), func(b *testing.B) {
			benchArena(b, filepath.Join(b.TempDir(), "mazebot.db"), 1, c.players, c.rooms, c.rate)
		})
	}
}

// BenchmarkArenaPostgres is BenchmarkArena whose store is PostgreSQL
// (MAZEBOT_TEST_POSTGRES): the rooms' inputs then go through the
// PostgreSQL bus (store/pgbus), a row and a NOTIFY each, and come back
// to the process's listener before they are played. On one process, and
// on three (three apps in the test's process, each with its own bus
// connections and hub) with every room's members split over them, so
// that each room has a replica on each and every input reaches all three.
//
//	go test ./e2e -run '^$' -bench 'BenchmarkArenaPostgres' -benchtime 4000x
func BenchmarkArenaPostgres(b *testing.B) {
	for _, c := range []struct{ processes, players, rooms, rate int }{
		{1, 8, 1, 10}, {1, 200, 25, 10}, {1, 2000, 200, 8}, {1, 100, 1, 8}, {3, 200, 25, 8}, {3, 2000, 200, 8},
	} {
		b.Run(fmt.Sprintf("processes=%d/players=%d/rooms=%d", c.processes, c.players, c.rooms), func(b *testing.B) {
			benchArena(b, pgtest.Schema(b), c.processes, c.players, c.rooms, c.rate)
		})
	}
}

func benchArena(b *testing.B, dsn string, processes, players, rooms, rate int) {
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
	var apps []*testApp
	for range processes {
		apps = append(apps, fake.launchOptions(b, cfg, app.Options{ArenaObserveMove: observe}))
	}
	// What runs from here on on this goroutine, or on those it starts (the
	// racers' readers and writers), is the load generator: the apps'
	// goroutines were started before.
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("side", "load")))
	defer pprof.SetGoroutineLabels(context.Background())
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
				// On a loaded machine the button's answer may be late and
				// deferred (type 6, no launch): the racer clicks again.
				for attempt := 1; instance == ""; attempt++ {
					ix, err := fake.ClickButton(testContext(b), memberButton(post, "race:"+maze.String(), user, "p"+user[len(user)-4:]))
					if err != nil {
						b.Fatal(err)
					}
					resp, err := ix.Wait(testContext(b))
					if (err != nil || resp.Instance == "") && attempt == 3 {
						b.Fatalf("Race: %+v %v", resp, err)
					}
					if err == nil {
						instance = resp.Instance
					}
				}
			} else {
				fake.JoinActivity(channel, user, "p"+user[len(user)-4:])
			}
			// A room's members are split over the processes.
			a := apps[(r+p)%processes]
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
	if path := os.Getenv("MAZEBOT_BENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	cpuBefore := cpuTime()
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
	cpu := cpuTime() - cpuBefore

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
	b.ReportMetric(cpu.Seconds()/elapsed.Seconds(), "cpu-cores")
	// Moves the server did not play: refused by the rate limit when a
	// connection's messages, held up behind the store, reach it at once.
	b.ReportMetric(float64(want-len(latencies)), "unplayed")
	b.ReportMetric(0, "ns/op") // a paced load: the time per op says nothing
}

// cpuTime is the CPU time the test's process used so far, user and
// system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
