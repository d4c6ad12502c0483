package e2e

// The champion role (issue 38 item 5): handed on at a season's end with
// the results card, and a refusal told once to the admin who set it.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/internal/testkit"
)

const (
	championRoleID = "1500000000000000001"
	botRoleID      = "1500000000000000002"
	championAdmin  = "1400000000000000599"
	rolePUT        = "PUT /guilds/{guild}/members/{user}/roles/{role}"
	roleDELETE     = "DELETE /guilds/{guild}/members/{user}/roles/{role}"
)

// startChampions starts an app on oct31 whose default server has the
// season players and its admin as members, a champion role at position
// rolePosition and the bot's own role at 2 with botPerms; the admin sets
// the daily up in seasonZone at 01:00 with the champion role, in locale.
// On oct31 the first season player wins alone: October's champion.
func startChampions(t *testing.T, botPerms int64, rolePosition int, locale string) (*discord, *testkit.Clock, *testApp) {
	t.Helper()
	fake := newDiscord(t)
	oct31 := time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC)
	clock := fake.useClock(oct31.Add(8 * time.Hour))
	guild := fakediscord.DefaultGuildID
	fake.SetRoles(guild, []fakediscord.Role{
		{ID: guild, Name: "@everyone"},
		{ID: championRoleID, Name: "Maze champion", Position: rolePosition},
		{ID: botRoleID, Name: "mazebot", Position: 2, Permissions: botPerms},
	}, botRoleID)
	fake.AddMembers(guild, append(slices.Clone(seasonPlayers), championAdmin)...)
	app := fake.startApp(t)
	setup := sub("setup", opt("channel", dailyChannel), opt("time", "01:00"), opt("timezone", "America/Los_Angeles"),
		opt("algorithm", "backtracking"), opt("size", 21), opt("champion-role", championRoleID))
	reply := final(t, fake.slashSpec(t, member.SlashSpec{Name: "daily", Options: []member.Option{setup},
		Permissions: managerPerms, UserID: championAdmin, Locale: locale}))
	if !reply.Ephemeral() || !strings.Contains(reply.Text(), "<@&"+championRoleID+">") {
		t.Fatalf("/daily setup champion-role: answered %q, want a private answer naming the role", reply.Text())
	}
	post, m := fake.postDaily(t, app, clock, oct31)
	fake.playToGoal(t, clock, post, m, seasonPlayers[0], time.Second)
	return fake, clock, app
}

// roleRequests are the role requests of route made for user.
func roleRequests(fake *discord, route, user string) int {
	n := 0
	for _, r := range fake.Requests(route) {
		if strings.Contains(r.Path, "/members/"+user+"/roles/"+championRoleID) {
			n++
		}
	}
	return n
}

// TestE2EChampionRole: October's champion gets the role with the first
// post of November; when November ends in the server's zone (not while
// only UTC is in December), the first post of December carries one
// results card, the role is PUT on November's champion and DELETEd from
// October's, once across more ticks and a restart.
func TestE2EChampionRole(t *testing.T) {
	t.Parallel()
	fake, clock, app := startChampions(t, discordgo.PermissionManageRoles, 1, "")
	ctx := testContext(t)
	guild := fakediscord.DefaultGuildID
	// An integration's role is refused, and the role set stays.
	const boosters = "1500000000000000003"
	fake.SetRoles(guild, []fakediscord.Role{{ID: boosters, Name: "Server Booster", Position: 1, Managed: true}}, botRoleID)
	if msg := championSetup(t, fake, opt("champion-role", boosters)); !strings.Contains(msg, "belongs to an integration") {
		t.Fatalf("/daily setup champion-role:@Server Booster answered %q, want a refusal", msg)
	}
	nov1 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	fake.postDaily(t, app, clock, nov1)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	october, november := seasonPlayers[0], seasonPlayers[1]
	if got := fake.MemberRoles(guild, october); !slices.Equal(got, []string{championRoleID}) {
		t.Fatalf("October's champion has roles %v after the first post of November, want the champion role", got)
	}
	for i, day := range []time.Time{nov30.Add(-24 * time.Hour), nov30} {
		post, m := fake.postDaily(t, app, clock, day)
		fake.playToGoal(t, clock, post, m, november, time.Second)
		if i == 1 {
			fake.playToGoal(t, clock, post, m, october, 2*time.Second)
		}
	}
	dec1 := nov30.Add(24 * time.Hour)
	clock.Set(dec1.Add(5 * time.Hour)) // 21:00 on Nov 30 in the server
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := roleRequests(fake, rolePUT, november); n != 0 {
		t.Fatalf("%d PUTs of the role while the server is still in November", n)
	}
	clock.Set(dec1.Add(8*time.Hour + 59*time.Minute))
	app = fake.restart(t, app)
	post, _ := fake.postDaily(t, app, clock, dec1)
	if !strings.Contains(post.Text(), "<@"+november+"> is the season's champion") {
		t.Fatalf("the first post of December:\n%s\nwant November's champion", post.Text())
	}
	for range 2 {
		if err := app.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	app = fake.restart(t, app)
	clock.Set(dec1.Add(20 * time.Hour))
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(texts(fake.ChannelMessages(dailyChannel)), "\n"), "Season 2026-11 is over"); n != 1 {
		t.Fatalf("%d results cards of November, want 1", n)
	}
	if got := fake.MemberRoles(guild, november); !slices.Equal(got, []string{championRoleID}) {
		t.Fatalf("November's champion has roles %v, want the champion role", got)
	}
	if got := fake.MemberRoles(guild, october); len(got) != 0 {
		t.Fatalf("October's champion still has roles %v", got)
	}
	if put, del := roleRequests(fake, rolePUT, november), roleRequests(fake, roleDELETE, october); put != 1 || del != 1 {
		t.Fatalf("%d PUTs on November's champion and %d DELETEs from October's, want one each", put, del)
	}
	if put, del := len(fake.Requests(rolePUT)), len(fake.Requests(roleDELETE)); put != 2 || del != 1 {
		t.Fatalf("%d PUTs and %d DELETEs of roles in all, want 2 and 1", put, del)
	}
	for _, r := range append(fake.Requests(rolePUT), fake.Requests(roleDELETE)...) {
		if r.Status != 204 {
			t.Fatalf("%s %s answered %d", r.Method, r.Path, r.Status)
		}
	}
	// Turned off: the champion keeps the role; a second time, nothing
	// was set.
	if msg := championSetup(t, fake, opt("champion-role-off", true)); !strings.Contains(msg, "No more champion role") {
		t.Fatalf("champion-role-off:true answered %q", msg)
	}
	if msg := championSetup(t, fake, opt("champion-role-off", true)); !strings.Contains(msg, "There was no champion role") {
		t.Fatalf("champion-role-off:true again answered %q", msg)
	}
}

