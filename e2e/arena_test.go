package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"mazebot/arena"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/internal/pgtest"
	"mazebot/internal/testkit"
	"mazebot/internal/testkit/gridrun"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

const (
	ada, adaName = "1400000000000000021", "ada"
	bob, bobName = "1400000000000000022", "bob"
	cy           = "1400000000000000023"
)

// refusal waits for the room to refuse something, and says why.
func (c *roomClient) refusal() string {
	c.t.Helper()
	m := c.wait("a refusal", func(m map[string]any) bool { return m["t"] == "refused" })
	why, _ := m["why"].(string)
	return why
}

// TestArenaRefusals: over the room's WebSocket, a move through a wall, a
// jump, a move for another player, a move after the finish, a flood of
// moves, a 1 MiB message and connections without a valid token are
// refused or dropped; the room goes on, and only the real finish is
// recorded on the event's board.
func TestArenaRefusals(t *testing.T) {
	t.Parallel()
	fake, a, r := arenaRace(t)
	adaTok, bobTok := signIn(t, fake, a, ada, r.instance), signIn(t, fake, a, bob, r.instance)

	t.Run("ErrNoToken", func(t *testing.T) {
		// A member not in the instance, or an instance that is not, gets
		// no session at sign-in.
		if status, body := signInAt(t, fake, a, cy, r.instance); status != http.StatusForbidden {
			t.Errorf("the sign-in of a member not in the instance: %d %s, want 403", status, body)
		}
		if status, body := signInAt(t, fake, a, ada, "i-no-such-instance"); status != http.StatusForbidden {
			t.Errorf("a sign-in to an unknown instance: %d %s, want 403", status, body)
		}
		if code := dial(t, a, "not-a-token", r.instance).closed(); code != 4401 {
			t.Errorf("a made-up session token: closed with %d, want 4401", code)
		}
	})
	t.Run("ErrCodeTwice", func(t *testing.T) {
		code := fake.Authorize(ada, "identify")
		url := "http://" + a.ActivityAddr() + "/api/token"
		body := `{"code":"` + code + `","instance":"` + r.instance + `"}`
		if status, _ := postJSON(t, url, body); status != http.StatusOK {
			t.Fatalf("first exchange: %d", status)
		}
		if status, _ := postJSON(t, url, body); status != http.StatusBadRequest {
			t.Fatalf("second exchange of one code: %d, want 400", status)
		}
	})

	adaC, bobC := join(t, a, adaTok, r.instance), join(t, a, bobTok, r.instance)
	if adaC.me != ada || bobC.me != bob {
		t.Fatalf("welcomed as %s and %s", adaC.me, bobC.me)
	}
	start := r.maze.Start()
	adaC.send(map[string]any{"t": "move", "dir": "e"})
	if why := adaC.refusal(); why != "not_started" {
		t.Fatalf("a move in the lobby: refused %q, want not_started", why)
	}
	adaC.send(map[string]any{"t": "start"})
	adaC.racing(ada)
	bobC.racing(bob)

	// A wall, a jump, a teleport, another player's move, a message the
	// protocol has not: each refused, nobody moved.
	adaC.send(map[string]any{"t": "move", "dir": dirLetter(wallDir(r.maze, start))})
	if why := adaC.refusal(); why != "wall" {
		t.Fatalf("a move into a wall: refused %q, want wall", why)
	}
	for _, raw := range []string{
		`{"t":"move","dir":"ee"}`,
		`{"t":"move","dir":"e","to":{"x":13,"y":13}}`,
		`{"t":"pos","x":13,"y":13}`,
		`{"t":"move","dir":"e","player":"` + bob + `"}`,
		`{"t":"move","dir":"e","user":"` + bob + `"}`,
		`not json`,
	} {
		adaC.sendRaw([]byte(raw))
		if why := adaC.refusal(); why != "bad" {
			t.Fatalf("%s: refused %q, want bad", raw, why)
		}
	}

	// A message of 1 MiB closes its connection (1009); the member's other
	// connection and the room go on.
	// (The server may close before the client has written it all: then
	// the client sees the connection reset rather than the close frame.)
	bob2 := join(t, a, bobTok, r.instance)
	_ = bob2.ws.WriteMessage(websocket.TextMessage, bytes.Repeat([]byte("x"), 1<<20))
	if code := bob2.closed(); code != websocket.CloseMessageTooBig && code != 0 {
		t.Fatalf("a 1 MiB message: closed with %d, want %d", code, websocket.CloseMessageTooBig)
	}

	// 1,000 moves at once, back and forth: the rate limit refuses most,
	// and the connection is dropped (1008).
	flood := join(t, a, adaTok, r.instance)
	back := map[string]string{"e": "w", "w": "e", "n": "s", "s": "n"}
	open := ""
	for _, d := range mazecore.Dirs {
		if r.maze.Open(start.X/2, start.Y/2, d) {
			open = dirLetter(d)
		}
	}
	for i := range 1000 {
		dir := open
		if i%2 == 1 {
			dir = back[open]
		}
		if err := flood.ws.WriteMessage(websocket.TextMessage, []byte(`{"t":"move","dir":"`+dir+`"}`)); err != nil {
			break // dropped already
		}
	}
	if code := flood.closed(); code != websocket.ClosePolicyViolation {
		t.Fatalf("1,000 moves: closed with %d, want %d", code, websocket.ClosePolicyViolation)
	}

	// Nothing of that reached the board; ada resumes where the flood left
	// her, as a reconnect shows it.
	if got := fake.Message(r.board.ID); got.Edits != 0 {
		t.Fatalf("the board was edited %d times before anyone finished", got.Edits)
	}
	back3 := join(t, a, adaTok, r.instance)
	w := back3.wait("the room", func(m map[string]any) bool { return m["t"] == "room" || m["t"] == "welcome" })
	me := playerIn(w, ada)
	clicks, _ := me["clicks"].(float64)
	if clicks >= 500 {
		t.Fatalf("%v of 1,000 flooded moves were played", clicks)
	}
	at := mazecore.Point{X: int(me["x"].(float64)), Y: int(me["y"].(float64))}
	back3.moveAlong(r.maze, at)
	board := fake.waitEdits(t, r.board.ID, 1)
	if ids := mentions(board.Text()); len(ids) != 1 || ids[0] != ada {
		t.Fatalf("board after ada's finish: %q", board.Text())
	}
	// A finished race takes no more moves (once the flood's toll on her
	// rate is paid).
	why := "rate"
	for range 50 {
		back3.send(map[string]any{"t": "move", "dir": dirLetter(wallDir(r.maze, r.maze.Goal()))})
		if why = back3.refusal(); why != "rate" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if why != "finished" {
		t.Fatalf("a move after the finish: refused %q, want finished", why)
	}

	// The room goes on: bob, untouched by it all, moves and ada sees it.
	bobC.send(map[string]any{"t": "move", "dir": open})
	pos := back3.waitMove("bob's move", bob)
	if pos["clicks"] != float64(1) {
		t.Fatalf("bob's move: %v, want his first click", pos)
	}

	scanForSecrets(t, fake, a, r.instance)
}

// scanForSecrets looks for the client secret, every OAuth2 code and
// access token the fake issued and the bot token in what the Activity
// serves (its page, bundle, style and words), in the app's logs, and in
// the client's sources, bundle and the tests' fixtures on disk.
func scanForSecrets(t *testing.T, fake *discord, a *testApp, instance string) {
	t.Helper()
	secrets := append(fake.OAuthSecrets(), strings.TrimPrefix(fakediscord.DefaultToken, "Bot "))
	check := func(where string, b []byte) {
		t.Helper()
		for i, s := range secrets {
			if s != "" && bytes.Contains(b, []byte(s)) {
				what := "an OAuth2 code or token"
				switch {
				case i == 0:
					what = "the client secret"
				case i == len(secrets)-1:
					what = "the bot token"
				}
				t.Errorf("%s holds %s", where, what)
			}
		}
	}
	base := "http://" + a.ActivityAddr()
	for _, path := range []string{"/", "/app.js", "/style.css", "/api/words?locale=en-US", "/api/words?locale=ko"} {
		check("GET "+path, readAll(t, base+path))
	}
	// The token endpoint's answers: a good code's carries the member's own
	// access token, which is theirs to have; never the secret.
	_, body := signInAt(t, fake, a, ada, instance)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal(body, &tok)
	if bytes.Contains(body, []byte(fakediscord.DefaultClientSecret)) || tok.AccessToken == "" {
		t.Errorf("POST /api/token answered %s", body)
	}
	_, body = postJSON(t, base+"/api/token", `{"code":"made-up","instance":"`+instance+`"}`)
	check("POST /api/token (a bad code)", body)
	check("the app's logs", []byte(a.logs.String()))
	for _, dir := range []string{"../arena/web/src", "../arena/web/dist", "testdata", "../.env.example"} {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, err := os.ReadFile(path)
			if err == nil && !strings.HasSuffix(path, ".go") {
				check(path, b)
			}
			return nil
		})
	}
}

