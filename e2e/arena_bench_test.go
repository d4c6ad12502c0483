package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"golang.org/x/sync/errgroup"

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
//   - bus-lag-p50-µs, bus-lag-p99-µs (several processes only): of that
//     wait, the bus's share for the moves the other processes put on it,
//     from their input's time there to the benchmark's app's listener
//     delivering them (ObserveBusLag); the rest is the room's loop and its
//     tick;
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
//   - sched-p50-µs, sched-p99-µs: how long the test's process's goroutines
//     waited, runnable, for a thread during the race (the Go runtime's
//     /sched/latencies), the server's queue for the CPU;
//   - heap-B/room, the heap a room takes in the test's process: its app's,
//     with the members connected to it, and the fake Discord's record of
//     their launches and sign-ins (the clients are the load generator's);
//   - cpu-cores, the cores the test's process used while the moves were
//     played; on several processes child-cpu-cores, the other apps'
//     together (from /proc, over the same time); load-cpu-cores, the load
//     generator's; machine-idle-%, the share of all the machine's CPU
//     time that was idle (what the four processes did not use, the
//     database used): near 0, every process waits in the CPUs' run
//     queues, and the latencies with it.
//
// The racers are prepared here (their rooms launched, their members
// signed in, four at a time) and connected and raced by a load generator,
// a process of its own (the test binary, runLoadGenerator): with its
// 4,000 goroutines in the test's process, the server there shared its
// scheduler and its CPU with its clients, which production never does.
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
// MAZEBOT_BENCH_CPUPROFILE names a file for a CPU profile of the test's
// process over the race (its server's alone), MAZEBOT_BENCH_LOADPROFILE
// one of the load generator's.
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
		{1, 8, 1, 10}, {1, 200, 25, 10}, {1, 2000, 200, 8}, {1, 100, 1, 8}, {3, 200, 25, 8}, {3, 1000, 100, 8}, {3, 2000, 200, 8},
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
		mu                             sync.Mutex
		latencies, broadcasts, busLags []time.Duration
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
	observeBusLag := func(d time.Duration) {
		mu.Lock()
		busLags = append(busLags, d)
		mu.Unlock()
	}
	cfg := fake.config(dsn)
	cfg.ActivityAddr, cfg.ClientSecret = "127.0.0.1:0", fakediscord.DefaultClientSecret
	apps := []activityHost{fake.launchOptions(b, cfg, app.Options{ArenaObserveMove: observe, ArenaObserveBroadcast: observeBroadcast, ArenaObserveBusLag: observeBusLag})}
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
	maze := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 42}
	m, err := mazecore.Generate(maze)
	if err != nil {
		b.Fatal(err)
	}
	spec := loadSpec{PerRoom: players / rooms, Moves: max((b.N+players-1)/players, 5*rate), Rate: rate,
		InStep: os.Getenv("MAZEBOT_BENCH_INSTEP") != ""}
	for _, d := range mazecore.Dirs {
		if m.Open(m.Start().X/2, m.Start().Y/2, d) {
			spec.Open = dirLetter(d)
		}
	}
	spec.Back = map[string]string{"e": "w", "w": "e", "n": "s", "s": "n"}[spec.Open]

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	spec.Racers = launchRooms(b, fake, apps, maze, rooms, spec.PerRoom)
	load := startLoadGenerator(b, spec)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
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
	cpuBefore, childrenBefore, idleBefore := cpuTime(), processesCPU(botPIDs(children)), machineIdle()
	databaseBefore := map[int]time.Duration{}
	for _, pid := range commandPIDs("postgres") {
		databaseBefore[pid] = processesCPU([]int{pid})
	}
	schedBefore := schedLatencies()
	b.ResetTimer()
	report := load.race(b)
	b.StopTimer()
	sched := schedLatencies()
	for i := range sched.Counts {
		sched.Counts[i] -= schedBefore.Counts[i]
	}
	cpu, childCPU, idle := cpuTime()-cpuBefore, processesCPU(botPIDs(children))-childrenBefore, machineIdle()-idleBefore
	// The database's processes at the end, each less its time before: a
	// connection opened during the race (a pool's new one) counts from 0;
	// one closed during it is not counted.
	var databaseCPU time.Duration
	databasePIDs := commandPIDs("postgres")
	for _, pid := range databasePIDs {
		databaseCPU += processesCPU([]int{pid}) - databaseBefore[pid]
	}

	if report.Played == 0 {
		b.Fatal("no move was played")
	}
	if len(report.Seen) == 0 && spec.PerRoom > 1 {
		b.Fatal("no member saw another's move")
	}
	elapsedS := time.Duration(report.Elapsed).Seconds()
	b.ReportMetric(float64(report.Played)/elapsedS, "moves/s")
	mu.Lock()
	defer mu.Unlock()
	for _, l := range []struct {
		name string
		d    []time.Duration
	}{{"", latencies}, {"broadcast-", broadcasts}, {"bus-lag-", busLags}, {"answer-", report.Answers}, {"seen-", report.Seen}, {"seen-across-", report.SeenAcross}} {
		if len(l.d) == 0 {
			continue
		}
		b.ReportMetric(float64(percentile(l.d, 50).Microseconds()), l.name+"p50-µs")
		b.ReportMetric(float64(percentile(l.d, 99).Microseconds()), l.name+"p99-µs")
	}
	b.ReportMetric(float64(histogramPercentile(sched, 50).Microseconds()), "sched-p50-µs")
	b.ReportMetric(float64(histogramPercentile(sched, 99).Microseconds()), "sched-p99-µs")
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(rooms), "heap-B/room")
	b.ReportMetric(cpu.Seconds()/elapsedS, "cpu-cores")
	if len(children) > 0 {
		b.ReportMetric(childCPU.Seconds()/elapsedS, "child-cpu-cores")
	}
	b.ReportMetric(time.Duration(report.CPU).Seconds()/elapsedS, "load-cpu-cores")
	if strings.HasPrefix(dsn, "postgres") && len(databasePIDs) > 0 {
		// The database server's processes on this machine (every one
		// named postgres, other tests' included: a figure for a quiet
		// machine).
		b.ReportMetric(databaseCPU.Seconds()/elapsedS, "db-cpu-cores")
	}
	if idle > 0 {
		// The machine's idle share over the race: the database's work and
		// anything else on it included.
		b.ReportMetric(100*idle.Seconds()/elapsedS/float64(runtime.NumCPU()), "machine-idle-%")
	}
	// Moves the server did not play: refused by the rate limit when a
	// connection's messages, held up behind the store, reach it at once.
	b.ReportMetric(float64(report.Sent-report.Played), "unplayed")
	b.ReportMetric(0, "ns/op") // a paced load: the time per op says nothing
}

