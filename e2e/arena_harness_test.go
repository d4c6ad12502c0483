package e2e

// Maze Arena's side of the harness: an app with the Activity on, a race
// launched from an event post, members signed in as the SDK signs them in,
// and room connections spoken as the web client speaks.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"mazebot/arena"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// startArenaApp runs an app with Maze Arena on against d (Activities
// enabled there first, as in the developer portal), on a fresh database
// at dsn ("" for a SQLite file of the test's own).
func (d *discord) startArenaApp(t testing.TB, dsn string) *testApp {
	t.Helper()
	d.EnableActivities()
	if dsn == "" {
		dsn = newDBFile(t)
	}
	cfg := d.config(dsn)
	cfg.ActivityAddr, cfg.ClientSecret = "127.0.0.1:0", fakediscord.DefaultClientSecret
	return d.launch(t, cfg)
}

// arenaRace is a test's Discord with a Maze Arena app on SQLite, and a
// race launched by ada from an event post, which bob joined.
func arenaRace(t testing.TB) (*discord, *testApp, race) {
	t.Helper()
	fake := newDiscord(t)
	a := fake.startArenaApp(t, "")
	r := fake.raceEvent(t, ada, adaName)
	if in := fake.JoinActivity(fakediscord.DefaultChannelID, bob, bobName); in == nil || in.ID != r.instance {
		t.Fatalf("bob joined %+v, want instance %s", in, r.instance)
	}
	return fake, a, r
}

// race is a race launched from a Race button: its instance and maze.
type race struct {
	instance string
	maze     *mazecore.Maze
	event    *fakediscord.Message // the event's maze post
	board    *fakediscord.Message // the event's live board
}

// raceEvent starts an event in the default channel (a 15×15 sidewinder
// maze) and presses Race on its post as user: Discord opens the Activity.
func (d *discord) raceEvent(t testing.TB, user, name string) race {
	t.Helper()
	started := final(t, d.eventSlash(t, e2eManagePerms, "start",
		opt("algorithm", "sidewinder"), opt("size", 15), opt("duration", "30m"), opt("name", "Arena cup")))
	if !strings.Contains(started.Text(), "Event started") {
		t.Fatalf("/event start answered %q", started.Text())
	}
	post := d.waitChannel(t, "🏆 **Arena cup** · ends")
	board := d.waitChannel(t, "Live leaderboard** — no finishers yet")
	id := mazeIDIn(t, post.Text())
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	return race{instance: d.pressRace(t, post, id, user, name), maze: m, event: post, board: board}
}

// pressRace presses Race on maze id under msg as user, and returns the
// instance Discord opened.
func (d *discord) pressRace(t testing.TB, msg *fakediscord.Message, id mazecore.ID, user, name string) string {
	t.Helper()
	ix, err := d.ClickButton(testContext(t), memberButton(msg, "race:"+id.String(), user, name))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ix.Wait(testContext(t))
	if err != nil || resp.Type != fakediscord.InteractionResponseLaunchActivity || resp.Instance == "" {
		t.Fatalf("Race answered %+v, %v (rejections %v), want LAUNCH_ACTIVITY", resp, err, ix.Rejections())
	}
	return resp.Instance
}

// activityHost is where Maze Arena listens: an app of the test's own
// (*testApp) or a bot process's address (activityAddr).
type activityHost interface{ ActivityAddr() string }

// signIn is the SDK's sign-in for user in instance: Discord's AUTHORIZE
// gives a code, the Activity's POST /api/token trades it for an access
// token and a session token, which it returns: all a room connection
// takes.
func signIn(t testing.TB, d *discord, a activityHost, user, instance string) string {
	t.Helper()
	session, err := trySignIn(d, a, user, instance)
	if err != nil {
		t.Fatal(err)
	}
	return session
}

// trySignIn is signIn for a goroutine other than the test's: it returns
// what went wrong.
func trySignIn(d *discord, a activityHost, user, instance string) (string, error) {
	status, body, err := postSignIn(d, a, user, instance)
	var out struct {
		AccessToken string `json:"access_token"`
		Session     string `json:"session"`
	}
	if err != nil || status != http.StatusOK || json.Unmarshal(body, &out) != nil || out.AccessToken == "" || out.Session == "" {
		return "", fmt.Errorf("POST /api/token: %d %s %v", status, body, err)
	}
	return out.Session, nil
}

// signInAt posts a fresh code of user's and instance to /api/token.
func signInAt(t testing.TB, d *discord, a activityHost, user, instance string) (int, []byte) {
	t.Helper()
	status, body, err := postSignIn(d, a, user, instance)
	if err != nil {
		t.Fatal(err)
	}
	return status, body
}

