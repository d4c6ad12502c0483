package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"mazebot/store"
	"mazebot/store/sqlite"
)

func TestDailyConfig(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		if _, err := db.DailyConfig(ctx, "g1"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("DailyConfig of a new server: err=%v, want ErrNotFound", err)
		}
		want := store.DailyConfig{GuildID: "g1", ChannelID: "c1", PostAt: "09:00", TimeZone: "Asia/Seoul", Algorithm: "sidewinder", Size: 31, Enabled: true, UpdatedAt: at(0)}
		if err := db.SetDailyConfig(ctx, want); err != nil {
			t.Fatal(err)
		}
		got, err := db.DailyConfig(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("DailyConfig=%+v, want %+v", got, want)
		}
		// Setup again replaces; off keeps the settings.
		want.PostAt, want.Enabled, want.UpdatedAt = "18:30", false, at(5)
		if err := db.SetDailyConfig(ctx, want); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.DailyConfig(ctx, "g1"); got != want {
			t.Fatalf("DailyConfig=%+v, want %+v", got, want)
		}
		other := store.DailyConfig{GuildID: "g2", ChannelID: "c2", PostAt: "00:00", TimeZone: "UTC", Algorithm: "digging", Size: 21, Enabled: true, UpdatedAt: at(1)}
		if err := db.SetDailyConfig(ctx, other); err != nil {
			t.Fatal(err)
		}
		enabled, err := db.EnabledDailyConfigs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(enabled) != 1 || enabled[0] != other {
			t.Fatalf("EnabledDailyConfigs=%+v, want only g2", enabled)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		db := MustOpen(t)
		for _, c := range []store.DailyConfig{
			{GuildID: "", ChannelID: "c", PostAt: "09:00", TimeZone: "UTC", Algorithm: "digging", Size: 21},
			{GuildID: "g", ChannelID: "", PostAt: "09:00", TimeZone: "UTC", Algorithm: "digging", Size: 21},
			{GuildID: "g", ChannelID: "c", PostAt: "9am", TimeZone: "UTC", Algorithm: "digging", Size: 21},
			{GuildID: "g", ChannelID: "c", PostAt: "09:00", TimeZone: "UTC", Algorithm: "digging", Size: 20},
		} {
			if err := db.SetDailyConfig(context.Background(), c); err == nil {
				t.Fatalf("SetDailyConfig(%+v): expected error", c)
			}
		}
	})
}

func TestClaimDailyPost(t *testing.T) {
	claim := store.DailyPost{GuildID: "g1", Date: "2026-11-30", ChannelID: "c1", MazeID: "m1", ClaimedAt: at(0)}
	t.Run("OK", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		if ok, err := db.ClaimDailyPost(ctx, claim, at(0), 3); err != nil || !ok {
			t.Fatalf("first claim: ok=%v err=%v, want it", ok, err)
		}
		if ok, err := db.ClaimDailyPost(ctx, claim, at(0), 3); err != nil || ok {
			t.Fatalf("second claim: ok=%v err=%v, want refused", ok, err)
		}
		other := claim
		other.Date = "2026-12-01"
		if ok, err := db.ClaimDailyPost(ctx, other, at(0), 3); err != nil || !ok {
			t.Fatalf("next day's claim: ok=%v err=%v, want it", ok, err)
		}
		if err := db.MarkDailyPosted(ctx, "g1", "2026-11-30", "msg1"); err != nil {
			t.Fatal(err)
		}
		got, err := db.DailyPost(ctx, "g1", "2026-11-30")
		if err != nil {
			t.Fatal(err)
		}
		want := claim
		want.MessageID, want.Status, want.Attempts = "msg1", store.DailyPosted, 1
		if got != want {
			t.Fatalf("DailyPost=%+v, want %+v", got, want)
		}
		// A posted day is never claimed again, however old.
		if ok, err := db.ClaimDailyPost(ctx, claim, at(1<<40), 3); err != nil || ok {
			t.Fatalf("claim of a posted day: ok=%v err=%v, want refused", ok, err)
		}
		if _, err := db.DailyPost(ctx, "g1", "2026-01-01"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("DailyPost of a day never claimed: err=%v, want ErrNotFound", err)
		}
	})
	// A claim that never completed (crash, failed post) is retried after
	// the delay, a bounded number of times.
	t.Run("OKRetry", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		if ok, _ := db.ClaimDailyPost(ctx, claim, at(0), 3); !ok {
			t.Fatal("first claim refused")
		}
		if ok, _ := db.ClaimDailyPost(ctx, claim, at(0), 3); ok {
			t.Fatal("a fresh claim was taken over")
		}
		later := claim
		later.ClaimedAt = at(10)
		if ok, _ := db.ClaimDailyPost(ctx, later, at(1), 3); !ok {
			t.Fatal("a stale 'posting' claim was not retried")
		}
		if err := db.MarkDailyFailed(ctx, "g1", claim.Date); err != nil {
			t.Fatal(err)
		}
		last := claim
		last.ClaimedAt = at(20)
		if ok, _ := db.ClaimDailyPost(ctx, last, at(11), 3); !ok {
			t.Fatal("a failed post was not retried")
		}
		if ok, _ := db.ClaimDailyPost(ctx, claim, at(1000), 3); ok {
			t.Fatal("a fourth attempt was allowed with maxAttempts 3")
		}
		if p, _ := db.DailyPost(ctx, "g1", claim.Date); p.Attempts != 3 || p.Status != store.DailyPosting {
			t.Fatalf("DailyPost=%+v, want 3 attempts, posting", p)
		}
	})
	// Two processes on one file: exactly one claim wins.
	t.Run("OKConcurrent", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "daily.db")
		dbs := []interface {
			ClaimDailyPost(context.Context, store.DailyPost, time.Time, int) (bool, error)
		}{MustOpenFile(t, path), MustOpenFile(t, path)}
		var (
			wg  sync.WaitGroup
			mu  sync.Mutex
			won int
		)
		for i := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := dbs[i%2].ClaimDailyPost(context.Background(), claim, at(0), 3)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					won++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if won != 1 {
			t.Fatalf("%d claims won, want exactly 1", won)
		}
	})
}

