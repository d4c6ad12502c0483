package storetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
)

// newGame is a playing game at the start of a 21×21 maze, counting for
// g1's daily of November 30.
func newGame() play.Record {
	return play.Record{
		UserID: "u1", GuildID: "g1", ChannelID: "c1", MazeID: maze(1), Contest: daily("g1", date(30)),
		Pos: mazecore.Point{X: 1, Y: 1}, Trail: []byte{0x02, 0, 0, 0x80}, Status: play.Playing,
		StartedAt: at(0), UpdatedAt: at(0),
	}
}

// goal is where the tests' games are won.
var goal = mazecore.Point{X: 19, Y: 19}

// playing is the member's game being played on g's maze for g's contest.
func playing(tb testing.TB, s Store, g play.Record) play.Record {
	tb.Helper()
	rec, err := s.PlayingGame(tb.Context(), g.UserID, g.MazeID, g.Contest)
	ok(tb, err)
	return rec
}

func mustCreateGame(tb testing.TB, s Store, rec play.Record) play.Record {
	tb.Helper()
	return create(tb, s.CreateGame, s.Game, rec)
}

// unchanged fails unless the stored game is still want.
func unchanged(tb testing.TB, s Store, want play.Record) {
	tb.Helper()
	if got := read(tb, s.Game, want.ID); !reflect.DeepEqual(got, want) {
		tb.Fatalf("Game=%+v, want it unchanged: %+v", got, want)
	}
}

// won is g, one move later, on the goal at t.
func won(g play.Record, t time.Time) play.Record {
	g.Pos, g.Clicks, g.Tiles, g.Seq, g.Status = goal, g.Clicks+1, g.Tiles+36, g.Seq+1, play.Won
	g.UpdatedAt, g.FinishedAt = t, t
	return g
}

// saveWin stores a game on maze(1) that r's member plays and wins,
// recording r; the game starts r.Elapsed before r.FinishedAt.
func saveWin(ctx context.Context, s Store, r play.Result) (play.Record, error) {
	g := newGame()
	g.UserID, g.GuildID, g.Contest = r.UserID, r.GuildID, r.Contest
	g.StartedAt = r.FinishedAt.Add(-r.Elapsed)
	g.UpdatedAt = g.StartedAt
	id, err := s.CreateGame(ctx, g)
	if err != nil {
		return play.Record{}, err
	}
	g.ID = id
	g = won(g, r.FinishedAt)
	g.Clicks, g.Tiles = r.Clicks, r.Tiles
	return g, s.SaveGame(ctx, g)
}

// win is saveWin that fails the test on an error.
func win(tb testing.TB, s Store, r play.Result) play.Record {
	tb.Helper()
	g, err := saveWin(tb.Context(), s, r)
	ok(tb, err)
	return g
}

// dayRuns is DayRuns that fails the test on an error.
func dayRuns(tb testing.TB, s Store, guildID string, d contest.Date) []contest.Run {
	tb.Helper()
	runs, err := s.DayRuns(tb.Context(), guildID, d)
	ok(tb, err)
	return runs
}

// wantRuns fails unless runs are want, in order.
func wantRuns(tb testing.TB, what string, runs, want []contest.Run) {
	tb.Helper()
	if len(runs) != len(want) {
		tb.Fatalf("%s=%+v, want %+v", what, runs, want)
	}
	for i := range want {
		if runs[i] != want[i] {
			tb.Fatalf("%s[%d]=%+v, want %+v (all: %+v)", what, i, runs[i], want[i], runs)
		}
	}
}

// runOf is the run a won game records.
func runOf(g play.Record) contest.Run {
	return contest.Run{UserID: g.UserID, Elapsed: g.FinishedAt.Sub(g.StartedAt), Tiles: g.Tiles, Clicks: g.Clicks, FinishedAt: g.FinishedAt}
}

