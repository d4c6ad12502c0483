package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mazebot/contest"
)

// newEvent is an hour-long event in a channel of g1, on maze(7).
func newEvent(channel string) contest.Event {
	return contest.Event{
		GuildID: "g1", ChannelID: channel, Name: "Friday race", MazeID: maze(7), CreatorID: "mod", Language: "ko",
		StartedAt: at(0), EndsAt: at(0).Add(time.Hour), Status: contest.Running,
	}
}

func mustCreateEvent(tb testing.TB, s Store, e contest.Event) contest.Event {
	tb.Helper()
	return create(tb, s.CreateEvent, s.Event, e)
}

// wantEvent fails unless the stored event is want.
func wantEvent(tb testing.TB, s Store, want contest.Event) {
	tb.Helper()
	if got := read(tb, s.Event, want.ID); got != want {
		tb.Fatalf("Event=%+v, want %+v", got, want)
	}
}

// wantRunning fails unless the running events are those of ids.
func wantRunning(tb testing.TB, s Store, ids ...int64) []contest.Event {
	tb.Helper()
	return wantListed(tb, "RunningEvents", s.RunningEvents, ids)
}

// wantListed fails unless list lists the events of ids, in any order.
func wantListed(tb testing.TB, what string, list func(context.Context) ([]contest.Event, error), ids []int64) []contest.Event {
	tb.Helper()
	events, err := list(tb.Context())
	ok(tb, err)
	var got []int64
	for _, e := range events {
		got = append(got, e.ID)
	}
	slices.Sort(got)
	if !slices.Equal(got, slices.Sorted(slices.Values(ids))) {
		tb.Fatalf("%s=%v, want %v", what, got, ids)
	}
	return events
}

func testEvents(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		want := newEvent("ch1")
		id, err := s.CreateEvent(ctx, want)
		ok(t, err)
		want.ID = id
		wantEvent(t, s, want)
		ok(t, s.SetEventMessages(ctx, id, "m1", "b1"))
		want.MazeMessageID, want.BoardMessageID = "m1", "b1"
		running, err := s.RunningEvent(ctx, "ch1")
		ok(t, err)
		if running != want {
			t.Fatalf("RunningEvent=%+v, want %+v", running, want)
		}
		onMaze, err := s.RunningEventOnMaze(ctx, want.MazeID)
		ok(t, err)
		if onMaze != want {
			t.Fatalf("RunningEventOnMaze=%+v, want %+v", onMaze, want)
		}
		if list := wantRunning(t, s, id); list[0] != want {
			t.Fatalf("RunningEvents=%+v, want [%+v]", list, want)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s := fresh(t, open)
		mustCreateEvent(t, s, newEvent("ch1"))
		_, err := s.Event(t.Context(), 999)
		wantNotFound(t, "Event(999)", err)
		_, err = s.RunningEvent(t.Context(), "ch2")
		wantNotFound(t, "RunningEvent of a channel without one", err)
		_, err = s.RunningEventOnMaze(t.Context(), maze(8))
		wantNotFound(t, "RunningEventOnMaze of another maze", err)
	})
	// Should two run on one maze, the one ending last is the maze's.
	t.Run("OKOnMazeEndingLast", func(t *testing.T) {
		s := fresh(t, open)
		later := newEvent("ch1")
		later.EndsAt = later.EndsAt.Add(time.Hour)
		later = mustCreateEvent(t, s, later)
		mustCreateEvent(t, s, newEvent("ch2"))
		got, err := s.RunningEventOnMaze(t.Context(), maze(7))
		ok(t, err)
		if got != later {
			t.Fatalf("RunningEventOnMaze=%+v, want the one ending last, %+v", got, later)
		}
	})
	// A channel holds one running event; it is free again once that ends
	// or is deleted.
	t.Run("ErrConflictSameChannel", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		first := mustCreateEvent(t, s, newEvent("ch1"))
		_, err := s.CreateEvent(ctx, newEvent("ch1"))
		wantConflict(t, "second CreateEvent in ch1", err)
		wantRunning(t, s, first.ID)
		mustCreateEvent(t, s, newEvent("ch2")) // another channel is free
		ok(t, s.EndEvent(ctx, first.ID, at(10)))
		second := mustCreateEvent(t, s, newEvent("ch1"))
		ok(t, s.DeleteEvent(ctx, second.ID))
		_, err = s.Event(ctx, second.ID)
		wantNotFound(t, "Event after DeleteEvent", err)
		mustCreateEvent(t, s, newEvent("ch1"))
	})
	// Two processes start an event in one channel at once: one wins.
	t.Run("OKOneCreate", func(t *testing.T) {
		h := handles(t, open)
		ids := make([][racers]int64, rounds)
		winners := raceOne(t, h, func(s Store, round, i int) (err error) {
			e := newEvent(fmt.Sprint("ch", round))
			e.Name = fmt.Sprint(i)
			ids[round][i], err = s.CreateEvent(t.Context(), e)
			return err
		})
		var want []int64
		for round, i := range winners {
			running, err := h[1].RunningEvent(t.Context(), fmt.Sprint("ch", round))
			ok(t, err)
			if running.ID != ids[round][i] || running.Name != fmt.Sprint(i) {
				t.Fatalf("RunningEvent=%+v, want the winner's, %d", running, ids[round][i])
			}
			want = append(want, running.ID)
		}
		wantRunning(t, h[0], want...)
	})
	// The language is kept as given, none ("", English) included; a code
	// longer than any language's is refused.
	t.Run("OKLanguage", func(t *testing.T) {
		s := fresh(t, open)
		plain := newEvent("ch1")
		plain.Language = ""
		plain = mustCreateEvent(t, s, plain)
		wantEvent(t, s, plain)
		long := newEvent("ch2")
		long.Language = strings.Repeat("x", 17)
		_, err := s.CreateEvent(t.Context(), long)
		wantRefused(t, "CreateEvent with a 17-byte language", err)
		wantRunning(t, s, plain.ID)
	})
	testEndEvent(t, open)
	testBoard(t, open)
}

