package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/play"
)

// addDailyRun stores a win on g1's daily of date, as Play would: a game
// saved won, elapsed after its start, now.
func (e *env) addDailyRun(tb testing.TB, user, date string, elapsed time.Duration, tiles int) {
	tb.Helper()
	ctx := context.Background()
	d, err := contest.ParseDate(date)
	if err != nil {
		tb.Fatal(err)
	}
	now := e.clock.Now()
	game, err := play.New(testkit.Maze(tb, dailyOf(tb, d)), play.Record{UserID: user, GuildID: "g1", ChannelID: "ch1", Contest: contest.DailyKey("g1", d).String()}, now.Add(-elapsed))
	if err != nil {
		tb.Fatal(err)
	}
	g := game.Record
	if g.ID, err = e.db.CreateGame(ctx, g); err != nil {
		tb.Fatal(err)
	}
	g.Seq, g.Status, g.Clicks, g.Tiles, g.UpdatedAt, g.FinishedAt = 1, play.Won, 5, tiles, now, now
	if err := e.db.SaveGame(ctx, g); err != nil {
		tb.Fatal(err)
	}
	e.clock.Advance(time.Second)
}

// leaderboard runs /leaderboard as user and returns its embed.
func (e *env) leaderboard(t *testing.T, user, period string) *discordgo.MessageEmbed {
	t.Helper()
	var opts map[string]any
	if period != "" {
		opts = map[string]any{"period": period}
	}
	ix := slash(t, "leaderboard", opts)
	ix.Member.User.ID = user
	rec := e.send(t, ix)
	if len(rec.Replies) != 1 || len(rec.Replies[0].Embeds) != 1 || rec.Replies[0].Ephemeral {
		t.Fatalf("/leaderboard answered %+v, want one public embed", rec.Replies)
	}
	return rec.Replies[0].Embeds[0]
}

func TestLeaderboardDaily(t *testing.T) {
	e := newEnv(t, envOptions{})
	const today = "2026-11-30"
	e.addDailyRun(t, "a", today, 60*time.Second, 50)
	e.addDailyRun(t, "a", today, 90*time.Second, 40) // slower: a's best stays 1:00
	e.addDailyRun(t, "b", today, 70*time.Second, 50)
	e.addDailyRun(t, "c", today, 70*time.Second, 50) // ties b: same time, same tiles
	e.addDailyRun(t, "d", today, 70*time.Second, 51) // same time, more tiles
	for i := range 7 {
		e.addDailyRun(t, fmt.Sprintf("p%d", i), today, time.Duration(80+i)*time.Second, 50)
	}
	e.addDailyRun(t, "u1", today, 200*time.Second, 90) // the caller, 12th
	e.addDailyRun(t, "a", "2026-11-29", time.Minute, 50)
	e.addDailyRun(t, "old", "2026-11-29", time.Second, 5) // yesterday counts for nothing today

	embed := e.leaderboard(t, "u1", "")
	if !strings.Contains(embed.Title, "#334") || !strings.Contains(embed.Title, today) {
		t.Fatalf("title %q, want daily #334 of %s", embed.Title, today)
	}
	lines := strings.Split(embed.Description, "\n")
	if len(lines) != views.LeaderboardTop {
		t.Fatalf("%d lines, want the top %d:\n%s", len(lines), views.LeaderboardTop, embed.Description)
	}
	for i, want := range []string{
		"🥇 <@a> · 1:00 · 50 tiles · 🔥2",
		"🥈 <@b> · 1:10 · 50 tiles · 🔥1",
		"🥈 <@c> · 1:10 · 50 tiles · 🔥1",
		"`#4` <@d> · 1:10 · 51 tiles · 🔥1", // same time, more tiles
		"`#5` <@p0> · 1:20 · 50 tiles · 🔥1",
	} {
		if lines[i] != want {
			t.Fatalf("line %d=%q, want %q", i+1, lines[i], want)
		}
	}
	if strings.Contains(embed.Description, "<@u1>") || strings.Contains(embed.Description, "<@old>") {
		t.Fatalf("description lists u1 (12th) or yesterday's player:\n%s", embed.Description)
	}
	if got, want := embed.Footer.Text, "Your rank: #12 of 12 · 3:20 · 90 tiles"; got != want {
		t.Fatalf("footer %q, want %q", got, want)
	}
	if got := e.leaderboard(t, "c", "daily").Footer.Text; !strings.HasPrefix(got, "Your rank: #2 of 12") {
		t.Fatalf("c's footer %q, want the shared rank 2", got)
	}
	if got := e.leaderboard(t, "nobody", "daily").Footer.Text; !strings.Contains(got, "no result yet") {
		t.Fatalf("footer of a member without a result %q", got)
	}
}

