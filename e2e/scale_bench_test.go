package e2e

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// BenchmarkE2EScale (issue 38, a benchmark at scale): servers whose day
// turns at the same minute, each with yesterday played, get their post
// with its recap (a picture of yesterday's solution each); the next day
// their season ends at the same minute too, and each gets its results
// card and hands its champion role on. Through the fake Discord at the
// bot's pace, ticked as the bot ticks (its own 15 s loop running beside).
// For each turn it reports the time from the minute to the last post, the
// most requests carrying the bot's token in any one second (Discord's
// global limit is 50; interaction responses are exempt), and how much a
// member's /maze, asked four times a second while the posts go out, is
// slower than with nothing else to do (median and p99). Servers:
// MAZEBOT_BENCH_SERVERS, 10,000 by default (about fifteen minutes: the
// posts go at 40 a second); it is no test, and runs only with -bench:
//
//	MAZEBOT_BENCH_SERVERS=10000 go test -run '^$' -bench E2EScale -benchtime 1x -timeout 60m ./e2e
func BenchmarkE2EScale(b *testing.B) {
	servers := 10000
	if n, err := strconv.Atoi(os.Getenv("MAZEBOT_BENCH_SERVERS")); err == nil && n > 0 {
		servers = n
	}
	for range b.N {
		fake := newDiscord(b)
		clock := fake.useClock(nov30.Add(8 * time.Hour))
		app := fake.startApp(b)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // thousands of servers
		defer cancel()
		channels := setUpDailies(b, app, clock, servers, 21)
		db := dbOf(app)
		nov29, _ := contest.ParseDate("2026-11-29")
		player := recapPlayers[0]
		for i := range channels {
			guild := fmt.Sprintf("12000000000000%05d", i)
			for _, day := range []contest.Date{nov29, nov29.AddDays(1)} {
				if err := db.fixDailyMaze(ctx, guild, day, recapMaze); err != nil {
					b.Fatal(err)
				}
			}
			if err := db.seedFinish(ctx, guild, player, nov29, recapMaze, nov30.Add(-12*time.Hour)); err != nil {
				b.Fatal(err)
			}
			// A champion role handed on when November ends.
			if err := db.db.SaveChampionRole(ctx, contest.ChampionRole{GuildID: guild, RoleID: championRoleID, AdminID: championAdmin, Language: "en"}); err != nil {
				b.Fatal(err)
			}
			if err := db.db.ClaimCrowning(ctx, guild, contest.Season{Year: 2026, Month: 10}); err != nil {
				b.Fatal(err)
			}
			fake.SetRoles(guild, []fakediscord.Role{
				{ID: championRoleID, Name: "Maze champion", Position: 1},
				{ID: botRoleID, Name: "mazebot", Position: 2, Permissions: discordgo.PermissionManageRoles},
			}, botRoleID)
			fake.AddMembers(guild, player)
		}
		// /maze with nothing else to do, asked as during the turns and for
		// as long as a turn's first posts take: on a shared machine the
		// difference, not the figure, is the bot's.
		idle := startMazeProbe(fake, 250*time.Millisecond)
		time.Sleep(15 * time.Second)
		baseline := idle.stop()
		for _, turn := range []struct {
			name  string
			day   time.Time
			marks string
			seed  bool // the day's finish is seeded once its post is out
		}{
			{"recaps", nov30, "Yesterday's daily #333", true},
			{"season-end", nov30.Add(24 * time.Hour), "Season 2026-11 is over", false},
		} {
			clock.Set(turn.day.Add(9 * time.Hour))
			began := time.Now()
			probe := startMazeProbe(fake, 250*time.Millisecond)
			tctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
			// Only the channels still without their post are looked at
			// again: the looking shares the cores with the bot.
			waiting := slices.Clone(channels)
			retries := 0
			failures := map[string]int{} // the ticks' errors, by their first line
			for {
				if err := app.Tick(tctx); err != nil {
					failures[strings.SplitN(err.Error(), "\n", 2)[0]]++
				}
				before := len(waiting)
				waiting = slices.DeleteFunc(waiting, func(ch string) bool {
					return slices.ContainsFunc(fake.ChannelMessages(ch), func(m *fakediscord.Message) bool { return strings.Contains(m.Text(), turn.marks) })
				})
				if len(waiting) == 0 || tctx.Err() != nil {
					if len(waiting) != 0 {
						b.Fatalf("%s: %d of %d posted", turn.name, servers-len(waiting), servers)
					}
					break
				}
				if len(waiting) == before {
					// A tick that made no post: what failed is retried
					// once its delay is over on the bot's clock, frozen
					// here but for this.
					clock.Advance(contest.RetryAfter)
					retries++
				}
			}
			cancel()
			if retries > 0 || len(failures) > 0 {
				b.Logf("%s: the clock moved on %d times for retries; ticks' errors %v", turn.name, retries, failures)
			}
			lastPost := lastRequest(fake, "POST /channels/{channel}/messages", began)
			delays := probe.stop()
			if turn.name == "season-end" {
				// The champion ticker follows the posts: tick until every
				// role is handed on.
				rctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
				for len(fake.Requests(rolePUT)) < servers && rctx.Err() == nil {
					_ = app.Tick(rctx)
				}
				cancel()
				last := lastRequest(fake, rolePUT, began)
				b.ReportMetric(last.Sub(began).Seconds(), "s-to-last-role")
				b.Logf("%d champion roles handed on, the last %s after the minute", len(fake.Requests(rolePUT)), last.Sub(began).Round(time.Millisecond))
			}
			var times []time.Time
			routes := map[string]int{}
			for _, r := range fake.Requests("") {
				if !r.Time.Before(began) && botTokenRoute(r.Route) {
					times = append(times, r.Time)
					routes[r.Route]++
				}
			}
			b.Logf("%s: requests by route %v", turn.name, routes)
			most := mostInOneSecond(times)
			med, p99 := percentile(delays, 50)-percentile(baseline, 50), percentile(delays, 99)-percentile(baseline, 99)
			b.ReportMetric(lastPost.Sub(began).Seconds(), turn.name+"-s-to-last-post")
			b.ReportMetric(float64(most), turn.name+"-max-req/s")
			b.ReportMetric(float64(med.Milliseconds()), turn.name+"-maze-delay-ms-median")
			b.ReportMetric(float64(p99.Milliseconds()), turn.name+"-maze-delay-ms-p99")
			b.Logf("%s: %d servers' posts, the last %s after the minute; %d requests with the bot's token, at most %d in one second; /maze (%d asked) %s median, %s p99, against %s and %s with nothing else to do: %+d ms median, %+d ms p99",
				turn.name, servers, lastPost.Sub(began).Round(time.Millisecond), len(times), most, len(delays),
				percentile(delays, 50).Round(time.Millisecond), percentile(delays, 99).Round(time.Millisecond),
				percentile(baseline, 50).Round(time.Millisecond), percentile(baseline, 99).Round(time.Millisecond), med.Milliseconds(), p99.Milliseconds())
			if turn.seed {
				for i := range channels {
					guild := fmt.Sprintf("12000000000000%05d", i)
					if err := db.seedFinish(ctx, guild, player, nov29.AddDays(1), recapMaze, nov30.Add(12*time.Hour)); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		if n := len(fake.Requests(rolePUT)); n != servers {
			b.Fatalf("%d champion roles given, want %d", n, servers)
		}
	}
}

// botTokenRoute tells whether a request on route carries the bot's token
// and so counts against Discord's global limit: every route but the
// interaction callback and the interaction webhooks.
func botTokenRoute(route string) bool {
	return route != "" && !strings.HasPrefix(route, "POST /interactions/") && !strings.Contains(route, " /webhooks/")
}

// lastRequest is the arrival of the last request on route since began.
func lastRequest(fake *discord, route string, began time.Time) time.Time {
	last := began
	for _, r := range fake.Requests(route) {
		if r.Time.After(last) {
			last = r.Time
		}
	}
	return last
}

// mazeLatency is how long a member's /maze takes to its finished answer.
func mazeLatency(ctx context.Context, fake *discord) (time.Duration, error) {
	began := time.Now()
	ix, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "maze"})
	if err == nil {
		_, err = ix.WaitFinal(ctx, func(m *fakediscord.Message) bool { return !m.Loading() })
	}
	return time.Since(began), err
}

// mazeProbe asks /maze every so often until stopped.
type mazeProbe struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	took   []time.Duration
	errs   int
}

func startMazeProbe(fake *discord, every time.Duration) *mazeProbe {
	ctx, cancel := context.WithCancel(context.Background())
	p := &mazeProbe{cancel: cancel}
	p.wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			p.wg.Go(func() {
				actx, acancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer acancel()
				d, err := mazeLatency(actx, fake)
				p.mu.Lock()
				defer p.mu.Unlock()
				if err != nil {
					p.errs++
					d = 30 * time.Second
				}
				p.took = append(p.took, d)
			})
		}
	})
	return p
}

// stop ends the probe and returns its latencies.
func (p *mazeProbe) stop() []time.Duration {
	p.cancel()
	p.wg.Wait()
	return p.took
}

// percentile is the p-th percentile of ds (0 for none).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}
