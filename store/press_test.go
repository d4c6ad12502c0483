package store_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mazebot/internal/pgtest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store"
)

// pressStores are the databases the press tests and benchmarks run on: a
// SQLite file (WAL, as the bot opens it; not :memory:, whose one
// connection serialises everything) and PostgreSQL.
var pressStores = []struct {
	name string
	dsn  func(tb testing.TB) string
}{
	{"SQLite", func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "mazebot.db") }},
	{"Postgres", func(tb testing.TB) string { return pgtest.Schema(tb) }},
}

// pressMaze is the one maze every member plays.
var pressMaze = mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 50}

func generatePressMaze(tb testing.TB) *mazecore.Maze {
	tb.Helper()
	m, err := mazecore.Generate(pressMaze)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestConcurrentPresses: 50 members, each with a game of their own on one
// maze, click at once, every click twice (a double click), through
// play.Service as the bot does. No press fails (SQLite's "database is
// locked" was one), exactly one of each double click is taken, and every
// game ends where a model of its taken clicks does.
func TestConcurrentPresses(t *testing.T) {
	const members, clicks = 50, 25
	m := generatePressMaze(t)
	for _, s := range pressStores {
		t.Run(s.name, func(t *testing.T) {
			db := mustOpen(t, s.dsn(t))
			games := play.NewService(db, time.Now)
			ctx := context.Background()
			var wg sync.WaitGroup
			errs := make([]error, members)
			for i := range members {
				wg.Go(func() { errs[i] = pressAlong(ctx, db, games, m, fmt.Sprint("u", i), uint64(i), clicks) })
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// pressAlong plays a member's game of random clicks, each sent twice at
// once, and checks it against a model of the clicks taken.
func pressAlong(ctx context.Context, db store.DB, games *play.Service, m *mazecore.Maze, user string, seed uint64, clicks int) error {
	g, err := games.Start(ctx, m, play.Record{UserID: user, GuildID: "g1", ChannelID: "c1"})
	if err != nil {
		return fmt.Errorf("%s: start: %w", user, err)
	}
	model, err := play.New(m, play.Record{UserID: user}, g.StartedAt)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	for range clicks {
		if model.Status != play.Playing {
			break
		}
		a := play.Action{Kind: play.Move, Dir: openDir(rng, model), Seq: model.Seq}
		var (
			twice sync.WaitGroup
			outs  [2]play.Outcome
			errs  [2]error
		)
		for j := range 2 {
			twice.Go(func() { _, outs[j], errs[j] = games.Press(ctx, g.ID, user, a) })
		}
		twice.Wait()
		taken := 0
		for j := range 2 {
			switch {
			case errs[j] != nil:
				return fmt.Errorf("%s: press %v at seq %d: %w", user, a.Dir, a.Seq, errs[j])
			case outs[j] == play.Moved || outs[j] == play.Finished:
				taken++
			case outs[j] != play.Stale:
				return fmt.Errorf("%s: press %v at seq %d: %v, want a move or stale", user, a.Dir, a.Seq, outs[j])
			}
		}
		if taken != 1 {
			return fmt.Errorf("%s: press %v at seq %d taken %d times of 2, want once", user, a.Dir, a.Seq, taken)
		}
		if out, err := model.Apply(a, time.Now()); err != nil || (out != play.Moved && out != play.Finished) {
			return fmt.Errorf("%s: the model refused %v: %v, %v", user, a.Dir, out, err)
		}
	}
	stored, err := db.Game(ctx, g.ID)
	if err != nil {
		return err
	}
	if stored.Pos != model.Pos || stored.Seq != model.Seq || stored.Clicks != model.Clicks || stored.Tiles != model.Tiles ||
		stored.Status != model.Status || !bytes.Equal(stored.Trail, model.Trail) {
		return fmt.Errorf("%s: stored game at %v, seq %d, %d clicks, %d tiles, %v; want the model's %v, seq %d, %d clicks, %d tiles, %v",
			user, stored.Pos, stored.Seq, stored.Clicks, stored.Tiles, stored.Status, model.Pos, model.Seq, model.Clicks, model.Tiles, model.Status)
	}
	return nil
}

// openDir is a direction the player of g can go in, at random.
func openDir(rng *rand.Rand, g *play.Game) mazecore.Dir {
	var dirs []mazecore.Dir
	for _, d := range mazecore.Dirs {
		if g.CanGo(d) {
			dirs = append(dirs, d)
		}
	}
	return dirs[rng.IntN(len(dirs))]
}
