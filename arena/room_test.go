package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

// orderedBus is a Bus that several hubs share in one process, as the
// processes of a bot share PostgreSQL: one order, every subscriber.
type orderedBus struct {
	mu        sync.Mutex
	subs      []func([]byte)
	published int // the messages so far
}

type busEnd struct{ b *orderedBus }

func (b *orderedBus) end() Bus { return busEnd{b} }

func (e busEnd) Publish(_ context.Context, msg []byte) error {
	e.b.mu.Lock()
	defer e.b.mu.Unlock()
	e.b.published++
	for _, s := range e.b.subs {
		s(msg)
	}
	return nil
}

// Send is Publish: the order is taken, and kept, under the one lock.
func (e busEnd) Send(ctx context.Context, msg []byte) error { return e.Publish(ctx, msg) }

func (e busEnd) Subscribe(deliver func([]byte)) {
	e.b.mu.Lock()
	e.b.subs = append(e.b.subs, deliver)
	e.b.mu.Unlock()
}

func (busEnd) Shared() bool { return true }
func (busEnd) Close() error { return nil }

// memGames plays games in memory, as contest.Games does with a store.
type memGames struct {
	mu       sync.Mutex
	games    map[int64]*play.Game
	finishes int
	by       map[string]int   // finishes by member
	now      func() time.Time // a game's start; nil: the real clock
}

func (g *memGames) Start(_ context.Context, m *mazecore.Maze, who play.Record) (*play.Game, error) {
	return g.start(newGame(m, nil, who, g.clock()))
}

func (g *memGames) StartOnGrid(_ context.Context, m *mazecore.GridMaze, who play.Record) (*play.Game, error) {
	return g.start(newGame(nil, m, who, g.clock()))
}

// finishedBy is how many finishes were recorded, by member.
func (g *memGames) finishedBy() map[string]int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return maps.Clone(g.by)
}

func (g *memGames) clock() time.Time {
	if g.now != nil {
		return g.now()
	}
	return time.Now()
}

func (g *memGames) start(game *play.Game, err error) (*play.Game, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		return nil, err
	}
	game.ID = int64(len(g.games) + 1)
	g.games[game.ID] = game
	return game, nil
}

func (g *memGames) Finish(_ context.Context, game *play.Game) (contest.Turn, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	stored := g.games[game.ID]
	if stored == nil || stored.UserID != game.UserID {
		return contest.Turn{}, play.ErrNotYours
	}
	if stored.Status != play.Playing {
		return contest.Turn{}, play.ErrConflict
	}
	g.games[game.ID] = game
	g.finishes++
	if g.by == nil {
		g.by = map[string]int{}
	}
	g.by[game.UserID]++
	return contest.Turn{Game: game, Outcome: play.Finished}, nil
}

func testHub(t *testing.T, bus Bus, games Games) *hub {
	t.Helper()
	return newHub(Config{Games: games, Bus: bus, Log: slog.New(slog.DiscardHandler), Now: time.Now, Countdown: time.Millisecond})
}

func testInstance(id, channel string) instance {
	in := instance{ID: id}
	in.Location.ChannelID, in.Location.GuildID = channel, "g1"
	return in
}

// launch opens on h the room of instance i-1 in channel c1, whose race
// u1 launched on an 11×11 sidewinder maze.
func launch(t *testing.T, h *hub) (*room, instance, mazecore.ID) {
	t.Helper()
	maze := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3}
	h.pend("c1", "u1", maze, true, "")
	in := testInstance("i-1", "c1")
	r, err := h.open(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return r, in, maze
}

// openFromStart is a direction open from the maze's first cell.
func openFromStart(m *mazecore.Maze) mazecore.Dir {
	var open mazecore.Dir
	for _, d := range mazecore.Dirs {
		if m.Open(0, 0, d) {
			open = d
		}
	}
	return open
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestReplicas: a process that opens a room another holds takes its state
// (the sync) and then every event alike, moves included; the launch's maze
// reaches both.
func TestReplicas(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	a, b := testHub(t, bus.end(), games), testHub(t, bus.end(), games)
	// Each process observes the bus's lag of the moves the other put on it.
	var lagMu sync.Mutex
	lags := map[*hub]int{}
	for _, h := range []*hub{a, b} {
		h.cfg.ObserveBusLag = func(time.Duration) {
			lagMu.Lock()
			lags[h]++
			lagMu.Unlock()
		}
	}
	ra, in, maze := launch(t, a)
	ctx := context.Background()
	var got, launcher string
	ra.inspect(func(st *state) { got, launcher = st.Maze, st.Launcher })
	if got != maze.String() || launcher != "u1" {
		t.Fatalf("room on %s launched by %q, want %s by u1", got, launcher, maze)
	}
	rb := raceOnTwo(t, a, ra, b, in)
	state := func(r *room) string { return describe(t, r) }
	open := openFromStart(mazeOf(t, ra))
	if why := rb.move(ctx, nil, "u2", letter(open)); why != "" {
		t.Fatalf("bob's move refused: %s", why)
	}
	if why := rb.move(ctx, nil, "u2", letter(open.Opposite())); why != "" {
		t.Fatalf("bob's move back refused: %s", why)
	}
	if why := ra.move(ctx, nil, "u1", "n"); why != refusedWall {
		t.Fatalf("a move north from the start: %q, want wall", why)
	}
	if got, want := state(rb), state(ra); got != want {
		t.Fatalf("the replicas differ:\n%s\n%s", got, want)
	}
	if !strings.Contains(state(ra), "u2@1,1/2") {
		t.Fatalf("bob after two moves: %s", state(ra))
	}
	lagMu.Lock()
	if lags[a] != 2 || lags[b] != 1 {
		// Ada's move north went through the bus to be refused.
		t.Errorf("bus lags observed: %d by a, %d by b; want bob's 2 moves by a and ada's 1 by b", lags[a], lags[b])
	}
	lagMu.Unlock()
	// The last member leaving ends the room on both, once it lingered
	// for their return.
	a.publish(event{Kind: evBye, Instance: in.ID, User: "u1"})
	b.publish(event{Kind: evBye, Instance: in.ID, User: "u2"})
	a.publish(event{Kind: evExpire, Instance: in.ID, At: time.Now().Add(defaultLinger).UnixMilli()})
	waitFor(t, "the rooms ended", func() bool { return a.count() == 0 && b.count() == 0 })
}

// raceOnTwo has u1 (ada) join ra, the room a launched, and u2 (bob) the
// replica b opens of it, and starts the race: it returns b's replica once
// both replicas race both members (each process starts the game of the
// member connected to it).
func raceOnTwo(t *testing.T, a *hub, ra *room, b *hub, in instance) *room {
	t.Helper()
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	rb, err := b.open(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	b.publish(event{Kind: evHello, Instance: in.ID, User: "u2", Name: "bob"})
	a.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "both racing", func() bool {
		return strings.Count(describe(t, ra), "game=true") == 2 && strings.Count(describe(t, rb), "game=true") == 2
	})
	return rb
}

// describe is a room's agreed state in a line, to compare replicas.
func describe(t *testing.T, r *room) string {
	t.Helper()
	var b strings.Builder
	r.inspect(func(st *state) {
		fmt.Fprintf(&b, "%s %s %d:", st.Maze, st.Phase, st.StartAt)
		for _, p := range st.Players {
			fmt.Fprintf(&b, " %s@%d,%d/%d online=%v game=%v done=%v", p.ID, p.X, p.Y, p.Seq, p.online(), p.Game != 0, p.Done)
		}
	})
	return b.String()
}

func mazeOf(t *testing.T, r *room) *mazecore.Maze {
	t.Helper()
	var m *mazecore.Maze
	r.inspect(func(st *state) { m = st.maze })
	return m
}

// letter is a direction as the protocol names it.
func letter(d mazecore.Dir) string {
	for l, o := range squareDirs {
		if o == d {
			return string(l)
		}
	}
	return ""
}

// slowGames starts each game only once release is closed, as a slow store
// would.
type slowGames struct {
	*memGames
	release chan struct{}
}

func (g slowGames) Start(ctx context.Context, m *mazecore.Maze, who play.Record) (*play.Game, error) {
	<-g.release
	return g.memGames.Start(ctx, m, who)
}

// TestMoveAtTheStartWaitsForTheGame: the race begins for every client
// before the members' games exist (each a store call away), and a move
// made in between is played once the game is there, not refused as if
// the member were only watching.
func TestMoveAtTheStartWaitsForTheGame(t *testing.T) {
	games := slowGames{&memGames{games: map[int64]*play.Game{}}, make(chan struct{})}
	h := testHub(t, &MemoryBus{}, games)
	r, in, _ := launch(t, h)
	ctx := context.Background()
	h.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	h.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "the race, its game on the way", func() bool {
		phase, _ := r.info()
		return phase == phaseRace
	})
	open := openFromStart(mazeOf(t, r))
	moved := make(chan string, 1)
	go func() { moved <- r.move(ctx, nil, "u1", letter(open)) }()
	select {
	case why := <-moved:
		t.Fatalf("the move was answered (refused: %q) before its game existed", why)
	case <-time.After(50 * time.Millisecond):
	}
	close(games.release)
	if why := <-moved; why != "" {
		t.Fatalf("the move, once the game began, was refused: %q", why)
	}
}

