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
	adaC, bobC := fake.joinTwo(t, r, doomedAddr, survivor)
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

// TestArenaListenerCut: bob's process loses its database link (its LISTEN
// connection with it) for about a second, during which ada, on the other
// process, runs to the goal. Her finish reaches bob once the link is back,
// read from the bus's table: before the bus kept its messages in a table,
// the notification was lost while the listener was away, and bob's room
// never showed her finish.
func TestArenaListenerCut(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dsn := pgtest.Schema(t)
	proxied, link := throughProxy(t, dsn)
	adas, bobs := fake.startArenaApp(t, dsn), fake.startArenaApp(t, proxied)
	r := fake.raceEvent(t, ada, adaName)
	adaC, bobC := fake.joinTwo(t, r, adas, bobs)
	raceTwo(r, adaC, bobC)

	link.Cut()
	adaC.moveAlong(r.maze, r.maze.Start())
	adaC.wait("ada's finish, on her process", func(m map[string]any) bool { return playerIn(m, ada)["done"] == true })
	time.Sleep(time.Second) // the link stays down about a second in all
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	restored := time.Now()
	bobC.wait("ada's finish, once bob's process hears the bus again", func(m map[string]any) bool { return playerIn(m, ada)["done"] == true })
	took := time.Since(restored)
	t.Logf("ada's finish reached bob %v after the link's return", took)
	if took > 5*time.Second {
		t.Errorf("ada's finish reached bob %v after the link's return, want within about a second", took)
	}
}