// TestArenaPicks: in the lobby the launcher picks the race's maze, as a
// new one of an algorithm and side or by its ID, and every member gets it;
// another member's pick, a side out of range or even, an unknown
// algorithm, a bad ID and a pick once the race is on are refused. A flood
// of picks is held to the request rate (5 at once, then 2 a second) and
// then dropped (1008): the other members get a few new mazes, not a
// thousand, and the room goes on.
func TestArenaPicks(t *testing.T) {
	t.Parallel()
	fake, a, r := arenaRace(t)
	adaTok, bobTok := signIn(t, fake, a, ada, r.instance), signIn(t, fake, a, bob, r.instance)
	adaC, bobC := join(t, a, adaTok, r.instance), join(t, a, bobTok, r.instance)
	if got := bobC.welcome["maze"].(map[string]any)["id"]; got != r.maze.ID().String() {
		t.Fatalf("welcomed to maze %v, want the event's %s", got, r.maze.ID())
	}
	newMaze := func(c *roomClient, what string) map[string]any {
		c.t.Helper()
		return c.wait(what, func(m map[string]any) bool { return m["t"] == "maze" })["maze"].(map[string]any)
	}

	bobC.send(map[string]any{"t": "pick", "algorithm": "backtracking", "size": 21})
	if why := bobC.refusal(); why != "not_launcher" {
		t.Fatalf("a pick by a member who did not launch: refused %q, want not_launcher", why)
	}
	for _, bad := range []map[string]any{
		{"t": "pick", "algorithm": "backtracking", "size": 20},
		{"t": "pick", "algorithm": "backtracking", "size": 3},
		{"t": "pick", "algorithm": "backtracking", "size": 103},
		{"t": "pick", "algorithm": "no-such-algorithm", "size": 21},
		{"t": "pick", "maze": "not-a-maze-id"},
		{"t": "pick", "grid": "hex", "algorithm": "sidewinder", "size": 21}, // sidewinder needs rows and columns
		{"t": "pick", "grid": "polar", "algorithm": "backtracking", "size": 101},
		{"t": "pick", "grid": "triangle", "algorithm": "backtracking", "size": 21},
	} {
		adaC.send(bad)
		if why := adaC.refusal(); why != "bad" {
			t.Fatalf("pick %v: refused %q, want bad", bad, why)
		}
	}
	adaC.send(map[string]any{"t": "pick", "algorithm": "backtracking", "size": 21})
	for _, c := range []*roomClient{adaC, bobC} {
		got := newMaze(c, "the picked maze")
		id, err := mazecore.Parse(got["id"].(string))
		if err != nil || id.Algorithm != mazecore.Backtracking || id.Width != 21 || id.Height != 21 || got["w"] != float64(21) {
			t.Fatalf("picked backtracking 21: got %v (%v)", got["id"], err)
		}
	}

	// The picker's grids, and the algorithms that run on each.
	grids, _ := adaC.welcome["grids"].([]any)
	for _, a := range adaC.welcome["algorithms"].([]any) {
		if c := a.(map[string]any); c["id"] == "sidewinder" && fmt.Sprint(c["grids"]) != "[square polar]" {
			t.Fatalf("sidewinder runs on %v, want square and polar", c["grids"])
		}
	}
	if len(grids) != 3 || grids[1].(map[string]any)["name"] != "circular (polar)" {
		t.Fatalf("the picker's grids: %v", grids)
	}
	adaC.send(map[string]any{"t": "pick", "grid": "polar", "algorithm": "wilson", "size": 15})
	for _, c := range []*roomClient{adaC, bobC} {
		got := newMaze(c, "the picked polar maze")
		id, err := mazecore.Parse(got["id"].(string))
		if err != nil || id.GridKind != mazecore.Polar || id.Width != 15 || got["layout"] != "polar" || len(got["rings"].([]any)) != 15 || got["links"] == "" {
			t.Fatalf("picked a polar wilson maze of 15 rings: got %v, layout %v (%v)", got["id"], got["layout"], err)
		}
	}

	// 1,000 picks at once from another of ada's connections.
	flood := join(t, a, adaTok, r.instance)
	began := time.Now()
	for i := range 1000 {
		size := 5 + 2*(i%40)
		if err := flood.ws.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `{"t":"pick","algorithm":"sidewinder","size":%d}`, size)); err != nil {
			break // dropped already
		}
	}
	if code := flood.closed(); code != websocket.ClosePolicyViolation {
		t.Fatalf("1,000 picks: closed with %d, want %d", code, websocket.ClosePolicyViolation)
	}
	// One more pick, by ID, once ada's rate allows it: the bus keeps the
	// picks in order, so bob has had every maze of the flood before it.
	last := mazecore.ID{Algorithm: mazecore.Digging, Width: 25, Height: 25, Seed: 7}
	for tries := 0; ; tries++ {
		adaC.send(map[string]any{"t": "pick", "maze": last.String()})
		m := adaC.wait("the last pick", func(m map[string]any) bool {
			return m["t"] == "refused" || m["t"] == "maze" && m["maze"].(map[string]any)["id"] == last.String()
		})
		if m["t"] == "maze" {
			break
		}
		if m["why"] != "rate" || tries == 50 {
			t.Fatalf("the last pick: refused %v", m["why"])
		}
		time.Sleep(200 * time.Millisecond)
	}
	elapsed := time.Since(began)
	mazes := 0
	for newMaze(bobC, "the last pick")["id"] != last.String() {
		mazes++
	}
	if most := 5 + int(2*elapsed.Seconds()) + 1; mazes > most {
		t.Fatalf("bob got %d new mazes in %v of flood, want at most %d", mazes, elapsed.Round(time.Millisecond), most)
	}

	// The room goes on, on the last maze: bob starts it, and a pick in the
	// race is refused.
	bobC.send(map[string]any{"t": "start"})
	adaC.racing(ada)
	room := bobC.wait("the race", func(m map[string]any) bool { return playerIn(m, bob)["racing"] == true })
	if got := room["room"].(map[string]any)["maze"]; got != last.String() {
		t.Fatalf("racing on %v, want the last pick %s", got, last)
	}
	adaC.send(map[string]any{"t": "pick", "algorithm": "backtracking", "size": 21})
	if why := adaC.refusal(); why != "bad" {
		t.Fatalf("a pick in the race: refused %q, want bad", why)
	}
}