// panickyGames panics where a store bug would: in u1's Start, and in
// every finish.
type panickyGames struct{ *memGames }

func (g panickyGames) Start(ctx context.Context, m *mazecore.Maze, who play.Record) (*play.Game, error) {
	if who.UserID == "u1" {
		panic("a bug in Start")
	}
	return g.memGames.Start(ctx, m, who)
}

func (panickyGames) Finish(context.Context, *play.Game) (contest.Turn, error) {
	panic("a bug in Finish")
}

// TestPanicsStayInTheRoom: a panic in the games (their store) fails that
// game's start, logged with its stack; the member watches, and the
// process, the room and the others' moves go on.
func TestPanicsStayInTheRoom(t *testing.T) {
	var logs testkit.LogBuffer
	h := newHub(Config{Games: panickyGames{&memGames{games: map[int64]*play.Game{}}}, Bus: &MemoryBus{},
		Log: slog.New(slog.NewTextHandler(&logs, nil)), Now: time.Now, Countdown: time.Millisecond})
	r, in, _ := launch(t, h)
	ctx := context.Background()
	h.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	h.publish(event{Kind: evHello, Instance: in.ID, User: "u2", Name: "bob"})
	h.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	// Ada's start is settled once the room made her watch, not once the
	// panic was logged: a move before that waits for her game, and is
	// refused as an error when none comes (a CI run did so).
	waitFor(t, "bob's game, and ada's start settled", func() bool {
		watching := false
		r.inspect(func(st *state) { watching = st.player("u1") != nil && st.player("u1").Watching })
		return watching && strings.Contains(describe(t, r), "u2@1,1/0 online=true game=true")
	})
	open := letter(openFromStart(mazeOf(t, r)))
	if why := r.move(ctx, nil, "u1", open); why != refusedWatching {
		t.Fatalf("ada, whose start panicked, moves: %q, want %q", why, refusedWatching)
	}
	if why := r.move(ctx, nil, "u2", open); why != "" {
		t.Fatalf("bob's move: %q", why)
	}
	got := logs.String()
	for _, want := range []string{"in=\"start a game\" panic=\"a bug in Start\"", "goroutine "} {
		if !strings.Contains(got, want) {
			t.Errorf("the log has no %q:\n%s", want, got)
		}
	}
}

// failingBus is a shared bus whose Publish fails while fail is set, as
// PostgreSQL's NOTIFY does when the database is away.
type failingBus struct {
	Bus
	fail atomic.Bool
}

func (b *failingBus) Publish(ctx context.Context, msg []byte) error {
	if b.fail.Load() {
		return errors.New("NOTIFY: the database is away")
	}
	return b.Bus.Publish(ctx, msg)
}

// TestRequestsThatCannotBePublished: a Start or a pick that the bus cannot
// carry (the room held by another process too) is refused as an error,
// which the member is told and can press again, rather than lost without
// a word.
func TestRequestsThatCannotBePublished(t *testing.T) {
	shared := &orderedBus{}
	bus := &failingBus{Bus: shared.end()}
	games := &memGames{games: map[int64]*play.Game{}}
	h := testHub(t, bus, games)
	s := &Server{cfg: Config{Seed: func() uint64 { return 1 }}, hub: h}
	r, in, maze := launch(t, h)
	if _, err := testHub(t, shared.end(), games).open(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the room shared", r.shared.Load)
	r.put(event{Kind: evHello, User: "u1", Name: "ada"})
	ada := user{ID: "u1"}
	bus.fail.Store(true)
	if why := s.pick(r, ada, &PickMsg{T: "pick", Algorithm: "backtracking", Size: 21}, time.Now()); why != refusedError {
		t.Fatalf("a pick the bus cannot carry: %q, want %q", why, refusedError)
	}
	if why := s.start(r, ada, time.Now()); why != refusedError {
		t.Fatalf("a Start the bus cannot carry: %q, want %q", why, refusedError)
	}
	bus.fail.Store(false)
	if why := s.start(r, ada, time.Now()); why != "" {
		t.Fatalf("Start once the bus is back: refused %q", why)
	}
	var phase, on string
	waitFor(t, "the countdown", func() bool {
		r.inspect(func(st *state) { phase, on = st.Phase, st.Maze })
		return phase != phaseLobby
	})
	if on != maze.String() {
		t.Fatalf("after Start: phase %s on %s, want the race begun on the launch's maze %s", phase, on, maze)
	}
}

func TestBucket(t *testing.T) {
	b := newBucket(10, 3)
	now := time.Unix(0, 0)
	for i := range 3 {
		if !b.take(now) {
			t.Fatalf("take %d of the burst refused", i)
		}
	}
	if b.take(now) {
		t.Fatal("a fourth at once taken")
	}
	if !b.take(now.Add(100 * time.Millisecond)) {
		t.Fatal("one more after a tenth of a second refused")
	}
	// What was spent into debt is paid back before the next take.
	b.spend(now.Add(100 * time.Millisecond))
	b.spend(now.Add(100 * time.Millisecond))
	if b.take(now.Add(250 * time.Millisecond)) {
		t.Fatal("a take while two spent tokens were still owed")
	}
	if !b.take(now.Add(400 * time.Millisecond)) {
		t.Fatal("a take once the debt was paid refused")
	}
}

// TestWords: the client's words come from the catalogs, in the member's
// language, English where mazebot does not speak theirs; a message with a
// count comes with every plural form its language's catalog has, by CLDR
// category (Spanish's "many" was the one form sent), and every form
// holds only the plain {{.Field}} placeholders the client fills.
func TestWords(t *testing.T) {
	words := func(locale string) map[string]any {
		t.Helper()
		rec := httptest.NewRecorder()
		serveWords(rec, httptest.NewRequest(http.MethodGet, "/api/words?locale="+locale, nil))
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s: %v", locale, err)
		}
		return out
	}
	for locale, want := range map[string]string{"ko": "미로 아레나", "en-GB": "Maze Arena", "fr": "Arène des labyrinthes", "zh-CN": "Maze Arena"} {
		if got := words(locale); got["title"] != want {
			t.Errorf("%s: the title is %v, want %s", locale, got["title"], want)
		}
	}
	plain := regexp.MustCompile(`\{\{\s*\.\w+\s*\}\}`)
	for _, l := range lang.Languages() {
		got := words(l.Code())
		if got["language"] != l.Code() {
			t.Errorf("%s: language %v", l.Code(), got["language"])
		}
		forms, ok := got["countdown"].(map[string]any)
		if !ok {
			t.Fatalf("%s: countdown is %#v, want its plural forms", l.Code(), got["countdown"])
		}
		own := l.Forms("arena.countdown")
		if len(forms) != len(own) {
			t.Errorf("%s: countdown's forms %v, want the catalog's %v", l.Code(), forms, own)
		}
		for cat, src := range own {
			if forms[cat] != src {
				t.Errorf("%s: countdown's %s form is %v, want %q", l.Code(), cat, forms[cat], src)
			}
		}
		for id, w := range got {
			srcs := []string{}
			switch w := w.(type) {
			case string:
				srcs = append(srcs, w)
			case map[string]any:
				for _, f := range w {
					srcs = append(srcs, fmt.Sprint(f))
				}
			}
			for _, src := range srcs {
				if rest := plain.ReplaceAllString(src, ""); strings.Contains(rest, "{{") {
					t.Errorf("%s: %s holds a placeholder the client cannot fill: %q", l.Code(), id, src)
				}
			}
		}
	}
}

// TestCardLanguage: the result card is in the server's language, not the
// launcher's; in a DM (no server) or when the server's cannot be told,
// the launcher's.
func TestCardLanguage(t *testing.T) {
	posted := &cardTexts{}
	server := "ko"
	h := newHub(Config{Games: &memGames{games: map[int64]*play.Game{}}, Bus: &MemoryBus{}, Poster: posted,
		Language: func(context.Context, string) string { return server }, Log: slog.New(slog.DiscardHandler), Now: time.Now})
	t.Cleanup(h.shutdown)
	st := roomState{Instance: "i1", Guild: "g1", Channel: "c1", Maze: "backtracking-11x11-1", Launcher: "u1",
		Players: []*player{{ID: "u1", Locale: "en-US", Done: true, Place: 1, Ms: 12000}}}
	for _, tc := range []struct {
		name, guild, server, want string
	}{
		{"a server in Korean, the launcher in English", "g1", "ko", "🏁 **미로 아레나**"},
		{"a server whose language cannot be told", "g1", "", "🏁 **Maze Arena**"},
		{"a DM: the launcher's", "", "ko", "🏁 **Maze Arena**"},
	} {
		st.Guild, server = tc.guild, tc.server
		h.card(context.Background(), st, nil, nil)
		if got := posted.last(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: the card reads %q, want %s…", tc.name, got, tc.want)
		}
	}
}