func TestDailyRankings(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	add := func(user, date string, elapsed time.Duration, tiles, when int) {
		t.Helper()
		f := store.Finish{UserID: user, GuildID: "g1", MazeID: "m-" + date, Clicks: 3, Tiles: tiles, Elapsed: elapsed, FinishedAt: at(when), Context: store.DailyContext("g1", date)}
		if _, err := db.AddFinish(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	add("ann", "2026-11-29", 90*time.Second, 60, 1)
	add("ann", "2026-11-30", 80*time.Second, 60, 2)
	add("ann", "2026-11-30", 70*time.Second, 70, 3) // her best: faster, more tiles
	add("bob", "2026-11-30", 70*time.Second, 50, 4) // beats ann on tiles
	add("cat", "2026-11-30", 95*time.Second, 40, 5)
	add("cat", "2026-11-28", 10*time.Second, 40, 6)
	// Not counted: another server (whose ID starts alike), a normal run.
	if _, err := db.AddFinish(ctx, store.Finish{UserID: "dan", GuildID: "g10", MazeID: "x", FinishedAt: at(7), Context: store.DailyContext("g10", "2026-11-30")}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddFinish(ctx, store.Finish{UserID: "dan", GuildID: "g1", MazeID: "m-2026-11-30", FinishedAt: at(8)}); err != nil {
		t.Fatal(err)
	}

	bests, err := db.DailyBests(ctx, "g1", "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, b := range bests {
		order = append(order, b.UserID)
	}
	if want := []string{"bob", "ann", "cat"}; !slices.Equal(order, want) {
		t.Fatalf("DailyBests order=%v, want %v", order, want)
	}
	if b := bests[1]; b.Elapsed != 70*time.Second || b.Tiles != 70 || b.Date != "2026-11-30" || !b.FinishedAt.Equal(at(3)) {
		t.Fatalf("ann's best=%+v, want the 70 s run", b)
	}

	totals, err := db.DailyTotals(ctx, "g1", "2026-11-29", "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	want := []store.DailyTotal{
		{UserID: "ann", Days: 2, Elapsed: 160 * time.Second, Tiles: 130, LastFinish: at(3)},
		{UserID: "bob", Days: 1, Elapsed: 70 * time.Second, Tiles: 50, LastFinish: at(4)},
		{UserID: "cat", Days: 1, Elapsed: 95 * time.Second, Tiles: 40, LastFinish: at(5)},
	}
	if !slices.Equal(totals, want) {
		t.Fatalf("DailyTotals=%+v, want %+v", totals, want)
	}
	all, err := db.DailyTotals(ctx, "g1", "", "")
	if err != nil {
		t.Fatal(err)
	}
	// cat's 2 days took less time in total than ann's.
	if len(all) != 3 || all[0].UserID != "cat" || all[0].Days != 2 || all[1].UserID != "ann" {
		t.Fatalf("all-time totals=%+v, want cat then ann, 2 days each", all)
	}

	dates, err := db.DailyDates(ctx, "g1", "cat", "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2026-11-30", "2026-11-28"}; !slices.Equal(dates, want) {
		t.Fatalf("DailyDates=%v, want %v", dates, want)
	}
	if dates, _ := db.DailyDates(ctx, "g1", "cat", "2026-11-29"); !slices.Equal(dates, []string{"2026-11-28"}) {
		t.Fatalf("DailyDates up to 11-29=%v, want only 11-28", dates)
	}
}

// The daily rankings read an index, not the whole finishes table.
func TestDailyBestsUsesIndex(t *testing.T) {
	db := MustOpen(t)
	plan := queryPlan(t, db, sqlite.DailyBestsSQL, "daily:g1:2026-11-30")
	if !slices.ContainsFunc(plan, func(s string) bool {
		return s == "SEARCH finishes USING INDEX finishes_context (context=?)" || s == "SEARCH finishes USING COVERING INDEX finishes_context (context=?)"
	}) {
		t.Fatalf("plan %q does not search finishes_context", plan)
	}
}

func TestGuildsWithMaze(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	for i, p := range []store.Post{
		{MazeID: "m1", GuildID: "g2", ChannelID: "c1", PostedAt: at(0)},
		{MazeID: "m1", GuildID: "g1", ChannelID: "c2", PostedAt: at(1)},
		{MazeID: "m1", GuildID: "g1", ChannelID: "c3", PostedAt: at(2)},
		{MazeID: "m1", GuildID: "", ChannelID: "dm", PostedAt: at(3)},
		{MazeID: "m2", GuildID: "g3", ChannelID: "c1", PostedAt: at(4)},
	} {
		if err := db.AddPost(ctx, p); err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
	}
	got, err := db.GuildsWithMaze(ctx, "m1", 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"g1", "g2"}; !slices.Equal(got, want) {
		t.Fatalf("GuildsWithMaze=%v, want %v", got, want)
	}
	if got, _ := db.GuildsWithMaze(ctx, "m1", 1); len(got) != 1 {
		t.Fatalf("GuildsWithMaze with limit 1=%v", got)
	}
	if got, _ := db.GuildsWithMaze(ctx, "nope", 5); len(got) != 0 {
		t.Fatalf("GuildsWithMaze of an unknown maze=%v", got)
	}
}
