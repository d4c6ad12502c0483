package play_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store/storetest"
)

// raced is a store on which another process's click lands first: before
// the next SaveGame, the stored game moves one seq ahead.
type raced struct {
	storetest.Store
	raced bool
}

func (r *raced) SaveGame(ctx context.Context, rec play.Record) error {
	if !r.raced {
		r.raced = true
		other, err := r.Game(ctx, rec.ID)
		if err != nil {
			return err
		}
		other.Seq++
		if err := r.Store.SaveGame(ctx, other); err != nil {
			return err
		}
	}
	return r.Store.SaveGame(ctx, rec)
}

func TestService(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	m, err := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 15, Height: 15, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	path := mazecore.Solve(m)
	setup := func(t *testing.T, store play.Store) (*play.Service, *testkit.Clock, *play.Game) {
		clock := testkit.NewClock(t0)
		s := play.NewService(store, clock.Now)
		g, err := s.Start(ctx, m, play.Record{UserID: "u1", GuildID: "g1", ChannelID: "c1", Contest: "daily:g1:2026-11-30"})
		if err != nil {
			t.Fatal(err)
		}
		return s, clock, g
	}
	step := func(t *testing.T, g *play.Game) play.Action {
		d, err := testkit.Toward(path, g.Pos)
		if err != nil {
			t.Fatal(err)
		}
		return play.Action{Kind: play.Move, Dir: d, Seq: g.Seq}
	}
	t.Run("OKWinRecordsOneResult", func(t *testing.T) {
		store := storetest.Memory(t)
		s, clock, g := setup(t, store)
		for g.Status == play.Playing {
			clock.Advance(time.Second)
			var out play.Outcome
			var err error
			if g, out, err = s.Press(ctx, g.ID, "u1", step(t, g)); err != nil || out == play.Stale {
				t.Fatalf("press: %v %v", out, err)
			}
		}
		stored, err := store.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Status != play.Won || stored.Seq != g.Seq {
			t.Fatalf("stored %+v, want won at seq %d", stored, g.Seq)
		}
		// The game's contest holds one result: u1's, of a second a click.
		runs, err := store.DayRuns(ctx, "g1", contest.MakeDate(2026, 11, 30))
		if err != nil || len(runs) != 1 || runs[0].UserID != "u1" || runs[0].Elapsed != time.Duration(g.Clicks)*time.Second {
			t.Fatalf("results %+v (%v), want one of %d s in the game's contest", runs, err, g.Clicks)
		}
		// And no second one was recorded beside it.
		if err := store.SaveGame(ctx, stored); !errors.Is(err, play.ErrConflict) {
			t.Fatalf("saving the won game again: %v, want ErrConflict", err)
		}
	})
	t.Run("OKLostRaceIsStale", func(t *testing.T) {
		store := &raced{Store: storetest.Memory(t)}
		s, _, g := setup(t, store)
		got, out, err := s.Press(ctx, g.ID, "u1", step(t, g))
		if err != nil || out != play.Stale || got.Seq != 1 || got.Pos != m.Start() {
			t.Fatalf("Press=%v seq %d at %v (%v), want Stale with the stored game (seq 1, at the start)", out, got.Seq, got.Pos, err)
		}
	})
	t.Run("ErrNotYours", func(t *testing.T) {
		s, _, g := setup(t, storetest.Memory(t))
		if _, _, err := s.Press(ctx, g.ID, "u2", step(t, g)); !errors.Is(err, play.ErrNotYours) {
			t.Fatalf("err=%v, want ErrNotYours", err)
		}
	})
	t.Run("ErrGoneIsOver", func(t *testing.T) {
		s, _, g := setup(t, storetest.Memory(t))
		if _, _, err := s.Press(ctx, g.ID+100, "u1", step(t, g)); !errors.Is(err, play.ErrOver) {
			t.Fatalf("err=%v, want ErrOver", err)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		s, clock, g := setup(t, storetest.Memory(t))
		clock.Advance(play.TTL + time.Minute)
		if _, err := s.Load(ctx, g.ID, "u1"); !errors.Is(err, play.ErrExpired) {
			t.Fatalf("err=%v, want ErrExpired", err)
		}
	})
	t.Run("OKCleanupHourly", func(t *testing.T) {
		store := storetest.Memory(t)
		s, clock, _ := setup(t, store)
		clock.Advance(play.Retention + time.Minute)
		if n, err := s.Cleanup(ctx); err != nil || n != (play.Cleaned{Games: 1}) {
			t.Fatalf("Cleanup=%+v, %v; want the one old game deleted", n, err)
		}
		old := play.Record{UserID: "u2", MazeID: m.ID(), Pos: m.Start(), Status: play.Playing, StartedAt: t0, UpdatedAt: t0}
		if _, err := store.CreateGame(ctx, old); err != nil {
			t.Fatal(err)
		}
		clock.Advance(play.CleanupEvery - time.Second)
		if n, err := s.Cleanup(ctx); err != nil || n != (play.Cleaned{}) {
			t.Fatalf("Cleanup within the hour=%+v, %v; want nothing done", n, err)
		}
		clock.Advance(time.Second)
		if n, err := s.Cleanup(ctx); err != nil || n != (play.Cleaned{Games: 1}) {
			t.Fatalf("Cleanup an hour later=%+v, %v; want 1 game", n, err)
		}
	})
	t.Run("OKCleanupRuns", func(t *testing.T) {
		// No run is saved after these: only Cleanup deletes them.
		store := storetest.Memory(t)
		clock := testkit.NewClock(t0)
		s := play.NewService(store, clock.Now, play.WithRuns(store))
		for i, user := range []string{"u1", "u2"} {
			r := play.Run{Contest: "daily:g1:2026-11-30", UserID: user, MazeID: m.ID(), Ms: 9000, FinishedAt: t0.Add(time.Duration(i) * time.Hour)}
			if _, err := store.SaveRun(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(play.RunRetention + 30*time.Minute)
		if n, err := s.Cleanup(ctx); err != nil || n != (play.Cleaned{Runs: 1}) {
			t.Fatalf("Cleanup=%+v, %v; want u1's run, past RunRetention, deleted", n, err)
		}
		if r, found, err := store.BestRun(ctx, "daily:g1:2026-11-30", ""); err != nil || !found || r.UserID != "u2" {
			t.Fatalf("BestRun = %s's (found %v, %v); want u2's, still within RunRetention", r.UserID, found, err)
		}
	})
}

// TestServiceOnGrid plays a polar game through the store to the goal:
// each press loads the game, whose maze the service makes again from its
// version 3 ID (WithGrids' maker, or mazecore's), and a second Play on
// the maze resumes it.
func TestServiceOnGrid(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	m, err := mazecore.GenerateGrid(mazecore.ID{GridKind: mazecore.Polar, Width: 9, Height: 9, Algorithm: mazecore.Sidewinder, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	s := play.NewService(storetest.Memory(t), testkit.NewClock(t0).Now, play.WithGrids(func(_ context.Context, id mazecore.ID) (*mazecore.GridMaze, error) {
		made++
		return mazecore.GenerateGrid(id)
	}))
	g, resumed, err := s.ResumeOnGrid(ctx, m, play.Record{UserID: "u1", GuildID: "g1", ChannelID: "c1"})
	if err != nil || resumed {
		t.Fatalf("first Play: resumed %v, %v", resumed, err)
	}
	path := m.Solve()
	out := play.Moved
	for out == play.Moved {
		i := slices.Index(path, g.Cell())
		w, _ := play.WayTo(m.Grid(), path[i], path[i+1])
		if g, out, err = s.Press(ctx, g.ID, "u1", play.Action{Kind: play.Move, Way: w, Seq: g.Seq}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			again, resumed, err := s.ResumeOnGrid(ctx, m, play.Record{UserID: "u1", GuildID: "g1", ChannelID: "c1"})
			if err != nil || !resumed || again.ID != g.ID || again.Cell() != g.Cell() {
				t.Fatalf("Play again after a move: resumed %v game %d at %d (%v), want game %d at %d", resumed, again.ID, again.Cell(), err, g.ID, g.Cell())
			}
		}
	}
	if out != play.Finished || g.Cell() != m.Goal() || g.Clicks != play.ParOnGrid(m) {
		t.Fatalf("outcome %v at %d after %d clicks, want Finished at %d in par %d", out, g.Cell(), g.Clicks, m.Goal(), play.ParOnGrid(m))
	}
	if made != g.Clicks {
		t.Fatalf("the maze was made %d times for %d presses", made, g.Clicks)
	}
	ended, err := s.Ended(ctx, g.ID, "u1")
	if err != nil || ended.Grid() == nil || ended.Status != play.Won {
		t.Fatalf("Ended: %v, %v", ended, err)
	}
}
