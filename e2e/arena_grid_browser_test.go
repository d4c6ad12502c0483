package e2e

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mazebot/internal/testkit"
	"mazebot/mazecore"
	"mazebot/play"
)

// TestArenaBrowserPolar: Maze Arena races a circular maze in headless
// Chromium. /maze grid:polar's card has Race; the Activity draws the
// rings (its pad the polar ways, named in French) and a member runs the
// shortest path to the centre by the keys, one press a run: the arrows,
// Q and E where a ring splits, and once the key an AZERTY keyboard's Q
// types where QWERTY's A lies (code KeyA: anticlockwise). The finish
// shows with clicks at par.
func TestArenaBrowserPolar(t *testing.T) {
	testkit.SkipShort(t, "drives a browser")
	t.Parallel()
	fake := newDiscord(t)
	a := fake.startArenaApp(t, "")
	card := final(t, fake.slash(t, "maze", opt("grid", "polar"), opt("size", 8), opt("seed", 12)))
	id := mazeIDIn(t, card.Text())
	m, err := mazecore.GenerateGrid(id)
	if err != nil {
		t.Fatal(err)
	}
	if card.Button("race:"+id.String()) == nil {
		t.Fatalf("no Race under the polar maze: %+v", card.Buttons())
	}
	instance := fake.pressRace(t, card, id, ada, adaName)

	site := discordClient(t, fake, a, instance, map[string]harnessUser{ada: {ID: ada, Username: adaName}}, map[string]string{ada: "fr"})
	tab := newTab(t, newBrowser(t))
	tab.run(chromedp.Navigate(site.URL + "/harness?user=" + ada))
	tab.waitJS("ada in the room", `doc.body && doc.body.dataset.phase === "lobby" && doc.body.dataset.layout === "polar" && doc.querySelector('#players li[data-id="`+ada+`"][data-online="true"]') !== null`)
	if file := os.Getenv("MAZEBOT_ARENA_SCREENSHOT"); file != "" {
		if shot, err := chromedp.Run(tab.ctx, chromedp.CaptureScreenshot()); err == nil {
			_ = os.WriteFile(file, shot, 0o644)
		}
	}
	if in := evalIn[string](tab, inFrame(`doc.getElementById('pad-in') ? doc.getElementById('pad-in').getAttribute('aria-label') : ""`)); in != "Vers l’intérieur" {
		t.Fatalf("the pad's in reads %q, want the French words", in)
	}
	// The rings are drawn: the canvas is about as wide as it is tall, and
	// its middle (the goal's target) is not the page's background.
	if wh := evalIn[[]int](tab, inFrame(`[doc.getElementById('maze').width, doc.getElementById('maze').height]`)); len(wh) != 2 || wh[0] != wh[1] || wh[0] < 100 {
		t.Fatalf("the canvas is %v", wh)
	}

	tab.key(kb.Enter)
	tab.waitJS("the race", `doc.body.dataset.phase === "race"`)

	path := m.Solve()
	grid := m.Grid()
	azerty := false
	for at := tab.position(ada); ; {
		c := grid.At((at.Y-1)/2, (at.X-1)/2)
		if c == m.Goal() {
			break
		}
		i := slices.Index(path, c)
		if i < 0 {
			t.Fatalf("ada at %v, off the shortest path", at)
		}
		w, _ := play.WayTo(grid, c, path[i+1])
		switch {
		case w == play.WayAnticlockwise && !azerty:
			// An AZERTY keyboard's Q, where QWERTY's A lies.
			azerty = true
			evalIn[bool](tab, inFrame(`(doc.defaultView.focus(), doc.defaultView.dispatchEvent(new doc.defaultView.KeyboardEvent('keydown', {key: 'q', code: 'KeyA', bubbles: true})), true)`))
		case w == play.WayOut && play.Splits(grid, c):
			tab.key("q")
		case w == play.WayOutClockwise:
			tab.key("e")
		default:
			tab.key(map[play.Way]string{play.WayOut: kb.ArrowUp, play.WayIn: kb.ArrowDown, play.WayClockwise: kb.ArrowRight, play.WayAnticlockwise: kb.ArrowLeft}[w])
		}
		tab.waitJS(fmt.Sprintf("ada moving %v from %v", w, at), fmt.Sprintf(`(() => { const li = doc.querySelector('#players li[data-id="%s"]'); return !!li && (li.dataset.x !== "%d" || li.dataset.y !== "%d"); })()`, ada, at.X, at.Y))
		at = tab.position(ada)
	}
	if !azerty {
		t.Fatal("the shortest path never went anticlockwise: pick a maze whose does")
	}
	tab.waitJS("ada's finish", `doc.querySelector('#finishes li[data-id="`+ada+`"]') !== null && doc.body.dataset.phase === "over"`)
	par := play.ParOnGrid(m)
	finish := evalIn[string](tab, inFrame(`doc.querySelector('#finishes li[data-id="`+ada+`"]').textContent`))
	if !strings.Contains(finish, fmt.Sprintf(": %d (par %d)", par, par)) {
		t.Fatalf("the finish reads %q, want %d clicks at par", finish, par)
	}
}
