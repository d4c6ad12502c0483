package e2e

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/mazecore"
	"mazebot/play"
)

// TestE2EDaily: a manager sets up the daily through Discord; the scheduler
// posts it once in the chosen channel at the local time, also across a
// restart; a member plays it and gets the share line; /solve is refused
// while the day runs.
func TestE2EDaily(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	const dailyChannel = "1300000000000000777"
	clock := fake.useClock(time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)) // 08:00 in Seoul
	app := fake.startApp(t)

	setup := member.Option{Name: "setup", Options: []member.Option{
		opt("channel", dailyChannel), opt("time", "09:00"), opt("timezone", "Asia/Seoul"),
	}}
	// A member without Manage Server is refused.
	ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", Options: []member.Option{setup}})
	if err != nil {
		t.Fatal(err)
	}
	if msg := final(t, ix); !msg.Ephemeral() || !strings.Contains(msg.Text(), "Manage Server") {
		t.Fatalf("setup by a member answered %q, want an ephemeral refusal naming Manage Server", msg.Text())
	}
	manager := managerPerms
	ix, err = fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", Options: []member.Option{setup}, Permissions: manager})
	if err != nil {
		t.Fatal(err)
	}
	if msg := final(t, ix); !msg.Ephemeral() || !strings.Contains(msg.Text(), "<#"+dailyChannel+">") {
		t.Fatalf("setup by a manager answered %q, want an ephemeral confirmation", msg.Text())
	}

	ctx := testContext(t)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(fake.ChannelMessages(dailyChannel)); n != 0 {
		t.Fatalf("%d messages in the daily channel before 09:00 in Seoul", n)
	}
	clock.Set(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) // 09:00 in Seoul
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	post, err := fake.WaitChannelMessage(ctx, dailyChannel, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Text(), "Daily challenge #334")
	})
	if err != nil {
		t.Fatalf("no daily post: %v", err)
	}
	id := mazeIDIn(t, post.Text())
	if post.Button("play:"+id.String()) == nil {
		t.Fatalf("the daily post has no Play button: %+v", post.Buttons())
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}

	// Ticking again, and after a restart on the same database: no repost.
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	app = fake.restart(t, app)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(fake.ChannelMessages(dailyChannel)); n != 1 {
		t.Fatalf("%d messages in the daily channel, want exactly 1", n)
	}

	// /solve on the running daily is refused.
	solve := final(t, fake.slash(t, "solve", opt("id", id.String())))
	if !solve.Ephemeral() || !strings.Contains(solve.Text(), fmt.Sprintf("<t:%d:R>", time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC).Add(contest.MaxClockSkew).Unix())) {
		t.Fatalf("/solve on today's daily answered %q, want a refusal until just after Seoul midnight", solve.Text())
	}

	// Playing it through Play ends with the day's rank, and Share gives
	// the share line.
	p := fake.startGame(t, post, m, fakediscord.DefaultUserID)
	p.walk()
	if shared := p.share(); !strings.Contains(shared, "`mazebot daily #334 · ") || !strings.Contains(shared, "🔥1`") {
		t.Fatalf("Share lacks the share line:\n%s", shared)
	}

	board := final(t, fake.slash(t, "leaderboard"))
	if len(board.Embeds) != 1 || !strings.Contains(board.Embeds[0].Description, "🥇 <@"+fakediscord.DefaultUserID+">") {
		t.Fatalf("leaderboard %+v, want the player first", board.Embeds)
	}
}

// TestE2EDailyHard: a daily set up with difficulty hard is the hard maze
// of the day; played to the goal, its share lines carry stars and par.
func TestE2EDailyHard(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	clock := fake.useClock(time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC))
	fake.startApp(t)
	setup := member.Option{Name: "setup", Options: []member.Option{
		opt("channel", "1300000000000000777"), opt("time", "09:00"), opt("timezone", "UTC"),
		opt("size", 25), opt("difficulty", "hard"),
	}}
	manager := strconv.FormatInt(discordgo.PermissionManageGuild, 10)
	ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", Options: []member.Option{setup}, Permissions: manager})
	if err != nil {
		t.Fatal(err)
	}
	if msg := final(t, ix); !strings.Contains(msg.Text(), "25×25, hard)") {
		t.Fatalf("setup answered %q, want it to confirm hard", msg.Text())
	}
	today := final(t, fake.slash(t, "daily", member.Option{Name: "today"}))
	id := mazeIDIn(t, today.Text())
	// The apps' key, which app derives from MAZEBOT_SECRET: every
	// process sharing a database has it, and it must not change, or each
	// server's daily would.
	mac := hmac.New(sha256.New, []byte(e2eSecret))
	mac.Write([]byte("mazebot daily maze key"))
	key := mac.Sum(nil)
	want, err := contest.MazeFor(key, contest.DailySettings{GuildID: fakediscord.DefaultGuildID, Algorithm: mazecore.Backtracking, Size: 25, Difficulty: mazecore.Hard},
		contest.MakeDate(2026, 11, 30))
	if err != nil {
		t.Fatal(err)
	}
	if id != want {
		t.Fatalf("today's daily is %v, want the hard one %v", id, want)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	rating, par := mazecore.Rate(m).Rating, play.Par(m)

	p := fake.startGame(t, today, m, fakediscord.DefaultUserID)
	p.clock, p.step = clock, 2*time.Second
	p.walk()
	line := fmt.Sprintf("📋 Share it: `mazebot daily #334 · %s · %s · par ±0 · 🔥1`", strings.Repeat("★", rating), clockTime(time.Duration(par)*p.step))
	text := fmt.Sprintf("Share (text only): `mazebot daily 334, difficulty %d of 5, time %d seconds, at par, streak 1 day`", rating, 2*par)
	if shared := p.share(); p.clicks != par || !strings.Contains(shared, line) || !strings.Contains(shared, text) {
		t.Fatalf("after %d clicks (par %d) Share lacks\n%s\n%s\n:\n%s", p.clicks, par, line, text, shared)
	}
}

// TestE2EDailyLegacyLanguage: a daily set up before languages (no language
// stored) is posted in the server's primary language, which the bot asks
// Discord for (GET /guilds/{id}).
func TestE2EDailyLegacyLanguage(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	const dailyChannel = "1300000000000000778"
	clock := fake.useClock(time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC))
	app := fake.startApp(t)
	setup := member.Option{Name: "setup", Options: []member.Option{
		opt("channel", dailyChannel), opt("time", "09:00"), opt("timezone", "Asia/Seoul"),
	}}
	manager := managerPerms
	ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", Options: []member.Option{setup}, Permissions: manager})
	if err != nil {
		t.Fatal(err)
	}
	final(t, ix)
	// As the language migration left every older row.
	if n, err := forgetDailyLanguages(testContext(t), app.dbPath); err != nil {
		t.Fatal(err)
	} else if n != 1 {
		t.Fatalf("%d daily settings made legacy, want 1", n)
	}
	fake.SetGuildLocale(fakediscord.DefaultGuildID, "ko")

	ctx := testContext(t)
	clock.Set(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) // 09:00 in Seoul
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	post, err := fake.WaitChannelMessage(ctx, dailyChannel, func(m *fakediscord.Message) bool { return strings.Contains(m.Text(), "#334") })
	if err != nil {
		t.Fatal(err)
	}
	if header := strings.SplitN(post.Text(), "\n", 2)[0]; !hasHangul(header) {
		t.Fatalf("the legacy daily in a Korean server: %q, want Korean", header)
	}
	if errs := fake.RESTErrors(); len(errs) != 0 {
		t.Fatalf("REST errors: %+v", errs)
	}
}