// TestArenaConnections: a member holds at most 4 connections to a room
// (one more is closed with 4429, and one closed frees a place), and a
// member opening connections in a loop is checked with Discord at the
// check rate (10 at once, then one each 2 s), not once a connection: each
// check spends the bot token's rate limit.
func TestArenaConnections(t *testing.T) {
	t.Parallel()
	fake, a, r := arenaRace(t)
	adaTok, bobTok := signIn(t, fake, a, ada, r.instance), signIn(t, fake, a, bob, r.instance)
	var held []*roomClient
	for range 4 {
		held = append(held, join(t, a, adaTok, r.instance))
	}
	if code := dial(t, a, adaTok, r.instance).closed(); code != 4429 {
		t.Fatalf("ada's fifth connection: closed with %d, want 4429", code)
	}
	_ = held[0].ws.Close()
	// The server sees the close when its read fails: until then the place
	// is still taken.
	joinRetrying(t, a, adaTok, r.instance, "a place for ada after she closed a connection", time.Second)

	before := len(fake.Requests(""))
	welcomed, tooMany := 0, 0
	for range 40 {
		switch c := dial(t, a, bobTok, r.instance); c.closedOrWelcomed() {
		case 0:
			welcomed++
		case 4429:
			tooMany++
		}
	}
	// The session token was checked here: no connection asked Discord.
	if asked := len(fake.Requests("")) - before; welcomed != 4 || tooMany != 36 || asked != 0 {
		t.Fatalf("40 connections of bob: %d welcomed, %d closed with 4429, %d requests to Discord; want 4, 36 and none",
			welcomed, tooMany, asked)
	}
}

