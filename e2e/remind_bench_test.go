package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
)

// BenchmarkE2ERemind: 1,000 members of one server opted in at 20:00, each
// with a 2-day streak and today unplayed, are reminded by DM through the
// fake Discord at the bot's pace, ticked as the bot ticks (every 15 s of
// the bot's own loop, here back to back). It reports the spread from
// 20:00 to the last DM, and the most requests the reminders made in any
// one second against Discord's 50 a second.
//
//	go test -run '^$' -bench E2ERemind -benchtime 1x ./e2e
func BenchmarkE2ERemind(b *testing.B) {
	const members = 1000
	for range b.N {
		fake := newDiscord(b)
		clock := fake.useClock(nov30.Add(8 * time.Hour))
		app := fake.startApp(b)
		ctx := testContext(b)
		db := dbOf(app)
		day, _ := contest.ParseDate("2026-11-30")
		maze := mazeIDIn(b, final(b, fake.slash(b, "daily", sub("today"))).Text())
		users := make([]string, members)
		for i := range users {
			users[i] = fmt.Sprintf("14000000000%08d", i)
			for back := 1; back <= 2; back++ {
				if err := db.seedFinish(ctx, fakediscord.DefaultGuildID, users[i], day.AddDays(-back), maze, nov30.Add(-time.Duration(back)*24*time.Hour)); err != nil {
					b.Fatal(err)
				}
			}
			if err := db.optIn(ctx, fakediscord.DefaultGuildID, users[i], 20*60); err != nil {
				b.Fatal(err)
			}
		}
		clock.Set(nov30.Add(20 * time.Hour))
		began := time.Now()
		deadline := began.Add(5 * time.Minute)
		sent := 0
		tickCtx, cancel := context.WithDeadline(context.Background(), deadline)
		defer cancel()
		for sent < members && time.Now().Before(deadline) {
			_ = app.Tick(tickCtx) // a tick cut short by its timeout leaves the rest to the next
			sent = 0
			for _, u := range users {
				if len(fake.dmsTo(u)) > 0 {
					sent++
				}
			}
		}
		spread := time.Since(began)
		if sent != members {
			b.Fatalf("%d of %d reminded after %s", sent, members, spread)
		}
		var times []time.Time
		for _, route := range []string{"POST /users/{user}/channels", "POST /channels/{channel}/messages"} {
			for _, r := range fake.Requests(route) {
				if !r.Time.Before(began) {
					times = append(times, r.Time)
				}
			}
		}
		most := mostInOneSecond(times)
		b.ReportMetric(spread.Seconds(), "s-to-last-DM")
		b.ReportMetric(float64(most), "max-req/s")
		b.Logf("%d members reminded, the last %s after their time; %d requests, at most %d in one second", members, spread.Round(time.Millisecond), len(times), most)
	}
}

// mostInOneSecond is the most of times within any one second.
func mostInOneSecond(times []time.Time) int {
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	most := 0
	for i := range times {
		j := i
		for j < len(times) && times[j].Sub(times[i]) < time.Second {
			j++
		}
		most = max(most, j-i)
	}
	return most
}