// cardTexts keeps the result cards, and those that followed a launch
// ("app/token" each).
type cardTexts struct {
	mu      sync.Mutex
	texts   []string
	cards   []Card
	follows []string
}

func (c *cardTexts) Follow(_ context.Context, appID, token string, _ Card) error {
	c.mu.Lock()
	c.follows = append(c.follows, appID+"/"+token)
	c.mu.Unlock()
	return nil
}

func (c *cardTexts) Post(_ context.Context, _, _ string, card Card) error {
	c.mu.Lock()
	c.texts = append(c.texts, card.Text)
	c.cards = append(c.cards, card)
	c.mu.Unlock()
	return nil
}

func (c *cardTexts) last() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.texts) == 0 {
		return ""
	}
	return c.texts[len(c.texts)-1]
}

// TestRateLimitScopes: a 429 on the Arena's own OAuth2 requests stops its
// route for its retry_after; a global one, answered to the code exchange,
// stops every such route, but one answered to a member's token stops only
// that token's route. (The bot token's 429s are the wing's client's:
// TestArenaBotTokenOneLimiter.)
func TestRateLimitScopes(t *testing.T) {
	var global atomic.Bool
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":2.5,"global":%t}`, global.Load())
	}))
	defer srv.Close()
	now := time.Now()
	for _, tc := range []struct {
		name, auth          string
		global, stopsOthers bool
	}{
		{"route", "", false, false},
		{"global, the code exchange's", "", true, true},
		{"global, a member's token", "Bearer y", true, false},
	} {
		d := newDiscord(nil, "1", "secret", stubBot{}, slog.New(slog.DiscardHandler))
		d.api = srv.URL
		global.Store(tc.global)
		if _, err := d.get(context.Background(), "/a", "GET /a", tc.auth, &struct{}{}); !errors.Is(err, errRateLimited) {
			t.Fatalf("%s: a 429 gave %v", tc.name, err)
		}
		before := calls.Load()
		if _, err := d.get(context.Background(), "/a", "GET /a", tc.auth, &struct{}{}); !errors.Is(err, errRateLimited) || calls.Load() != before {
			t.Fatalf("%s: the route again within its retry_after: %v, sent: %v", tc.name, err, calls.Load() != before)
		}
		if wait := d.stoppedFor("GET /a", now); wait < 2*time.Second || wait > 3*time.Second {
			t.Errorf("%s: the route stopped for %v, want 2.5 s", tc.name, wait)
		}
		if stopped := d.stoppedFor("GET /b", now) > 0; stopped != tc.stopsOthers {
			t.Errorf("%s: another route stopped: %v, want %v", tc.name, stopped, tc.stopsOthers)
		}
	}
}

// TestReconnectResumes: a racer alone whose connection drops comes back
// to the race where they were, not to a new lobby: the room lingers for
// them (it used to end with its last member's bye).
func TestReconnectResumes(t *testing.T) {
	games := &memGames{games: map[int64]*play.Game{}}
	h := testHub(t, &MemoryBus{}, games)
	r, in, _ := launch(t, h)
	ctx := context.Background()
	h.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	h.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "ada racing", func() bool { return strings.Contains(describe(t, r), "game=true") })
	open := letter(openFromStart(mazeOf(t, r)))
	if why := r.move(ctx, nil, "u1", open); why != "" {
		t.Fatalf("ada's move: %q", why)
	}
	before := describe(t, r)
	h.publish(event{Kind: evBye, Instance: in.ID, User: "u1"})
	time.Sleep(300 * time.Millisecond)
	again, err := h.open(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	h.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	if again != r {
		t.Fatal("the reconnect opened a new room")
	}
	if got := describe(t, r); got != before || !strings.Contains(got, " race ") {
		t.Fatalf("after the reconnect:\n%s\nwant\n%s", got, before)
	}
	if why := r.move(ctx, nil, "u1", letter(mazecore.Dirs[0])); why == refusedNotStarted || why == refusedWatching {
		t.Fatalf("ada's move after the reconnect: %q", why)
	}
}

// cards counts the result cards posted, by nonce.
type cards struct {
	mu    sync.Mutex
	posts map[string]int
}

func (c *cards) Follow(context.Context, string, string, Card) error {
	panic("a card followed a launch in a channel the bot may post in")
}

func (c *cards) Post(_ context.Context, _, nonce string, _ Card) error {
	c.mu.Lock()
	c.posts[nonce]++
	c.mu.Unlock()
	return nil
}

func (c *cards) count() (posts, nonces int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.posts {
		posts += n
	}
	return posts, len(c.posts)
}

// TestKilledProcess: the members of a process killed without a word (no
// bye: it stops hearing and saying anything) are taken offline by the
// other process within 10 s of its death, on the default BeatEvery and
// DeadAfter; the room then lingers and ends, and its result card is
// posted once. Before processes beat, they stayed online for good and the
// room never ended. The processes' beats are driven here by hand on a
// settable clock: the test never waits for time to pass.
func TestKilledProcess(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}, now: clock.Now}
	posted := &cards{posts: map[string]int{}}
	hubOf := func() *hub {
		// Beats come from the test alone (beat), never from a ticker.
		h := newHub(Config{Games: games, Bus: bus.end(), Poster: posted, Log: slog.New(slog.DiscardHandler), Now: clock.Now,
			Countdown: time.Millisecond, BeatEvery: time.Hour})
		t.Cleanup(h.shutdown)
		return h
	}
	a, b := hubOf(), hubOf()
	ra, in, _ := launch(t, a)
	ctx := context.Background()
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	if _, err := b.open(ctx, in); err != nil {
		t.Fatal(err)
	}
	b.publish(event{Kind: evHello, Instance: in.ID, User: "u2", Name: "bob"})
	a.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "both racing", func() bool { return strings.Count(describe(t, ra), "game=true") == 2 })
	for _, d := range solutionOf(t, mazeOf(t, ra)) {
		if why := ra.move(ctx, nil, "u1", d); why != "" {
			t.Fatalf("ada's move: %q", why)
		}
	}
	a.publish(event{Kind: evBye, Instance: in.ID, User: "u1"})
	// Both beat; then b dies: it hears and says nothing more.
	a.beat()
	b.beat()
	bus.mu.Lock()
	bus.subs = bus.subs[:1]
	bus.mu.Unlock()
	b.stop()
	killed := clock.Now()
	// beat has a beat every BeatEvery, and waits until the room applied it.
	beat := func() {
		clock.Advance(defaultBeatEvery)
		at := clock.Now().UnixMilli()
		a.beat()
		waitFor(t, "the beat applied", func() bool {
			seen := int64(0)
			return !ra.inspect(func(st *state) { seen = st.Seen[a.proc] }) || seen >= at
		})
	}
	offline := func() bool { return strings.Contains(describe(t, ra), "u2@1,1/0 online=false") }
	for !offline() {
		if took := clock.Now().Sub(killed); took > 10*time.Second {
			t.Fatalf("bob still online %v after his process died: %s", took, describe(t, ra))
		}
		beat()
	}
	if took := clock.Now().Sub(killed); took < defaultDeadAfter {
		t.Fatalf("bob taken offline %v after his process's last beat, before DeadAfter", took)
	}
	// The dead process holds no replica: a plays the room without the bus.
	waitFor(t, "a alone without the bus", func() bool { return !ra.shared.Load() })
	// No one is online: a's beats keep the room's time, and past the
	// linger it ends, its card posted once.
	for a.count() > 0 {
		if clock.Now().Sub(killed) > time.Minute {
			t.Fatal("the room did not end a minute after its last member went")
		}
		beat()
	}
	waitFor(t, "the card", func() bool { posts, _ := posted.count(); return posts > 0 })
	beat() // a beat more changes nothing
	a.shutdown()
	if posts, nonces := posted.count(); posts != 1 || nonces != 1 {
		t.Fatalf("%d cards posted (%d nonces), want 1", posts, nonces)
	}
	if games.finishes != 1 {
		t.Fatalf("%d finishes recorded, want ada's one", games.finishes)
	}
}

// solutionOf is the moves from m's start to its goal, a corridor run each.
func solutionOf(t *testing.T, m *mazecore.Maze) []string {
	t.Helper()
	moves, err := solutionMoves(m)
	if err != nil {
		t.Fatal(err)
	}
	return moves
}