// TestArenaOldProtocol: a client that speaks another protocol version (a
// bundle Discord cached) is told to reload, with the server's version, and
// closed with 4426 before it is admitted; a bundle from before versions
// (no "v") is closed with 4401, which it words as "launch it again". A
// client of this version is welcomed.
func TestArenaOldProtocol(t *testing.T) {
	t.Parallel()
	fake, a, r := arenaRace(t)
	adaTok := signIn(t, fake, a, ada, r.instance)
	old := dialHello(t, a, arena.HelloMsg{T: "hello", V: arena.ProtocolVersion - 1, Token: adaTok, Instance: r.instance})
	reload := old.wait("the reload", func(m map[string]any) bool { return m["t"] != "" })
	if reload["t"] != "reload" || reload["v"] != float64(arena.ProtocolVersion) {
		t.Fatalf("a client of version %d was sent %v, want a reload naming version %d", arena.ProtocolVersion-1, reload, arena.ProtocolVersion)
	}
	if code := old.closed(); code != 4426 {
		t.Fatalf("the old client's connection closed with %d, want 4426", code)
	}
	unversioned := dialHello(t, a, map[string]any{"t": "hello", "token": adaTok, "instance": r.instance})
	if code := unversioned.closedOrWelcomed(); code != 4401 {
		t.Fatalf("a client from before versions: %d, want closed with 4401", code)
	}
	join(t, a, adaTok, r.instance)
}

// TestArenaSessionTokens: the room's WebSocket takes only the session
// token POST /api/token signed, and checks it itself: 60 made-up tokens,
// a real one with its signature altered, one signed for another instance
// altered to this one, and one past its 30 minutes are each closed with
// 4401, and Discord hears of none of them; a member's own token, within
// its time, is welcomed, also without a word to Discord.
func TestArenaSessionTokens(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	clock := fake.useClock(time.Now())
	a := fake.startArenaApp(t, "")
	r := fake.raceEvent(t, ada, adaName)
	adaTok := signIn(t, fake, a, ada, r.instance)
	before := len(fake.Requests(""))
	refused := func(what, token string) {
		t.Helper()
		if code := dial(t, a, token, r.instance).closedOrWelcomed(); code != 4401 {
			t.Errorf("%s: %d, want closed with 4401", what, code)
		}
	}
	for i := range 60 {
		refused("a made-up token", fmt.Sprintf("made-up-token-%d", i))
	}
	payload, sig, _ := strings.Cut(adaTok, ".")
	refused("ada's token signed otherwise", payload+"."+strings.Repeat("A", len(sig)))
	body, _ := base64.RawURLEncoding.DecodeString(payload)
	bob := strings.Replace(string(body), ada, bob, 1)
	refused("ada's token made out to bob", base64.RawURLEncoding.EncodeToString([]byte(bob))+"."+sig)
	join(t, a, adaTok, r.instance)
	clock.Advance(31 * time.Minute)
	refused("ada's token after 31 minutes", adaTok)
	if asked := fake.Requests(""); len(asked) != before {
		t.Fatalf("Discord was asked %d times about room connections: %v", len(asked)-before, asked[before:])
	}
	// Signed in again, she is welcomed.
	join(t, a, signIn(t, fake, a, ada, r.instance), r.instance)
}

