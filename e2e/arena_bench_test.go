package e2e

import (
	"bytes"
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
	"mazebot/arena"
	"mazebot/internal/fakediscord"
	"mazebot/internal/pgtest"
	"mazebot/mazecore"
)

// BenchmarkArena races on one process, the store a SQLite file: 8 players
// in one room and 200 over 25 rooms, each moving 10 times a second (the
// figures of issue 39's "today"); 2,000 over 200 rooms and 100 in one
// room, each moving 8 times a second. Every player moves back and forth
// along the first corridor from the start, until b.N moves are played in
// all, and for 5 s at least. It reports:
//
//   - moves/s, the moves played a second (by the racers' answers), and
//     unplayed, the moves written but refused;
//   - p50-µs, p99-µs: the server's time per move from its message's
//     receipt to the mover's answer (ObserveMove, inside the app: on three
//     processes, of the benchmark's own app's members only);
//   - broadcast-p50-µs, broadcast-p99-µs: the server's time from a move's
//     input (its time, stamped at its receipt, in ms) to the room's moves
//     message that shows it to the others, for the oldest of a racer's
//     moves in each message (ObserveBroadcast, the benchmark's own app);
//   - answer-p50-µs, answer-p99-µs: the mover's, from writing the move to
//     reading its pos (the load generator's own delays included: on two
//     shared cores they are most of it);
//   - seen-p50-µs, seen-p99-µs: what the others see, from writing a move
//     to another member of the room reading a moves message with the
//     racer at that move's click count or later. One member a room (its
//     last, racing as well) watches for the others, reading the moves
//     messages with a byte search; the others only note their answers'
//     click counts, by which a played move (refused ones count no click)
//     is known. On several processes seen-across-… are those of racers on
//     a process other than the watcher's;
//   - heap-B/room, the heap a room takes in the test's process with its
//     players connected (the test's own ends of the WebSockets included,
//     not the messages they were sent before the race);
//   - cpu-cores, the cores the test's process used while the moves were
//     played (server and load generator together; the profile below tells
//     them apart), and on several processes child-cpu-cores, the other
//     processes' together (from /proc, over the same time).
//
// Each racer's moves are spread over the period (the k-th of n racers
// starts k/n of it late), as members do not press in step; with
// MAZEBOT_BENCH_INSTEP=1 they write in step, as the figures before
// December 6 were taken: every room's moves then come at once, wait in
// the sockets before the server reads them (which p50-µs does not count,
// answer-p50-µs does), and each waits a whole tick for its broadcast. A
// room sends its moves a tick (moveTick, 15 ms) after the first move
// since it last did.
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
// on three (the test's own app and two of the binary's, real processes,
// each with its own bus connections and hub) with every room's members
// split over them, so that each room has a replica on each and every
// input reaches all three.
//
//	go test ./e2e -run '^$' -bench 'BenchmarkArenaPostgres' -benchtime 4000x
//	go test ./e2e -run '^$' -bench 'BenchmarkArenaPostgres$/^processes=3$/^players=200$/' -benchtime 2000x
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
		mu                    sync.Mutex
		latencies, broadcasts []time.Duration
	)
	observe := func(d time.Duration) {
		mu.Lock()
		latencies = append(latencies, d)
		mu.Unlock()
	}
	observeBroadcast := func(d time.Duration) {
		mu.Lock()
		broadcasts = append(broadcasts, d)
		mu.Unlock()
	}
	cfg := fake.config(dsn)
	cfg.ActivityAddr, cfg.ClientSecret = "127.0.0.1:0", fakediscord.DefaultClientSecret
	apps := []activityHost{fake.launchOptions(b, cfg, app.Options{ArenaObserveMove: observe, ArenaObserveBroadcast: observeBroadcast})}
	// The other processes are the binary's, real OS processes on the same
	// database (at info, not the harness's debug: their logs are kept in
	// this process's memory).
	var children []*botProcess
	for range processes - 1 {
		p := fake.startProcess(b, b.TempDir(), "MAZEBOT_DB="+dsn, "ACTIVITY_ADDR=127.0.0.1:0",
			"DISCORD_CLIENT_SECRET="+fakediscord.DefaultClientSecret, "LOG_LEVEL=info")
		children = append(children, p)
		apps = append(apps, p.arenaAddr(b))
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
	each := max((b.N+players-1)/players, 5*rate)
	var racers []*benchRacer
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
			process := (r + p) % processes
			a := apps[process]
			racers = append(racers, newBenchRacer(join(b, a, signIn(b, fake, a, user, instance), instance), process, each))
		}
		racers[len(racers)-perRoom].c.send(map[string]any{"t": "start"})
	}
	for _, r := range racers {
		r.c.racing(r.c.me)
	}
	epoch := time.Now()
	for i := 0; i < len(racers); i += perRoom {
		room := racers[i : i+perRoom]
		// The room's last member watches the others' moves (racing as
		// well); every member notes its own answers.
		room[len(room)-1].watch(room, epoch)
		for _, r := range room[:len(room)-1] {
			r.watched = true
			r.c.peek = func(frame []byte) { r.answer(frame, time.Since(epoch)) }
		}
	}
	for _, r := range racers {
		c := r.c
		// What the room says is read and dropped, but for a byte search
		// for the answers and, by one member a room, the moves: decoding
		// every racer's moves for every client took much of the two cores
		// the server shares with its clients here.
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
	cpuBefore, childrenBefore := cpuTime(), childrenCPU(children)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	period := time.Second / time.Duration(rate)
	inStep := os.Getenv("MAZEBOT_BENCH_INSTEP") != ""
	for j, r := range racers {
		wg.Go(func() {
			if !inStep {
				// Members do not press in step: each racer's moves are
				// spread over the period.
				time.Sleep(period * time.Duration(j) / time.Duration(len(racers)))
			}
			tick := time.NewTicker(period)
			defer tick.Stop()
			for i := range each {
				dir := open
				if i%2 == 1 {
					dir = back
				}
				r.wrote[i].Store(int64(time.Since(epoch)))
				if err := r.c.ws.WriteMessage(1, []byte(`{"t":"move","dir":"`+dir+`"}`)); err != nil {
					return
				}
				sent.Add(1)
				<-tick.C
			}
		})
	}
	wg.Wait()
	want := sent.Load()
	// Wait for the moves in flight: until every move is answered (played
	// or refused) and every played one seen by its room's watcher, or
	// nothing more comes for a second. The moves a second count to the
	// last answer.
	var elapsed time.Duration
	lastProgress, lastAt := int64(-1), time.Now()
	for {
		answered, unseen := int64(0), int64(0)
		for _, r := range racers {
			answered += r.answers.Load()
			unseen += r.unseen()
		}
		if elapsed == 0 && answered >= want {
			elapsed = time.Since(start)
		}
		if progress := answered - unseen; progress != lastProgress {
			lastProgress, lastAt = progress, time.Now()
		}
		if answered >= want && unseen == 0 || time.Since(lastAt) > time.Second {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if elapsed == 0 {
		elapsed = time.Since(start)
	}
	b.StopTimer()
	cpu, childCPU := cpuTime()-cpuBefore, childrenCPU(children)-childrenBefore

	var played int64
	var answers, seen, seenAcross []time.Duration
	for i, r := range racers {
		played += r.played.Load()
		answers = r.answerLatencies(answers)
		if r.watched {
			seen = r.seenLatencies(seen)
			if watcher := racers[i/perRoom*perRoom+perRoom-1]; watcher.process != r.process {
				seenAcross = r.seenLatencies(seenAcross)
			}
		}
	}
	if played == 0 {
		b.Fatal("no move was played")
	}
	if len(seen) == 0 && perRoom > 1 {
		b.Fatal("no member saw another's move")
	}
	elapsedS := elapsed.Seconds()
	b.ReportMetric(float64(played)/elapsedS, "moves/s")
	mu.Lock()
	defer mu.Unlock()
	for _, l := range []struct {
		name string
		d    []time.Duration
	}{{"", latencies}, {"broadcast-", broadcasts}, {"answer-", answers}, {"seen-", seen}, {"seen-across-", seenAcross}} {
		if len(l.d) == 0 {
			continue
		}
		b.ReportMetric(float64(percentile(l.d, 50).Microseconds()), l.name+"p50-µs")
		b.ReportMetric(float64(percentile(l.d, 99).Microseconds()), l.name+"p99-µs")
	}
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(rooms), "heap-B/room")
	b.ReportMetric(cpu.Seconds()/elapsedS, "cpu-cores")
	if len(children) > 0 {
		b.ReportMetric(childCPU.Seconds()/elapsedS, "child-cpu-cores")
	}
	// Moves the server did not play: refused by the rate limit when a
	// connection's messages, held up behind the store, reach it at once.
	b.ReportMetric(float64(want-played), "unplayed")
	b.ReportMetric(0, "ns/op") // a paced load: the time per op says nothing
}

// benchRacer is what the load generator notes of one racer's moves, as
// times since the race's epoch (0: not yet): when it wrote each move, when
// that move's answer came, and, by the click count (played moves only) its
// pos answer gave, when the move that made it was written and when the
// room's watcher first saw the racer at that count or later.
type benchRacer struct {
	c       *roomClient
	process int // which of the apps it is connected to
	wrote   []atomic.Int64
	// answered is when the answer to wrote's move came: a pos (played),
	// or 0 (refused, or none yet).
	answered []atomic.Int64
	answers  atomic.Int64 // answers read, pos or refused: wrote's next index
	played   atomic.Int64 // the click count of the last pos
	clicked  []atomic.Int64
	seen     []atomic.Int64
	// watched: another member of its room notes seen; seenUpTo is the
	// highest click count that one saw (its reader's alone).
	watched  bool
	seenUpTo int
}

func newBenchRacer(c *roomClient, process, moves int) *benchRacer {
	return &benchRacer{c: c, process: process, wrote: make([]atomic.Int64, moves), answered: make([]atomic.Int64, moves),
		clicked: make([]atomic.Int64, moves+1), seen: make([]atomic.Int64, moves+1)}
}

var (
	posFrame     = []byte(`{"t":"pos",`)
	refusedFrame = []byte(`{"t":"refused",`)
	movesFrame   = []byte(`{"t":"moves",`)
	idField      = []byte(`"id":"`)
	clicksField  = []byte(`"clicks":`)
)

// answer notes frame if it answers one of the racer's moves: the room
// answers a connection's moves in the order they came, each with a pos
// (played) or a refusal. A pos whose click count is no higher than the
// last one's answers no move: it puts the racer back where the bus
// played them, after a prediction went otherwise (arena/predict.go). (A
// refusal past twenty in a flood may go unsaid; then later answers are
// taken for earlier moves', and the latencies overstated.)
func (r *benchRacer) answer(frame []byte, now time.Duration) {
	switch {
	case bytes.HasPrefix(frame, posFrame):
		clicks, _, ok := intAfter(frame, clicksField)
		if ok && int64(clicks) <= r.played.Load() {
			r.played.Store(int64(clicks)) // its next move's clicks count from there
			return
		}
		i := r.answers.Add(1) - 1
		if !ok || i >= int64(len(r.wrote)) {
			return
		}
		r.answered[i].Store(int64(now))
		if clicks < len(r.clicked) {
			r.clicked[clicks].Store(r.wrote[i].Load())
		}
		r.played.Store(int64(clicks))
	case bytes.HasPrefix(frame, refusedFrame):
		r.answers.Add(1)
	}
}

// watch has the racer, besides noting its answers, note when it sees each
// other member of room at a new click count in a moves message.
func (r *benchRacer) watch(room []*benchRacer, epoch time.Time) {
	others := map[string]*benchRacer{}
	for _, o := range room {
		if o != r {
			others[o.c.me] = o
		}
	}
	r.c.peek = func(frame []byte) {
		now := time.Since(epoch)
		if !bytes.HasPrefix(frame, movesFrame) {
			r.answer(frame, now)
			return
		}
		eachDot(frame, func(id []byte, clicks int) {
			o := others[string(id)]
			if o == nil {
				return
			}
			for ; o.seenUpTo < min(clicks, len(o.seen)-1); o.seenUpTo++ {
				o.seen[o.seenUpTo+1].Store(int64(now))
			}
		})
	}
}

// unseen is 1 while the racer's last played move is not yet seen by its
// room's watcher (for the watcher itself, whose moves nobody watches,
// never).
func (r *benchRacer) unseen() int64 {
	k := r.played.Load()
	if !r.watched || k == 0 || k >= int64(len(r.seen)) || r.seen[k].Load() != 0 {
		return 0
	}
	return 1
}

func (r *benchRacer) answerLatencies(to []time.Duration) []time.Duration {
	for i := range r.answered {
		if at := r.answered[i].Load(); at != 0 {
			to = append(to, time.Duration(at-r.wrote[i].Load()))
		}
	}
	return to
}

func (r *benchRacer) seenLatencies(to []time.Duration) []time.Duration {
	for k := 1; k < len(r.seen); k++ {
		if wrote, at := r.clicked[k].Load(), r.seen[k].Load(); wrote != 0 && at != 0 {
			to = append(to, time.Duration(at-wrote))
		}
	}
	return to
}

// eachDot calls f with each dot's id and click count in a moves message
// as the room encodes it (arena.Dot's fields, clicks after id).
func eachDot(frame []byte, f func(id []byte, clicks int)) {
	for {
		i := bytes.Index(frame, idField)
		if i < 0 {
			return
		}
		frame = frame[i+len(idField):]
		j := bytes.IndexByte(frame, '"')
		if j < 0 {
			return
		}
		id := frame[:j]
		clicks, rest, ok := intAfter(frame[j:], clicksField)
		if !ok {
			return
		}
		f(id, clicks)
		frame = rest
	}
}

// intAfter reads the non-negative integer after the first field in b, and
// returns it with what follows it.
func intAfter(b, field []byte) (n int, rest []byte, ok bool) {
	i := bytes.Index(b, field)
	if i < 0 {
		return 0, nil, false
	}
	b = b[i+len(field):]
	j := 0
	for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
		n = n*10 + int(b[j]-'0')
	}
	return n, b[j:], j > 0
}