// solutionMoves is solutionOf for a goroutine that cannot end the test.
func solutionMoves(m *mazecore.Maze) ([]string, error) {
	path := mazecore.Solve(m)
	g, err := play.New(m, play.Record{}, time.Unix(0, 0))
	if err != nil {
		return nil, err
	}
	var moves []string
	for g.Pos != m.Goal() {
		next := path[slices.Index(path, g.Pos)+1]
		var dir mazecore.Dir
		for _, d := range mazecore.Dirs {
			if dx, dy := d.Delta(); g.Pos.X+dx == next.X && g.Pos.Y+dy == next.Y {
				dir = d
			}
		}
		if _, err := g.Apply(play.Action{Kind: play.Move, Dir: dir, Seq: g.Seq}, time.Unix(1, 0)); err != nil {
			return nil, err
		}
		moves = append(moves, letter(dir))
	}
	return moves, nil
}

// TestRematchRequest: a rematch asked before the race is over is refused
// (not_over, which the client words); once it is over, it starts a new
// race on a new maze of the room's kind, whose seed the asking process drew.
func TestRematchRequest(t *testing.T) {
	games := &memGames{games: map[int64]*play.Game{}}
	posted := &cards{posts: map[string]int{}}
	h := newHub(Config{Games: games, Bus: &MemoryBus{}, Poster: posted, Log: slog.New(slog.DiscardHandler), Now: time.Now,
		Countdown: time.Millisecond, Linger: time.Millisecond})
	t.Cleanup(h.shutdown)
	s := &Server{cfg: Config{Seed: func() uint64 { return 7 }}, hub: h}
	r, in, maze := launch(t, h)
	ctx := context.Background()
	ada := user{ID: "u1"}
	h.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	if why := s.rematch(r, ada, time.Now()); why != refusedNotOver {
		t.Fatalf("a rematch in the lobby: %q, want %q", why, refusedNotOver)
	}
	h.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "ada racing", func() bool { return strings.Contains(describe(t, r), "game=true") })
	if why := s.rematch(r, ada, time.Now()); why != refusedNotOver {
		t.Fatalf("a rematch during the race: %q, want %q", why, refusedNotOver)
	}
	for _, dir := range solutionOf(t, mazeOf(t, r)) {
		if why := r.move(ctx, nil, "u1", dir); why != "" {
			t.Fatalf("ada's move %s: %q", dir, why)
		}
	}
	waitFor(t, "the race over", func() bool { phase, _ := r.info(); return phase == phaseOver })
	if why := s.rematch(r, ada, time.Now()); why != "" {
		t.Fatalf("a rematch once the race is over: %q", why)
	}
	want := maze
	want.Seed = 7
	waitFor(t, "the rematch's race", func() bool {
		var on string
		r.inspect(func(st *state) { on = st.Maze })
		return on == want.String() && strings.Contains(describe(t, r), "game=true")
	})
	// The first race's card is posted at the rematch, the second's when
	// the room ends: two cards, each its own.
	waitFor(t, "the first race's card", func() bool { posts, _ := posted.count(); return posts == 1 })
	for _, dir := range solutionOf(t, mazeOf(t, r)) {
		if why := r.move(ctx, nil, "u1", dir); why != "" {
			t.Fatalf("ada's move %s in the rematch: %q", dir, why)
		}
	}
	h.publish(event{Kind: evBye, Instance: in.ID, User: "u1"})
	waitFor(t, "the second race's card", func() bool { posts, _ := posted.count(); return posts == 2 })
	if posts, nonces := posted.count(); nonces != 2 {
		t.Fatalf("%d cards under %d nonces, want each race's own", posts, nonces)
	}
}

// TestMovesBatchedPerTick: the mover is answered with its own PosMsg at
// once, and the other connections get the dots that moved in one
// MovesMsg a tick, each dot at its latest place, where each move was a
// message to every connection.
func TestMovesBatchedPerTick(t *testing.T) {
	games := &memGames{games: map[int64]*play.Game{}}
	h := testHub(t, &MemoryBus{}, games)
	var observed atomic.Int32 // the moves' waits for their MovesMsg (a benchmark's measure)
	h.cfg.ObserveBroadcast = func(d time.Duration) {
		if d >= 0 && d < time.Minute {
			observed.Add(1)
		}
	}
	r, in, _ := launch(t, h)
	ctx := context.Background()
	// A bystander's connection, welcomed: what the room sends it waits in
	// its queue.
	watcher := &conn{nonce: "w", user: "u3", out: make(chan []byte, sendQueue), gone: make(chan struct{})}
	r.mu.Lock()
	r.conns[watcher] = true
	r.mu.Unlock()
	for _, u := range []string{"u1", "u2"} {
		h.publish(event{Kind: evHello, Instance: in.ID, User: u, Name: u})
	}
	h.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "both racing", func() bool { return strings.Count(describe(t, r), "game=true") == 2 })
	open := openFromStart(mazeOf(t, r))
	// The room's messages so far (hellos, the start) are not moves.
	for len(watcher.out) > 0 {
		<-watcher.out
	}
	moves := []struct {
		user, dir string
		clicks    int
	}{{"u1", letter(open), 1}, {"u2", letter(open), 1}, {"u1", letter(open.Opposite()), 2}}
	for i, m := range moves {
		mover := &conn{nonce: "m", user: m.user, out: make(chan []byte, 1), gone: make(chan struct{})}
		why := r.move(ctx, mover, m.user, m.dir)
		var pos PosMsg
		if why != "" || len(mover.out) != 1 {
			t.Fatalf("move %d: refused %q, %d answers", i, why, len(mover.out))
		}
		if answer := <-mover.out; json.Unmarshal(answer, &pos) != nil || pos.T != "pos" || pos.ID != m.user || pos.Clicks != m.clicks {
			t.Fatalf("move %d: answered %s", i, answer)
		}
	}
	var got []MovesMsg
	deadline := time.After(10 * time.Second)
	for len(got) == 0 || len(watcher.out) > 0 {
		select {
		case b := <-watcher.out:
			var msg MovesMsg
			if err := json.Unmarshal(b, &msg); err != nil || msg.T != "moves" {
				t.Fatalf("the watcher was sent %s, want only moves", b)
			}
			got = append(got, msg)
		case <-deadline:
			t.Fatal("no moves sent to the watcher")
		}
	}
	// Three moves made in well under a tick on a quiet machine; on a
	// loaded one a tick may end between them, but each dot is in a message
	// once, at its latest place.
	byUser := map[string]Dot{}
	for _, msg := range got {
		seen := map[string]bool{}
		for _, d := range msg.Moves {
			if seen[d.ID] {
				t.Fatalf("%s twice in one tick's moves: %+v", d.ID, msg)
			}
			seen[d.ID] = true
			byUser[d.ID] = d
		}
	}
	if len(got) > len(moves) || byUser["u1"].Clicks != 2 || byUser["u2"].Clicks != 1 {
		t.Fatalf("the watcher got %d messages %+v for %d moves, want ada at her 2nd click and bob at his 1st", len(got), got, len(moves))
	}
	if byUser["u1"].X != 1 || byUser["u1"].Y != 1 {
		t.Fatalf("ada back at the start: %+v", byUser["u1"])
	}
	dots := 0
	for _, msg := range got {
		dots += len(msg.Moves)
	}
	if n := int(observed.Load()); n != dots {
		t.Fatalf("%d waits observed for the %d dots sent, want one each", n, dots)
	}
}

// serialGames stores one game at a time, each taking a while, as SQLite's
// one writer does under load.
type serialGames struct {
	*memGames
	writer sync.Mutex
	each   time.Duration
}

func (g *serialGames) Start(ctx context.Context, m *mazecore.Maze, who play.Record) (*play.Game, error) {
	g.writer.Lock()
	defer g.writer.Unlock()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	time.Sleep(g.each)
	return g.memGames.Start(ctx, m, who)
}

// TestManyStartsAtOnce: a race of 60 members on a store that writes one
// game at a time starts every member's game, none timed out: the room
// takes its turns (startsAtOnce), where 60 starts at once waited behind
// each other past their timeout, and their members watched (a run of
// BenchmarkArena's 100 racers in one room, on SQLite).
func TestManyStartsAtOnce(t *testing.T) {
	games := &serialGames{memGames: &memGames{games: map[int64]*play.Game{}}, each: 10 * time.Millisecond}
	h := testHub(t, &MemoryBus{}, games)
	// 60 starts of 10 ms each take 600 ms one after another; each of the
	// room's may wait for startsAtOnce of them.
	h.startWithin = 300 * time.Millisecond
	r, in, _ := launch(t, h)
	const members = 60
	for i := range members {
		h.publish(event{Kind: evHello, Instance: in.ID, User: fmt.Sprintf("u%d", i+1), Name: "racer"})
	}
	h.publish(event{Kind: evStart, Instance: in.ID, User: "u1"})
	waitFor(t, "every game started or refused", func() bool {
		var settled int
		r.inspect(func(st *state) {
			for _, p := range st.Players {
				if p.Game != 0 || p.Watching {
					settled++
				}
			}
		})
		return settled == members
	})
	if got := strings.Count(describe(t, r), "game=true"); got != members {
		t.Fatalf("%d of %d members racing; the others' starts timed out", got, members)
	}
}

