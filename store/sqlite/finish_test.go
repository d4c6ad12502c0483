package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"mazebot/store"
)

func TestAddFinish(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		want := store.Finish{
			UserID: "u1", GuildID: "g1", MazeID: "m1",
			Clicks: 12, Tiles: 57, Elapsed: 83*time.Second + 250*time.Millisecond,
			FinishedAt: at(0), Context: "daily:g1:2026-03-01",
		}
		id1, err := db.AddFinish(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		id2, err := db.AddFinish(ctx, store.Finish{UserID: "u2", MazeID: "m2", FinishedAt: at(1)})
		if err != nil {
			t.Fatal(err)
		}
		if id1 <= 0 || id2 <= id1 {
			t.Fatalf("ids=%v,%v, want positive and increasing", id1, id2)
		}

		got, err := db.Finishes(ctx, "m1")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(got), 1; got != want {
			t.Fatalf("len=%v, want %v", got, want)
		}
		if got[0] != want {
			t.Fatalf("Finishes[0]=%+v, want %+v", got[0], want)
		}
	})

	// Elapsed is kept to the millisecond.
	t.Run("OK/Truncation", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		if _, err := db.AddFinish(ctx, store.Finish{UserID: "u", MazeID: "m", Elapsed: 1500*time.Microsecond + 999, FinishedAt: at(0)}); err != nil {
			t.Fatal(err)
		}
		got, err := db.Finishes(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := got[0].Elapsed, time.Millisecond; got != want {
			t.Fatalf("Elapsed=%v, want %v", got, want)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		db := MustOpen(t)
		for _, f := range []store.Finish{
			{UserID: "u", MazeID: "m", Clicks: -1},
			{UserID: "u", MazeID: "m", Tiles: -1},
			{UserID: "u", MazeID: "m", Elapsed: -time.Second},
			{UserID: "", MazeID: "m"},
			{UserID: "u", MazeID: ""},
		} {
			if _, err := db.AddFinish(context.Background(), f); err == nil {
				t.Fatalf("AddFinish(%+v): expected error", f)
			}
		}
	})
}

func TestFinishes(t *testing.T) {
	t.Run("OK/Order", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		// Added out of order; the letter in UserID is the expected rank.
		for _, f := range []store.Finish{
			{UserID: "e", Elapsed: 20 * time.Second, Tiles: 10, FinishedAt: at(0)},
			{UserID: "c", Elapsed: 10 * time.Second, Tiles: 30, FinishedAt: at(1)},
			{UserID: "a", Elapsed: 10 * time.Second, Tiles: 20, FinishedAt: at(5)},
			{UserID: "d", Elapsed: 10 * time.Second, Tiles: 30, FinishedAt: at(2)},
			{UserID: "b", Elapsed: 10 * time.Second, Tiles: 25, FinishedAt: at(9)},
			{UserID: "x", Elapsed: time.Second, FinishedAt: at(0), MazeID: "other"},
		} {
			if f.MazeID == "" {
				f.MazeID = "m"
			}
			if _, err := db.AddFinish(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.Finishes(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		var users []string
		for _, f := range got {
			users = append(users, f.UserID)
		}
		if got, want := fmt.Sprint(users), "[a b c d e]"; got != want {
			t.Fatalf("order=%v, want %v", got, want)
		}
	})

	t.Run("OK/None", func(t *testing.T) {
		got, err := MustOpen(t).Finishes(context.Background(), "m")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(got), 0; got != want {
			t.Fatalf("len=%v, want %v", got, want)
		}
	})
}

// TestAddFinishConcurrent writes from many goroutines through the pool of a
// file database: WAL, busy_timeout and the pool must queue the writers
// rather than fail one with "database is locked".
func TestAddFinishConcurrent(t *testing.T) {
	const goroutines, each = 20, 25
	ctx := context.Background()
	db := MustOpenFile(t, filepath.Join(t.TempDir(), "mazebot.db"))

	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		ids  []int64
		errs []error
	)
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				id, err := db.AddFinish(ctx, store.Finish{
					UserID: fmt.Sprintf("u%d", g), MazeID: "m",
					Elapsed: time.Duration(i) * time.Second, FinishedAt: at(i),
				})
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					ids = append(ids, id)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	for _, err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
	slices.Sort(ids)
	if got, want := len(slices.Compact(ids)), goroutines*each; got != want {
		t.Fatalf("distinct ids=%v, want %v", got, want)
	}
	got, err := db.Finishes(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(got), goroutines*each; got != want {
		t.Fatalf("len(Finishes)=%v, want %v", got, want)
	}
}