// TestArenaRateLimited: when Discord answers the sign-in's instance check
// with a 429, the sign-in is a 503 with a Retry-After (the client tries
// again), not a refusal, and no check is sent again before the
// retry_after has passed; then the member signs in and joins.
func TestArenaRateLimited(t *testing.T) {
	t.Parallel()
	fake, a, r := arenaRace(t)
	const route = "GET /applications/{app}/activity-instances/{instance}"
	fake.InjectFault(route, 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 2 * time.Second}})
	limited := time.Now()
	before := len(fake.Requests(route))
	for i := range 3 {
		if status, body := signInAt(t, fake, a, ada, r.instance); status != http.StatusServiceUnavailable && time.Since(limited) < 2*time.Second {
			t.Fatalf("sign-in %d while Discord rate limits: %d %s, want 503", i+1, status, body)
		}
	}
	if sent := len(fake.Requests(route)) - before; sent != 1 && time.Since(limited) < 2*time.Second {
		t.Fatalf("%d checks sent to Discord within its retry_after, want 1", sent)
	}
	// The code exchange likewise: 503, and no second try at Discord.
	const exchange = "POST /oauth2/token"
	fake.InjectFault(exchange, 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 2 * time.Second}})
	url := "http://" + a.ActivityAddr() + "/api/token"
	before = len(fake.Requests(exchange))
	for range 2 {
		if status, body := postJSON(t, url, `{"code":"`+fake.Authorize(bob, "identify")+`","instance":"`+r.instance+`"}`); status != http.StatusServiceUnavailable {
			t.Fatalf("a code exchange while Discord rate limits: %d %s, want 503", status, body)
		}
	}
	if sent := len(fake.Requests(exchange)) - before; sent != 1 && time.Since(limited) < 2*time.Second {
		t.Fatalf("%d code exchanges sent to Discord within its retry_after, want 1", sent)
	}

	// The retry_after counts from the 429's arrival, a little after
	// limited.
	time.Sleep(time.Until(limited.Add(2 * time.Second)))
	deadline := time.Now().Add(2500 * time.Millisecond)
	for {
		status, body := signInAt(t, fake, a, ada, r.instance)
		if status == http.StatusOK {
			var out struct {
				Session string `json:"session"`
			}
			_ = json.Unmarshal(body, &out)
			join(t, a, out.Session, r.instance)
			break
		}
		if status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("ada's sign-in once the retry_after has passed: %d %s", status, body)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestArenaTwoProcesses: two bot processes share PostgreSQL behind a load
// balancer; the two members of one race reach different processes. The
// room is one room on both (LISTEN/NOTIFY carries its events): each sees
// the other, the race starts for both, moves cross, the finish reaches
// the event's board, and a member who reconnects to the other process
// is where he was.
func TestArenaTwoProcesses(t *testing.T) {
	t.Parallel()
	fake, r, a1, adaC, bobC := raceOnTwoProcesses(t)
	for _, c := range []*roomClient{adaC, bobC} {
		if got := c.welcome["room"].(map[string]any)["maze"]; got != r.maze.ID().String() {
			t.Fatalf("%s races %v, want the event's maze %s", c.me, got, r.maze.ID())
		}
	}
	_, bobAt := raceTwo(r, adaC, bobC)
	adaC.moveAlong(r.maze, r.maze.Start())
	bobC.wait("ada's finish, on the other process", func(m map[string]any) bool { return playerIn(m, ada)["done"] == true })
	board := fake.waitEdits(t, r.board.ID, 1)
	if ids := mentions(board.Text()); len(ids) != 1 || ids[0] != ada {
		t.Fatalf("the event's board: %q, want ada", board.Text())
	}

	// bob's connection drops; he comes back through the other process.
	bobC.ws.Close()
	adaC.wait("bob away", func(m map[string]any) bool { return m["t"] == "room" && playerIn(m, bob)["online"] == false })
	again := dial(t, a1, signIn(t, fake, a1, bob, r.instance), r.instance)
	w := again.wait("bob's welcome", func(m map[string]any) bool { return m["t"] == "welcome" })
	me := playerIn(w, bob)
	if got := (mazecore.Point{X: int(me["x"].(float64)), Y: int(me["y"].(float64))}); got != bobAt {
		t.Fatalf("bob back at %v, want %v", got, bobAt)
	}
}

// TestArenaResultCard: a race on a maze no contest counts (a /maze card's
// Race button) posts its result card to the channel when its last member
// leaves, once, in the server's language (Korean here), not the
// launcher's (ada's English): the podium, ada's line with her colour, time
// and clicks against par, and the picture of the maze with her walk, a
// PNG that decodes, shown in the card's gallery with its alt text.
func TestArenaResultCard(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	fake.SetGuildLocale(fakediscord.DefaultGuildID, "ko")
	a := fake.startArenaApp(t, "")
	instance, m := fake.raceMazeCard(t, ada, adaName)
	raceAlone(t, fake, a, ada, instance, m)
	posted := fake.waitChannel(t, "🏁 **미로 아레나** `"+m.ID().String()+"`")
	clicksPar := regexp.MustCompile(fmt.Sprintf(`클릭: \d+ \(기준 %d\)`, play.Par(m)))
	if ids := mentions(posted.Text()); len(ids) != 1 || ids[0] != ada || !strings.Contains(posted.Text(), "🟧 1위 <@"+ada+">") || !clicksPar.MatchString(posted.Text()) {
		t.Fatalf("result card %q, want ada first, in her colour, with her clicks against par %d", posted.Text(), play.Par(m))
	}
	pic := posted.Attachment("race.png")
	if pic == nil || len(posted.Attachments) != 1 || !strings.Contains(string(posted.ComponentsJSON), "attachment://race.png") {
		t.Fatalf("result card's attachments %+v, components %s: want race.png in its gallery", posted.Attachments, posted.ComponentsJSON)
	}
	img, err := png.Decode(bytes.NewReader(pic.Data))
	if err != nil || img.Bounds().Dx() < 100 || !strings.Contains(pic.Description, "미로") {
		t.Fatalf("race.png: %v, %v, alt %q: want a picture of the maze, described in Korean", err, img.Bounds(), pic.Description)
	}
	cards := 0
	for _, msg := range fake.ChannelMessages(fakediscord.DefaultChannelID) {
		if strings.Contains(msg.Text(), "🏁 **미로 아레나**") {
			cards++
		}
	}
	if cards != 1 {
		t.Fatalf("%d result cards, want 1", cards)
	}
}

// TestArenaBotTokenOneLimiter: the Arena's requests with the bot's token
// share the bot's one rate limiter. The result card's post (the bot's
// Poster) is answered a global 429 (retry_after 5 s); bob's sign-in within
// it is a 503 with Retry-After, and his instance check never reaches
// Discord: it would only be refused again. Before, the Arena had a client
// of its own, which knew nothing of the bot's 429 and asked at once. Once
// the retry_after has passed the card is posted after all, once (it was
// lost to the 429 before).
func TestArenaBotTokenOneLimiter(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	a := fake.startArenaApp(t, "")
	instance, m := fake.raceMazeCard(t, ada, adaName)
	if in := fake.JoinActivity(fakediscord.DefaultChannelID, bob, bobName); in == nil || in.ID != instance {
		t.Fatalf("bob joined %+v, want instance %s", in, instance)
	}
	const post, check = "POST /channels/{channel}/messages", "GET /applications/{app}/activity-instances/{instance}"
	fake.InjectFault(post, 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: 5 * time.Second, Scope: fakediscord.ScopeGlobal}})
	raceAlone(t, fake, a, ada, instance, m)
	var limited time.Time
	waitFor(t, "the card's post answered 429", func() bool {
		for _, r := range fake.Requests(post) {
			if r.Status == http.StatusTooManyRequests {
				limited = r.Done
				return true
			}
		}
		return false
	})
	// The fake has answered the 429 before the bot's client has read it:
	// a sign-in in between is checked with Discord, rightly (the bot does
	// not know yet; a CI run was caught there). So bob tries until one is
	// refused, and then one more must be refused with no word to Discord.
	refused := false
	for try := 0; try < 5 && !refused; try++ {
		status, _ := signInAt(t, fake, a, bob, instance)
		if refused = status == http.StatusServiceUnavailable; !refused {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !refused {
		t.Fatal("no sign-in of bob's was refused during the bot's global 429")
	}
	checks := len(fake.Requests(check))
	status, body := signInAt(t, fake, a, bob, instance)
	if time.Since(limited) >= 5*time.Second {
		t.Fatal("bob's sign-ins took the whole retry_after")
	}
	if status != http.StatusServiceUnavailable {
		t.Fatalf("bob's sign-in during the bot's global 429: %d %s, want 503", status, body)
	}
	if sent := len(fake.Requests(check)) - checks; sent != 0 {
		t.Fatalf("%d instance checks reached Discord during the bot's global 429, want none", sent)
	}
	fake.waitChannel(t, "🏁 **Maze Arena** on `"+m.ID().String()+"`")
	var posts []fakediscord.Request
	for _, r := range fake.Requests(post) {
		if strings.Contains(string(r.Body), "attachment://race.png") {
			posts = append(posts, r)
		}
	}
	if len(posts) != 2 || posts[1].Time.Sub(limited) < 5*time.Second-50*time.Millisecond || fake.MessagesCreated(fakediscord.DefaultChannelID) == 0 {
		t.Fatalf("the card's posts %+v: want the 429'd one and one more after its retry_after", posts)
	}
}

// raceMazeCard posts a /maze card (an 11×11 sidewinder maze, which no
// contest counts) and presses its Race as user: it returns the instance
// Discord opened and the maze.
func (d *discord) raceMazeCard(t testing.TB, user, name string) (string, *mazecore.Maze) {
	t.Helper()
	card, m := d.postMaze(t, opt("algorithm", "sidewinder"), opt("size", 11))
	ix, err := d.ClickButton(testContext(t), memberButton(card, "race:"+m.ID().String(), user, name))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ix.Wait(testContext(t))
	if err != nil || resp.Type != 12 || resp.Instance == "" {
		t.Fatalf("Race on a maze card: %+v %v, want LAUNCH_ACTIVITY", resp, err)
	}
	return resp.Instance, m
}

// raceAlone signs user in to instance, starts its race on m, runs it to
// the goal and leaves: the room then ends, and its result card is posted.
func raceAlone(t testing.TB, d *discord, a activityHost, user, instance string, m *mazecore.Maze) {
	t.Helper()
	runAlone(t, join(t, a, signIn(t, d, a, user, instance), instance), user, m)
}

// runAlone has user, alone in the room c joined, start the race, run m to
// the goal, and leave.
func runAlone(t testing.TB, c *roomClient, user string, m *mazecore.Maze) {
	t.Helper()
	c.send(map[string]any{"t": "start"})
	c.racing(user)
	c.moveAlong(m, m.Start())
	c.wait("the finish", func(msg map[string]any) bool { return playerIn(msg, user)["done"] == true })
	if err := c.ws.Close(); err != nil {
		t.Fatal(err)
	}
}

// raceOnTwoProcesses is ada's race from an event post, served by two
// processes sharing PostgreSQL: ada joins its room through the first
// (returned), bob through the second.
func raceOnTwoProcesses(t *testing.T) (fake *discord, r race, first *testApp, adaC, bobC *roomClient) {
	t.Helper()
	fake = newDiscord(t)
	dsn := pgtest.Schema(t)
	a1, a2 := fake.startArenaApp(t, dsn), fake.startArenaApp(t, dsn)
	r = fake.raceEvent(t, ada, adaName)
	adaC, bobC = fake.joinTwo(t, r, a1, a2)
	return fake, r, a1, adaC, bobC
}

// TestArenaRematchTwoProcesses: ada and bob race through two processes on
// PostgreSQL; a rematch asked before the end is refused (not_over); once
// both finished, bob's rematch, taken by his process (which draws the
// seed), puts both on one new maze of the event's kind, on both processes,
// and ada's move on it reaches bob.
func TestArenaRematchTwoProcesses(t *testing.T) {
	t.Parallel()
	_, r, _, adaC, bobC := raceOnTwoProcesses(t)
	_, bobAt := raceTwo(r, adaC, bobC)
	bobC.send(map[string]any{"t": "rematch"})
	if why := bobC.refusal(); why != "not_over" {
		t.Fatalf("a rematch mid-race: refused %q, want not_over", why)
	}
	adaC.moveAlong(r.maze, r.maze.Start())
	bobC.moveAlong(r.maze, bobAt)
	next := bobsRematch(t, adaC, bobC)
	want := r.maze.ID()
	want.Seed = next.Seed
	if next == r.maze.ID() || next != want {
		t.Fatalf("the rematch's maze %v, want a new maze of %v's kind", next, r.maze.ID())
	}
	m, err := mazecore.Generate(next)
	if err != nil {
		t.Fatal(err)
	}
	path := mazecore.Solve(m)
	d, err := testkit.Toward(path, m.Start())
	if err != nil {
		t.Fatal(err)
	}
	adaC.send(map[string]any{"t": "move", "dir": dirLetter(d)})
	bobC.waitMove("ada's move on the rematch's maze, on the other process", ada)
}

// TestArenaImageRematchTwoProcesses: a race on an uploaded picture's maze,
// ada's and bob's members on two processes sharing PostgreSQL: both run it
// to the goal by its grid's ways, and bob's rematch puts both on one new
// maze in the same picture (a new seed, the same shape), which each
// process builds on the room's grid; ada's move on it reaches bob.
func TestArenaImageRematchTwoProcesses(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dsn := pgtest.Schema(t)
	a1, a2 := fake.startArenaApp(t, dsn), fake.startArenaApp(t, dsn)
	data := picturePNG(t, func(x, y int) bool { return (x-30)*(x-30)+(y-20)*(y-20)*4 <= 28*28 })
	logo := fake.Upload(fakediscord.DefaultChannelID, "logo.png", "image/png", data)
	card := final(t, fake.slash(t, "maze", opt("image", logo.ID), opt("algorithm", "wilson")))
	id := mazeIDIn(t, card.Text())
	pic, err := render.MaskImage(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mazecore.GenerateGridImage(id, pic)
	if err != nil {
		t.Fatal(err)
	}
	r := race{instance: fake.pressRace(t, card, id, ada, adaName)}
	adaC, bobC := fake.joinTwo(t, r, a1, a2)
	adaC.send(map[string]any{"t": "start"})
	for _, c := range []*roomClient{adaC, bobC} {
		c.wait("both racing", func(m map[string]any) bool {
			return playerIn(m, ada)["racing"] == true && playerIn(m, bob)["racing"] == true
		})
	}
	for _, c := range []*roomClient{adaC, bobC} {
		c.runGrid(m)
	}
	next := bobsRematch(t, adaC, bobC)
	want := id
	want.Seed = next.Seed
	if next == id || next != want {
		t.Fatalf("the rematch's maze %v, want a new maze in %v's picture", next, id)
	}
	again, err := mazecore.GenerateGridImage(next, pic)
	if err != nil {
		t.Fatal(err)
	}
	adaC.send(map[string]any{"t": "move", "dir": gridRuns(t, again)[0]})
	bobC.waitMove("ada's move on the rematch's maze, on the other process", ada)
}

// bobsRematch waits for the race's end on ada's and bob's connections
// (two processes'), has bob ask for a rematch, and returns its maze once
// both race it: one maze on both.
func bobsRematch(t *testing.T, adaC, bobC *roomClient) mazecore.ID {
	t.Helper()
	for _, c := range []*roomClient{adaC, bobC} {
		c.wait("the race over", func(m map[string]any) bool { return m["t"] == "room" && m["room"].(map[string]any)["phase"] == "over" })
	}
	bobC.send(map[string]any{"t": "rematch"})
	var ids []string
	for _, c := range []*roomClient{adaC, bobC} {
		m := c.wait("the rematch's maze", func(m map[string]any) bool { return m["t"] == "maze" })
		ids = append(ids, m["maze"].(map[string]any)["id"].(string))
		c.wait("both racing the rematch", func(m map[string]any) bool {
			return m["t"] == "room" && m["room"].(map[string]any)["phase"] == "race" &&
				playerIn(m, ada)["racing"] == true && playerIn(m, bob)["racing"] == true && playerIn(m, ada)["done"] != true
		})
	}
	next, err := mazecore.Parse(ids[0])
	if err != nil || ids[0] != ids[1] {
		t.Fatalf("the rematch's mazes %v (%v), want one on both processes", ids, err)
	}
	return next
}

// runGrid plays m from the start to the goal by its grid's ways, a run a
// move, each waited for.
func (c *roomClient) runGrid(m *mazecore.GridMaze) {
	c.t.Helper()
	for _, dir := range gridRuns(c.t, m) {
		for {
			c.send(map[string]any{"t": "move", "dir": dir})
			msg := c.wait("my move", func(msg map[string]any) bool { return msg["t"] == "pos" && msg["id"] == c.me || msg["t"] == "refused" })
			if msg["t"] == "pos" {
				break
			}
			if msg["why"] != "rate" {
				c.t.Fatalf("a run along the path refused: %v", msg["why"])
			}
			time.Sleep(200 * time.Millisecond) // the bucket refills
		}
	}
}

// gridRuns are the moves, a run to the next junction each, along the
// shortest path from the start to the goal of m, a maze of square cells:
// the directions the room takes, found by play's own ways.
func gridRuns(t testing.TB, m *mazecore.GridMaze) []string {
	t.Helper()
	letters := map[play.Way]string{play.WayNorth: "n", play.WayEast: "e", play.WaySouth: "s", play.WayWest: "w"}
	ways, err := gridrun.Ways(m)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ways))
	for i, w := range ways {
		if out[i] = letters[w]; out[i] == "" {
			t.Fatalf("the way %v is not a square cell's", w)
		}
	}
	return out
}

