package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// TestE2ERequestsMatchDiscordSpec: every body the bot sends in a session
// that uses each of its features (cards with pictures and grids, GIFs,
// deferred and updated replies, followups, games to the end, autocomplete,
// the daily's and an event's posts and edits, the command sync) validates
// against the schemas the discord-api-spec package generates from
// Discord's OpenAPI spec, checked by e2e/spec/validate.mjs under Node.
// The fake checks Discord's documented limits; this checks the shapes
// Discord publishes. .ci/run installs e2e/spec's packages (npm ci).
func TestE2ERequestsMatchDiscordSpec(t *testing.T) {
	testkit.SkipShort(t, "runs Node")
	t.Parallel()
	node, spec := specChecker(t)
	fake := newDiscord(t)
	const dailyChannel = "1300000000000000777"
	clock := fake.useClock(time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC))
	app := fake.startArenaApp(t, "") // with Maze Arena: /race, its Entry Point sync and LAUNCH_ACTIVITY
	ctx := testContext(t)

	final(t, fake.slash(t, "maze"))
	final(t, fake.slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 21), opt("render", "emoji")))
	final(t, fake.slash(t, "maze", opt("algorithm", "digging"), opt("size", 15), opt("render", "gif")))
	final(t, fake.slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 201), opt("difficulty", "hard"), opt("render", "png")))
	final(t, fake.slash(t, "maze", opt("size", 1001), opt("render", "emoji"))) // a refusal
	final(t, fake.slash(t, "solve"))
	final(t, fake.slash(t, "help"))
	mazeMsg, m := fake.postMaze(t, opt("algorithm", "backtracking"), opt("size", 9), opt("seed", 3))
	ix, err := fake.MessageCommand(ctx, member.MessageCommandSpec{Name: "Solve this maze", Target: mazeMsg})
	if err != nil {
		t.Fatal(err)
	}
	final(t, ix)
	final(t, fake.click(t, member.ButtonSpec{CustomID: "solve:" + m.ID().String(), Message: mazeMsg}))
	final(t, fake.click(t, member.ButtonSpec{CustomID: "print:" + m.ID().String(), Message: mazeMsg}))
	race, err := fake.click(t, member.ButtonSpec{CustomID: "race:" + m.ID().String(), Message: mazeMsg}).Wait(ctx)
	if err != nil || race.Type != 12 {
		t.Fatalf("Race: %+v %v, want LAUNCH_ACTIVITY", race, err)
	}
	// The race run to the goal: its result card, with its picture.
	raceAlone(t, fake, app, fakediscord.DefaultUserID, race.Instance, m)
	fake.waitChannel(t, "🏁 **Maze Arena** on `"+m.ID().String()+"`")
	final(t, fake.slash(t, "maze", opt("size", 41), opt("theme", "print"), opt("style", "line")))
	p := fake.startGame(t, mazeMsg, m, fakediscord.DefaultUserID)
	p.walk()
	p.share()
	big, bigMaze := fake.postMaze(t, opt("algorithm", "sidewinder"), opt("size", 21), opt("seed", 4))
	windowed := fake.startGame(t, big, bigMaze, fakediscord.DefaultUserID)
	for _, b := range windowed.msg.Buttons() {
		if strings.Contains(b.CustomID, ":m:") { // Map: a followup with the picture
			final(t, fake.click(t, member.ButtonSpec{CustomID: b.CustomID, Message: windowed.msg}))
		}
	}
	windowed.walk() // the win of a windowed game: the whole maze in a followup
	fake.complete(t, "daily", "seoul")
	fake.complete(t, "solve", "")

	// The champion role: November's champion gets it with December's
	// first post, and a former champion loses it.
	const (
		championRole = "1500000000000000001"
		botRole      = "1500000000000000002"
		former       = "1400000000000000602"
	)
	fake.SetRoles(fakediscord.DefaultGuildID, []fakediscord.Role{
		{ID: championRole, Name: "Maze champion", Position: 1},
		{ID: botRole, Name: "mazebot", Position: 2, Permissions: discordgo.PermissionManageRoles},
	}, botRole)
	fake.AddMembers(fakediscord.DefaultGuildID, fakediscord.DefaultUserID, former)
	fake.SetMemberRoles(fakediscord.DefaultGuildID, former, championRole)
	setup := sub("setup", opt("channel", dailyChannel), opt("time", "09:00"), opt("timezone", "Asia/Seoul"), opt("recap-pings", true),
		opt("champion-role", championRole))
	ix, err = fake.SlashCommand(ctx, member.SlashSpec{Name: "daily", Options: []member.Option{setup}, Permissions: managerPerms})
	if err != nil {
		t.Fatal(err)
	}
	final(t, ix)
	if err := dbOf(app).db.SetChampion(ctx, fakediscord.DefaultGuildID, former); err != nil {
		t.Fatal(err)
	}
	clock.Set(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := fake.WaitChannelMessage(ctx, dailyChannel, func(m *fakediscord.Message) bool { return strings.Contains(m.Text(), "Daily challenge") }); err != nil {
		t.Fatal(err)
	}
	final(t, fake.slash(t, "daily", sub("today")))
	final(t, fake.slash(t, "leaderboard"))
	// Two days played, the next day's post with its recap (pings, the
	// solution's file), and on the third a reminder by DM: its channel
	// opened, its message sent.
	final(t, fake.slash(t, "daily", sub("remind", opt("time", "20:00"))))
	for day := range 3 {
		clock.Set(time.Date(2026, 11, 30+day, 0, 0, 0, 0, time.UTC))
		if err := app.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		number := fmt.Sprintf("Daily challenge #%d", 334+day)
		post, err := fake.WaitChannelMessage(ctx, dailyChannel, func(m *fakediscord.Message) bool { return strings.Contains(m.Text(), number) })
		if err != nil {
			t.Fatal(err)
		}
		if day < 2 {
			m, err := mazecore.Generate(mazeIDIn(t, post.Text()))
			if err != nil {
				t.Fatal(err)
			}
			fake.playToGoal(t, clock, post, m, fakediscord.DefaultUserID, time.Second)
		}
	}
	clock.Set(time.Date(2026, 12, 2, 11, 0, 0, 0, time.UTC)) // 20:00 in Seoul
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := fake.WaitChannelMessage(ctx, fake.DMChannel(fakediscord.DefaultUserID), nil); err != nil {
		t.Fatalf("no reminder by DM: %v", err)
	}
	// The archive: its list, a past day played to the goal unranked, Next
	// unsolved; a profile card, of another member.
	const newcomer = "1400000000000000601"
	list := fake.archiveSlash(t, newcomer)
	final(t, fake.click(t, member.ButtonSpec{CustomID: "archive:n:", Message: list, UserID: newcomer}))
	card := fake.archiveSlash(t, newcomer, opt("date", "2026-11-30"))
	won := fake.playArchive(t, card, "2026-11-30", newcomer)
	final(t, fake.click(t, member.ButtonSpec{CustomID: "archive:n:2026-11-30", Message: won, UserID: newcomer}))
	final(t, fake.slash(t, "profile", opt("member", newcomer)))
	eventMaze, _ := fake.startE2EEvent(t, "Spec race")
	final(t, fake.eventSlash(t, e2eManagePerms, "end"))
	waitFor(t, "the event closed", func() bool {
		bs := fake.Message(eventMaze.ID).Buttons()
		return len(bs) == 3 && strings.HasPrefix(bs[1].CustomID, "solve:")
	})

	var lines bytes.Buffer
	kinds := map[string]int{}
	bodiless := []string{"PUT /guilds/{guild}/members/{user}/roles/{role}", "DELETE /guilds/{guild}/members/{user}/roles/{role}"}
	for _, r := range fake.Requests("") {
		if (r.Body == nil && !slices.Contains(bodiless, r.Route)) || r.Status/100 != 2 {
			continue // a refused request is the fake's finding, reported where it happens
		}
		line, err := json.Marshal(map[string]any{"route": r.Route, "body": r.Body})
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(line, '\n'))
		kinds[r.Route]++
	}
	// Maze Arena's own: the Entry Point command in the sync, the launch, the result card with its picture.
	for _, want := range []struct{ route, body string }{
		{"PUT /applications/{app}/commands", `"handler":1`},
		{"POST /interactions/{interaction}/{token}/callback", `"type":12`},
		{"POST /channels/{channel}/messages", `"url":"attachment://race.png"`},
	} {
		if !slices.ContainsFunc(fake.Requests(""), func(r fakediscord.Request) bool {
			return r.Route == want.route && bytes.Contains(r.Body, []byte(want.body))
		}) {
			t.Fatalf("no %s with %s among the bodies checked", want.route, want.body)
		}
	}
	for _, route := range []string{
		"PUT /applications/{app}/commands", "POST /interactions/{interaction}/{token}/callback",
		"PATCH /webhooks/{app}/{token}/messages/{message}", "POST /webhooks/{app}/{token}",
		"POST /channels/{channel}/messages", "PATCH /channels/{channel}/messages/{message}",
		"POST /users/{user}/channels", bodiless[0], bodiless[1],
	} {
		if kinds[route] == 0 {
			t.Fatalf("the session made %v, no %s: want every kind of request the bot makes", kinds, route)
		}
	}
	file := filepath.Join(t.TempDir(), "requests.jsonl")
	if err := os.WriteFile(file, lines.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, node, filepath.Join(spec, "validate.mjs"), file).CombinedOutput()
	if err != nil {
		t.Fatalf("bodies that don't match Discord's spec (%v):\n%s", err, out)
	}
	t.Logf("%s (by route: %v)", strings.TrimSpace(string(out)), kinds)
}

// specChecker finds Node and e2e/spec with its packages installed. In CI
// both must be there (.ci/run installs them); elsewhere the test says
// what to run.
func specChecker(t *testing.T) (node, dir string) {
	t.Helper()
	dir, err := filepath.Abs("spec")
	if err != nil {
		t.Fatal(err)
	}
	node, err = exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "discord-api-spec"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the spec check needs Node and e2e/spec's packages (npm ci in e2e/spec): %v", err)
		}
		t.Skipf("needs Node and `npm ci` in e2e/spec (CI installs them): %v", err)
	}
	return node, dir
}
