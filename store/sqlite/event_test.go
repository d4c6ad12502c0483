package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/store"
	"mazebot/store/sqlite"
)

func newEvent(channel string) store.Event {
	return store.Event{
		GuildID: "g1", ChannelID: channel, Name: "Friday race", MazeID: "maze1", CreatorID: "mod",
		StartedAt: at(0), EndsAt: at(0).Add(time.Hour), Status: store.EventRunning,
	}
}

func mustCreateEvent(t *testing.T, db *sqlite.DB, e store.Event) store.Event {
	t.Helper()
	id, err := db.CreateEvent(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Event(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestCreateEvent(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		db := MustOpen(t)
		want := newEvent("ch1")
		got := mustCreateEvent(t, db, want)
		want.ID = got.ID
		if got != want {
			t.Fatalf("Event=%+v, want %+v", got, want)
		}
		if err := db.SetEventMessages(ctx, got.ID, "m1", "b1"); err != nil {
			t.Fatal(err)
		}
		running, err := db.RunningEvent(ctx, "ch1")
		if err != nil {
			t.Fatal(err)
		}
		if running.MazeMessageID != "m1" || running.BoardMessageID != "b1" || running.ID != got.ID {
			t.Fatalf("RunningEvent=%+v, want event %d with messages m1, b1", running, got.ID)
		}
		onMaze, err := db.RunningEventOnMaze(ctx, "maze1")
		if err != nil || onMaze.ID != got.ID {
			t.Fatalf("RunningEventOnMaze=%+v, %v; want event %d", onMaze, err, got.ID)
		}
	})
	t.Run("ErrConflictSameChannel", func(t *testing.T) {
		db := MustOpen(t)
		first := mustCreateEvent(t, db, newEvent("ch1"))
		if _, err := db.CreateEvent(ctx, newEvent("ch1")); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second CreateEvent err=%v, want ErrConflict", err)
		}
		mustCreateEvent(t, db, newEvent("ch2")) // another channel is free
		if err := db.EndEvent(ctx, first.ID, at(10)); err != nil {
			t.Fatal(err)
		}
		mustCreateEvent(t, db, newEvent("ch1")) // and so is ch1 once its event ended
	})
	// The unique index holds even for a writer that skips the check.
	t.Run("ErrIndex", func(t *testing.T) {
		db := MustOpen(t)
		mustCreateEvent(t, db, newEvent("ch1"))
		_, err := sqlite.SQLDB(db).Exec(`INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at, status)
			VALUES ('g1', 'ch1', 'x', 'm', 'u', 0, 1, 'running')`)
		if err == nil || !strings.Contains(err.Error(), "UNIQUE") {
			t.Fatalf("err=%v, want a UNIQUE constraint failure", err)
		}
	})
	// Two processes on one file: exactly one start wins.
	t.Run("ConcurrentFile", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "events.db")
		dbs := []*sqlite.DB{MustOpenFile(t, path), MustOpenFile(t, path)}
		const n = 8
		var (
			wg              sync.WaitGroup
			mu              sync.Mutex
			wins, conflicts int
			unexpected      []error
		)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := dbs[i%2].CreateEvent(ctx, newEvent("ch1"))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins++
				case errors.Is(err, store.ErrConflict):
					conflicts++
				default:
					unexpected = append(unexpected, err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 || conflicts != n-1 || len(unexpected) > 0 {
			t.Fatalf("wins=%d conflicts=%d errors=%v, want 1 and %d", wins, conflicts, unexpected, n-1)
		}
	})
}

func TestEndEvent(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	e := mustCreateEvent(t, db, newEvent("ch1"))
	if due, err := db.DueEvents(ctx, e.EndsAt.Add(-time.Millisecond)); err != nil || len(due) != 0 {
		t.Fatalf("DueEvents before the end=%+v, %v; want none", due, err)
	}
	due, err := db.DueEvents(ctx, e.EndsAt)
	if err != nil || len(due) != 1 || due[0].ID != e.ID {
		t.Fatalf("DueEvents at the end=%+v, %v; want event %d", due, err, e.ID)
	}
	// Early end: the end moves to now.
	early := at(0).Add(20 * time.Minute)
	if err := db.EndEvent(ctx, e.ID, early); err != nil {
		t.Fatal(err)
	}
	if err := db.EndEvent(ctx, e.ID, early); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second EndEvent err=%v, want ErrConflict", err)
	}
	got, err := db.Event(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.EventEnded || !got.EndsAt.Equal(early) {
		t.Fatalf("ended event=%+v, want status ended and end %v", got, early)
	}
	if _, err := db.RunningEvent(ctx, "ch1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RunningEvent err=%v, want ErrNotFound", err)
	}
	if _, err := db.RunningEventOnMaze(ctx, "maze1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RunningEventOnMaze err=%v, want ErrNotFound", err)
	}
	if due, err := db.DueEvents(ctx, at(1000)); err != nil || len(due) != 0 {
		t.Fatalf("DueEvents after the end=%+v, %v; want none", due, err)
	}
	if _, err := db.Event(ctx, 999); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Event(999) err=%v, want ErrNotFound", err)
	}
}

