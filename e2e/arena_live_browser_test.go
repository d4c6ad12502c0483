package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mazebot/arena"
	"mazebot/internal/fakediscord"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// TestArenaBrowserLive is what a live race needs (issue 39), in headless
// Chromium, three members in browsers of their own: cy ticks Watch in the
// lobby, and everyone sees one watcher; ada and bob race, and cy sees
// both their dots move; bob reloads his page mid-race and races on from
// where he was; once both finished, ada presses Rematch, and all three are
// on a new maze of the same kind, ada and bob racing it (she moves on it),
// cy still watching.
func TestArenaBrowserLive(t *testing.T) {
	testkit.SkipShort(t, "drives a browser")
	t.Parallel()
	fake, a, r := arenaRace(t)
	if in := fake.JoinActivity(fakediscord.DefaultChannelID, cy, "cy"); in == nil || in.ID != r.instance {
		t.Fatalf("cy joined %+v, want instance %s", in, r.instance)
	}
	users := map[string]harnessUser{ada: {ID: ada, Username: adaName}, bob: {ID: bob, Username: bobName}, cy: {ID: cy, Username: "cy"}}
	site := discordClient(t, fake, a, r.instance, users, map[string]string{ada: "en-US", bob: "en-US", cy: "en-US"})
	browser := newBrowser(t)
	adaTab, bobTab, cyTab := newTab(t, browser), newTab(t, browser), newTab(t, browser)
	everyone := []*tab{adaTab, bobTab, cyTab}
	for user, b := range map[string]*tab{ada: adaTab, bob: bobTab, cy: cyTab} {
		b.run(chromedp.Navigate(site.URL + "/harness?user=" + user))
	}
	for _, b := range everyone {
		b.waitJS("all three in the room", `doc.body && doc.body.dataset.phase === "lobby" && doc.querySelectorAll('#players li[data-online="true"]').length === 3`)
	}

	// cy would rather watch: everyone is told one member watches.
	evalIn[bool](cyTab, inFrame(`(doc.getElementById('watch').click(), true)`))
	watching := fmt.Sprintf(`doc.getElementById('watchers').dataset.count === "1" && doc.querySelector('#players li[data-id="%s"][data-watching="true"]') !== null`, cy)
	for _, b := range everyone {
		b.waitJS("cy watching", watching)
	}
	if got := evalIn[string](bobTab, inFrame(`doc.getElementById('watchers').textContent`)); got != "1 watching" {
		t.Fatalf("bob reads %q of the watchers, want 1 watching", got)
	}
	if got := evalIn[string](bobTab, inFrame(`doc.querySelector('#players li[data-id="`+cy+`"]').textContent`)); !strings.HasSuffix(got, "cy · watching") {
		t.Fatalf("bob's list shows cy as %q, want cy · watching", got)
	}

	adaTab.key(kb.Enter)
	for _, b := range everyone {
		b.waitJS("the race", `doc.body.dataset.phase === "race"`)
	}
	if got := evalIn[string](cyTab, inFrame(`doc.getElementById('status').textContent`)); !strings.HasPrefix(got, "You are watching this race.") {
		t.Fatalf("cy's status in the race: %q", got)
	}

	// cy sees both racers' dots move.
	path := mazecore.Solve(r.maze)
	adaAt := adaTab.step(ada, path)
	bobAt := bobTab.step(bob, path)
	cyTab.waitAt(ada, adaAt)
	cyTab.waitAt(bob, bobAt)

	// bob reloads the page mid-race: he is where he was, and races on.
	bobTab.run(chromedp.Reload())
	bobTab.waitJS("bob back in the race", `doc.body && doc.body.dataset.phase === "race" && doc.querySelector('#players li[data-id="`+bob+`"][data-online="true"][data-racing="true"]') !== null`)
	if got := bobTab.position(bob); got != bobAt {
		t.Fatalf("bob reloaded at %v, want %v where he was", got, bobAt)
	}
	for _, run := range []struct {
		b    *tab
		user string
	}{{adaTab, ada}, {bobTab, bob}} {
		for at := run.b.position(run.user); at != r.maze.Goal(); {
			at = run.b.step(run.user, path)
		}
	}
	for _, b := range everyone {
		b.waitJS("the race over", `doc.body.dataset.phase === "over" && !doc.getElementById('finish').hidden && doc.querySelectorAll('#podium li').length === 2`)
	}
	cyTab.waitAt(ada, r.maze.Goal())
	cyTab.waitAt(bob, r.maze.Goal())

	// Rematch: a new maze of the event's kind, for all three.
	if got := evalIn[string](adaTab, inFrame(`doc.getElementById('rematch').textContent`)); got != "Rematch" {
		t.Fatalf("the finish screen's button reads %q", got)
	}
	evalIn[bool](adaTab, inFrame(`(doc.getElementById('rematch').click(), true)`))
	old := r.maze.ID().String()
	racing := fmt.Sprintf(`doc.body.dataset.phase === "race" && !doc.getElementById('maze-name').textContent.includes(%q) && doc.querySelectorAll('#players li[data-racing="true"][data-done="false"]').length === 2 && doc.querySelector('#players li[data-id="%s"][data-watching="true"]') !== null`, old, cy)
	for _, b := range everyone {
		b.waitJS("the rematch's race", racing)
	}
	name := evalIn[string](adaTab, inFrame(`doc.getElementById('maze-name').textContent`))
	_, text, _ := strings.Cut(name, ": ")
	id, err := mazecore.Parse(text)
	if err != nil {
		t.Fatalf("the rematch's maze %q: %v", name, err)
	}
	want := r.maze.ID()
	want.Seed = id.Seed
	if id == r.maze.ID() || id != want {
		t.Fatalf("the rematch's maze is %v, want one of %v's kind with another seed", id, r.maze.ID())
	}
	next, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	if got := adaTab.position(ada); got != next.Start() {
		t.Fatalf("ada at %v on the rematch's maze, want its start %v", got, next.Start())
	}
	adaAt = adaTab.step(ada, mazecore.Solve(next))
	bobTab.waitAt(ada, adaAt)
	cyTab.waitAt(ada, adaAt)
}

