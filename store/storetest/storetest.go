package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store"
)

// Store is what the suite tests: the contract, store.DB.
type Store = store.DB

// opener is Run's open: a fresh, empty database's store, and a function
// that opens another, independent handle (its own connection pool) on that
// same database.
type opener = func(t *testing.T) (s Store, another func(t *testing.T) Store)

// Run runs the contract suite. open returns a fresh, empty database's
// store, and a function that opens another, independent handle (its own
// connection pool) on that same database, for the concurrency tests. Each
// test opens its own database; handles are the caller's to close (with
// t.Cleanup).
func Run(t *testing.T, open func(t *testing.T) (s Store, another func(t *testing.T) Store)) {
	for _, area := range []struct {
		name string
		run  func(*testing.T, opener)
	}{
		{"Games", testGames},
		{"Results", testResults},
		{"DailySettings", testDailySettings},
		{"DailyPosts", testDailyPosts},
		{"DailyPostOutcomes", testDailyPostOutcomes},
		{"DailyMazes", testDailyMazes},
		{"Rankings", testRankings},
		{"Streaks", testStreaks},
		{"Archive", testArchive},
		{"Events", testEvents},
		{"Closing", testClosing},
		{"Posts", testPosts},
		{"Secret", testSecret},
		{"Seen", testSeen},
		{"IdentifyTurns", testIdentifyTurns},
		{"CommandGuilds", testCommandGuilds},
		{"RecapSettings", testRecapSettings},
		{"Reminders", testReminders},
		{"Images", testImages},
		{"ChampionRoles", testChampionRoles},
		{"Runs", testRuns},
	} {
		t.Run(area.name, func(t *testing.T) { area.run(t, open) })
	}
}

// fresh opens a fresh database and returns its one handle.
func fresh(t *testing.T, open opener) Store {
	t.Helper()
	s, _ := open(t)
	return s
}

// handles opens a fresh database twice: two handles, as two processes have.
func handles(t *testing.T, open opener) []Store {
	t.Helper()
	s, another := open(t)
	return []Store{s, another(t)}
}

// at is a UTC time n milliseconds after a fixed instant.
func at(n int) time.Time {
	return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Millisecond)
}

// forever is later than any time a test uses.
var forever = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// maze is a valid 21×21 maze ID; seeds tell mazes apart.
func maze(seed uint64) mazecore.ID {
	return mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: seed}
}

// date is a day of November 2026.
func date(day int) contest.Date { return contest.MakeDate(2026, 11, day) }

// daily is the contest text of a server's daily.
func daily(guildID string, d contest.Date) string { return contest.DailyKey(guildID, d).String() }

// A race test starts racers calls at once, spread over two handles, in
// each of rounds rounds on keys of their own: one round may happen not to
// overlap.
const racers, rounds = 16, 4

// raceOne runs rounds races of racers calls of try at once, spread over
// the handles, and returns the winner of each round: each must have
// exactly one. A call that loses must fail with ErrConflict; any other
// error fails the test, so a broken query cannot pass for a lost race.
func raceOne(t *testing.T, handles []Store, try func(s Store, round, i int) error) []int {
	t.Helper()
	winners := make([]int, rounds)
	for round := range rounds {
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			won   []int
			start = make(chan struct{})
		)
		for i := range racers {
			wg.Go(func() {
				<-start
				err := try(handles[i%len(handles)], round, i)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won = append(won, i)
				case !errors.Is(err, play.ErrConflict):
					t.Errorf("round %d, racer %d: err=%v, want nil or ErrConflict", round, i, err)
				}
			})
		}
		close(start)
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
		if len(won) != 1 {
			t.Fatalf("round %d: winners=%v of %d racers, want exactly one", round, won, racers)
		}
		winners[round] = won[0]
	}
	return winners
}

// wantConflict fails unless err is ErrConflict.
func wantConflict(tb testing.TB, what string, err error) {
	tb.Helper()
	if !errors.Is(err, play.ErrConflict) {
		tb.Fatalf("%s: err=%v, want ErrConflict", what, err)
	}
}

// wantNotFound fails unless err is ErrNotFound.
func wantNotFound(tb testing.TB, what string, err error) {
	tb.Helper()
	if !errors.Is(err, contest.ErrNotFound) {
		tb.Fatalf("%s: err=%v, want ErrNotFound", what, err)
	}
}

// wantRefused fails unless err is an error other than ErrConflict and
// ErrNotFound: the store refused a record it could not keep.
func wantRefused(tb testing.TB, what string, err error) {
	tb.Helper()
	if err == nil || errors.Is(err, play.ErrConflict) || errors.Is(err, play.ErrNotFound) {
		tb.Fatalf("%s: err=%v, want the record refused", what, err)
	}
}

// read is a lookup that must succeed.
func read[K, T any](tb testing.TB, get func(context.Context, K) (T, error), key K) T {
	tb.Helper()
	v, err := get(tb.Context(), key)
	ok(tb, err)
	return v
}

// create stores rec with add and returns it as get reads it back.
func create[T any](tb testing.TB, add func(context.Context, T) (int64, error), get func(context.Context, int64) (T, error), rec T) T {
	tb.Helper()
	id, err := add(tb.Context(), rec)
	ok(tb, err)
	return read(tb, get, id)
}

// ok fails the test on err.
func ok(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