// postSignIn posts a fresh code of user's and instance to /api/token and
// returns the answer.
func postSignIn(d *discord, a activityHost, user, instance string) (int, []byte, error) {
	code := d.Authorize(user, "identify")
	return tryPostJSON("http://"+a.ActivityAddr()+"/api/token", fmt.Sprintf(`{"code":%q,"instance":%q}`, code, instance))
}

func postJSON(t testing.TB, url, body string) (int, []byte) {
	t.Helper()
	status, b, err := tryPostJSON(url, body)
	if err != nil {
		t.Fatal(err)
	}
	return status, b
}

func tryPostJSON(url, body string) (int, []byte, error) {
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// roomClient is one connection to a room, as the web client makes it.
type roomClient struct {
	t    testing.TB
	ws   *websocket.Conn
	msgs chan map[string]any
	done chan struct{}
	err  error // why the connection ended, once done is closed
	me   string
	// welcome is the room's first message to it, once join has it.
	welcome map[string]any
}

// dial opens a connection to the app's room WebSocket and says hello with
// the session token; it does not wait for the welcome. The instance is
// the session's: the argument names it for the reader.
func dial(t testing.TB, a activityHost, session, _ string) *roomClient {
	t.Helper()
	return dialHello(t, a, arena.HelloMsg{T: "hello", V: arena.ProtocolVersion, Session: session, Locale: "en-US"})
}

// dialHello opens a connection to the room and says hello as given: a
// client of another version, say.
func dialHello(t testing.TB, a activityHost, hello any) *roomClient {
	t.Helper()
	ws, res, err := websocket.DefaultDialer.Dial("ws://"+a.ActivityAddr()+"/api/room", nil)
	if err != nil {
		t.Fatalf("dial the room: %v (%v)", err, res)
	}
	c := &roomClient{t: t, ws: ws, msgs: make(chan map[string]any, 4096), done: make(chan struct{})}
	t.Cleanup(func() { ws.Close() })
	go func() {
		defer close(c.done)
		for {
			_, b, err := ws.ReadMessage()
			if err != nil {
				c.err = err
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) == nil {
				select {
				case c.msgs <- m:
				default: // a test that stopped reading
				}
			}
		}
	}()
	c.send(hello)
	return c
}

// join dials and waits for the welcome.
func join(t testing.TB, a activityHost, token, instance string) *roomClient {
	t.Helper()
	c := dial(t, a, token, instance)
	w := c.wait("a welcome", func(m map[string]any) bool { return m["t"] == "welcome" })
	c.me, _ = w["you"].(string)
	c.welcome = w
	return c
}

func (c *roomClient) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(b)
}

func (c *roomClient) sendRaw(b []byte) {
	c.t.Helper()
	if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// wait reads messages until one satisfies cond, for up to 20 s.
func (c *roomClient) wait(what string, cond func(map[string]any) bool) map[string]any {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	var seen []string
	for {
		select {
		case m := <-c.msgs:
			if cond(m) {
				return m
			}
			if len(seen) < 20 {
				seen = append(seen, fmt.Sprint(m["t"], m["why"], m["id"]))
			}
		case <-c.done:
			c.t.Fatalf("waiting for %s: the connection ended: %v", what, c.err)
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s (saw %v)", what, seen)
		}
	}
}

// closed waits for the server to end the connection and returns its
// close code.
func (c *roomClient) closed() int {
	c.t.Helper()
	select {
	case <-c.done:
	case <-time.After(20 * time.Second):
		c.t.Fatal("the connection stayed open")
	}
	return c.closeCode()
}

// closeCode is the code of the close frame that ended the connection, 0
// if none did.
func (c *roomClient) closeCode() int {
	if ce, ok := c.err.(*websocket.CloseError); ok {
		return ce.Code
	}
	return 0
}

// closedOrWelcomed waits for the connection's welcome (0) or its end
// (the close code, -1 without one).
func (c *roomClient) closedOrWelcomed() int {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m := <-c.msgs:
			if m["t"] == "welcome" {
				return 0
			}
		case <-c.done:
			if code := c.closeCode(); code != 0 {
				return code
			}
			return -1
		case <-deadline:
			c.t.Fatal("neither welcomed nor closed")
		}
	}
}

