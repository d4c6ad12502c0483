package storetest

import (
	"bytes"
	"testing"

	"mazebot/mazecore"
	"mazebot/play"
)

func testRuns(t *testing.T, open opener) {
	maze := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 7}
	run := func(user string, ms int64, finished int) play.Run {
		return play.Run{Contest: "daily:g1:2026-03-01", UserID: user, Name: "name of " + user, MazeID: maze, Ms: ms,
			Moves: []byte{byte(ms), 0x81, 0x01}, FinishedAt: at(finished)}
	}
	best := func(t *testing.T, s Store, user string) (play.Run, bool) {
		t.Helper()
		r, found, err := s.BestRun(t.Context(), "daily:g1:2026-03-01", user)
		ok(t, err)
		return r, found
	}
	t.Run("Best", func(t *testing.T) {
		h := handles(t, open)
		if _, found := best(t, h[0], ""); found {
			t.Fatal("BestRun of a contest without runs found one")
		}
		for _, r := range []play.Run{run("ann", 9000, 1), run("bob", 7000, 2), run("ann", 8000, 3), run("cat", 7000, 4)} {
			kept, err := h[0].SaveRun(t.Context(), r)
			ok(t, err)
			if !kept {
				t.Fatalf("SaveRun(%s, %d ms): not kept, but it is their first or fastest", r.UserID, r.Ms)
			}
		}
		// Slower than ann's best, and as fast as it: neither is kept.
		for _, ms := range []int64{8500, 8000} {
			kept, err := h[1].SaveRun(t.Context(), run("ann", ms, 5))
			ok(t, err)
			if kept {
				t.Fatalf("SaveRun(ann, %d ms) kept over her 8000 ms", ms)
			}
		}
		got, found := best(t, h[1], "")
		want := run("bob", 7000, 2) // cat's is as fast, and later
		if !found || got.UserID != want.UserID || got.Name != want.Name || got.MazeID != maze || got.Ms != 7000 ||
			!bytes.Equal(got.Moves, want.Moves) || !got.FinishedAt.Equal(want.FinishedAt) || got.Contest != want.Contest {
			t.Fatalf("BestRun = %+v, %v; want bob's %+v", got, found, want)
		}
		if got, found := best(t, h[1], "ann"); !found || got.Ms != 8000 || !got.FinishedAt.Equal(at(3)) {
			t.Fatalf("ann's BestRun = %+v, %v; want her 8000 ms of at(3)", got, found)
		}
		if _, found := best(t, h[1], "dan"); found {
			t.Fatal("BestRun of a member without a run found one")
		}
		if _, found, err := h[1].BestRun(t.Context(), "daily:g2:2026-03-01", ""); err != nil || found {
			t.Fatalf("BestRun of another server's daily = %v, %v; want none", found, err)
		}
	})
	t.Run("Retention", func(t *testing.T) {
		s := fresh(t, open)
		_, err := s.SaveRun(t.Context(), run("ann", 9000, 0))
		ok(t, err)
		later := run("bob", 9500, 0)
		later.FinishedAt = at(0).Add(play.RunRetention)
		_, err = s.SaveRun(t.Context(), later)
		ok(t, err)
		if got, _ := best(t, s, ""); got.UserID != "bob" {
			t.Fatalf("BestRun = %s's: ann's run, %v older, should be gone", got.UserID, play.RunRetention)
		}
	})
	t.Run("DeleteRunsBefore", func(t *testing.T) {
		s := fresh(t, open)
		for _, r := range []play.Run{run("ann", 9000, 1), run("bob", 7000, 2), run("cat", 8000, 3)} {
			_, err := s.SaveRun(t.Context(), r)
			ok(t, err)
		}
		n, err := s.DeleteRunsBefore(t.Context(), at(2))
		ok(t, err)
		if n != 2 {
			t.Fatalf("DeleteRunsBefore(at(2)) deleted %d runs, want ann's and bob's", n)
		}
		if got, found := best(t, s, ""); !found || got.UserID != "cat" {
			t.Fatalf("BestRun = %s's (found %v), want cat's, the one left", got.UserID, found)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		s := fresh(t, open)
		big := run("ann", 1, 0)
		big.Moves = make([]byte, play.MaxRunBytes+1)
		noMaze := run("ann", 1, 0)
		noMaze.MazeID = mazecore.ID{}
		for name, r := range map[string]play.Run{"too big": big, "no contest": {UserID: "ann", MazeID: maze, FinishedAt: at(0)},
			"no member": {Contest: "daily:g1:2026-03-01", MazeID: maze}, "no maze": noMaze} {
			if _, err := s.SaveRun(t.Context(), r); err == nil {
				t.Errorf("SaveRun of a run %s: no error", name)
			}
		}
		if _, found := best(t, s, ""); found {
			t.Fatal("a refused run was kept")
		}
	})
}