func testGames(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		want := newGame()
		id, err := s.CreateGame(t.Context(), want)
		ok(t, err)
		if id <= 0 {
			t.Fatalf("ID=%v, want positive", id)
		}
		want.ID = id
		unchanged(t, s, want)
		if second := mustCreateGame(t, s, newGame()); second.ID == id || second.ID <= 0 {
			t.Fatalf("second game's ID=%v, first's %v: want a new positive one", second.ID, id)
		}
	})
	// Play pressed again resumes: the member's newest game being played
	// on that maze for that contest, and no one else's.
	t.Run("OKPlayingGame", func(t *testing.T) {
		s := fresh(t, open)
		g := newGame()
		_, err := s.PlayingGame(t.Context(), g.UserID, g.MazeID, g.Contest)
		wantNotFound(t, "PlayingGame with no game", err)
		older := mustCreateGame(t, s, g)
		newer := mustCreateGame(t, s, g)
		for _, other := range []func(*play.Record){
			func(r *play.Record) { r.UserID = "u2" },
			func(r *play.Record) { r.MazeID = maze(2) },
			func(r *play.Record) { r.Contest = "" },
		} {
			r := newGame()
			other(&r)
			mustCreateGame(t, s, r)
		}
		if got := playing(t, s, g); got.ID != newer.ID || !reflect.DeepEqual(got, newer) {
			t.Fatalf("PlayingGame=%+v, want the newer game %+v", got, newer)
		}
		// Once it is over, the older one still being played is found.
		won := newer
		won.Status, won.Seq, won.Pos, won.UpdatedAt, won.FinishedAt = play.GaveUp, 1, newer.Pos, at(5), at(5)
		ok(t, s.SaveGame(t.Context(), won))
		if got := playing(t, s, g); got.ID != older.ID {
			t.Fatalf("PlayingGame=%d after the newer ended, want the older %d", got.ID, older.ID)
		}
	})
	t.Run("OKNilTrail", func(t *testing.T) {
		s := fresh(t, open)
		g := newGame()
		g.Trail = nil
		if got := mustCreateGame(t, s, g); len(got.Trail) != 0 {
			t.Fatalf("Trail=%v, want empty", got.Trail)
		}
	})
	// Every process sharing the store sees the same games: any of them
	// takes the next click.
	t.Run("OKAnotherHandle", func(t *testing.T) {
		h := handles(t, open)
		g := mustCreateGame(t, h[0], newGame())
		unchanged(t, h[1], g)
		g.Pos, g.Clicks, g.Tiles, g.Seq, g.UpdatedAt = mazecore.Point{X: 5, Y: 1}, 1, 2, 1, at(9)
		ok(t, h[1].SaveGame(t.Context(), g))
		unchanged(t, h[0], g)
	})
	for _, tt := range []struct {
		name   string
		mutate func(*play.Record)
	}{
		{"ErrNoUser", func(g *play.Record) { g.UserID = "" }},
		{"ErrNoMaze", func(g *play.Record) { g.MazeID = mazecore.ID{} }},
		{"ErrOnOuterRow", func(g *play.Record) { g.Pos.Y = 0 }},
		{"ErrNegative", func(g *play.Record) { g.Clicks = -1 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, open)
			g := newGame()
			tt.mutate(&g)
			_, err := s.CreateGame(t.Context(), g)
			wantRefused(t, "CreateGame", err)
			// Nothing was stored, and the store still takes a valid game.
			mustCreateGame(t, s, newGame())
			if n, err := s.DeleteGamesBefore(t.Context(), forever); err != nil || n != 1 {
				t.Fatalf("DeleteGamesBefore=%v, %v; want 1 game: the refused one not stored", n, err)
			}
		})
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := fresh(t, open).Game(t.Context(), 42)
		wantNotFound(t, "Game(42)", err)
	})
	testSaveGame(t, open)
	testSaveGameRace(t, open)

	// Old games go, finished or not; results stay.
	t.Run("OKDeleteGamesBefore", func(t *testing.T) {
		s := fresh(t, open)
		old := mustCreateGame(t, s, newGame())
		oldWon := win(t, s, play.Result{UserID: "u2", GuildID: "g1", Contest: daily("g1", date(30)), Elapsed: time.Second, Tiles: 40, Clicks: 4, FinishedAt: at(1500)})
		keep := newGame()
		keep.StartedAt, keep.UpdatedAt = at(1000), at(1000)
		keep = mustCreateGame(t, s, keep)
		n, err := s.DeleteGamesBefore(t.Context(), at(1000))
		ok(t, err)
		if n != 2 {
			t.Fatalf("DeleteGamesBefore=%v, want 2", n)
		}
		for _, id := range []int64{old.ID, oldWon.ID} {
			_, err := s.Game(t.Context(), id)
			wantNotFound(t, "Game of a deleted game", err)
		}
		unchanged(t, s, keep) // started at the cut: kept
		wantRuns(t, "DayRuns after the delete", dayRuns(t, s, "g1", date(30)), []contest.Run{runOf(oldWon)})
	})
}

