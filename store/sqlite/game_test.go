package sqlite_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"mazebot/store"
	"mazebot/store/sqlite"
)

// newGame is a playing game at the start of a 21×21 maze.
func newGame() store.Game {
	return store.Game{
		UserID: "u1", GuildID: "g1", ChannelID: "c1", MazeID: "m1",
		X: 1, Y: 1, Trail: []byte{0x02, 0, 0, 0x80},
		StartedAt: at(0), UpdatedAt: at(0),
	}
}

func mustCreateGame(tb testing.TB, db *sqlite.DB, g store.Game) store.Game {
	tb.Helper()
	ctx := context.Background()
	id, err := db.CreateGame(ctx, g)
	if err != nil {
		tb.Fatal(err)
	}
	got, err := db.Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	return got
}

func mustGame(tb testing.TB, db *sqlite.DB, id int64) store.Game {
	tb.Helper()
	g, err := db.Game(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func TestCreateGame(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		db := MustOpen(t)
		want := newGame()
		want.Context = "daily:g1:2026-03-01"
		got := mustCreateGame(t, db, want)
		if got.ID <= 0 {
			t.Fatalf("ID=%v, want positive", got.ID)
		}
		want.ID, want.Status = got.ID, store.GamePlaying
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Game=%+v, want %+v", got, want)
		}
		if !got.FinishedAt.IsZero() {
			t.Fatalf("FinishedAt=%v, want zero while playing", got.FinishedAt)
		}
		second := mustCreateGame(t, db, newGame())
		if second.ID == got.ID {
			t.Fatalf("two games share id %d", got.ID)
		}
	})
	t.Run("OKNilTrail", func(t *testing.T) {
		db := MustOpen(t)
		g := newGame()
		g.Trail = nil
		if got := mustCreateGame(t, db, g); len(got.Trail) != 0 {
			t.Fatalf("Trail=%v, want empty", got.Trail)
		}
	})
	for name, mutate := range map[string]func(*store.Game){
		"ErrNoUser":     func(g *store.Game) { g.UserID = "" },
		"ErrNoMaze":     func(g *store.Game) { g.MazeID = "" },
		"ErrOnOuterRow": func(g *store.Game) { g.Y = 0 },
		"ErrNegative":   func(g *store.Game) { g.Clicks = -1 },
	} {
		t.Run(name, func(t *testing.T) {
			db := MustOpen(t)
			g := newGame()
			mutate(&g)
			if _, err := db.CreateGame(context.Background(), g); err == nil {
				t.Fatal("expected a CHECK to refuse the row")
			}
		})
	}
}

func TestGame(t *testing.T) {
	t.Run("ErrNotFound", func(t *testing.T) {
		db := MustOpen(t)
		if _, err := db.Game(context.Background(), 42); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err=%v, want ErrNotFound", err)
		}
	})
}

