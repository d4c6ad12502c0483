package e2e

// A season's end (issue 38 item 5): the results card and the champion
// role.

import (
	"strings"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// seasonZone is the server's zone in the season tests: eight hours behind
// UTC, so December begins in UTC while the server is still in November.
var seasonZone = func() *time.Location {
	z, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		panic(err)
	}
	return z
}()

// seasonPlayers play the season tests' dailies.
var seasonPlayers = []string{"1400000000000000501", "1400000000000000502", "1400000000000000503"}

// startSeason starts an app whose default server posts its daily at 01:00
// in seasonZone (09:00 UTC, when postDaily ticks) on oct31, and plays
// three days: on oct31 the second, third and first finish in that
// order, on nov29 only the second plays, on nov30 all three in order.
// November's season then has the second player first, with the longest
// streak (two days), and the first player second, up from third in
// October: the most improved.
func startSeason(t *testing.T) (*discord, *testkit.Clock, *testApp) {
	t.Helper()
	fake := newDiscord(t)
	oct31 := time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC)
	clock := fake.useClock(oct31.Add(8 * time.Hour))
	app := fake.startApp(t)
	s := contest.DailySettings{GuildID: fakediscord.DefaultGuildID, ChannelID: dailyChannel, PostAt: 60, Zone: seasonZone,
		Algorithm: mazecore.Backtracking, Size: 21, Enabled: true, UpdatedAt: clock.Now()}
	if err := dbOf(app).saveDailySettings(testContext(t), s); err != nil {
		t.Fatal(err)
	}
	play := func(day time.Time, users ...string) {
		post, m := fake.postDaily(t, app, clock, day)
		for i, u := range users {
			fake.playToGoal(t, clock, post, m, u, time.Duration(i+1)*time.Second)
		}
	}
	play(oct31, seasonPlayers[1], seasonPlayers[2], seasonPlayers[0])
	play(nov30.Add(-24*time.Hour), seasonPlayers[1])
	play(nov30, seasonPlayers...)
	return fake, clock, app
}

// seasonCards counts the season results cards among the daily channel's
// posts.
func seasonCards(fake *discord) int {
	n := 0
	for _, msg := range fake.ChannelMessages(dailyChannel) {
		n += strings.Count(msg.Text(), "Season 2026-11 is over")
	}
	return n
}

// TestE2ESeasonEnd: when November ends in the server's zone, the first
// post of December carries one results card: the podium with points, the
// longest streak and the most improved. Not while the server is still in
// November though UTC is in December; once across a restart at the turn,
// more ticks and another restart.
func TestE2ESeasonEnd(t *testing.T) {
	t.Parallel()
	fake, clock, app := startSeason(t)
	ctx := testContext(t)
	dec1 := nov30.Add(24 * time.Hour)
	// 21:00 on Nov 30 in the server: December in UTC only.
	clock.Set(dec1.Add(5 * time.Hour))
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := seasonCards(fake); n != 0 {
		t.Fatalf("%d season cards while the server is still in November", n)
	}
	// The bot restarts across the server's midnight.
	clock.Set(dec1.Add(8*time.Hour + 59*time.Minute))
	app = fake.restart(t, app)
	post, _ := fake.postDaily(t, app, clock, dec1)
	text := post.Text()
	for _, w := range []string{
		"Season 2026-11 is over",
		// Each day at par: 10 a finish, 10 down to 1 by rank, 5 for par.
		"🥇 <@" + seasonPlayers[1] + "> · 49 points",
		"🥈 <@" + seasonPlayers[0] + "> · 25 points",
		"🥉 <@" + seasonPlayers[2] + "> · 23 points",
		"Longest streak of the season: <@" + seasonPlayers[1] + ">, 2 days",
		"Most improved: <@" + seasonPlayers[0] + ">, from #3 last season to #2",
		"<@" + seasonPlayers[1] + "> is the season's champion",
	} {
		if !strings.Contains(text, w) {
			t.Fatalf("the first post of December lacks %q:\n%s", w, text)
		}
	}
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	app = fake.restart(t, app)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := seasonCards(fake); n != 1 {
		t.Fatalf("%d season cards, want 1", n)
	}
	// The next day's post carries none.
	fake.postDaily(t, app, clock, dec1.Add(24*time.Hour))
	if n := seasonCards(fake); n != 1 {
		t.Fatalf("%d season cards after the next day's post, want 1", n)
	}
}