// countingBus is an end of a shared bus that counts the moves put on it.
type countingBus struct {
	Bus
	moves atomic.Int32
}

func (b *countingBus) count(msg []byte) {
	var ev event
	if json.Unmarshal(msg, &ev) == nil && ev.Kind == evMove {
		b.moves.Add(1)
	}
}

func (b *countingBus) Publish(ctx context.Context, msg []byte) error {
	b.count(msg)
	return b.Bus.Publish(ctx, msg)
}

func (b *countingBus) Send(ctx context.Context, msg []byte) error {
	b.count(msg)
	return b.Bus.Send(ctx, msg)
}

// raceAlone launches a room on a, where ada (u1), connected there, races
// alone: her connection, and the way open from the start.
func raceAlone(t *testing.T, a *hub) (*room, instance, *conn, mazecore.Dir) {
	t.Helper()
	ra, in, _ := launch(t, a)
	ada := testConn(ra, "u1")
	ra.put(event{Kind: evHello, User: "u1", Name: "ada", Nonce: ada.nonce})
	ra.put(event{Kind: evStart, User: "u1"})
	waitFor(t, "ada racing", func() bool { return strings.Contains(describe(t, ra), "game=true") })
	return ra, in, ada, openFromStart(mazeOf(t, ra))
}

// TestAloneSkipsTheBus: a room no other process holds plays its inputs
// without the bus (on PostgreSQL each was a database round trip before
// anyone saw it); once another process opens it, that one gets the state
// the room came to alone, and from then on the inputs go through the bus
// and both replicas agree.
func TestAloneSkipsTheBus(t *testing.T) {
	shared, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	bus := &countingBus{Bus: shared.end()}
	a, b := testHub(t, bus, games), testHub(t, shared.end(), games)
	ra, in, ada, open := raceAlone(t, a)
	ctx := context.Background()
	for i, dir := range []mazecore.Dir{open, open.Opposite(), open} {
		if why := ra.move(ctx, ada, "u1", letter(dir)); why != "" {
			t.Fatalf("move %d alone: refused %q", i, why)
		}
	}
	if n := bus.moves.Load(); n != 0 || ra.shared.Load() {
		t.Fatalf("a room held by one process put %d moves on the bus (shared %v), want none", n, ra.shared.Load())
	}
	rb, err := b.open(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !ra.shared.Load() {
		t.Fatal("the room is not shared once another process opened it")
	}
	if got, want := describe(t, rb), describe(t, ra); got != want {
		t.Fatalf("the new replica did not get the room as it came alone:\n%s\n%s", got, want)
	}
	if why := ra.move(ctx, ada, "u1", letter(open.Opposite())); why != "" {
		t.Fatalf("a move once shared: refused %q", why)
	}
	if bus.moves.Load() != 1 {
		t.Fatalf("%d moves on the bus once the room is shared, want 1", bus.moves.Load())
	}
	waitFor(t, "both replicas at ada's 4th click", func() bool {
		ca, _ := agreed(ra, "u1")
		cb, _ := agreed(rb, "u1")
		return ca == 4 && cb == 4
	})
}

// TestPutAsTheRoomTurnsShared: an input put while the room was one
// process's alone, but taken by its loop after another process asked for
// the state, is not played there alone (the other's replica, made from
// that state, would never have it): it goes through the bus.
func TestPutAsTheRoomTurnsShared(t *testing.T) {
	shared, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	bus := &countingBus{Bus: shared.end()}
	// No beats: the loop's queue holds only what the test puts there.
	a := newHub(Config{Games: games, Bus: bus, Log: slog.New(slog.DiscardHandler), Now: time.Now, Countdown: time.Millisecond, BeatEvery: time.Hour})
	ra, in, ada, open := raceAlone(t, a)
	ctx := context.Background()

	// The loop held while another process's sync and then ada's move
	// wait for it, in that order.
	held, release := make(chan struct{}), make(chan struct{})
	go ra.inspect(func(*state) { close(held); <-release })
	<-held
	other := testHub(t, shared.end(), games)
	other.publish(event{Kind: evSync, Instance: in.ID, Nonce: "another's"})
	verdict := make(chan string, 1)
	go func() { verdict <- ra.move(ctx, ada, "u1", letter(open)) }()
	waitFor(t, "the move waiting", func() bool { return len(ra.in) == 2 })
	close(release)
	if why := <-verdict; why != "" {
		t.Fatalf("the move: refused %q", why)
	}
	if n := bus.moves.Load(); n != 1 {
		t.Fatalf("%d moves on the bus, want the one put as the room turned shared", n)
	}
	if clicks, _ := agreed(ra, "u1"); clicks != 1 {
		t.Fatalf("ada at %d clicks, want 1", clicks)
	}
}

// TestIdleReplicaLeaves: a process none of whose members is connected to
// a room any more, while others race on elsewhere, leaves it once it
// lingered; the process left alone with the room plays it without the bus
// (its moves cost the database nothing); and a member who comes back to
// the first process finds the room as the other played it, shared again.
func TestIdleReplicaLeaves(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	hubOf := func() *hub {
		return newHub(Config{Games: games, Bus: bus.end(), Log: slog.New(slog.DiscardHandler), Now: time.Now,
			Countdown: time.Millisecond, Linger: 100 * time.Millisecond})
	}
	a, b := hubOf(), hubOf()
	ra, in, _ := launch(t, a)
	ctx := context.Background()
	rb := raceOnTwo(t, a, ra, b, in)
	if !rb.shared.Load() {
		t.Fatal("the room is not shared while both processes hold it")
	}

	// Ada goes; Bob races on, through b.
	a.publish(event{Kind: evBye, Instance: in.ID, User: "u1"})
	waitFor(t, "a's replica gone", func() bool { return a.count() == 0 })
	waitFor(t, "b alone without the bus", func() bool { return !rb.shared.Load() })
	open := moveOffTheBus(t, bus, rb, "u2")
	if got := describe(t, rb); strings.Contains(got, "u2@1,1/") {
		t.Fatalf("bob's move was not played: %s", got)
	}

	// Ada comes back through a: its new replica takes the room as b
	// played it, and the room is shared again.
	ra2 := reopen(t, a, in, ra, rb, "u1", "ada")
	if why := rb.move(ctx, nil, "u2", letter(open.Opposite())); why != "" {
		t.Fatalf("bob's move back refused: %s", why)
	}
	waitFor(t, "the replicas agree", func() bool { return describe(t, ra2) == describe(t, rb) })
	if got := describe(t, ra2); !strings.Contains(got, "u2@1,1/2") {
		t.Fatalf("bob after his move alone and the one back: %s", got)
	}
}

// TestGoAloneWaitsForTheBus: a room left alone goes on through the bus
// while one of this process's inputs is on its way there, which a move
// played at once could overtake; and a replica that left turns away a
// connection, which then opens the room again.
func TestGoAloneWaitsForTheBus(t *testing.T) {
	h := testHub(t, (&orderedBus{}).end(), &memGames{games: map[int64]*play.Game{}})
	r := newRoom(h, roomState{Instance: "i-1", Phase: phaseLobby}, nil)
	st := state{roomState: roomState{Holders: map[string]string{h.proc: "n1"}}, self: h.proc}
	r.shared.Store(true)
	r.inflight = 1
	r.goAlone(&st)
	if !r.shared.Load() {
		t.Fatal("the room went alone with an input on the bus")
	}
	r.inflight = 0
	st.Holders["p2"] = ""
	r.goAlone(&st)
	if !r.shared.Load() {
		t.Fatal("the room went alone while another process holds it")
	}
	delete(st.Holders, "p2")
	r.goAlone(&st)
	if r.shared.Load() {
		t.Fatal("the room alone, with nothing on the bus, still goes through it")
	}

	r.dropped = true
	if err := (&Server{}).join(r, &conn{}, user{ID: "u1"}, ""); err != errRoomLeft {
		t.Fatalf("joining a replica that left: %v, want errRoomLeft", err)
	}
	if err := r.put(event{Kind: evExpire}); err != nil || len(r.in) != 0 {
		t.Fatalf("an input put after the replica left: %v, %d queued; want none", err, len(r.in))
	}
}

// TestTakenForDeadRejoins: a process the others took for dead while it
// was alive (its beats did not reach them) hears of it at the input that
// decided it, as they do. From there on they play the room without it,
// so its replica leaves and closes its members' connections with
// closeRejoin; the member reconnects, the new replica takes the room from
// the others, and the replicas agree again. Before, the process said
// hello again and stayed a holder for good, and the others' rooms went
// through the bus until they ended.
func TestTakenForDeadRejoins(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}, now: clock.Now}
	hubOf := func() *hub {
		h := newHub(Config{Games: games, Bus: bus.end(), Log: slog.New(slog.DiscardHandler), Now: clock.Now,
			Countdown: time.Millisecond, BeatEvery: time.Hour})
		t.Cleanup(h.shutdown)
		return h
	}
	a, b := hubOf(), hubOf()
	ra, in, _ := launch(t, a)
	rb := raceOnTwo(t, a, ra, b, in)
	client := joinOverSocket(t, rb, "u2", "bob")

	// a beats; b's beats are lost. Both replicas take b for dead at the
	// same beat of a's.
	silent := clock.Now()
	for b.count() > 0 {
		if clock.Now().Sub(silent) > time.Minute {
			t.Fatal("b's replica still holds the room a minute on")
		}
		clock.Advance(defaultBeatEvery)
		a.beat()
		waitFor(t, "the beat applied", func() bool {
			seen := int64(0)
			return !rb.inspect(func(st *state) { seen = st.Seen[a.proc] }) || seen >= clock.Now().UnixMilli()
		})
	}
	awaitClose(t, client, closeRejoin)
	waitFor(t, "a alone without the bus", func() bool { return !ra.shared.Load() })
	if got := describe(t, ra); !strings.Contains(got, "u2@1,1/0 online=false") {
		t.Fatalf("bob online on a after his process was taken for dead: %s", got)
	}
	moveOffTheBus(t, bus, ra, "u1")
	rejoinThrough(t, b, in, rb, ra)
}