func TestSaveMove(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		g.X, g.Y, g.Clicks, g.Tiles, g.Trail, g.UpdatedAt = 5, 1, 1, 4, []byte{0x2a, 0, 0, 0x80}, at(1500)
		if err := db.SaveMove(ctx, g, 0); err != nil {
			t.Fatal(err)
		}
		got := mustGame(t, db, g.ID)
		g.Seq = 1
		if !reflect.DeepEqual(got, g) {
			t.Fatalf("Game=%+v, want %+v", got, g)
		}
	})
	t.Run("ErrConflictStaleSeq", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		first := g
		first.X, first.Clicks = 3, 1
		if err := db.SaveMove(ctx, first, 0); err != nil {
			t.Fatal(err)
		}
		before := mustGame(t, db, g.ID)
		second := g
		second.X, second.Y, second.Clicks = 1, 7, 1
		if err := db.SaveMove(ctx, second, 0); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("err=%v, want ErrConflict", err)
		}
		if got := mustGame(t, db, g.ID); !reflect.DeepEqual(got, before) {
			t.Fatalf("a conflicting move changed the game: %+v, want %+v", got, before)
		}
	})
	t.Run("ErrConflictFinished", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		g.Status, g.FinishedAt = store.GameGaveUp, at(10)
		if err := db.FinishGame(ctx, g, 0, nil); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveMove(ctx, g, 1); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("err=%v, want ErrConflict on a finished game", err)
		}
	})
	t.Run("ErrConflictNoGame", func(t *testing.T) {
		db := MustOpen(t)
		g := newGame()
		g.ID = 99
		if err := db.SaveMove(ctx, g, 0); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("err=%v, want ErrConflict", err)
		}
	})

	// Many processes clicking the same state at once: exactly one move
	// lands, the others learn they lost.
	t.Run("OKOneWinnerConcurrent", func(t *testing.T) {
		db := MustOpenFile(t, filepath.Join(t.TempDir(), "mazebot.db"))
		g := mustCreateGame(t, db, newGame())
		const racers = 16
		var (
			wg        sync.WaitGroup
			mu        sync.Mutex
			won, lost int
			errs      []error
		)
		for i := range racers {
			wg.Go(func() {
				mine := g
				mine.X = 2*i + 1
				err := db.SaveMove(ctx, mine, 0)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
				case errors.Is(err, store.ErrConflict):
					lost++
				default:
					errs = append(errs, err)
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			t.Error(err)
		}
		if won != 1 || lost != racers-1 {
			t.Fatalf("won=%d lost=%d, want 1 and %d", won, lost, racers-1)
		}
		if got := mustGame(t, db, g.ID); got.Seq != 1 {
			t.Fatalf("Seq=%v, want 1", got.Seq)
		}
	})
}

func TestFinishGame(t *testing.T) {
	ctx := context.Background()
	finish := func(g store.Game) *store.Finish {
		return &store.Finish{UserID: g.UserID, GuildID: g.GuildID, MazeID: g.MazeID, Clicks: g.Clicks, Tiles: g.Tiles,
			Elapsed: g.FinishedAt.Sub(g.StartedAt), FinishedAt: g.FinishedAt}
	}
	t.Run("OKWon", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		g.X, g.Y, g.Clicks, g.Tiles, g.Status, g.UpdatedAt, g.FinishedAt = 19, 19, 9, 80, store.GameWon, at(102_000), at(102_000)
		if err := db.FinishGame(ctx, g, 0, finish(g)); err != nil {
			t.Fatal(err)
		}
		got := mustGame(t, db, g.ID)
		g.Seq = 1
		if !reflect.DeepEqual(got, g) {
			t.Fatalf("Game=%+v, want %+v", got, g)
		}
		runs, err := db.Finishes(ctx, "m1")
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 || runs[0] != *finish(g) {
			t.Fatalf("Finishes=%+v, want [%+v]", runs, *finish(g))
		}
	})
	t.Run("OKGaveUpRecordsNoFinish", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		g.Status, g.FinishedAt = store.GameGaveUp, at(5)
		if err := db.FinishGame(ctx, g, 0, nil); err != nil {
			t.Fatal(err)
		}
		if got := mustGame(t, db, g.ID); got.Status != store.GameGaveUp || !got.FinishedAt.Equal(at(5)) {
			t.Fatalf("Game=%+v, want gave_up at %v", got, at(5))
		}
		if runs, err := db.Finishes(ctx, "m1"); err != nil || len(runs) != 0 {
			t.Fatalf("Finishes=%+v, %v, want none", runs, err)
		}
	})
	// A double click on the last move must not record the run twice.
	t.Run("ErrConflictOnce", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		g.Status, g.FinishedAt = store.GameWon, at(5)
		if err := db.FinishGame(ctx, g, 0, finish(g)); err != nil {
			t.Fatal(err)
		}
		if err := db.FinishGame(ctx, g, 0, finish(g)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("err=%v, want ErrConflict", err)
		}
		if runs, _ := db.Finishes(ctx, "m1"); len(runs) != 1 {
			t.Fatalf("Finishes=%+v, want exactly one", runs)
		}
	})
	// A finish the database refuses rolls the game back too: nothing is
	// half-written.
	t.Run("ErrAtomic", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		before := g
		g.Status, g.FinishedAt, g.Clicks = store.GameWon, at(5), 3
		bad := finish(g)
		bad.UserID = "" // violates finishes' CHECK
		if err := db.FinishGame(ctx, g, 0, bad); err == nil {
			t.Fatal("expected the finish to be refused")
		}
		if got := mustGame(t, db, g.ID); !reflect.DeepEqual(got, before) {
			t.Fatalf("Game=%+v after a failed finish, want unchanged %+v", got, before)
		}
	})
	t.Run("ErrStatusPlaying", func(t *testing.T) {
		db := MustOpen(t)
		g := mustCreateGame(t, db, newGame())
		if err := db.FinishGame(ctx, g, 0, nil); err == nil {
			t.Fatal("expected an error for a finish that leaves the game playing")
		}
	})
}

// TestGameSurvivesReopen is the store's half of "a game survives a
// restart".
func TestGameSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mazebot.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g := mustCreateGame(t, db, newGame())
	g.X, g.Clicks, g.UpdatedAt = 7, 2, at(9)
	if err := db.SaveMove(ctx, g, 0); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	got := mustGame(t, MustOpenFile(t, path), g.ID)
	g.Seq = 1
	if !reflect.DeepEqual(got, g) {
		t.Fatalf("Game=%+v after reopen, want %+v", got, g)
	}
}

func TestSecret(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		db := MustOpen(t)
		calls := 0
		gen := func() ([]byte, error) { calls++; return []byte{byte(calls), 2, 3}, nil }
		first, err := db.Secret(ctx, "k", gen)
		if err != nil {
			t.Fatal(err)
		}
		second, err := db.Secret(ctx, "k", gen)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, []byte{1, 2, 3}) || !bytes.Equal(second, first) || calls != 1 {
			t.Fatalf("secrets %v, %v after %d generations, want the first kept", first, second, calls)
		}
		other, err := db.Secret(ctx, "other", gen)
		if err != nil || bytes.Equal(other, first) {
			t.Fatalf("Secret(other)=%v, %v, want a separate value", other, err)
		}
	})
	t.Run("OKSameForEveryProcess", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mazebot.db")
		dbs := []*sqlite.DB{MustOpenFile(t, path), MustOpenFile(t, path), MustOpenFile(t, path)}
		var wg sync.WaitGroup
		got := make([][]byte, 12)
		errs := make([]error, len(got))
		for i := range got {
			wg.Go(func() {
				got[i], errs[i] = dbs[i%len(dbs)].Secret(ctx, "play-hmac", func() ([]byte, error) {
					time.Sleep(time.Millisecond) // widen the race
					return []byte{byte(i + 1)}, nil
				})
			})
		}
		wg.Wait()
		for i := range got {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			if !bytes.Equal(got[i], got[0]) {
				t.Fatalf("caller %d got %v, caller 0 got %v: want one secret", i, got[i], got[0])
			}
		}
	})
	t.Run("ErrGenerate", func(t *testing.T) {
		db := MustOpen(t)
		boom := errors.New("no entropy")
		if _, err := db.Secret(ctx, "k", func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
			t.Fatalf("err=%v, want %v", err, boom)
		}
		if _, err := db.Secret(ctx, "k", func() ([]byte, error) { return nil, nil }); err == nil {
			t.Fatal("expected an empty secret to be refused")
		}
	})
}
