package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/sync/errgroup"

	"mazebot/arena"
)

// loadGeneratorEnv names the file of a loadSpec: set, the test binary is
// BenchmarkArena's load generator instead of running tests (TestMain).
// The racers' 2,000 WebSockets run in a process of their own, so that no
// server shares its Go scheduler with them: in the benchmark's process
// they took 59% of its CPU, and its app's bus writer fell behind the two
// others'.
const loadGeneratorEnv = "MAZEBOT_BENCH_LOADGEN"

// loadSpec is what the benchmark prepared for the load generator: the
// racers, signed in (a session token each), their rooms' members
// consecutive and the first of each its launcher; and the race's pace.
type loadSpec struct {
	Racers  []loadRacer
	PerRoom int
	Moves   int // each racer's
	Rate    int // moves a second, each racer's
	// Open and Back are the first corridor's direction from the start and
	// the one back: every racer plays them in turn.
	Open, Back string
	InStep     bool // MAZEBOT_BENCH_INSTEP: every racer writes at once
}

type loadRacer struct {
	Addr, Session, User string
	Process             int // which of the benchmark's apps Addr is
}

// loadReport is what the load generator measured, durations in ns: the
// moves it wrote, those played (by their answers), the time from the first
// write to the last answer, its CPU time over it, and the latencies
// benchArena's doc describes.
type loadReport struct {
	Sent, Played, Elapsed, CPU int64
	Answers, Seen, SeenAcross  []time.Duration
}

// runLoadGenerator is the load generator's process: it connects the
// racers of the spec in specPath, has each room's launcher start its
// race, writes "ready" when every racer is racing, and waits for a line on
// its standard input; then it races, writes its loadReport as JSON, and
// returns the exit code.
func runLoadGenerator(specPath string) int {
	if err := generateLoad(specPath, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "load generator:", err)
		return 1
	}
	return 0
}

func generateLoad(specPath string, in io.Reader, out io.Writer) error {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var spec loadSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return err
	}
	if spec.PerRoom < 1 || len(spec.Racers)%spec.PerRoom != 0 {
		return fmt.Errorf("%d racers do not fill rooms of %d", len(spec.Racers), spec.PerRoom)
	}
	// Times are noted from one epoch; only their differences are reported.
	epoch := time.Now()
	racers := make([]*benchRacer, len(spec.Racers))
	for i, s := range spec.Racers {
		racers[i] = newBenchRacer(s.User, s.Process, spec.Moves)
	}
	for i := 0; i < len(racers); i += spec.PerRoom {
		room := racers[i : i+spec.PerRoom]
		// The room's last member watches the others' moves (racing as
		// well); every member notes its own answers.
		watcher := room[len(room)-1]
		watcher.onFrame = watcher.watch(room, epoch)
		for _, r := range room[:len(room)-1] {
			r.watched = true
			r.onFrame = func(frame []byte) { r.answer(frame, time.Since(epoch)) }
		}
	}
	var dials errgroup.Group
	dials.SetLimit(16)
	for i, r := range racers {
		dials.Go(func() error { return r.connect(spec.Racers[i]) })
	}
	if err := dials.Wait(); err != nil {
		return err
	}
	defer func() {
		for _, r := range racers {
			r.ws.Close()
		}
	}()
	for _, r := range racers {
		if err := r.await(r.welcomed, "a welcome"); err != nil {
			return err
		}
	}
	for i := 0; i < len(racers); i += spec.PerRoom {
		if err := racers[i].write([]byte(`{"t":"start"}`)); err != nil {
			return err
		}
	}
	for i, r := range racers {
		if err := r.await(r.racing, "its race"); err != nil {
			first := i / spec.PerRoom * spec.PerRoom
			return fmt.Errorf("%w\n%s", err, roomViews(racers[first:first+spec.PerRoom]))
		}
	}
	if _, err := io.WriteString(out, "ready\n"); err != nil {
		return err
	}
	if _, err := bufio.NewReader(in).ReadString('\n'); err != nil {
		return fmt.Errorf("waiting for the go: %w", err)
	}
	if path := os.Getenv("MAZEBOT_BENCH_LOADPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	report := raceLoad(spec, racers, epoch)
	return json.NewEncoder(out).Encode(report)
}

// raceLoad has every racer write its moves at the spec's pace, then waits for
// the moves in flight: until every move is answered (played or refused)
// and every played one seen by its room's watcher, or nothing more comes
// for a second. The elapsed time counts to the last answer.
func raceLoad(spec loadSpec, racers []*benchRacer, epoch time.Time) loadReport {
	cpuBefore := cpuTime()
	start := time.Now()
	var wg sync.WaitGroup
	var sent atomic.Int64
	period := time.Second / time.Duration(spec.Rate)
	for j, r := range racers {
		wg.Go(func() {
			if !spec.InStep {
				// Members do not press in step: each racer's moves are
				// spread over the period.
				time.Sleep(period * time.Duration(j) / time.Duration(len(racers)))
			}
			tick := time.NewTicker(period)
			defer tick.Stop()
			for i := range spec.Moves {
				dir := spec.Open
				if i%2 == 1 {
					dir = spec.Back
				}
				r.wrote[i].Store(int64(time.Since(epoch)))
				if r.write([]byte(`{"t":"move","dir":"`+dir+`"}`)) != nil {
					return
				}
				sent.Add(1)
				<-tick.C
			}
		})
	}
	wg.Wait()
	want := sent.Load()
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
	report := loadReport{Sent: want, Elapsed: int64(elapsed), CPU: int64(cpuTime() - cpuBefore)}
	for i, r := range racers {
		report.Played += r.played.Load()
		report.Answers = r.answerLatencies(report.Answers)
		if r.watched {
			report.Seen = r.seenLatencies(report.Seen)
			if watcher := racers[i/spec.PerRoom*spec.PerRoom+spec.PerRoom-1]; watcher.process != r.process {
				report.SeenAcross = r.seenLatencies(report.SeenAcross)
			}
		}
	}
	return report
}