func TestClaimBoardEdit(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	e := mustCreateEvent(t, db, newEvent("ch1"))
	const gap = 10 * time.Second
	claim := func(now time.Time) bool {
		t.Helper()
		ok, err := db.ClaimBoardEdit(ctx, e.ID, now, gap)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	dirty := func() {
		t.Helper()
		if err := db.MarkBoardDirty(ctx, e.ID); err != nil {
			t.Fatal(err)
		}
	}
	dirty()
	if claim(at(1)) {
		t.Fatal("claimed a board that has no message yet")
	}
	if err := db.SetEventMessages(ctx, e.ID, "m", "b"); err != nil {
		t.Fatal(err)
	}
	if !claim(at(1)) {
		t.Fatal("a dirty, never edited board was not claimed")
	}
	if claim(at(1)) {
		t.Fatal("a clean board was claimed")
	}
	dirty()
	if list, err := db.DirtyEvents(ctx); err != nil || len(list) != 1 || !list[0].BoardDirty {
		t.Fatalf("DirtyEvents=%+v, %v; want the event", list, err)
	}
	if claim(at(1).Add(gap - time.Millisecond)) {
		t.Fatal("claimed within the interval")
	}
	if !claim(at(1).Add(gap)) {
		t.Fatal("not claimed once the interval passed")
	}
	got, err := db.Event(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.BoardDirty || !got.BoardEditedAt.Equal(at(1).Add(gap)) {
		t.Fatalf("event=%+v, want clean, edited at %v", got, at(1).Add(gap))
	}
	// An ended event's board is no longer live.
	dirty()
	if err := db.EndEvent(ctx, e.ID, at(100)); err != nil {
		t.Fatal(err)
	}
	if claim(at(1000)) {
		t.Fatal("claimed the board of an ended event")
	}
	if list, err := db.DirtyEvents(ctx); err != nil || len(list) != 0 {
		t.Fatalf("DirtyEvents=%+v, %v; want none", list, err)
	}
}

func TestEventRanking(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	e := mustCreateEvent(t, db, newEvent("ch1"))
	other := mustCreateEvent(t, db, newEvent("ch2"))
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, f := range []store.Finish{
		{UserID: "slow", Elapsed: ms(90_000), Tiles: 40, FinishedAt: at(10)},
		{UserID: "ada", Elapsed: ms(60_000), Tiles: 50, FinishedAt: at(20)},
		{UserID: "ada", Elapsed: ms(50_000), Tiles: 60, FinishedAt: at(30)}, // ada's best
		{UserID: "bob", Elapsed: ms(50_000), Tiles: 60, FinishedAt: at(25)}, // tied with ada, earlier
		{UserID: "cy", Elapsed: ms(50_000), Tiles: 55, FinishedAt: at(40)},  // fewer tiles beats them
		{UserID: "late", Elapsed: ms(1_000), Tiles: 10, FinishedAt: e.EndsAt.Add(time.Millisecond)},
		{UserID: "onTime", Elapsed: ms(120_000), Tiles: 10, FinishedAt: e.EndsAt},
		{UserID: "elsewhere", Elapsed: ms(1), Tiles: 1, FinishedAt: at(5), Context: other.Context()},
		{UserID: "nocontext", Elapsed: ms(1), Tiles: 1, FinishedAt: at(5), Context: ""},
	} {
		f.MazeID = "maze1"
		if f.Context == "" && f.UserID != "nocontext" {
			f.Context = e.Context()
		}
		if _, err := db.AddFinish(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.EventRanking(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		rank int
		user string
	}
	want := []row{{1, "cy"}, {2, "bob"}, {2, "ada"}, {4, "slow"}, {5, "onTime"}}
	var have []row
	for _, r := range got {
		have = append(have, row{r.Rank, r.UserID})
	}
	if len(have) != len(want) {
		t.Fatalf("ranking=%v, want %v", have, want)
	}
	for i := range want {
		if have[i] != want[i] {
			t.Fatalf("ranking=%v, want %v", have, want)
		}
	}
	if got[2].Elapsed != ms(50_000) || got[2].Tiles != 60 || !got[2].FinishedAt.Equal(at(30)) {
		t.Fatalf("ada's entry=%+v, want her best run", got[2])
	}
	empty, err := db.EventRanking(ctx, mustCreateEvent(t, db, newEvent("ch3")))
	if err != nil || len(empty) != 0 {
		t.Fatalf("empty ranking=%+v, %v", empty, err)
	}
}

func TestEventRankingPlan(t *testing.T) {
	db := MustOpen(t)
	plan := queryPlan(t, db, sqlite.EventRankingSQL, "event:1", 0)
	// Only the few rows of one event are read and sorted.
	if got := strings.Join(plan, "; "); !strings.Contains(got, "SEARCH finishes USING INDEX") || !strings.Contains(got, "(context=?") {
		t.Fatalf("plan=%q, want a search of finishes by an index on context", got)
	}
}