// TestArenaWhere: Maze Arena where Discord runs Activities. /race is
// offered in servers, the DM with the bot and group DMs, through a
// server's install or a member's own. In a group DM through ada's own
// install it launches (an instance whose location is a private channel,
// no server), she signs in and joins its room, on a new maze (a group DM
// has no daily); a /maze card there offers Race. In the DM with the bot
// through a server's install only, where Discord runs no Activity (the
// fake refuses the launch, as TestLaunchOutsideServers shows), ada is told
// privately why, and nothing is launched.
func TestArenaWhere(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	a := fake.startArenaApp(t, "")
	def := fake.Command("", "race", fakediscord.PrimaryEntryPointCommand)
	if def == nil || def.Contexts == nil || len(*def.Contexts) != 3 || def.IntegrationTypes == nil || len(*def.IntegrationTypes) != 2 {
		t.Fatalf("/race synced as %+v, want every context and both installs", def)
	}
	const groupDM = "1300000000000000911"
	fake.SetChannelPermissions(groupDM, 0) // the bot is no member of it
	launches := fake.Launches()
	ix, err := fake.EntryPoint(testContext(t), member.SlashSpec{DM: true, PrivateChannel: true, ChannelID: groupDM, UserInstall: true, UserID: ada, Username: adaName})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ix.Wait(testContext(t))
	if err != nil || resp.Type != 12 || !strings.Contains(resp.Instance, "-pc-"+groupDM) {
		t.Fatalf("/race in a group DM through ada's install: %+v %v, want LAUNCH_ACTIVITY there", resp, err)
	}
	if c := join(t, a, signIn(t, fake, a, ada, resp.Instance), resp.Instance); c.me != ada || fake.Launches() != launches+1 {
		t.Fatalf("ada in the group DM's room: %q, %d launches", c.me, fake.Launches()-launches)
	}
	card, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", Options: []member.Option{opt("size", 11)},
		DM: true, PrivateChannel: true, ChannelID: groupDM, UserInstall: true})
	if err != nil {
		t.Fatal(err)
	}
	posted := final(t, card)
	i := slices.IndexFunc(posted.Buttons(), func(b fakediscord.Button) bool { return strings.HasPrefix(b.CustomID, "race:") })
	if i < 0 {
		t.Fatalf("a /maze card in a group DM through a member's install has buttons %+v, want Race", posted.Buttons())
	}
	// bob presses it, through his own install: he is put in the instance
	// running there.
	ix, err = fake.ClickButton(testContext(t), member.ButtonSpec{CustomID: posted.Buttons()[i].CustomID, Message: posted, DM: true, ChannelID: groupDM,
		UserID: bob, Username: bobName, UserInstall: true, PrivateChannel: true})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := ix.Wait(testContext(t)); err != nil || again.Type != 12 || again.Instance != resp.Instance {
		t.Fatalf("Race in the group DM: %+v %v, want LAUNCH_ACTIVITY into %s", again, err, resp.Instance)
	}

	launches = fake.Launches()
	ix, err = fake.EntryPoint(testContext(t), member.SlashSpec{DM: true, UserID: bob, Username: bobName})
	if err != nil {
		t.Fatal(err)
	}
	msg := final(t, ix)
	if !msg.Ephemeral() || !strings.Contains(msg.Text(), "your own apps") || fake.Launches() != launches {
		t.Fatalf("/race in the DM with the bot through a server's install: %q (ephemeral %v), %d launches: want a private word of why, none",
			msg.Text(), msg.Ephemeral(), fake.Launches()-launches)
	}
}