// TestBusGapRejoins: when the bus says it lost messages (its listener was
// away longer than it keeps them), every shared replica leaves as one
// taken for dead does, saying goodbye for its connections; a room held
// alone stays. Here the others did not take the process for dead, so
// without the goodbyes bob's old connection stayed counted and he stayed
// online for good.
func TestBusGapRejoins(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	a := testHub(t, bus.end(), games)
	gb := &gapBus{Bus: bus.end()}
	b := testHub(t, gb, games)
	t.Cleanup(a.shutdown)
	t.Cleanup(b.shutdown)
	ra, in, _ := launch(t, a)
	rb := raceOnTwo(t, a, ra, b, in)
	b.pend("c2", "u3", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 4}, true, "")
	alone, err := b.open(context.Background(), testInstance("i-2", "c2"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the other room alone", func() bool { return !alone.shared.Load() })
	// Bob's connection is a socket's here (raceOnTwo's hello has none).
	b.publish(event{Kind: evBye, Instance: in.ID, User: "u2"})
	client := joinOverSocket(t, rb, "u2", "bob")
	waitFor(t, "bob's connection counted", func() bool { return connsOf(t, ra, "u2") == 1 })

	gb.gap(t)
	awaitClose(t, client, closeRejoin)
	waitFor(t, "b's shared replica gone", func() bool { return b.count() == 1 })
	if b.held()[0] != alone {
		t.Fatal("the room b held alone left too")
	}
	waitFor(t, "bob's connections through b said goodbye", func() bool { return connsOf(t, ra, "u2") == 0 })
	rejoinThrough(t, b, in, rb, ra)
}

// gapBus is a Bus that reports a gap when the test says.
type gapBus struct {
	Bus
	mu     sync.Mutex
	report func()
}

func (g *gapBus) OnGap(report func()) {
	g.mu.Lock()
	g.report = report
	g.mu.Unlock()
}

func (g *gapBus) gap(t *testing.T) {
	t.Helper()
	g.mu.Lock()
	report := g.report
	g.mu.Unlock()
	if report == nil {
		t.Fatal("the hub did not ask the bus for its gaps")
	}
	report()
}

// connsOf is how many connections r counts for a member, on all processes.
func connsOf(t *testing.T, r *room, userID string) int {
	t.Helper()
	n := 0
	r.inspect(func(st *state) {
		if p := st.player(userID); p != nil {
			for _, c := range p.Conns {
				n += c
			}
		}
	})
	return n
}

// awaitClose reads the client's end until the server closes it, with code.
func awaitClose(t *testing.T, client *websocket.Conn, code int) {
	t.Helper()
	_ = client.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := client.ReadMessage()
		var closed *websocket.CloseError
		if errors.As(err, &closed) {
			if closed.Code != code {
				t.Fatalf("the connection closed with %d, want %d", closed.Code, code)
			}
			return
		}
		if err != nil {
			t.Fatalf("the connection: %v, want a close frame", err)
		}
	}
}

// rejoinThrough has bob reconnect through b, whose replica old left: a
// new replica takes the room as ra holds it, bob online again, and once
// he goes he is offline in both (no connection of his old replica still
// counted).
func rejoinThrough(t *testing.T, b *hub, in instance, old, ra *room) {
	t.Helper()
	rb := reopen(t, b, in, old, ra, "u2", "bob")
	waitFor(t, "the replicas agree", func() bool { return describe(t, ra) == describe(t, rb) })
	if got := describe(t, rb); !strings.Contains(got, "u2@1,1/0 online=true") {
		t.Fatalf("the new replica: %s; want bob online", got)
	}
	b.publish(event{Kind: evBye, Instance: in.ID, User: "u2"})
	waitFor(t, "bob offline once he went", func() bool {
		return strings.Contains(describe(t, ra), "u2@1,1/0 online=false") && describe(t, ra) == describe(t, rb)
	})
}

// reopen has a member come back through h, whose replica old left: h
// opens a new replica, and the room is shared with other's again.
func reopen(t *testing.T, h *hub, in instance, old, other *room, userID, name string) *room {
	t.Helper()
	r, err := h.open(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if r == old {
		t.Fatal("the process opened the replica that left")
	}
	h.publish(event{Kind: evHello, Instance: in.ID, User: userID, Name: name})
	waitFor(t, "the room shared again", func() bool { return other.shared.Load() && r.shared.Load() })
	return r
}

// moveOffTheBus plays the member's move from the start on r, which must
// play it alone: with no message on the bus.
func moveOffTheBus(t *testing.T, bus *orderedBus, r *room, userID string) mazecore.Dir {
	t.Helper()
	open := openFromStart(mazeOf(t, r))
	bus.mu.Lock()
	before := bus.published
	bus.mu.Unlock()
	if why := r.move(context.Background(), nil, userID, letter(open)); why != "" {
		t.Fatalf("%s's move refused: %s", userID, why)
	}
	bus.mu.Lock()
	after := bus.published
	bus.mu.Unlock()
	if after != before {
		t.Fatalf("%s's move alone put %d messages on the bus, want none", userID, after-before)
	}
	return open
}

// joinOverSocket joins a member to r on h through a real WebSocket, as
// serveRoom does, and returns the client's end.
func joinOverSocket(t *testing.T, r *room, userID, name string) *websocket.Conn {
	t.Helper()
	server := make(chan *websocket.Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ws, err := upgrader.Upgrade(w, req, nil)
		if err == nil {
			server <- ws
		}
	}))
	t.Cleanup(srv.Close)
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	c := &conn{ws: <-server, nonce: newNonce(), out: make(chan []byte, sendQueue), gone: make(chan struct{}), flushed: make(chan struct{})}
	go c.writeLoop()
	t.Cleanup(c.close)
	c.user = userID
	if err := (&Server{}).join(r, c, user{ID: userID, GlobalName: name}, ""); err != nil {
		t.Fatal(err)
	}
	return client
}

// TestDeafBusMakesNoReplica: while the bus hears nothing, a process makes
// no new replica (it would hear no answer to its sync, and start the room
// afresh, apart from the processes holding it); a connection is told to
// try again. A replica it holds goes on.
func TestDeafBusMakesNoReplica(t *testing.T) {
	bus := &deafBus{Bus: (&orderedBus{}).end()}
	h := testHub(t, bus, &memGames{games: map[int64]*play.Game{}})
	held, in, _ := launch(t, h)
	bus.deaf.Store(true)
	ctx := context.Background()
	if r, err := h.open(ctx, in); err != nil || r != held {
		t.Fatalf("opening the room held while the bus is deaf: %v, %v; want the one held", r, err)
	}
	h.pend("c2", "u1", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 4}, true, "")
	other := testInstance("i-2", "c2")
	if _, err := h.open(ctx, other); !errors.Is(err, errDeaf) {
		t.Fatalf("a new room while the bus is deaf: %v, want errDeaf", err)
	}
	bus.deaf.Store(false)
	if _, err := h.open(ctx, other); err != nil {
		t.Fatalf("a new room once the bus hears: %v", err)
	}
}

