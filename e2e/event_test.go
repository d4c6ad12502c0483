package e2e

import (
	"strings"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/mazecore"
)

// mentions lists the user mentioned first on each line of content.
func mentions(content string) []string {
	var out []string
	for _, line := range strings.Split(content, "\n") {
		if _, rest, ok := strings.Cut(line, "<@"); ok {
			id, _, _ := strings.Cut(rest, ">")
			out = append(out, id)
		}
	}
	return out
}

// TestE2EEvent runs an event from start through results to its end post,
// with the live board edits, on an injected clock.
func TestE2EEvent(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	clock := fake.useClock(time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC))
	app := fake.startApp(t)
	ctx := testContext(t)

	// A member without Manage Server is refused, privately.
	refusal := final(t, fake.eventSlash(t, fakediscord.DefaultPermissions, "start",
		opt("algorithm", "backtracking"), opt("size", 9), opt("duration", "30m")))
	if !refusal.Ephemeral() || !strings.Contains(refusal.Text(), "Manage Server") {
		t.Fatalf("refusal %q (ephemeral %v), want a private Manage Server refusal", refusal.Text(), refusal.Ephemeral())
	}

	started := final(t, fake.eventSlash(t, e2eManagePerms, "start",
		opt("algorithm", "backtracking"), opt("size", 9), opt("duration", "30m"), opt("name", "E2E race")))
	if !started.Ephemeral() || !strings.Contains(started.Text(), "Event started") {
		t.Fatalf("/event start answered %q", started.Text())
	}
	mazeMsg := fake.waitChannel(t, "🏆 **E2E race** · ends")
	board := fake.waitChannel(t, "Live leaderboard** — no finishers yet")
	id := mazeIDIn(t, mazeMsg.Text())
	if bs := mazeMsg.Buttons(); len(bs) != 2 || bs[0].CustomID != "play:"+id.String() || bs[1].CustomID != "race:"+id.String() {
		t.Fatalf("maze buttons %+v, want Play and Race only", bs)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}

	// The first finisher shows on the board at once.
	const ada, bob, cy = "1400000000000000011", "1400000000000000012", "1400000000000000013"
	won := fake.playToGoal(t, clock, mazeMsg, m, ada, 2*time.Second)
	if !strings.Contains(won.Text(), "Your best run is **#1** of 1 in **E2E race**") {
		t.Fatalf("ada's result lacks her rank:\n%s", won.Text())
	}
	got := fake.waitEdits(t, board.ID, 1)
	if ids := mentions(got.Text()); len(ids) != 1 || ids[0] != ada {
		t.Fatalf("board after ada: %q", got.Text())
	}
	firstEdit := clock.Now()

	// Two more within the throttle interval wait for the next tick.
	fake.playToGoal(t, clock, mazeMsg, m, bob, 300*time.Millisecond)
	fake.playToGoal(t, clock, mazeMsg, m, cy, 500*time.Millisecond)
	if clock.Now().Sub(firstEdit) >= contest.BoardEditInterval {
		t.Fatal("the games took longer than one throttle interval")
	}
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fake.Message(board.ID); got.Edits != 1 {
		t.Fatalf("board edited %d times within the interval, want 1", got.Edits)
	}
	clock.Advance(contest.BoardEditInterval)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	got = fake.waitEdits(t, board.ID, 2)
	if ids := mentions(got.Text()); strings.Join(ids, ",") != strings.Join([]string{bob, cy, ada}, ",") || !strings.Contains(got.Text(), "3 finishers") {
		t.Fatalf("board after the flush: %q, want bob, cy, ada", got.Text())
	}

	// /event end: one new channel post, the results card (the final
	// ranking, the day's numbers, the solution); the board points to it.
	channelPosts := func() int {
		n := 0
		for _, m := range fake.ChannelMessages(fakediscord.DefaultChannelID) {
			if m.InteractionID == "" {
				n++
			}
		}
		return n
	}
	before := channelPosts()
	clock.Advance(time.Minute)
	ended := final(t, fake.eventSlash(t, e2eManagePerms, "end"))
	if !ended.Ephemeral() || !strings.Contains(ended.Text(), "ended") {
		t.Fatalf("/event end answered %q", ended.Text())
	}
	results := fake.waitChannel(t, "**E2E race** is over")
	if ids := mentions(results.Text()); strings.Join(ids, ",") != strings.Join([]string{bob, cy, ada}, ",") {
		t.Fatalf("results %q, want bob, cy, ada", results.Text())
	}
	header, rest, _ := strings.Cut(results.Text()[strings.Index(results.Text(), "✅ Solution"):], "\n")
	inner, ok := strings.CutPrefix(rest, "||")
	inner, ok2 := strings.CutSuffix(inner, "||")
	if mazeIDIn(t, header) != id || !ok || !ok2 {
		t.Fatalf("results %q, want maze %s's solution as a spoiler", results.Text(), id)
	}
	checkGrid(t, inner, m, mazecore.Solve(m))
	got = fake.waitEdits(t, board.ID, 3)
	if !strings.Contains(got.Text(), "/"+results.ID) || len(mentions(got.Text())) != 0 {
		t.Fatalf("final board %q, want a pointer to the results %s", got.Text(), results.ID)
	}
	waitFor(t, "the maze's Solve button", func() bool {
		bs := fake.Message(mazeMsg.ID).Buttons()
		return len(bs) == 3 && strings.HasPrefix(bs[1].CustomID, "solve:")
	})
	if n := channelPosts() - before; n != 1 {
		t.Fatalf("the end made %d channel posts, want exactly one (issue 18 item 6)", n)
	}
	// The maze has its Solve button back.
	if bs := fake.waitEdits(t, mazeMsg.ID, 1).Buttons(); len(bs) != 3 {
		t.Fatalf("maze buttons after the end %+v, want Play, Solve and Race", bs)
	}
}