// championSetup runs the admin's /daily setup with the server's settings
// and extra, and returns its private answer.
func championSetup(t *testing.T, fake *discord, extra ...member.Option) string {
	t.Helper()
	setup := sub("setup", append([]member.Option{opt("channel", dailyChannel), opt("time", "01:00"), opt("timezone", "America/Los_Angeles"),
		opt("algorithm", "backtracking"), opt("size", 21)}, extra...)...)
	reply := final(t, fake.slashSpec(t, member.SlashSpec{Name: "daily", Options: []member.Option{setup}, Permissions: managerPerms, UserID: championAdmin}))
	if !reply.Ephemeral() {
		t.Fatalf("/daily setup answered publicly: %q", reply.Text())
	}
	return reply.Text()
}

// TestE2EChampionRoleRefused: a champion role above the bot's own is
// refused (403 50013) at the first post of November; the admin who set
// it hears of it once, privately and in Korean, at their next command;
// nothing else is lost (the post and its card are made), and the role is
// not tried again that season across further ticks and a restart.
func TestE2EChampionRoleRefused(t *testing.T) {
	t.Parallel()
	fake, clock, app := startChampions(t, discordgo.PermissionManageRoles, 3, "ko")
	ctx := testContext(t)
	nov1 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	post, _ := fake.postDaily(t, app, clock, nov1)
	if !strings.Contains(post.Text(), "Season 2026-10 is over") {
		t.Fatalf("the first post of November:\n%s\nwant October's results card", post.Text())
	}
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	refused := func() int {
		n := 0
		for _, e := range fake.RESTErrors() {
			if e.Code == 50013 && strings.Contains(e.Path, "/roles/") {
				n++
			}
		}
		return n
	}
	if n := refused(); n != 1 {
		t.Fatalf("%d role requests refused with 50013, want 1", n)
	}
	// Another member's command tells them nothing.
	other := fake.slashSpec(t, member.SlashSpec{Name: "daily", UserID: seasonPlayers[1], Options: []member.Option{sub("today")}})
	final(t, other)
	// The admin's next command: one private notice in their language.
	first := fake.slashSpec(t, member.SlashSpec{Name: "daily", UserID: championAdmin, Locale: "ko", Options: []member.Option{sub("today")}})
	final(t, first)
	notice, err := first.WaitFollowup(ctx, 0)
	if err != nil || !notice.Ephemeral() || !strings.Contains(notice.Text(), "역할 관리하기") || !strings.Contains(notice.Text(), "<@&"+championRoleID+">") {
		t.Fatalf("the admin's next command: followup %v, %v; want a private notice in Korean naming the role", notice, err)
	}
	if n := len(other.Followups()); n != 0 {
		t.Fatalf("another member was told %d times", n)
	}
	for range 2 {
		ix := fake.slashSpec(t, member.SlashSpec{Name: "daily", UserID: championAdmin, Locale: "ko", Options: []member.Option{sub("today")}})
		final(t, ix)
		if n := len(ix.Followups()); n != 0 {
			t.Fatalf("the notice came %d more times", n)
		}
	}
	for range 3 {
		clock.Advance(time.Hour)
		if err := app.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	app = fake.restart(t, app)
	for range 3 {
		clock.Advance(24 * time.Hour)
		if err := app.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(fake.Requests(rolePUT)) + len(fake.Requests(roleDELETE)); n != 1 {
		t.Fatalf("%d role requests across the season's ticks and a restart, want the one refused", n)
	}
	if n := refused(); n != 1 {
		t.Fatalf("%d role requests refused, want 1", n)
	}
	if got := fake.MemberRoles(fakediscord.DefaultGuildID, seasonPlayers[0]); len(got) != 0 {
		t.Fatalf("October's champion has roles %v after a refusal", got)
	}
}

// texts are the messages' texts.
func texts(msgs []*fakediscord.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Text()
	}
	return out
}
