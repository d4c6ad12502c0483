package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// TestArenaBrowserGhost: on today's daily, ada races first (a connection
// as the client makes it), a move each 150 ms to the goal, and her finish
// keeps her run; bob then races the daily in Chromium in a room of his
// own, and her run races beside him as a ghost: listed under her name,
// it stands at the start, moves on the race's clock through the maze and
// ends at the goal, while bob has not moved.
func TestArenaBrowserGhost(t *testing.T) {
	testkit.SkipShort(t, "drives a browser")
	t.Parallel()
	fake := newDiscord(t)
	a := fake.startArenaApp(t, "")
	ctx := testContext(t)

	// The daily at midnight in a zone where it is about noon now, so the
	// day does not turn during the test whatever the real clock says.
	now := time.Now().UTC()
	zone := time.UTC
	if off := 12 - now.Hour(); off != 0 {
		name := fmt.Sprintf("Etc/GMT%+d", -off) // Etc/GMT-5 is 5 hours ahead of UTC
		var err error
		if zone, err = time.LoadLocation(name); err != nil {
			t.Fatal(err)
		}
	}
	err := dbOf(a).saveDailySettings(ctx, contest.DailySettings{GuildID: fakediscord.DefaultGuildID, ChannelID: fakediscord.DefaultChannelID,
		PostAt: 0, Zone: zone, Algorithm: mazecore.Backtracking, Size: 21, Enabled: true, UpdatedAt: now.Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	post, err := fake.WaitChannelMessage(ctx, fakediscord.DefaultChannelID, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Text(), "Daily challenge #")
	})
	if err != nil {
		t.Fatalf("no daily post: %v", err)
	}
	id := mazeIDIn(t, post.Text())
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	key := contest.DailyKey(fakediscord.DefaultGuildID, contest.DateOf(now, zone)).String()

	// ada's run, a move each 150 ms.
	first := fake.pressRace(t, post, id, ada, adaName)
	adaC := join(t, a, signIn(t, fake, a, ada, first), first)
	adaC.send(map[string]any{"t": "start"})
	adaC.racing(ada)
	path := mazecore.Solve(m)
	moves := 0
	for at := m.Start(); at != m.Goal(); moves++ {
		time.Sleep(150 * time.Millisecond)
		d, err := testkit.Toward(path, at)
		if err != nil {
			t.Fatal(err)
		}
		adaC.send(map[string]any{"t": "move", "dir": dirLetter(d)})
		msg := adaC.wait("ada's move", func(msg map[string]any) bool { return msg["t"] == "pos" && msg["id"] == ada || msg["t"] == "refused" })
		if msg["t"] == "refused" {
			t.Fatalf("ada's move along the path refused: %v", msg["why"])
		}
		at = mazecore.Point{X: int(msg["x"].(float64)), Y: int(msg["y"].(float64))}
	}
	if moves < 3 {
		t.Fatalf("the daily's solution is %d moves: too few to see a ghost move", moves)
	}
	waitFor(t, "ada's run kept", func() bool {
		run, found, err := a.Store().BestRun(ctx, key, "")
		return err == nil && found && run.UserID == ada
	})
	adaC.ws.Close()
	fake.LeaveActivity(first, ada)

	// bob races the day's maze in a room of his own.
	second := fake.pressRace(t, post, id, bob, bobName)
	if second == first {
		t.Fatal("bob's Race opened ada's instance")
	}
	site := discordClient(t, fake, a, second, map[string]harnessUser{bob: {ID: bob, Username: bobName}}, map[string]string{bob: "en-US"})
	b := newTab(t, newBrowser(t))
	b.run(chromedp.Navigate(site.URL + "/harness?user=" + bob))
	b.waitJS("bob in the room", `doc.body && doc.body.dataset.phase === "lobby" && doc.querySelector('#players li[data-id="`+bob+`"][data-online="true"]') !== null`)
	b.key(kb.Enter)
	b.waitJS("the race", `doc.body.dataset.phase === "race"`)
	b.waitJS("ada's ghost", `(() => { const li = doc.querySelector('#ghosts li[data-kind="best"]'); return !!li && li.dataset.x !== undefined; })()`)
	if label := evalIn[string](b, inFrame(`doc.querySelector('#ghosts li[data-kind="best"]').textContent`)); !strings.Contains(label, adaName) {
		t.Fatalf("the ghost is labelled %q, want ada's name", label)
	}

	// The ghost moves through the maze on the race's clock to the goal.
	ghost := func() mazecore.Point {
		xy := evalIn[[]int](b, inFrame(`(() => { const li = doc.querySelector('#ghosts li[data-kind="best"]'); return [Number(li.dataset.x), Number(li.dataset.y)]; })()`))
		return mazecore.Point{X: xy[0], Y: xy[1]}
	}
	var seen []mazecore.Point
	deadline := time.Now().Add(60 * time.Second)
	for at := ghost(); ; at = ghost() {
		if len(seen) == 0 || seen[len(seen)-1] != at {
			seen = append(seen, at)
		}
		if at == m.Goal() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ghost went %v and stopped short of the goal %v", seen, m.Goal())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(seen) < 3 {
		t.Fatalf("the ghost went %v: want it seen moving between the start and the goal", seen)
	}
	for _, p := range seen {
		if p.X%2 != 1 || p.Y%2 != 1 || p.X >= m.Width() || p.Y >= m.Height() {
			t.Fatalf("the ghost stood at %v, not a cell of the maze", p)
		}
	}
	t.Logf("the ghost seen at %d places of ada's %d moves", len(seen), moves)
	if got := b.position(bob); got != m.Start() {
		t.Fatalf("bob at %v: the ghost moved him", got)
	}
}
