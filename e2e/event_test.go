package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

var e2eManagePerms = strconv.FormatInt(discordgo.PermissionManageGuild|discordgo.PermissionSendMessages, 10)

// eventSlash sends /event <sub> as a member with perms.
func eventSlash(t *testing.T, perms, sub string, opts ...fakediscord.Option) *fakediscord.Interaction {
	t.Helper()
	ix, err := fake.SlashCommand(testContext(t), fakediscord.SlashSpec{
		Name: "event", Permissions: perms,
		Options: []fakediscord.Option{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}},
	})
	if err != nil {
		t.Fatalf("/event %s: %v", sub, err)
	}
	return ix
}

// waitChannel waits for a message in the default channel whose content
// contains want.
func waitChannel(t *testing.T, want string) *fakediscord.Message {
	t.Helper()
	msg, err := fake.WaitChannelMessage(testContext(t), fakediscord.DefaultChannelID, func(m *fakediscord.Message) bool {
		return !m.Ephemeral() && strings.Contains(m.Content, want)
	})
	if err != nil {
		t.Fatalf("no channel message with %q: %v", want, err)
	}
	return msg
}

// playToGoal presses Play on the event maze as user and follows the
// solution, step apart on the bot's clock, until the game is won.
func playToGoal(t *testing.T, clock *testkit.Clock, mazeMsg *fakediscord.Message, m *mazecore.Maze, user string, step time.Duration) *fakediscord.Message {
	t.Helper()
	p := startGame(t, mazeMsg, m, user)
	p.clock, p.step = clock, step
	p.walk()
	return p.msg
}

// waitEdits waits until the message has at least n edits and returns it.
func waitEdits(t *testing.T, id string, n int) *fakediscord.Message {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m := fake.Message(id)
		if m != nil && m.Edits >= n {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("message %s has %d edits, want %d", id, m.Edits, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

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
	clock := useClock(t, time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC))
	app := startApp(t)
	ctx := testContext(t)

	// A member without Manage Server is refused, privately.
	refusal := final(t, eventSlash(t, fakediscord.DefaultPermissions, "start",
		opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "30m")))
	if !refusal.Ephemeral() || !strings.Contains(refusal.Content, "Manage Server") {
		t.Fatalf("refusal %q (ephemeral %v), want a private Manage Server refusal", refusal.Content, refusal.Ephemeral())
	}

	started := final(t, eventSlash(t, e2eManagePerms, "start",
		opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "30m"), opt("name", "E2E race")))
	if !started.Ephemeral() || !strings.Contains(started.Content, "Event started") {
		t.Fatalf("/event start answered %q", started.Content)
	}
	mazeMsg := waitChannel(t, "🏆 **E2E race** · ends")
	board := waitChannel(t, "Live leaderboard** — no finishers yet")
	id := mazeIDIn(t, mazeMsg.Content)
	if bs := mazeMsg.Buttons(); len(bs) != 1 || bs[0].CustomID != "play:"+id.String() {
		t.Fatalf("maze buttons %+v, want Play only", bs)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}

	// The first finisher shows on the board at once.
	const ada, bob, cy = "1400000000000000011", "1400000000000000012", "1400000000000000013"
	won := playToGoal(t, clock, mazeMsg, m, ada, 2*time.Second)
	if !strings.Contains(won.Content, "Your best run is **#1** of 1 in **E2E race**") {
		t.Fatalf("ada's result lacks her rank:\n%s", won.Content)
	}
	got := waitEdits(t, board.ID, 1)
	if ids := mentions(got.Content); len(ids) != 1 || ids[0] != ada {
		t.Fatalf("board after ada: %q", got.Content)
	}
	firstEdit := clock.Now()

	// Two more within the throttle interval wait for the next tick.
	playToGoal(t, clock, mazeMsg, m, bob, 300*time.Millisecond)
	playToGoal(t, clock, mazeMsg, m, cy, 500*time.Millisecond)
	if clock.Now().Sub(firstEdit) >= contest.BoardEditInterval {
		t.Fatal("the games took longer than one throttle interval")
	}
	if err := app.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fake.Message(board.ID); got.Edits != 1 {
		t.Fatalf("board edited %d times within the interval, want 1", got.Edits)
	}
	clock.Advance(contest.BoardEditInterval)
	if err := app.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	got = waitEdits(t, board.ID, 2)
	if ids := mentions(got.Content); strings.Join(ids, ",") != strings.Join([]string{bob, cy, ada}, ",") || !strings.Contains(got.Content, "3 finishers") {
		t.Fatalf("board after the flush: %q, want bob, cy, ada", got.Content)
	}

	// /event end: the final ranking, the solution, the final board.
	clock.Advance(time.Minute)
	ended := final(t, eventSlash(t, e2eManagePerms, "end"))
	if !ended.Ephemeral() || !strings.Contains(ended.Content, "ended") {
		t.Fatalf("/event end answered %q", ended.Content)
	}
	results := waitChannel(t, "**E2E race** is over")
	if ids := mentions(results.Content); strings.Join(ids, ",") != strings.Join([]string{bob, cy, ada}, ",") {
		t.Fatalf("results %q, want bob, cy, ada", results.Content)
	}
	solution := waitChannel(t, "✅ Solution")
	header, grid, _ := strings.Cut(solution.Content, "\n")
	inner, ok := strings.CutPrefix(grid, "||")
	inner, ok2 := strings.CutSuffix(inner, "||")
	if mazeIDIn(t, header) != id || !ok || !ok2 {
		t.Fatalf("solution post %q, want maze %s as a spoiler", solution.Content, id)
	}
	checkGrid(t, inner, m, mazecore.Solve(m))
	got = waitEdits(t, board.ID, 3)
	if !strings.Contains(got.Content, "Final results") || strings.Join(mentions(got.Content), ",") != strings.Join([]string{bob, cy, ada}, ",") {
		t.Fatalf("final board %q", got.Content)
	}
	// The maze has its Solve button back.
	if bs := waitEdits(t, mazeMsg.ID, 1).Buttons(); len(bs) != 2 {
		t.Fatalf("maze buttons after the end %+v, want Play and Solve", bs)
	}
}
