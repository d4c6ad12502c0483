package store

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"mazebot/contest"
	"mazebot/internal/pgtest"
	"mazebot/mazecore"
	"mazebot/play"
)

// benchStores are the databases the benchmarks compare: a SQLite file
// (WAL, as the bot opens it) and PostgreSQL over loopback.
var benchStores = []struct {
	name string
	dsn  func(b *testing.B) string
}{
	{"SQLite", func(b *testing.B) string { return filepath.Join(b.TempDir(), "mazebot.db") }},
	{"Postgres", func(b *testing.B) string { return pgtest.Schema(b) }},
}

func openBench(b *testing.B, dsn string) DB {
	b.Helper()
	db, err := Open(b.Context(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkMove is one play move as the bot stores it: SaveGame of a game
// at its next seq (a conditional update). Parallel: each goroutine moves a
// game of its own, as members playing at once do.
func BenchmarkMove(b *testing.B) {
	for _, s := range benchStores {
		b.Run(s.name, func(b *testing.B) {
			db := openBench(b, s.dsn(b))
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
			db := openBench(b, s.dsn(b))
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

// benchGame stores a new game on a 41×41 maze.
func benchGame(b *testing.B, db DB) play.Record {
	g := play.Record{UserID: "u1", GuildID: "g1", ChannelID: "c1", MazeID: mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 1},
		Pos: mazecore.Point{X: 1, Y: 1}, Trail: make([]byte, 41*41/8+1), Status: play.Playing, StartedAt: at(0), UpdatedAt: at(0)}
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
	g.UpdatedAt = at(i)
}

// BenchmarkDailyClaim is a day's first claim of a server's daily post
// (ClaimDailyPost: an insert unless the day is there), each on a server of
// its own. Parallel: processes' tickers claiming at once.
func BenchmarkDailyClaim(b *testing.B) {
	claim := func(n int64) contest.DailyPost {
		return contest.DailyPost{GuildID: fmt.Sprint("g", n), Date: day(30), ChannelID: "c1", MazeID: testMaze,
			State: contest.Posting, Attempts: 1, ClaimedAt: at(0)}
	}
	for _, s := range benchStores {
		b.Run(s.name, func(b *testing.B) {
			db := openBench(b, s.dsn(b))
			b.ResetTimer()
			for i := range b.N {
				if err := db.ClaimDailyPost(b.Context(), claim(int64(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/Parallel", func(b *testing.B) {
			db := openBench(b, s.dsn(b))
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
