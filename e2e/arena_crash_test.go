package e2e

import (
	"context"
	"slices"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/pgtest"
)

// TestArenaProcessKilled: two processes share PostgreSQL and one room, ada
// on a bot process of its own, bob on the other; ada finishes, and her
// process is killed with SIGKILL mid-race (no goodbye, no bye for her
// connection). Her finish, recorded before, is kept; the survivor's beats
// take her offline (within DeadAfter and two beats, 10 s on the defaults;
// this test allows more for a loaded machine), bob races on to the goal and
// is told the race is over, the event's board names each of them once, and
// ada, reconnecting through the survivor, is done and cannot move again.
// Before processes beat, she stayed online in bob's room for good.
func TestArenaProcessKilled(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dsn := pgtest.Schema(t)
	survivor := fake.startArenaApp(t, dsn)
	doomed := fake.startProcess(t, t.TempDir(), "MAZEBOT_DB="+dsn, "ACTIVITY_ADDR=127.0.0.1:0",
		"DISCORD_CLIENT_SECRET="+fakediscord.DefaultClientSecret)
	doomedAddr := activityAddr(doomed.loggedAddr(t, "Maze Arena listening"))
	r := fake.raceEvent(t, ada, adaName)
	fake.JoinActivity(fakediscord.DefaultChannelID, bob, bobName)
	adaC := join(t, doomedAddr, signIn(t, fake, doomedAddr, ada, r.instance), r.instance)
	bobC := join(t, survivor, signIn(t, fake, survivor, bob, r.instance), r.instance)
	adaC.wait("bob in ada's room", func(m map[string]any) bool { return playerIn(m, bob)["online"] == true })
	open, bobAt := raceTwo(r, adaC, bobC)
	adaC.moveAlong(r.maze, r.maze.Start())
	bobC.wait("ada's finish", func(m map[string]any) bool { return playerIn(m, ada)["done"] == true })
	boardNames := func(names ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if _, err := fake.WaitMessage(ctx, r.board.ID, func(m *fakediscord.Message) bool {
			return slices.Equal(mentions(m.Text()), names)
		}); err != nil {
			t.Fatalf("the event's board reads %q, want %v each once", fake.Message(r.board.ID).Text(), names)
		}
	}
	boardNames(ada)

	doomed.kill(t)
	killed := time.Now()
	bobC.wait("ada offline", func(m map[string]any) bool { return m["t"] == "room" && playerIn(m, ada)["online"] == false })
	took := time.Since(killed)
	t.Logf("ada went offline %v after her process was killed", took)
	if took > 15*time.Second {
		t.Errorf("ada went offline %v after her process was killed, want about 8 s", took)
	}
	bobC.moveAlong(r.maze, bobAt)
	bobC.wait("the race over", func(m map[string]any) bool {
		room, _ := m["room"].(map[string]any)
		return room["phase"] == "over" && playerIn(m, bob)["done"] == true
	})
	boardNames(ada, bob)

	// ada comes back through the survivor: done, her finish not played again.
	again := join(t, survivor, signIn(t, fake, survivor, ada, r.instance), r.instance)
	if me := playerIn(again.welcome, ada); me["done"] != true || me["place"] != float64(1) {
		t.Fatalf("ada back through the survivor: %v, want done and first", me)
	}
	again.send(map[string]any{"t": "move", "dir": dirLetter(open)})
	if m := again.wait("the move's answer", func(m map[string]any) bool { return m["t"] == "refused" || m["t"] == "pos" }); m["why"] != "finished" {
		t.Fatalf("ada's move after her finish: %v, want refused as finished", m)
	}
	boardNames(ada, bob)
}