// TestArenaBrowserOldBundle: a page Discord cached from before the
// protocol changed (the bundle's hello names the version before this one)
// is told to reload: the member reads why, in their language, and is
// not admitted to the room. The
// cached bundle is this one with its hello's version turned back, served
// by a stand-in for Discord's proxy in front of the harness.
func TestArenaBrowserOldBundle(t *testing.T) {
	testkit.SkipShort(t, "drives a browser")
	t.Parallel()
	fake, a, r := arenaRace(t)
	site := discordClient(t, fake, a, r.instance, map[string]harnessUser{ada: {ID: ada, Username: adaName}}, map[string]string{ada: "de"})
	now := fmt.Sprintf(`t:"hello",v:%d,`, arena.ProtocolVersion)
	before := fmt.Sprintf(`t:"hello",v:%d,`, arena.ProtocolVersion-1)
	target, _ := url.Parse(site.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var rewritten atomic.Int32
	cached := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/app.js" {
			proxy.ServeHTTP(w, req)
			return
		}
		js := string(readAll(t, site.URL+"/app.js"))
		if !strings.Contains(js, now) {
			t.Errorf("the bundle's hello is not %s: the test cannot turn its version back", now)
		}
		rewritten.Add(1)
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = io.WriteString(w, strings.Replace(js, now, before, 1))
	}))
	t.Cleanup(cached.Close)

	tab := newTab(t, newBrowser(t))
	tab.run(chromedp.Navigate(cached.URL + "/harness?user=" + ada))
	reload := message("de", "arena.reload")
	tab.waitJS("the reload", fmt.Sprintf(`doc.getElementById('status') && doc.getElementById('status').textContent === %q`, reload))
	if rewritten.Load() == 0 {
		t.Fatal("the page never asked for app.js")
	}
	if got := evalIn[string](tab, inFrame(`doc.body.dataset.phase || ""`)); got != "" {
		t.Fatalf("the cached page shows the phase %q: it was admitted to the room", got)
	}
}