// launchRooms posts a race button a room and has each room's first member
// press it, the others join its Activity in Discord, and every member sign
// in to one of apps (a room's members split over them), four at a time:
// no more than the Activity's door lets one address have in its code
// exchange. It returns the racers, room by room.
func launchRooms(b *testing.B, fake *discord, apps []activityHost, maze mazecore.ID, rooms, perRoom int) []loadRacer {
	b.Helper()
	buttons, err := json.Marshal([]discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Race", CustomID: "race:" + maze.String(), Style: discordgo.SecondaryButton}}}})
	if err != nil {
		b.Fatal(err)
	}
	racers := make([]loadRacer, rooms*perRoom)
	var launches errgroup.Group
	launches.SetLimit(4)
	for r := range rooms {
		launches.Go(func() error {
			channel := "13000000000000" + strconv.Itoa(10000+r)
			post := fake.PostChannelMessage(channel, fakediscord.Message{Content: "race", AuthorID: fake.Config().AppID, ComponentsJSON: buttons})
			var instance string
			for p := range perRoom {
				user := strconv.Itoa(1400000000000100000 + r*1000 + p)
				if p == 0 {
					var err error
					if instance, err = pressRaceButton(b.Context(), fake, post, maze, user); err != nil {
						return err
					}
				} else {
					fake.JoinActivity(channel, user, "p"+user[len(user)-4:])
				}
				process := (r + p) % len(apps)
				session, err := trySignIn(fake, apps[process], user, instance)
				if err != nil {
					return err
				}
				racers[r*perRoom+p] = loadRacer{Addr: apps[process].ActivityAddr(), Session: session, User: user, Process: process}
			}
			return nil
		})
	}
	if err := launches.Wait(); err != nil {
		b.Fatal(err)
	}
	return racers
}

// pressRaceButton has user press post's Race button and returns the
// instance it launched. On a loaded machine the button's answer may be
// late and deferred (type 6, no launch): the member presses again, up to
// three times.
func pressRaceButton(ctx context.Context, fake *discord, post *fakediscord.Message, maze mazecore.ID, user string) (string, error) {
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		ix, err := fake.ClickButton(ctx, memberButton(post, "race:"+maze.String(), user, "p"+user[len(user)-4:]))
		if err != nil {
			cancel()
			return "", err
		}
		resp, err := ix.Wait(ctx)
		cancel()
		if err == nil && resp.Instance != "" {
			return resp.Instance, nil
		}
		if attempt == 3 {
			return "", fmt.Errorf("race: %+v %v", resp, err)
		}
	}
}

// loadGenerator is the benchmark's load generator process (the test
// binary, runLoadGenerator), its racers connected and racing.
type loadGenerator struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer
}

