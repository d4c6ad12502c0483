package store_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store"
)

// The benchmarks compare the databases (pressStores): a SQLite file (WAL,
// as the bot opens it) and PostgreSQL over loopback.

// BenchmarkPress is a member's click as the bot handles it,
// play.Service.Press: the game read, the move, the conditional save. In
// parallel, 50 members each click a game of their own on one maze, as in
// TestConcurrentPresses; presses/s is what the store sustains.
func BenchmarkPress(b *testing.B) {
	m := generatePressMaze(b)
	for _, s := range pressStores {
		b.Run(s.name, func(b *testing.B) {
			db := mustOpen(b, s.dsn(b))
			games := play.NewService(db, time.Now)
			var members atomic.Uint64
			b.SetParallelism(max(1, 50/runtime.GOMAXPROCS(0))) // goroutines: this times GOMAXPROCS
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := members.Add(1)
				user := fmt.Sprint("u", i)
				rng := rand.New(rand.NewPCG(i, 7))
				start := func() *play.Game {
					g, err := games.Start(b.Context(), m, play.Record{UserID: user, GuildID: "g1", ChannelID: "c1"})
					if err != nil {
						b.Error(err)
					}
					return g
				}
				g := start()
				for g != nil && pb.Next() {
					next, _, err := games.Press(b.Context(), g.ID, user, play.Action{Kind: play.Move, Dir: openDir(rng, g), Seq: g.Seq})
					if err != nil {
						b.Error(err)
						return
					}
					if g = next; g.Status != play.Playing {
						g = start() // won: a new game
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "presses/s")
		})
	}
}

// BenchmarkMove is one play move as the bot stores it: SaveGame of a game
// at its next seq (a conditional update). Parallel: each goroutine moves a
// game of its own, as members playing at once do.
func BenchmarkMove(b *testing.B) {
	for _, s := range pressStores {
		b.Run(s.name, func(b *testing.B) {
			db := mustOpen(b, s.dsn(b))
			g := benchGame(b, db)
			b.ResetTimer()
			for i := range b.N {
				move(&g, i)
				if err := db.SaveGame(b.Context(), g); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/Parallel", func(b *testing.B) {
			db := mustOpen(b, s.dsn(b))
			b.RunParallel(func(pb *testing.PB) {
				g := benchGame(b, db)
				for i := 0; pb.Next(); i++ {
					move(&g, i)
					if err := db.SaveGame(b.Context(), g); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

var benchStart = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// benchGame stores a new game on a 41×41 maze.
func benchGame(b *testing.B, db store.DB) play.Record {
	g := play.Record{UserID: "u1", GuildID: "g1", ChannelID: "c1", MazeID: mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 1},
		Pos: mazecore.Point{X: 1, Y: 1}, Trail: make([]byte, 41*41/8+1), Status: play.Playing, StartedAt: benchStart, UpdatedAt: benchStart}
	var err error
	if g.ID, err = db.CreateGame(b.Context(), g); err != nil {
		b.Fatal(err)
	}
	return g
}

// move makes g's next move: its seq, position, counts and trail.
func move(g *play.Record, i int) {
	g.Seq++
	g.Clicks++
	g.Tiles += 3
	g.Pos.X = 1 + 2*(i%19)
	g.Trail[i%len(g.Trail)] |= 1 << (i % 8)
	g.UpdatedAt = benchStart.Add(time.Duration(i) * time.Second)
}

// BenchmarkDailyClaim is a day's first claim of a server's daily post
// (ClaimDailyPost: an insert unless the day is there), each on a server of
// its own. Parallel: processes' tickers claiming at once.
func BenchmarkDailyClaim(b *testing.B) {
	claim := func(n int64) contest.DailyPost {
		return contest.DailyPost{GuildID: fmt.Sprint("g", n), Date: contest.MakeDate(2026, 11, 30), ChannelID: "c1",
			MazeID: mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1}, State: contest.Posting, Attempts: 1, ClaimedAt: benchStart}
	}
	for _, s := range pressStores {
		b.Run(s.name, func(b *testing.B) {
			db := mustOpen(b, s.dsn(b))
			b.ResetTimer()
			for i := range b.N {
				if err := db.ClaimDailyPost(b.Context(), claim(int64(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/Parallel", func(b *testing.B) {
			db := mustOpen(b, s.dsn(b))
			var next atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := db.ClaimDailyPost(b.Context(), claim(next.Add(1))); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