func testSaveGame(t *testing.T, open opener) {
	ctx := t.Context()
	t.Run("OKMove", func(t *testing.T) {
		s := fresh(t, open)
		g := mustCreateGame(t, s, newGame())
		for i := 1; i <= 2; i++ {
			g.Pos, g.Clicks, g.Tiles, g.Seq = mazecore.Point{X: 1 + 4*i, Y: 1}, i, 4*i, i
			g.Trail, g.UpdatedAt = []byte{0x2a, byte(i), 0, 0x80}, at(1500*i)
			ok(t, s.SaveGame(ctx, g))
			unchanged(t, s, g)
		}
	})
	// A click computed on an older state (a double click, another process
	// first) changes nothing.
	t.Run("ErrConflictStaleSeq", func(t *testing.T) {
		s := fresh(t, open)
		g := mustCreateGame(t, s, newGame())
		first := g
		first.Pos, first.Clicks, first.Seq = mazecore.Point{X: 3, Y: 1}, 1, 1
		ok(t, s.SaveGame(ctx, first))
		second := g
		second.Pos, second.Clicks, second.Seq = mazecore.Point{X: 1, Y: 7}, 1, 1
		wantConflict(t, "SaveGame over a newer state", s.SaveGame(ctx, second))
		unchanged(t, s, first)
	})
	t.Run("ErrConflictSkippedSeq", func(t *testing.T) {
		s := fresh(t, open)
		g := mustCreateGame(t, s, newGame())
		ahead := g
		ahead.Clicks, ahead.Seq = 2, 2
		wantConflict(t, "SaveGame of seq 2 over seq 0", s.SaveGame(ctx, ahead))
		unchanged(t, s, g)
	})
	t.Run("ErrConflictFinished", func(t *testing.T) {
		s := fresh(t, open)
		g := mustCreateGame(t, s, newGame())
		g.Status, g.Seq, g.UpdatedAt, g.FinishedAt = play.GaveUp, 1, at(10), at(10)
		ok(t, s.SaveGame(ctx, g))
		move := g
		move.Status, move.Seq, move.Clicks, move.FinishedAt = play.Playing, 2, 1, time.Time{}
		wantConflict(t, "SaveGame on a finished game", s.SaveGame(ctx, move))
		unchanged(t, s, g)
	})
	t.Run("ErrConflictNoGame", func(t *testing.T) {
		g := newGame()
		g.ID, g.Seq = 99, 1
		wantConflict(t, "SaveGame of a game never stored", fresh(t, open).SaveGame(ctx, g))
	})
	t.Run("OKWonRecordsResult", func(t *testing.T) {
		s := fresh(t, open)
		g := won(mustCreateGame(t, s, newGame()), at(102_000))
		ok(t, s.SaveGame(ctx, g))
		unchanged(t, s, g)
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), []contest.Run{runOf(g)})
	})
	t.Run("OKGaveUpRecordsNone", func(t *testing.T) {
		s := fresh(t, open)
		g := mustCreateGame(t, s, newGame())
		g.Status, g.Seq, g.UpdatedAt, g.FinishedAt = play.GaveUp, 1, at(5), at(5)
		ok(t, s.SaveGame(ctx, g))
		unchanged(t, s, g)
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), nil)
	})
	// A double click on the last move must not record the run twice.
	t.Run("ErrConflictWonTwice", func(t *testing.T) {
		s := fresh(t, open)
		g := won(mustCreateGame(t, s, newGame()), at(5))
		ok(t, s.SaveGame(ctx, g))
		wantConflict(t, "second SaveGame of the win", s.SaveGame(ctx, g))
		wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), []contest.Run{runOf(g)})
	})
	// A win the store refuses is written not at all: not the game, not the
	// result (whose elapsed time, clicks and tiles can't be negative).
	for _, tt := range []struct {
		name   string
		mutate func(*play.Record)
	}{
		{"ErrNegativeElapsed", func(g *play.Record) { g.StartedAt = g.FinishedAt.Add(time.Second) }},
		{"ErrNegativeClicks", func(g *play.Record) { g.Clicks = -1 }},
		{"ErrNegativeTiles", func(g *play.Record) { g.Tiles = -1 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, open)
			before := mustCreateGame(t, s, newGame())
			g := won(before, at(5000))
			tt.mutate(&g)
			wantRefused(t, "SaveGame", s.SaveGame(ctx, g))
			unchanged(t, s, before)
			wantRuns(t, "DayRuns", dayRuns(t, s, "g1", date(30)), nil)
		})
	}
}

// testSaveGameRace: many clicks on one state at once, from two processes;
// exactly one lands, and a won game's result is recorded once.
func testSaveGameRace(t *testing.T, open opener) {
	for _, tt := range []struct {
		name  string
		click func(g play.Record, i int) play.Record
	}{
		{"OKOneMove", func(g play.Record, i int) play.Record {
			g.Pos, g.Clicks, g.Seq, g.UpdatedAt = mazecore.Point{X: 2*i + 1, Y: 1}, i+1, 1, at(100+i)
			return g
		}},
		{"OKOneWin", func(g play.Record, i int) play.Record {
			g = won(g, at(100+i))
			g.Clicks = i + 1
			return g
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := handles(t, open)
			games := make([]play.Record, rounds)
			for round := range games {
				g := newGame()
				g.Contest = daily("g1", date(1+round))
				games[round] = mustCreateGame(t, h[0], g)
			}
			winners := raceOne(t, h, func(s Store, round, i int) error { return s.SaveGame(t.Context(), tt.click(games[round], i)) })
			for round, winner := range winners {
				want := tt.click(games[round], winner)
				unchanged(t, h[1], want)
				var runs []contest.Run
				if want.Status == play.Won {
					runs = []contest.Run{runOf(want)}
				}
				wantRuns(t, "DayRuns", dayRuns(t, h[0], "g1", date(1+round)), runs)
			}
		})
	}
}