// startLoadGenerator starts the load generator on spec and waits until it
// is ready to race.
func startLoadGenerator(b *testing.B, spec loadSpec) *loadGenerator {
	b.Helper()
	raw, err := json.Marshal(spec)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "load.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		b.Fatal(err)
	}
	g := &loadGenerator{cmd: exec.Command(os.Args[0]), stderr: &bytes.Buffer{}}
	g.cmd.Env = append(os.Environ(), loadGeneratorEnv+"="+path)
	g.cmd.Stderr = g.stderr
	if g.stdin, err = g.cmd.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	stdout, err := g.cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	g.stdout = bufio.NewReader(stdout)
	if err := g.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = g.cmd.Process.Kill() // gone already once it reported
		_ = g.cmd.Wait()
	})
	if line, err := g.stdout.ReadString('\n'); err != nil || line != "ready\n" {
		g.fail(b, fmt.Sprintf("said %q (%v) for ready", line, err))
	}
	return g
}

// race tells the load generator to race and returns its report.
func (g *loadGenerator) race(b *testing.B) loadReport {
	b.Helper()
	if _, err := io.WriteString(g.stdin, "go\n"); err != nil {
		g.fail(b, err.Error())
	}
	var report loadReport
	if err := json.NewDecoder(g.stdout).Decode(&report); err != nil {
		g.fail(b, "report: "+err.Error())
	}
	return report
}

func (g *loadGenerator) fail(b *testing.B, what string) {
	b.Helper()
	_ = g.cmd.Process.Kill()
	_ = g.cmd.Wait() // for all of stderr
	b.Fatalf("load generator %s: %s", what, g.stderr)
}

func botPIDs(ps []*botProcess) []int {
	pids := make([]int, len(ps))
	for i, p := range ps {
		pids[i] = p.cmd.Process.Pid
	}
	return pids
}

// commandPIDs is every process on the machine whose command is name.
func commandPIDs(name string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil && strings.TrimSpace(string(comm)) == name {
			pids = append(pids, pid)
		}
	}
	return pids
}

// processesCPU is the CPU time the processes used so far, user and
// system, from /proc (0 for one it cannot read).
func processesCPU(pids []int) time.Duration {
	var sum time.Duration
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
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

// schedLatencies is the Go runtime's histogram of the time its goroutines
// waited, runnable, for a thread in the test's process so far.
func schedLatencies() *metrics.Float64Histogram {
	sample := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(sample)
	h := sample[0].Value.Float64Histogram()
	return &metrics.Float64Histogram{Counts: slices.Clone(h.Counts), Buckets: h.Buckets}
}

// histogramPercentile is the upper bound of the bucket holding h's p-th
// percentile.
func histogramPercentile(h *metrics.Float64Histogram, p float64) time.Duration {
	var total uint64
	for _, c := range h.Counts {
		total += c
	}
	var sum uint64
	for i, c := range h.Counts {
		if sum += c; total > 0 && float64(sum) >= float64(total)*p/100 {
			return time.Duration(min(h.Buckets[i+1], float64(time.Hour/time.Second)) * float64(time.Second))
		}
	}
	return 0
}

// machineIdle is the time the machine's CPUs spent idle so far, all
// together, from /proc/stat (0 if it cannot be read).
func machineIdle() time.Duration {
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	// The first line sums the CPUs: "cpu  user nice system idle …", in
	// clock ticks (USER_HZ, 100).
	fields := bytes.Fields(bytes.SplitN(stat, []byte("\n"), 2)[0])
	if len(fields) < 5 || string(fields[0]) != "cpu" {
		return 0
	}
	ticks, _ := strconv.Atoi(string(fields[4]))
	return time.Duration(ticks) * (time.Second / 100)
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
	ada, bob := newBenchRacer("11", 0, 4), newBenchRacer("12", 1, 4)
	ada.watched = true
	epoch := time.Now().Add(-time.Hour)
	bobSees := bob.watch([]*benchRacer{ada, bob}, epoch)
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
	bobSees(encode(arena.MovesMsg{T: "moves", Moves: []arena.Dot{
		{ID: "12", X: 7, Y: 9, Tiles: 12, Clicks: 3}, {ID: "11", X: 5, Y: 1, Tiles: 4, Clicks: 2}}}))
	seen := ada.seenLatencies(nil)
	if len(seen) != 2 || seen[0] < time.Hour || seen[0]-seen[1] != 300 || ada.unseen() != 0 {
		t.Fatalf("ada seen after %v (unseen %d), want her first and last played moves, an hour after they were written", seen, ada.unseen())
	}
	if got := bob.seenLatencies(nil); len(got) != 0 {
		t.Fatalf("bob seen by himself: %v", got)
	}
}