// deafBus is a Bus whose hearing the test sets.
type deafBus struct {
	Bus
	deaf atomic.Bool
}

func (b *deafBus) Hearing() bool { return !b.deaf.Load() }

// TestSyncWaitsForAHolder: a new replica whose sync is not answered
// within syncWait while another process's inputs of the room come (a
// loaded bus) waits for the state, rather than take the room afresh and
// start apart from the others, as it did; past syncGiveUp its open fails,
// and the member's client tries again.
func TestSyncWaitsForAHolder(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	slow := &heldStates{Bus: bus.end()}
	a := testHub(t, slow, games)
	b := testHub(t, bus.end(), games)
	b.syncGiveUp = 1500 * time.Millisecond
	ra, in, _ := launch(t, a)
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})
	open := func(sign string) chan opened {
		return openLater(t, b, in, func() {
			a.publish(event{Kind: evHello, Instance: in.ID, User: sign, Name: sign}) // a holds the room
		})
	}

	first := open("u3")
	select {
	case got := <-first:
		if !errors.Is(got.err, errNoState) {
			t.Fatalf("b's replica opened with no state from a, which holds the room: %v, want errNoState", got.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("b's open did not give up")
	}
	if b.count() != 0 {
		t.Fatal("b keeps the replica that gave up")
	}
	// Its drop: a no longer counts it a holder, well before it would take
	// b for dead (a b holding other rooms beats, and stayed a holder for
	// good: the room could never go back to playing without the bus).
	if !within(defaultDeadAfter/2, func() bool {
		held := true
		ra.inspect(func(st *state) { _, held = st.Holders[b.proc] })
		return !held
	}) {
		t.Fatal("a still counts b's replica that gave up a holder")
	}

	second := open("u4")
	stillSyncing(t, second, "with no state from a")
	slow.release()
	got := <-second
	if got.err != nil {
		t.Fatal(got.err)
	}
	waitFor(t, "the replicas agree", func() bool { return describe(t, ra) == describe(t, got.r) })
	if d := describe(t, got.r); !strings.Contains(d, "u1@") || !strings.Contains(d, "u4@") {
		t.Fatalf("b's replica: %s; want ada and u4, whom a saw", d)
	}
}

// TestSyncHeardBack: a new replica whose own sync does not come back
// through the bus (its listener deaf before it knows it: pgbus asks only
// after 5 s of quiet) waits for it, rather than take the room afresh
// after syncWait and start apart from the process that holds it, as it
// did; past syncGiveUp its open fails, and the member's client tries
// again. Once the listener reads what it missed, the replica adopts the
// holder's state.
func TestSyncHeardBack(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	a := testHub(t, bus.end(), games)
	deaf := &unheardEnd{Bus: bus.end(), bus: bus}
	b := testHub(t, deaf, games)
	b.syncGiveUp = 1500 * time.Millisecond
	ra, in, _ := launch(t, a)
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})

	deaf.mute()
	began := time.Now()
	if _, err := b.open(context.Background(), in); !errors.Is(err, errNoState) {
		t.Fatalf("b's replica opened without hearing its own sync (%v); want errNoState", err)
	}
	if waited := time.Since(began); waited < b.syncGiveUp {
		t.Fatalf("b's open gave up after %v, before syncGiveUp", waited)
	}
	if b.count() != 0 {
		t.Fatal("b keeps the replica that gave up")
	}

	done := openLater(t, b, in, nil)
	stillSyncing(t, done, "without hearing its sync")
	deaf.hearAgain()
	var got opened
	select {
	case got = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("b's open did not end once its listener heard again")
	}
	if got.err != nil {
		t.Fatal(got.err)
	}
	waitFor(t, "the replicas agree", func() bool { return describe(t, ra) == describe(t, got.r) })
	if d := describe(t, got.r); !strings.Contains(d, "u1@") {
		t.Fatalf("b's replica: %s; want ada, whom a holds", d)
	}
}

// TestSyncOnABusBehind: on a bus a second behind, a holder with nothing
// to say (a lobby) answers a new replica's sync a second after the sync
// came back; the replica waits for it, as long again as its sync's trip,
// rather than take the room as new after syncWait and start apart from
// the holder, as it did.
func TestSyncOnABusBehind(t *testing.T) {
	bus, games := &lateBus{}, &memGames{games: map[int64]*play.Game{}}
	a := testHub(t, bus.end(), games)
	b := testHub(t, bus.end(), games)
	ra, in, _ := launch(t, a)
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})

	bus.behind(t, time.Second)
	r, err := b.open(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if d := describe(t, r); !strings.Contains(d, "u1@") {
		t.Fatalf("b's replica: %s; want ada, whom a holds", d)
	}
	waitFor(t, "the replicas agree", func() bool { return describe(t, ra) == describe(t, r) })
}

// lateBus is an orderedBus that, once behind, delivers each message a
// delay after it was published, in the order published: a bus that far
// behind.
type lateBus struct {
	orderedBus
	delay time.Duration // 0 until behind; under orderedBus.mu
	queue chan lateMsg
}

type lateMsg struct {
	msg []byte
	due time.Time
}

func (l *lateBus) end() Bus { return lateEnd{busEnd{&l.orderedBus}, l} }

func (l *lateBus) behind(t *testing.T, delay time.Duration) {
	queue, stop := make(chan lateMsg, 1024), make(chan struct{})
	t.Cleanup(func() { close(stop) })
	l.orderedBus.mu.Lock()
	l.delay, l.queue = delay, queue
	l.orderedBus.mu.Unlock()
	go func() {
		for {
			select {
			case <-stop:
				return
			case m := <-queue:
				time.Sleep(time.Until(m.due))
				_ = busEnd{&l.orderedBus}.Publish(context.Background(), m.msg)
			}
		}
	}()
}

type lateEnd struct {
	busEnd
	l *lateBus
}

func (e lateEnd) Publish(ctx context.Context, msg []byte) error {
	e.l.orderedBus.mu.Lock()
	queue, delay := e.l.queue, e.l.delay
	e.l.orderedBus.mu.Unlock()
	if queue == nil {
		return e.busEnd.Publish(ctx, msg)
	}
	queue <- lateMsg{bytes.Clone(msg), time.Now().Add(delay)}
	return nil
}

func (e lateEnd) Send(ctx context.Context, msg []byte) error { return e.Publish(ctx, msg) }

// TestReplayKeepsTheRoomShared: a new room whose sync no one answered
// replays what came after its sync; another process's sync among them
// (a replica newer than this one, which it answers) keeps it shared, even
// after a beat, which names no holder. The room went alone at the beat,
// and its members' inputs stayed in this process, apart from the other's
// replica: three processes' 200 racers, all syncing at once, had a
// launcher's Start played in one process alone (BenchmarkArenaPostgres,
// about one run in ten).
func TestReplayKeepsTheRoomShared(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	a := testHub(t, bus.end(), games)
	b := testHub(t, bus.end(), games)
	a.pend("c1", "u1", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3}, true, "")
	in := testInstance("i-1", "c1")
	done := openLater(t, a, in, func() {
		time.Sleep(syncWait / 3) // a's sync came back: what comes now is buffered
		b.publish(event{Kind: evBeat})
		// b opens the room too, after a: a takes the room as new, and
		// answers b.
		b.publish(event{Kind: evSync, Instance: in.ID, Nonce: "b1"})
	})
	got := <-done
	if got.err != nil {
		t.Fatal(got.err)
	}
	// Counted by kind: a's answer to b and the beats may come meanwhile.
	var hellos atomic.Int32
	bus.end().Subscribe(func(msg []byte) {
		if bytes.Contains(msg, []byte(`"k":"hello"`)) {
			hellos.Add(1)
		}
	})
	if err := got.r.put(event{Kind: evHello, User: "u1", Name: "ada"}); err != nil {
		t.Fatal(err)
	}
	if n := hellos.Load(); n != 1 {
		t.Fatalf("ada's hello in a room b holds too: %d hellos on the bus, want 1; it stayed in a", n)
	}
}

// unheardEnd is an end of an orderedBus whose listener the test mutes
// without its knowing (Hearing stays true): what comes meanwhile waits,
// and is delivered in order when it hears again, as pgbus's listener
// reads what it missed from its table once it notices its connection
// dead.
type unheardEnd struct {
	Bus
	bus     *orderedBus
	muted   bool // under bus.mu, which every delivery holds
	missed  [][]byte
	deliver func([]byte)
}

func (e *unheardEnd) Subscribe(deliver func([]byte)) {
	e.bus.mu.Lock()
	e.deliver = deliver
	e.bus.mu.Unlock()
	e.Bus.Subscribe(func(msg []byte) {
		if e.muted {
			e.missed = append(e.missed, msg)
			return
		}
		deliver(msg)
	})
}