func TestLeaderboardWeekAndAll(t *testing.T) {
	e := newEnv(t, envOptions{})
	// y: 3 days this week; x: 2 days (and one 8 days ago); z ties x.
	for _, d := range []string{"2026-11-30", "2026-11-29", "2026-11-24"} {
		e.addDailyRun(t, "y", d, 2*time.Minute, 50)
	}
	for _, d := range []string{"2026-11-30", "2026-11-28", "2026-11-22"} {
		e.addDailyRun(t, "x", d, time.Minute, 50)
	}
	for _, d := range []string{"2026-11-27", "2026-11-26"} {
		e.addDailyRun(t, "z", d, time.Minute, 50)
	}
	e.addDailyRun(t, "w", "2026-11-30", 30*time.Second, 50)

	week := e.leaderboard(t, "w", "week")
	if !strings.Contains(week.Title, "2026-11-24 to 2026-11-30") {
		t.Fatalf("week title %q", week.Title)
	}
	lines := strings.Split(week.Description, "\n")
	want := []string{
		"🥇 <@y> · 3 days · 6:00 total · 🔥2",
		"🥈 <@x> · 2 days · 2:00 total · 🔥1",
		"🥈 <@z> · 2 days · 2:00 total",
		"`#4` <@w> · 1 day · 0:30 total · 🔥1",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("week:\n%s\nwant:\n%s", week.Description, strings.Join(want, "\n"))
	}
	if got := week.Footer.Text; got != "Your rank: #4 of 4 · 1 day · 0:30 total" {
		t.Fatalf("footer %q", got)
	}
	all := e.leaderboard(t, "u1", "all")
	if lines := strings.Split(all.Description, "\n"); !strings.HasPrefix(lines[0], "🥇 <@x> · 3 days · 3:00 total") || !strings.HasPrefix(lines[1], "🥈 <@y> · 3 days · 6:00 total") {
		t.Fatalf("all time:\n%s\nwant x (3 days, less time) before y", all.Description)
	}
	if !strings.Contains(all.Footer.Text, "no result yet") {
		t.Fatalf("footer %q for a member without results", all.Footer.Text)
	}
}

func TestLeaderboardEmptyAndRefusals(t *testing.T) {
	e := newEnv(t, envOptions{})
	if embed := e.leaderboard(t, "u1", ""); !strings.Contains(embed.Description, "Nobody has solved") {
		t.Fatalf("empty leaderboard says %q", embed.Description)
	}
	if msg := checkRefusal(t, e.send(t, dmIx(t, "leaderboard", nil))); !strings.Contains(msg, "server") {
		t.Fatalf("DM refusal %q", msg)
	}
}

// The leaderboard's day is the server's: in Seoul, 15:00 UTC starts a new
// (empty) day.
func TestLeaderboardDayInServerZone(t *testing.T) {
	e := newEnv(t, envOptions{now: utc(2026, 11, 30, 8, 0)})
	e.setup(t, "09:00", "Asia/Seoul")
	e.addDailyRun(t, "a", "2026-11-30", time.Minute, 50)
	e.clock.Set(utc(2026, 11, 30, 14, 59))
	if embed := e.leaderboard(t, "a", ""); !strings.Contains(embed.Description, "<@a>") {
		t.Fatalf("at 23:59 in Seoul the day's board lacks a:\n%s", embed.Description)
	}
	e.clock.Set(utc(2026, 11, 30, 15, 0))
	if embed := e.leaderboard(t, "a", ""); strings.Contains(embed.Description, "<@a>") || !strings.Contains(embed.Title, "2026-12-01") {
		t.Fatalf("at midnight in Seoul the board still shows yesterday: %q\n%s", embed.Title, embed.Description)
	}
}

// TestLeaderboardSeason: period:season ranks the month's points (a
// finished day 10, the day's rank +10 down, par +5), a past season is
// read by season:YYYY-MM, and a season not yet begun or misspelt is
// refused privately.
func TestLeaderboardSeason(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.addDailyRun(t, "a", "2026-11-29", time.Minute, 50)
	e.addDailyRun(t, "a", "2026-11-30", time.Minute, 50)
	e.addDailyRun(t, "b", "2026-11-30", 70*time.Second, 50)
	e.addDailyRun(t, "c", "2026-10-31", time.Minute, 50) // last season

	embed := e.leaderboard(t, "b", "season")
	if !strings.Contains(embed.Title, "2026-11") {
		t.Fatalf("title %q, want season 2026-11", embed.Title)
	}
	lines := strings.Split(embed.Description, "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "<@a> · 40 points · 2 days · 2:00 total") || !strings.Contains(lines[1], "<@b> · 19 points · 1 day · 1:10 total") {
		t.Fatalf("season board:\n%s\nwant a with 40 points (20 a day: over par), then b with 19", embed.Description)
	}

	past := func(season string) []bot.Reply {
		ix := slash(t, "leaderboard", map[string]any{"season": season})
		return e.send(t, ix).Replies
	}
	if r := past("2026-10"); len(r) != 1 || len(r[0].Embeds) != 1 || !strings.Contains(r[0].Embeds[0].Description, "<@c> · 20 points") {
		t.Fatalf("season 2026-10 answered %+v, want c's 20 points", r)
	}
	for _, bad := range []string{"2026-12", "november", "2026-13"} {
		if r := past(bad); len(r) != 1 || !r[0].Ephemeral || !strings.Contains(r[0].Text(), "YYYY-MM") {
			t.Fatalf("season %q answered %+v, want a private refusal that says YYYY-MM", bad, r)
		}
	}
}