// joinRetrying dials as the web client does after a refusal: again each
// quarter second until a connection is welcomed, for up to within.
func joinRetrying(t testing.TB, a activityHost, token, instance, what string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for dial(t, a, token, instance).closedOrWelcomed() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no welcome within %v: %s", within, what)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// racing waits until the room shows user in the race (their game begun).
func (c *roomClient) racing(user string) {
	c.t.Helper()
	c.wait(user+" racing", func(m map[string]any) bool { return playerIn(m, user)["racing"] == true })
}

// joinTwo has bob join ada's race r in Discord, and ada and bob join its
// room through processes adas and bobs; it waits until ada sees bob.
func (d *discord) joinTwo(t testing.TB, r race, adas, bobs activityHost) (adaC, bobC *roomClient) {
	t.Helper()
	d.JoinActivity(fakediscord.DefaultChannelID, bob, bobName)
	adaC = join(t, adas, signIn(t, d, adas, ada, r.instance), r.instance)
	bobC = join(t, bobs, signIn(t, d, bobs, bob, r.instance), r.instance)
	adaC.wait("bob in ada's room", func(m map[string]any) bool { return playerIn(m, bob)["online"] == true })
	return adaC, bobC
}

// raceTwo has ada press Start with bob in her room and waits until both
// race on both connections; then bob moves once along the open way from
// the start, which ada sees. It returns that way and where bob stands.
func raceTwo(r race, adaC, bobC *roomClient) (open mazecore.Dir, bobAt mazecore.Point) {
	adaC.t.Helper()
	adaC.send(map[string]any{"t": "start"})
	for _, c := range []*roomClient{adaC, bobC} {
		c.wait("both racing", func(m map[string]any) bool {
			return playerIn(m, ada)["racing"] == true && playerIn(m, bob)["racing"] == true
		})
	}
	start := r.maze.Start()
	for _, d := range mazecore.Dirs {
		if r.maze.Open(start.X/2, start.Y/2, d) {
			open = d
		}
	}
	bobC.send(map[string]any{"t": "move", "dir": dirLetter(open)})
	pos := adaC.waitMove("bob's move, on the other process", bob)
	return open, mazecore.Point{X: int(pos["x"].(float64)), Y: int(pos["y"].(float64))}
}

// waitMove waits until the room shows user moved: in a tick's moves, or
// as the answer to their own move. It returns the dot.
func (c *roomClient) waitMove(what, user string) map[string]any {
	c.t.Helper()
	return dotIn(c.wait(what, func(m map[string]any) bool { return dotIn(m, user) != nil }), user)
}

// dotIn finds user's dot in a moves message, or the pos answering their
// move; nil if neither.
func dotIn(m map[string]any, user string) map[string]any {
	if m["t"] == "pos" && m["id"] == user {
		return m
	}
	if m["t"] != "moves" {
		return nil
	}
	dots, _ := m["moves"].([]any)
	for _, d := range dots {
		if dm, _ := d.(map[string]any); dm["id"] == user {
			return dm
		}
	}
	return nil
}

// playerIn finds user in a room message's players.
func playerIn(m map[string]any, user string) map[string]any {
	room, _ := m["room"].(map[string]any)
	players, _ := room["players"].([]any)
	for _, p := range players {
		if pm, _ := p.(map[string]any); pm["id"] == user {
			return pm
		}
	}
	return map[string]any{}
}

// moveAlong plays the shortest path from where the player stands to the
// goal with the moves the keys make: one corridor run a move, each waited
// for.
func (c *roomClient) moveAlong(m *mazecore.Maze, from mazecore.Point) mazecore.Point {
	c.t.Helper()
	path, err := mazecore.ShortestPath(m, from, m.Goal())
	if err != nil {
		c.t.Fatal(err)
	}
	at := from
	for at != m.Goal() {
		d, err := testkit.Toward(path, at)
		if err != nil {
			c.t.Fatal(err)
		}
		c.send(map[string]any{"t": "move", "dir": dirLetter(d)})
		msg := c.wait("my move", func(msg map[string]any) bool { return msg["t"] == "pos" && msg["id"] == c.me || msg["t"] == "refused" })
		if msg["t"] == "refused" {
			if msg["why"] != "rate" {
				c.t.Fatalf("a move along the path refused: %v", msg["why"])
			}
			time.Sleep(200 * time.Millisecond) // the bucket refills
			continue
		}
		at = mazecore.Point{X: int(msg["x"].(float64)), Y: int(msg["y"].(float64))}
	}
	return at
}

func dirLetter(d mazecore.Dir) string {
	return map[mazecore.Dir]string{mazecore.North: "n", mazecore.East: "e", mazecore.South: "s", mazecore.West: "w"}[d]
}

// wallDir is a direction the player at p cannot go.
func wallDir(m *mazecore.Maze, p mazecore.Point) mazecore.Dir {
	for _, d := range mazecore.Dirs {
		if !m.Open(p.X/2, p.Y/2, d) {
			return d
		}
	}
	return mazecore.North
}

// readAll reads a response body for a secret scan.
func readAll(t testing.TB, url string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	_, _ = io.Copy(&buf, res.Body)
	return buf.Bytes()
}

// memberButton is user's click on a button of msg.
func memberButton(msg *fakediscord.Message, customID, user, name string) member.ButtonSpec {
	return member.ButtonSpec{CustomID: customID, Message: msg, UserID: user, Username: name}
}