func (e *unheardEnd) mute() {
	e.bus.mu.Lock()
	e.muted = true
	e.bus.mu.Unlock()
}

func (e *unheardEnd) hearAgain() {
	e.bus.mu.Lock()
	defer e.bus.mu.Unlock()
	for _, msg := range e.missed {
		e.deliver(msg)
	}
	e.muted, e.missed = false, nil
}

type opened struct {
	r   *room
	err error
}

// openLater opens in on h on a goroutine of its own, calls syncing (if
// any) once h's replica is made, and returns where the open's outcome
// goes.
func openLater(t *testing.T, h *hub, in instance, syncing func()) chan opened {
	t.Helper()
	done := make(chan opened, 1)
	go func() {
		r, err := h.open(context.Background(), in)
		done <- opened{r, err}
	}()
	waitFor(t, "the replica syncing", func() bool { return h.count() == 1 })
	if syncing != nil {
		syncing()
	}
	return done
}

// stillSyncing fails t if the open whose outcome goes to done is over a
// while past syncWait.
func stillSyncing(t *testing.T, done chan opened, why string) {
	t.Helper()
	time.Sleep(syncWait + 300*time.Millisecond)
	select {
	case got := <-done:
		t.Fatalf("the replica opened past syncWait %s: %v, %v", why, got.r, got.err)
	default:
	}
}

// TestLateSyncAnswerRejoins: a replica that took the room as new because
// the holder's answer to its sync came after its wait (a quiet holder, a
// lobby, on a bus further behind than the wait) started apart from it:
// its members' hellos stayed here, the holder's members were not in it.
// When the answer comes after all, the replica rejoins: its members are
// told to reconnect, and the replica they open is answered and agrees.
// Before, the late answer was dropped and the two stayed apart for good.
func TestLateSyncAnswerRejoins(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	slow := &heldStates{Bus: bus.end()}
	a := testHub(t, slow, games)
	b := testHub(t, bus.end(), games)
	ra, in, _ := launch(t, a)
	a.publish(event{Kind: evHello, Instance: in.ID, User: "u1", Name: "ada"})

	rb, err := b.open(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	client := joinOverSocket(t, rb, "u2", "bob")
	waitFor(t, "bob on b", func() bool { return strings.Contains(describe(t, rb), "u2@") })
	if d := describe(t, rb); strings.Contains(d, "u1@") {
		t.Fatalf("b's replica, with a's answer held: %s; want bob alone (it took the room as new)", d)
	}
	slow.release()
	awaitClose(t, client, closeRejoin)
	waitFor(t, "b's replica gone", func() bool { return b.count() == 0 })
	r := reopen(t, b, in, rb, ra, "u2", "bob")
	waitFor(t, "the replicas agree", func() bool { return describe(t, ra) == describe(t, r) })
	if d := describe(t, r); !strings.Contains(d, "u1@0,0/0 online=true") || !strings.Contains(d, "u2@0,0/0 online=true") {
		t.Fatalf("b's new replica: %s; want ada and bob online", d)
	}
}

// TestSyncHeardBeforeTheReplica: a process whose replica is made after
// another's sync passed it (the other syncing still, so answering none)
// knows from its hub that the other makes the room: its members' inputs
// go through the bus, and the other sees them. Before, it took the room
// for its own, and bob's hello stayed on b.
func TestSyncHeardBeforeTheReplica(t *testing.T) {
	bus, games := &orderedBus{}, &memGames{games: map[int64]*play.Game{}}
	slow := &heldStates{Bus: bus.end()}
	a := testHub(t, slow, games)
	b := testHub(t, bus.end(), games)
	a.pend("c1", "u1", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3}, true, "")
	in := testInstance("i-1", "c1")
	first := openLater(t, a, in, nil)
	waitFor(t, "a's sync on the bus", func() bool {
		bus.mu.Lock()
		defer bus.mu.Unlock()
		return bus.published == 2 // the launch, the sync
	})
	rb, err := b.open(context.Background(), in) // a answers none: its own sync waits
	if err != nil {
		t.Fatal(err)
	}
	got := <-first
	if got.err != nil {
		t.Fatal(got.err)
	}
	ra := got.r
	if err := rb.put(event{Kind: evHello, User: "u2", Name: "bob"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "bob on a", func() bool { return strings.Contains(describe(t, ra), "u2@") })
	var named string
	rb.inspect(func(st *state) { named = st.Holders[a.proc] })
	if named == "" {
		t.Fatal("b holds a's replica unnamed: a drop of it would not end it")
	}
	slow.release() // a's answer to b's sync, late, of the same new room
	if err := ra.put(event{Kind: evHello, User: "u1", Name: "ada"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the replicas agree", func() bool {
		d := describe(t, ra)
		return d == describe(t, rb) && strings.Contains(d, "u1@")
	})
	if held := b.held(); len(held) != 1 || held[0] != rb {
		t.Fatal("b's replica left, with nothing to rejoin for")
	}
}

// heldStates is a Bus that holds the states it is given to publish (the
// answers to syncs) until released: a loaded bus, for them. Released, it
// holds none after.
type heldStates struct {
	Bus
	mu       sync.Mutex
	held     [][]byte
	released bool
}

func (b *heldStates) Publish(ctx context.Context, msg []byte) error {
	b.mu.Lock()
	hold := !b.released && bytes.Contains(msg, []byte(`"k":"state"`))
	if hold { // under the lock: a release meanwhile would leave it held
		b.held = append(b.held, msg)
	}
	b.mu.Unlock()
	if hold {
		return nil
	}
	return b.Bus.Publish(ctx, msg)
}

func (b *heldStates) release() {
	b.mu.Lock()
	held := b.held
	b.held, b.released = nil, true
	b.mu.Unlock()
	for _, msg := range held {
		_ = b.Bus.Publish(context.Background(), msg)
	}
}

// TestSyncIgnoresNewerReplicas: the inputs of a process whose sync came
// after this replica's do not keep it waiting for a state: that process
// took this sync for one before its own and answers none. (Three
// processes' racers, connecting at once, waited for syncGiveUp and were
// turned away.)
func TestSyncIgnoresNewerReplicas(t *testing.T) {
	bus := &orderedBus{}
	b := testHub(t, bus.end(), &memGames{games: map[int64]*play.Game{}})
	b.syncGiveUp = 3 * time.Second
	b.pend("c2", "u1", mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 4}, true, "")
	in := testInstance("i-2", "c2")
	opened := make(chan error, 1)
	go func() {
		_, err := b.open(context.Background(), in)
		opened <- err
	}()
	published := func() int {
		bus.mu.Lock()
		defer bus.mu.Unlock()
		return bus.published
	}
	waitFor(t, "b's sync on the bus", func() bool { return published() == 2 }) // the launch, the sync
	for _, ev := range []event{
		{Kind: evSync, Instance: in.ID, Origin: "px", Nonce: "nx", At: time.Now().UnixMilli()},
		{Kind: evHello, Instance: in.ID, Origin: "px", User: "u2", Name: "bob", At: time.Now().UnixMilli()},
	} {
		msg, err := encodeEvent(&ev)
		if err != nil {
			t.Fatal(err)
		}
		if err := bus.end().Publish(context.Background(), msg); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-opened:
		if err != nil {
			t.Fatalf("b's open: %v", err)
		}
	case <-time.After(syncWait + 2*time.Second):
		t.Fatal("b's replica still waits for a state from a process whose sync came after its own")
	}
}

// TestRecordedAlready: a finish the store has already (another process
// took this one for dead and recorded it) is a warning for the process
// that comes back, not an error, and nothing at all for a rescuer whose
// dead process had recorded it.
func TestRecordedAlready(t *testing.T) {
	for _, rescue := range []bool{false, true} {
		var logs testkit.LogBuffer
		games := &memGames{games: map[int64]*play.Game{}}
		h := newHub(Config{Games: games, Bus: &MemoryBus{}, Log: slog.New(slog.NewTextHandler(&logs, nil)), Now: time.Now})
		won := play.Record{ID: 1, UserID: "u1", Status: play.Won}
		games.games[1] = &play.Game{Record: won}
		h.record(context.Background(), "i-1", &play.Game{Record: won}, nil, rescue)
		got := logs.String()
		if strings.Contains(got, "level=ERROR") {
			t.Errorf("rescue %v: a finish recorded already is logged as an error:\n%s", rescue, got)
		}
		if warned := strings.Contains(got, "level=WARN") && strings.Contains(got, "recorded already"); warned == rescue {
			t.Errorf("rescue %v: warned %v:\n%s", rescue, warned, got)
		}
		if games.finishes != 0 {
			t.Errorf("rescue %v: %d finishes recorded again", rescue, games.finishes)
		}
	}
}
