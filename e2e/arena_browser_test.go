package e2e

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mazebot/internal/fakediscord"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// chromium is Debian's headless Chromium (chromium-headless-shell), which
// .ci/run installs. Without it the browser tests skip, except under CI.
const chromium = "/usr/bin/chromium-headless-shell"

// newBrowser starts one headless Chromium for the test: a fresh profile,
// no network beyond this machine's, as root needs it.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromium
	if _, err := os.Stat(path); err != nil {
		if p, err := exec.LookPath("chromium-headless-shell"); err == nil {
			path = p
		} else if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: .ci/run installs chromium-headless-shell", chromium)
		} else {
			t.Skipf("%s is missing: apt-get install chromium-headless-shell to run the browser tests", chromium)
		}
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// A tab in the background still runs its timers and frames: the two
		// players' tabs are never both in front.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.WindowSize(900, 1100),
	)
	t.Cleanup(cancel)
	browser, stop := chromedp.NewContext(alloc)
	t.Cleanup(stop)
	if err := chromedp.Do(browser); err != nil { // starts it
		t.Fatalf("start Chromium: %v", err)
	}
	return browser
}

// tab is one member's browser context (a profile of its own, as two
// people's browsers are) showing the harness, which frames the Activity.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func newTab(t *testing.T, browser context.Context) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// The first action makes the tab, which lives as long as the context
	// it ran on: this one, not a bounded one of a later step.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return &tab{t: t, ctx: ctx}
}

// run runs actions within a generous bound.
func (b *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

// evalIn evaluates expr in the harness's page, within a generous bound.
func evalIn[T any](b *tab, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// inFrame is JavaScript over the Activity's document, inside the harness.
func inFrame(expr string) string {
	return `(() => { const doc = document.getElementById('activity').contentDocument; if (!doc) return null; return (` + expr + `); })()`
}

// waitJS waits until the expression, over the Activity's document, is
// true.
func (b *tab) waitJS(what, expr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](inFrame(expr), chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		status, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](inFrame(`doc.getElementById('status') ? doc.getElementById('status').textContent : ""`)))
		log, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`JSON.stringify(window.harness)`))
		b.t.Fatalf("waiting for %s: %v (the Activity says %q; the harness saw %s)", what, err, status, log)
	}
}

// position is where the Activity shows user's dot (its racers' list).
func (b *tab) position(user string) mazecore.Point {
	b.t.Helper()
	xy := evalIn[[]int](b, inFrame(`(() => { const li = doc.querySelector('#players li[data-id="`+user+`"]'); return li ? [Number(li.dataset.x), Number(li.dataset.y)] : [-1, -1]; })()`))
	return mazecore.Point{X: xy[0], Y: xy[1]}
}

// waitAt waits until the Activity shows user's dot at p.
func (b *tab) waitAt(user string, p mazecore.Point) {
	b.t.Helper()
	b.waitJS(fmt.Sprintf("%s at %v", user, p), fmt.Sprintf(`(() => { const li = doc.querySelector('#players li[data-id="%s"]'); return !!li && li.dataset.x === "%d" && li.dataset.y === "%d"; })()`, user, p.X, p.Y))
}

// key presses a key in the Activity, as the member does, with its page
// focused.
func (b *tab) key(k string) {
	b.t.Helper()
	evalIn[bool](b, inFrame(`(doc.defaultView.focus(), doc.getElementById('maze').focus(), true)`))
	b.run(chromedp.KeyEvent(k))
}