// TestArenaGroupDMCard: in a group DM, where the bot is no member and may
// not post, a race launched through ada's own install gets its result
// card as the launch's followup (Discord shows an interaction's followups
// in its channel for 15 minutes): the podium and its picture, once.
func TestArenaGroupDMCard(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	a := fake.startArenaApp(t, "")
	const groupDM = "1300000000000000912"
	fake.SetChannelPermissions(groupDM, 0) // the bot is no member of it
	ix, err := fake.EntryPoint(testContext(t), member.SlashSpec{DM: true, PrivateChannel: true, ChannelID: groupDM, UserInstall: true, UserID: ada, Username: adaName})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ix.Wait(testContext(t))
	if err != nil || resp.Type != 12 {
		t.Fatalf("/race in a group DM through ada's install: %+v %v, want LAUNCH_ACTIVITY", resp, err)
	}
	c := join(t, a, signIn(t, fake, a, ada, resp.Instance), resp.Instance)
	id, err := mazecore.Parse(c.welcome["room"].(map[string]any)["maze"].(string))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	runAlone(t, c, ada, m)
	posted, err := fake.WaitChannelMessage(testContext(t), groupDM, func(m *fakediscord.Message) bool {
		return !m.Ephemeral() && strings.Contains(m.Text(), "🏁")
	})
	if err != nil {
		t.Fatalf("no result card in the group DM: %v", err)
	}
	if !strings.Contains(posted.Text(), id.String()) || !strings.Contains(posted.Text(), "<@"+ada+">") || posted.Attachment("race.png") == nil {
		t.Fatalf("the group DM's result card %q (attachments %+v), want ada's podium on %s with its picture", posted.Text(), posted.Attachments, id)
	}
	cards := 0
	for _, msg := range fake.ChannelMessages(groupDM) {
		if strings.Contains(msg.Text(), "🏁") {
			cards++
		}
	}
	if cards != 1 {
		t.Fatalf("%d result cards in the group DM, want 1", cards)
	}
}

// TestArenaLaunchRefused: when Discord refuses to open the Activity (here
// its Activities were turned off in the developer portal after the bot
// started), the member who pressed Race is told so privately, not left
// with a button that did nothing.
func TestArenaLaunchRefused(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	fake.startArenaApp(t, "")
	card, m := fake.postMaze(t, opt("algorithm", "sidewinder"), opt("size", 11))
	fake.DisableActivities()
	ix, err := fake.ClickButton(testContext(t), memberButton(card, "race:"+m.ID().String(), ada, adaName))
	if err != nil {
		t.Fatal(err)
	}
	msg := final(t, ix)
	if !msg.Ephemeral() || !strings.Contains(msg.Text(), "would not open Maze Arena here") || fake.Launches() != 0 {
		t.Fatalf("Race refused by Discord: %q (ephemeral %v), %d launches: want a private word of it", msg.Text(), msg.Ephemeral(), fake.Launches())
	}
}
