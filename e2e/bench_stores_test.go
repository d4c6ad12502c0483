package e2e

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mazebot/internal/pgtest"
)

// BenchmarkE2EStores is interactions per second for one process through
// the fake Discord, on each store: players, each with a game of their
// own, click along the solution at once; every click is a read and a
// conditional write of its game, and a win also writes a result. The
// PostgreSQL case needs MAZEBOT_TEST_POSTGRES.
func BenchmarkE2EStores(b *testing.B) {
	for _, store := range []struct {
		name string
		dsn  func(b *testing.B) string
	}{
		{"sqlite", func(b *testing.B) string { return filepath.Join(b.TempDir(), "mazebot.db") }},
		{"postgres", func(b *testing.B) string { return pgtest.Schema(b) }},
	} {
		b.Run(store.name, func(b *testing.B) {
			fake := newDiscord(b)
			fake.launch(b, fake.config(store.dsn(b)))
			mazeMsg, m := fake.postMaze(b, opt("algorithm", "backtracking"), opt("size", 21), opt("seed", 1))
			const players = 8
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
			for i := range players {
				wg.Go(func() {
					user := fmt.Sprintf("14100000000000%05d", i)
					p := fake.startGame(b, mazeMsg, m, user)
					for take() {
						if p.won() {
							p = fake.startGame(b, mazeMsg, m, user)
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