func testEndEvent(t *testing.T, open opener) {
	// Ending early moves the end there; runs after it don't count.
	t.Run("OKEndEarly", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		e := mustCreateEvent(t, s, newEvent("ch1"))
		keep := mustCreateEvent(t, s, newEvent("ch2"))
		early := at(0).Add(20 * time.Minute)
		ok(t, s.EndEvent(ctx, e.ID, early))
		e.Status, e.EndsAt, e.Closing = contest.Ended, early, contest.Closing{Attempts: 1, ClaimedAt: early}
		wantEvent(t, s, e)
		_, err := s.RunningEvent(ctx, "ch1")
		wantNotFound(t, "RunningEvent after the end", err)
		wantRunning(t, s, keep.ID)
		ok(t, s.EndEvent(ctx, keep.ID, early))
		_, err = s.RunningEventOnMaze(ctx, maze(7))
		wantNotFound(t, "RunningEventOnMaze after the ends", err)
		wantRunning(t, s)
	})
	// Ending late (a tick after the bot was down) keeps the end.
	t.Run("OKEndLate", func(t *testing.T) {
		s := fresh(t, open)
		e := mustCreateEvent(t, s, newEvent("ch1"))
		ok(t, s.EndEvent(t.Context(), e.ID, e.EndsAt.Add(time.Hour)))
		e.Status, e.Closing = contest.Ended, contest.Closing{Attempts: 1, ClaimedAt: e.EndsAt.Add(time.Hour)}
		wantEvent(t, s, e)
	})
	t.Run("ErrConflictEnded", func(t *testing.T) {
		s := fresh(t, open)
		e := mustCreateEvent(t, s, newEvent("ch1"))
		early := at(0).Add(20 * time.Minute)
		ok(t, s.EndEvent(t.Context(), e.ID, early))
		wantConflict(t, "second EndEvent", s.EndEvent(t.Context(), e.ID, at(1)))
		e.Status, e.EndsAt, e.Closing = contest.Ended, early, contest.Closing{Attempts: 1, ClaimedAt: early}
		wantEvent(t, s, e) // the second end did not move it, nor claim it again
	})
	t.Run("ErrConflictNoEvent", func(t *testing.T) {
		wantConflict(t, "EndEvent(999)", fresh(t, open).EndEvent(t.Context(), 999, at(1)))
	})
	// A tick in each process ends the event at once: one posts the results.
	t.Run("OKOneEnd", func(t *testing.T) {
		h := handles(t, open)
		events := createEvents(t, h[0])
		winners := raceOne(t, h, func(s Store, round, i int) error { return s.EndEvent(t.Context(), events[round].ID, at(1000+i)) })
		for round, i := range winners {
			e := events[round]
			e.Status, e.EndsAt, e.Closing = contest.Ended, at(1000+i), contest.Closing{Attempts: 1, ClaimedAt: at(1000 + i)}
			wantEvent(t, h[1], e)
		}
	})
}