// harness plays Discord's side of the Embedded App SDK for one member:
// the page Discord's client would be, framing the Activity (here through
// a proxy standing in for discordsays.com, so that both share an origin)
// with frame_id, instance_id and platform, and answering the SDK's
// postMessage protocol: HANDSHAKE → READY, then AUTHORIZE (a code the fake
// Discord minted for the member), AUTHENTICATE, the locale, the
// participants and subscriptions. What the SDK sent is kept in
// window.harness for the test.
var harness = template.Must(template.New("harness").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (harness)</title>
<style>body{margin:0} iframe{border:0;width:100vw;height:100vh}</style></head>
<body>
<iframe id="activity" allow="autoplay"></iframe>
<script>
const cfg = {{.}};
window.harness = {handshake: null, commands: [], errors: []};
const frame = document.getElementById('activity');
const reply = (msg) => frame.contentWindow.postMessage(msg, '*');
window.addEventListener('message', (ev) => {
  if (ev.source !== frame.contentWindow || !Array.isArray(ev.data)) return;
  const [op, p] = ev.data;
  if (op === 0) {
    window.harness.handshake = p;
    if (p.v !== 1 || p.client_id !== cfg.appId || p.frame_id !== cfg.frameId) window.harness.errors.push('bad handshake');
    const user = {id: cfg.user.id, username: cfg.user.username, discriminator: '0'};
    if (cfg.user.avatar) user.avatar = cfg.user.avatar; // a string or absent: never null
    reply([1, {cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {v: 1, config: {cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api', environment: 'production'}, user}}]);
    return;
  }
  if (op !== 1 || !p || !p.nonce) return;
  window.harness.commands.push(p.cmd);
  let data = {};
  switch (p.cmd) {
  case 'AUTHORIZE':
    if (p.args.client_id !== cfg.appId || !p.args.scope.includes('identify')) window.harness.errors.push('bad authorize');
    data = {code: cfg.code};
    break;
  case 'AUTHENTICATE':
    if (!p.args.access_token) window.harness.errors.push('authenticate without a token');
    data = {access_token: p.args.access_token, scopes: ['identify'], expires: new Date(Date.now() + 6048e5).toISOString(),
      user: {id: cfg.user.id, username: cfg.user.username, discriminator: '0', avatar: cfg.user.avatar || null, public_flags: 0, global_name: cfg.user.username},
      application: {id: cfg.appId, name: 'mazebot', description: ''}};
    break;
  case 'USER_SETTINGS_GET_LOCALE':
    data = {locale: cfg.locale};
    break;
  case 'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS':
    data = {participants: cfg.participants.map((id) => ({id, username: 'user' + id, discriminator: '0', flags: 0, bot: false}))};
    break;
  case 'SUBSCRIBE': case 'UNSUBSCRIBE':
    data = {evt: p.evt};
    break;
  }
  reply([1, {cmd: p.cmd, evt: null, nonce: p.nonce, data}]);
});
frame.src = cfg.src;
</script></body></html>`))

// harnessUser is a member as the harness's READY tells of them.
type harnessUser struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Avatar   string `json:"avatar,omitempty"`
}

// discordClient is the test's stand-in for Discord's client and its
// proxy: /harness?user=… is the member's Discord, anything else goes to
// the Activity's server.
func discordClient(t *testing.T, fake *discord, a *testApp, instance string, users map[string]harnessUser, locales map[string]string) *httptest.Server {
	t.Helper()
	target, _ := url.Parse("http://" + a.ActivityAddr())
	proxy := httputil.NewSingleHostReverseProxy(target)
	mux := http.NewServeMux()
	mux.Handle("/", proxy)
	mux.HandleFunc("GET /harness", func(w http.ResponseWriter, r *http.Request) {
		u, ok := users[r.URL.Query().Get("user")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		in := fake.Instance(instance)
		var participants []string
		if in != nil {
			participants = in.Users
		}
		frameID := "frame-" + u.ID
		q := url.Values{"frame_id": {frameID}, "instance_id": {instance}, "platform": {"desktop"},
			"guild_id": {fakediscord.DefaultGuildID}, "channel_id": {fakediscord.DefaultChannelID}}
		cfg := map[string]any{
			"appId": fake.Config().AppID, "frameId": frameID, "user": u, "locale": locales[u.ID],
			"code": fake.Authorize(u.ID, "identify"), "participants": participants, "src": "/?" + q.Encode(),
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := harness.Execute(w, cfg); err != nil {
			t.Errorf("harness: %v", err)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestArenaBrowser is Maze Arena's Must show, in headless Chromium: two
// members, each in a browser of their own, join one instance from the
// Race button on an event post and see each other's dots move; one
// reaches the goal with key presses along the shortest path, and the
// finish shows on the event's board; the other leaves mid-race and,
// rejoining, is where they were. One reads it in English, the other in
// Korean.
func TestArenaBrowser(t *testing.T) {
	testkit.SkipShort(t, "drives a browser")
	t.Parallel()
	fake, a, r := arenaRace(t)
	users := map[string]harnessUser{ada: {ID: ada, Username: adaName, Avatar: "a1b2c3"}, bob: {ID: bob, Username: bobName}}
	site := discordClient(t, fake, a, r.instance, users, map[string]string{ada: "en-US", bob: "ko"})
	browser := newBrowser(t)
	adaTab, bobTab := newTab(t, browser), newTab(t, browser)
	open := func(b *tab, user string) {
		b.t.Helper()
		b.run(chromedp.Navigate(site.URL + "/harness?user=" + user))
		b.waitJS(user+" in the room", `doc.body && doc.body.dataset.phase === "lobby" && doc.querySelector('#players li[data-id="`+user+`"][data-online="true"]') !== null`)
	}
	open(adaTab, ada)
	// bob's code exchange meets a 429 at Discord: the server answers 503
	// with the wait, and his client tries the code again after it.
	fake.InjectFault("POST /oauth2/token", 1, fakediscord.Fault{RateLimit: &fakediscord.RateLimit{RetryAfter: time.Second}})
	open(bobTab, bob)
	both := `doc.querySelectorAll('#players li[data-online="true"]').length === 2`
	adaTab.waitJS("both in the room", both)
	bobTab.waitJS("both in the room", both)

	// Each in their own language, from the catalogs.
	adaStart := evalIn[string](adaTab, inFrame(`doc.getElementById('start').textContent`))
	bobStart := evalIn[string](bobTab, inFrame(`doc.getElementById('start').textContent`))
	if adaStart != "Start" || bobStart != "시작" {
		t.Fatalf("Start reads %q and %q, want Start and 시작", adaStart, bobStart)
	}
	// The SDK spoke the protocol: a handshake with the app's id, then the
	// sign-in in order.
	cmds := evalIn[[]string](adaTab, `window.harness.errors.length === 0 ? window.harness.commands : ["errors: " + window.harness.errors.join(", ")]`)
	if !containsInOrder(cmds, "AUTHORIZE", "AUTHENTICATE") {
		t.Fatalf("the SDK sent %v, want AUTHORIZE then AUTHENTICATE", cmds)
	}

	// Enter starts the race; both see it begin.
	adaTab.key(kb.Enter)
	adaTab.waitJS("the race", `doc.body.dataset.phase === "race"`)
	bobTab.waitJS("the race", `doc.body.dataset.phase === "race"`)

	// ada runs the shortest path, one key press a corridor run; bob sees
	// her dot move, and she sees his.
	path := mazecore.Solve(r.maze)
	step := func(b *tab, user string) mazecore.Point { t.Helper(); return b.step(user, path) }
	first := step(adaTab, ada)
	bobTab.waitAt(ada, first)
	bobAt := step(bobTab, bob)
	adaTab.waitAt(bob, bobAt)

	// bob leaves mid-race (the Activity closed), and ada sees him gone.
	bobTab.run(chromedp.Navigate("about:blank"))
	fake.LeaveActivity(r.instance, bob)
	adaTab.waitJS("bob away", `(() => { const li = doc.querySelector('#players li[data-id="`+bob+`"]'); return !!li && li.dataset.online === "false"; })()`)

	// ada goes on to the goal.
	for at := adaTab.position(ada); at != r.maze.Goal(); {
		at = step(adaTab, ada)
	}
	adaTab.waitJS("ada's finish", `doc.querySelector('#finishes li[data-id="`+ada+`"]') !== null`)
	board := fake.waitEdits(t, r.board.ID, 1)
	if ids := mentions(board.Text()); len(ids) != 1 || ids[0] != ada {
		t.Fatalf("the event's board after ada's race: %q, want ada", board.Text())
	}

	// bob rejoins: he is where he left.
	fake.JoinActivity(fakediscord.DefaultChannelID, bob, bobName)
	bobTab.run(chromedp.Navigate(site.URL + "/harness?user=" + bob))
	bobTab.waitJS("bob back", `doc.body && doc.body.dataset.phase === "race" && doc.querySelector('#players li[data-id="`+bob+`"][data-online="true"]') !== null`)
	if got := bobTab.position(bob); got != bobAt {
		t.Fatalf("bob rejoined at %v, want %v where he left", got, bobAt)
	}
	adaTab.waitJS("bob back", `doc.querySelector('#players li[data-id="`+bob+`"][data-online="true"]') !== null`)
	if file := os.Getenv("MAZEBOT_ARENA_SCREENSHOT"); file != "" {
		if shot, err := chromedp.Run(bobTab.ctx, chromedp.CaptureScreenshot()); err == nil {
			_ = os.WriteFile(file, shot, 0o644)
		}
	}
	scanForSecrets(t, fake, a, r.instance)
}

// arrows are the keys of the square grid's directions.
var arrows = map[mazecore.Dir]string{mazecore.North: kb.ArrowUp, mazecore.East: kb.ArrowRight, mazecore.South: kb.ArrowDown, mazecore.West: kb.ArrowLeft}

// step presses the key that moves user one corridor run along path (a
// square maze's shortest path), waits for the Activity to show the dot
// moved, and returns where it stands.
func (b *tab) step(user string, path []mazecore.Point) mazecore.Point {
	b.t.Helper()
	at := b.position(user)
	d, err := testkit.Toward(path, at)
	if err != nil {
		b.t.Fatal(err)
	}
	b.key(arrows[d])
	b.waitJS(user+" moving", fmt.Sprintf(`(() => { const li = doc.querySelector('#players li[data-id="%s"]'); return !!li && (li.dataset.x !== "%d" || li.dataset.y !== "%d"); })()`, user, at.X, at.Y))
	return b.position(user)
}

func containsInOrder(list []string, want ...string) bool {
	i := 0
	for _, s := range list {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	return i == len(want)
}