// benchRacer is one racer's connection, and what the load generator notes
// of its moves, as times since the race's epoch (0: not yet): when it
// wrote each move, when that move's answer came, and, by the click count
// (played moves only) its pos answer gave, when the move that made it was
// written and when the room's watcher first saw the racer at that count or
// later.
type benchRacer struct {
	me      string
	process int // which of the apps it is connected to
	ws      *websocket.Conn
	// welcomed and racing close when the room welcomes the racer and
	// shows it racing; done when its connection ends (err says why).
	welcomed, racing, done chan struct{}
	err                    error
	// lastRoom is the last room message read before racing (the reader's
	// until racing closes): a racer never shown racing says how it saw
	// its room.
	lastRoom atomic.Pointer[[]byte]
	// onFrame is shown every frame once the racer is racing (its bytes
	// valid only during the call): the racer's look at what it receives.
	onFrame func(frame []byte)
	writeMu sync.Mutex // the start, then the racer's moves
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

func newBenchRacer(user string, process, moves int) *benchRacer {
	return &benchRacer{me: user, process: process, wrote: make([]atomic.Int64, moves), answered: make([]atomic.Int64, moves),
		clicked: make([]atomic.Int64, moves+1), seen: make([]atomic.Int64, moves+1),
		welcomed: make(chan struct{}), racing: make(chan struct{}), done: make(chan struct{})}
}

// connect dials the racer's app, says hello with its session token and
// starts its reader.
func (r *benchRacer) connect(s loadRacer) error {
	ws, _, err := websocket.DefaultDialer.Dial("ws://"+s.Addr+"/api/room", nil)
	if err != nil {
		return fmt.Errorf("dial the room: %w", err)
	}
	r.ws = ws
	hello, err := json.Marshal(arena.HelloMsg{T: "hello", V: arena.ProtocolVersion, Session: s.Session, Locale: "en-US"})
	if err != nil {
		return err
	}
	go r.read()
	return r.write(hello)
}

func (r *benchRacer) write(b []byte) error {
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	return r.ws.WriteMessage(websocket.TextMessage, b)
}

// read decodes what the room says until it shows the racer racing; from
// then on it reads each frame into one buffer, undecoded, for onFrame.
func (r *benchRacer) read() {
	defer close(r.done)
	welcomed := false
	for {
		_, b, err := r.ws.ReadMessage()
		if err != nil {
			r.err = err
			return
		}
		var m map[string]any
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		if m["room"] != nil {
			r.lastRoom.Store(&b)
		}
		if !welcomed && m["t"] == "welcome" {
			welcomed = true
			close(r.welcomed)
		}
		if welcomed && playerIn(m, r.me)["racing"] == true {
			close(r.racing)
			break
		}
	}
	var frame bytes.Buffer
	for {
		_, rd, err := r.ws.NextReader()
		if err == nil {
			frame.Reset()
			_, err = frame.ReadFrom(rd)
		}
		if err != nil {
			r.err = err
			return
		}
		r.onFrame(frame.Bytes())
	}
}

// await waits up to a minute for ready to close, or the connection to end.
func (r *benchRacer) await(ready chan struct{}, what string) error {
	select {
	case <-ready:
		return nil
	case <-r.done:
		return fmt.Errorf("%s waiting for %s: the connection ended: %w", r.me, what, r.err)
	case <-time.After(time.Minute):
		last := []byte("none")
		if room := r.lastRoom.Load(); room != nil {
			last = *room
		}
		return fmt.Errorf("%s (on process %d) timed out waiting for %s; the last room it was shown: %s", r.me, r.process, what, last)
	}
}

// roomViews says how each process showed its room to a member there:
// the last room message one of them read before racing (a replica apart
// from the others shows other players, or another phase).
func roomViews(room []*benchRacer) string {
	var b strings.Builder
	shown := map[int]bool{}
	for _, r := range room {
		if shown[r.process] {
			continue
		}
		shown[r.process] = true
		last := "none"
		if m := r.lastRoom.Load(); m != nil {
			last = string(*m)
		}
		fmt.Fprintf(&b, "process %d, as %s was shown it: %s\n", r.process, r.me, last)
	}
	return b.String()
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

// watch returns the racer's look at its frames as its room's watcher: it
// notes its answers, and when it sees each other member of room at a new
// click count in a moves message.
func (r *benchRacer) watch(room []*benchRacer, epoch time.Time) func(frame []byte) {
	others := map[string]*benchRacer{}
	for _, o := range room {
		if o != r {
			others[o.me] = o
		}
	}
	return func(frame []byte) {
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