// testBoard: the live board's dirty flag and its compare-and-swap claim on
// the last edit time.
func testBoard(t *testing.T, open opener) {
	t.Run("OKBoard", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		e := mustCreateEvent(t, s, newEvent("ch1"))
		other := mustCreateEvent(t, s, newEvent("ch2"))
		ok(t, s.MarkBoardDirty(ctx, e.ID))
		e.BoardDirty = true
		wantEvent(t, s, e)
		for _, r := range wantRunning(t, s, e.ID, other.ID) {
			if r.BoardDirty != (r.ID == e.ID) {
				t.Fatalf("RunningEvents: event %d BoardDirty=%v, want only %d dirty", r.ID, r.BoardDirty, e.ID)
			}
		}
		// Never edited: the last edit is the zero Time.
		ok(t, s.ClaimBoardEdit(ctx, e.ID, time.Time{}, at(1)))
		e.BoardDirty, e.BoardEditedAt = false, at(1)
		wantEvent(t, s, e)
		ok(t, s.MarkBoardDirty(ctx, e.ID))
		ok(t, s.ClaimBoardEdit(ctx, e.ID, at(1), at(20_000)))
		e.BoardEditedAt = at(20_000)
		wantEvent(t, s, e)
		// The final edit is recorded outside a claim.
		ok(t, s.SetBoardEdited(ctx, e.ID, at(30_000)))
		e.BoardEditedAt = at(30_000)
		wantEvent(t, s, e)
		ok(t, s.MarkBoardDirty(ctx, e.ID))
		ok(t, s.ClaimBoardEdit(ctx, e.ID, at(30_000), at(40_000)))
	})
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, s Store, id int64) // from a clean board edited at at(1)
		prev  time.Time
	}{
		{"ErrConflictBoardClean", func(*testing.T, Store, int64) {}, at(1)},
		{"ErrConflictBoardStalePrev", markDirty, time.Time{}},
		{"ErrConflictBoardNewerPrev", markDirty, at(2)},
		{"ErrConflictBoardEnded", func(t *testing.T, s Store, id int64) {
			markDirty(t, s, id)
			ok(t, s.EndEvent(t.Context(), id, at(100)))
		}, at(1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, open)
			e := mustCreateEvent(t, s, newEvent("ch1"))
			markDirty(t, s, e.ID)
			ok(t, s.ClaimBoardEdit(t.Context(), e.ID, time.Time{}, at(1)))
			tt.setup(t, s, e.ID)
			before := read(t, s.Event, e.ID)
			wantConflict(t, "ClaimBoardEdit", s.ClaimBoardEdit(t.Context(), e.ID, tt.prev, at(50_000)))
			wantEvent(t, s, before)
		})
	}
	t.Run("ErrConflictBoardNoEvent", func(t *testing.T) {
		wantConflict(t, "ClaimBoardEdit(999)", fresh(t, open).ClaimBoardEdit(t.Context(), 999, time.Time{}, at(1)))
	})
	// The result hook and the ticks of two processes claim one edit at
	// once: one makes it.
	t.Run("OKOneBoardEdit", func(t *testing.T) {
		h := handles(t, open)
		events := createEvents(t, h[0])
		for _, e := range events {
			markDirty(t, h[0], e.ID)
		}
		winners := raceOne(t, h, func(s Store, round, i int) error {
			return s.ClaimBoardEdit(t.Context(), events[round].ID, time.Time{}, at(1000+i))
		})
		for round, i := range winners {
			e := events[round]
			e.BoardEditedAt = at(1000 + i)
			wantEvent(t, h[1], e)
		}
	})
}

// createEvents creates an event for each round of a race, each in a
// channel of its own.
func createEvents(t *testing.T, s Store) []contest.Event {
	t.Helper()
	events := make([]contest.Event, rounds)
	for round := range events {
		events[round] = mustCreateEvent(t, s, newEvent(fmt.Sprint("ch", round)))
	}
	return events
}

func markDirty(t *testing.T, s Store, id int64) {
	t.Helper()
	ok(t, s.MarkBoardDirty(t.Context(), id))
}

