package e2e

import (
	"strings"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// BenchmarkE2E measures handler time through the fake Discord: from the
// INTERACTION_CREATE dispatch to the bot's first callback, as the fake
// records it (Response.Elapsed), over real sockets. ms/reply is that median
// figure (a mean per run: take the median over -count runs); ns/op also counts the test's own waiting.
func BenchmarkE2E(b *testing.B) {
	fake := newDiscord(b)
	fake.startApp(b)
	cases := []struct {
		name string
		opts []member.Option
	}{
		{"maze-sidewinder-21-emoji", []member.Option{opt("algorithm", "sidewinder"), opt("size", 21), opt("render", "emoji")}},
		{"maze-backtracking-201-png", []member.Option{opt("algorithm", "backtracking"), opt("size", 201), opt("render", "png")}},
		// Choosing a level makes and rates 32 mazes before the answer:
		// compare with the same maze at any difficulty.
		{"maze-backtracking-41", []member.Option{opt("algorithm", "backtracking"), opt("size", 41)}},
		{"maze-backtracking-41-hard", []member.Option{opt("algorithm", "backtracking"), opt("size", 41), opt("difficulty", "hard")}},
		{"maze-backtracking-201-hard-png", []member.Option{opt("algorithm", "backtracking"), opt("size", 201), opt("difficulty", "hard"), opt("render", "png")}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				resp, err := fake.slash(b, "maze", tc.opts...).Wait(testContext(b))
				if err != nil {
					b.Fatal(err)
				}
				total += resp.Elapsed
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/reply")
		})
	}
	// Completions answer as a member types: each keystroke's list must
	// come back at once.
	for _, typed := range []string{"seoul", "new york"} {
		b.Run("autocomplete-timezone-"+strings.ReplaceAll(typed, " ", "-"), func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				_, elapsed := fake.complete(b, "daily", typed)
				total += elapsed
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/reply")
		})
	}
	// 8 members at once, odd values among them (TestE2EAutocompleteFlood):
	// an op is one completion each.
	b.Run("autocomplete-flood", func(b *testing.B) {
		b.ReportMetric(float64(floodP99(b, fake.completionFlood(b, b.N)).Microseconds())/1000, "p99-ms")
	})
	b.Run("move-41x41", func(b *testing.B) {
		mazeMsg, m := fake.postMaze(b, opt("algorithm", "backtracking"), opt("size", 41), opt("seed", 1))
		var total time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			p := fake.startGame(b, mazeMsg, m, fakediscord.DefaultUserID)
			b.StartTimer()
			btn := p.button(p.next())
			ix, err := fake.ClickButton(testContext(p.t), member.ButtonSpec{CustomID: btn.CustomID, Message: p.msg})
			if err != nil {
				p.t.Fatal(err)
			}
			resp, err := ix.Wait(testContext(p.t))
			if err != nil {
				p.t.Fatal(err)
			}
			total += resp.Elapsed
		}
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/reply")
	})
}
