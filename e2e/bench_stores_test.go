package e2e

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mazebot/internal/pgtest"
)

// e2eStores are the stores the tests and benchmarks that run on each
// use: a SQLite file, and a fresh PostgreSQL schema, which needs
// MAZEBOT_TEST_POSTGRES (pgtest).
var e2eStores = []struct {
	name string
	dsn  func(tb testing.TB) string
}{
	{"sqlite", func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "mazebot.db") }},
	{"postgres", func(tb testing.TB) string { return pgtest.Schema(tb) }},
}

// BenchmarkE2EStores is interactions per second for one process through
// the fake Discord, on each store: players (8, and the fifty of
// TestE2EPlayFiftyPlayers), each with a game of their own on one maze,
// click along the solution at once, each as soon as their last click is
// answered; every click is a read and a conditional write of its game,
// and a win also writes a result (and the player starts again). The
// PostgreSQL case needs MAZEBOT_TEST_POSTGRES.
func BenchmarkE2EStores(b *testing.B) {
	for _, store := range e2eStores {
		for _, players := range []int{8, 50} {
			b.Run(fmt.Sprintf("%s/players=%d", store.name, players), func(b *testing.B) {
				fake := newDiscord(b)
				fake.launch(b, fake.config(store.dsn(b)))
				mazeMsg, m := fake.postMaze(b, opt("algorithm", "backtracking"), opt("size", 21), opt("seed", 1))
				games := make([]*player, players)
				for i := range games {
					games[i] = fake.startGame(b, mazeMsg, m, fmt.Sprintf("14100000000000%05d", i))
				}
				var (
					mu     sync.Mutex
					clicks int
					wg     sync.WaitGroup
				)
				take := func() bool {
					mu.Lock()
					defer mu.Unlock()
					if clicks >= b.N {
						return false
					}
					clicks++
					return true
				}
				b.ResetTimer()
				start := time.Now()
				for _, p := range games {
					wg.Go(func() {
						for take() {
							if p.won() {
								p = fake.startGame(b, mazeMsg, m, p.userID)
							}
							p.click(p.next())
						}
					})
				}
				wg.Wait()
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "interactions/s")
			})
		}
	}
}