// testClosing: the closing of an ended event, claimed attempt by attempt
// like a daily post, its steps recorded as they are made.
func testClosing(t *testing.T, open opener) {
	// end creates an event in channel and ends it at at(10).
	end := func(t *testing.T, s Store, channel string) contest.Event {
		t.Helper()
		e := mustCreateEvent(t, s, newEvent(channel))
		ok(t, s.EndEvent(t.Context(), e.ID, at(10)))
		return read(t, s.Event, e.ID)
	}
	wantClosing := func(t *testing.T, s Store, ids ...int64) {
		t.Helper()
		wantListed(t, "ClosingEvents", s.ClosingEvents, ids)
	}
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		running := mustCreateEvent(t, s, newEvent("ch0"))
		e := end(t, s, "ch1")
		if want := (contest.Closing{Attempts: 1, ClaimedAt: at(10)}); e.Closing != want {
			t.Fatalf("Closing=%+v after EndEvent, want %+v", e.Closing, want)
		}
		wantClosing(t, s, e.ID)
		ok(t, s.SetClosingDone(ctx, e.ID, contest.StepResults))
		ok(t, s.AddClosingRefusal(ctx, e.ID))
		ok(t, s.ClaimClosing(ctx, e.ID, 2, at(20)))
		ok(t, s.SetClosingDone(ctx, e.ID, contest.StepSolution|contest.StepFinalBoard))
		ok(t, s.SetClosingDone(ctx, e.ID, contest.StepResults)) // again: no change
		e.Closing = contest.Closing{Done: contest.StepResults | contest.StepSolution | contest.StepFinalBoard, Attempts: 2, Refused: 1, ClaimedAt: at(20)}
		wantEvent(t, s, e)
		ok(t, s.SetClosed(ctx, e.ID))
		e.Closing.Closed = true
		wantEvent(t, s, e)
		wantClosing(t, s)
		wantRunning(t, s, running.ID)
	})
	// A server's ended events, closed or not, and none of another
	// server's or still running: what a profile counts events won from.
	t.Run("OKEndedEvents", func(t *testing.T) {
		s := fresh(t, open)
		mustCreateEvent(t, s, newEvent("ch0"))
		first := end(t, s, "ch1")
		ok(t, s.SetClosed(t.Context(), first.ID))
		second := end(t, s, "ch1")
		other := newEvent("ch2")
		other.GuildID = "g2"
		elsewhere := mustCreateEvent(t, s, other)
		ok(t, s.EndEvent(t.Context(), elsewhere.ID, at(10)))
		ended := wantListed(t, "EndedEvents(g1)", func(ctx context.Context) ([]contest.Event, error) { return s.EndedEvents(ctx, "g1") }, []int64{first.ID, second.ID})
		if ended[0].ID != first.ID || ended[0] != read(t, s.Event, first.ID) {
			t.Fatalf("EndedEvents(g1)=%+v, want the closed %+v first, as stored", ended, first)
		}
		wantListed(t, "EndedEvents(g3)", func(ctx context.Context) ([]contest.Event, error) { return s.EndedEvents(ctx, "g3") }, nil)
	})
	for _, tt := range []struct {
		name    string
		setup   func(t *testing.T, s Store) int64 // the event claimed
		attempt int
	}{
		{"ErrConflictRunning", func(t *testing.T, s Store) int64 { return mustCreateEvent(t, s, newEvent("ch1")).ID }, 1},
		{"ErrConflictRunningSecond", func(t *testing.T, s Store) int64 { return mustCreateEvent(t, s, newEvent("ch1")).ID }, 2},
		{"ErrConflictNoEvent", func(*testing.T, Store) int64 { return 999 }, 2},
		{"ErrConflictFirstTwice", func(t *testing.T, s Store) int64 { return end(t, s, "ch1").ID }, 1},
		{"ErrConflictSkipped", func(t *testing.T, s Store) int64 { return end(t, s, "ch1").ID }, 3},
		{"ErrConflictStale", func(t *testing.T, s Store) int64 {
			e := end(t, s, "ch1")
			ok(t, s.ClaimClosing(t.Context(), e.ID, 2, at(20)))
			return e.ID
		}, 2},
		{"ErrConflictClosed", func(t *testing.T, s Store) int64 {
			e := end(t, s, "ch1")
			ok(t, s.SetClosed(t.Context(), e.ID))
			return e.ID
		}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, open)
			id := tt.setup(t, s)
			before, err := s.Event(t.Context(), id)
			if err != nil {
				wantNotFound(t, "Event before the claim", err)
			}
			wantConflict(t, fmt.Sprintf("ClaimClosing #%d", tt.attempt), s.ClaimClosing(t.Context(), id, tt.attempt, at(99)))
			if err == nil {
				wantEvent(t, s, before)
			}
		})
	}
	// Ticks in two processes take over a closing at once: one wins each
	// attempt.
	t.Run("OKOneClaimPerAttempt", func(t *testing.T) {
		h := handles(t, open)
		events := createEvents(t, h[0])
		for _, e := range events {
			ok(t, h[0].EndEvent(t.Context(), e.ID, at(10)))
		}
		for attempt := 2; attempt <= 3; attempt++ {
			winners := raceOne(t, h, func(s Store, round, i int) error {
				return s.ClaimClosing(t.Context(), events[round].ID, attempt, at(100*attempt+i))
			})
			for round, i := range winners {
				if got := read(t, h[1].Event, events[round].ID).Closing; got.Attempts != attempt || !got.ClaimedAt.Equal(at(100*attempt+i)) {
					t.Fatalf("Closing=%+v, want attempt %d of racer %d", got, attempt, i)
				}
			}
		}
	})
}