// childrenCPU is the CPU time the processes used so far, user and system,
// from /proc (0 for one it cannot read).
func childrenCPU(ps []*botProcess) time.Duration {
	var sum time.Duration
	for _, p := range ps {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
		if err != nil {
			continue
		}
		// After the command's name in parentheses: state is the 3rd
		// field, utime and stime the 14th and 15th, in clock ticks
		// (USER_HZ, 100 on Linux's every architecture Go runs on).
		_, rest, _ := bytes.Cut(stat, []byte(") "))
		fields := bytes.Fields(rest)
		if len(fields) < 13 {
			continue
		}
		for _, f := range fields[11:13] {
			ticks, _ := strconv.Atoi(string(f))
			sum += time.Duration(ticks) * (time.Second / 100)
		}
	}
	return sum
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

// TestArenaBenchFrames: the benchmark's byte search reads the room's
// messages as arena encodes them: a pos answers the next written move
// (a refusal too, played or not; a pos that takes clicks back, none),
// and a watcher's moves message marks
// another member seen at its click count, never itself.
func TestArenaBenchFrames(t *testing.T) {
	t.Parallel()
	ada, bob := newBenchRacer(&roomClient{me: "11"}, 0, 4), newBenchRacer(&roomClient{me: "12"}, 1, 4)
	ada.watched = true
	epoch := time.Now().Add(-time.Hour)
	bob.watch([]*benchRacer{ada, bob}, epoch)
	encode := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ada.wrote[0].Store(100)
	ada.wrote[1].Store(200)
	ada.wrote[2].Store(300)
	ada.wrote[3].Store(400)
	ada.answer(encode(arena.PosMsg{T: "pos", ID: "11", X: 3, Y: 1, Tiles: 2, Clicks: 1}), 150)
	ada.answer(encode(arena.RefusedMsg{T: "refused", Why: "rate"}), 250)
	ada.answer(encode(arena.PosMsg{T: "pos", ID: "11", X: 5, Y: 1, Tiles: 4, Clicks: 2}), 390)
	ada.answer(encode(arena.PosMsg{T: "pos", ID: "11", X: 3, Y: 1, Tiles: 2, Clicks: 1}), 395) // a correction
	ada.answer(encode(arena.PosMsg{T: "pos", ID: "11", X: 5, Y: 1, Tiles: 4, Clicks: 2}), 420)
	if got := ada.answerLatencies(nil); !slices.Equal(got, []time.Duration{50, 90, 20}) || ada.played.Load() != 2 || ada.unseen() != 1 {
		t.Fatalf("ada's answers %v, played %d, unseen %d; want [50 90 20], 2, 1", got, ada.played.Load(), ada.unseen())
	}
	bob.c.peek(encode(arena.MovesMsg{T: "moves", Moves: []arena.Dot{
		{ID: "12", X: 7, Y: 9, Tiles: 12, Clicks: 3}, {ID: "11", X: 5, Y: 1, Tiles: 4, Clicks: 2}}}))
	seen := ada.seenLatencies(nil)
	if len(seen) != 2 || seen[0] < time.Hour || seen[0]-seen[1] != 300 || ada.unseen() != 0 {
		t.Fatalf("ada seen after %v (unseen %d), want her first and last played moves, an hour after they were written", seen, ada.unseen())
	}
	if got := bob.seenLatencies(nil); len(got) != 0 {
		t.Fatalf("bob seen by himself: %v", got)
	}
}
