package e2e

// The morning recap on the next day's post (issue 38 item 1).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// recapPlayers finish nov30's daily in this order, each a second slower
// per step than the one before.
var recapPlayers = []string{"1400000000000000401", "1400000000000000402", "1400000000000000403", "1400000000000000404"}

// allowedMentions is the allowed_mentions of the posts that made the
// channel's messages, in order, as "parse=[...] users=[...]".
func allowedMentions(t *testing.T, fake *discord, channelID string) []string {
	t.Helper()
	var out []string
	for _, r := range fake.Requests("POST /channels/{channel}/messages") {
		if !strings.Contains(r.Path, "/channels/"+channelID+"/") || r.Status != 200 {
			continue
		}
		var body struct {
			AllowedMentions *struct {
				Parse []string `json:"parse"`
				Users []string `json:"users"`
			} `json:"allowed_mentions"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.AllowedMentions == nil || body.AllowedMentions.Parse == nil {
			out = append(out, "every mention pings") // Discord's default
			continue
		}
		out = append(out, fmt.Sprintf("parse=%v users=%v", body.AllowedMentions.Parse, body.AllowedMentions.Users))
	}
	return out
}

// TestE2ERecap: the day after members played, the daily post carries
// yesterday's recap once: the number who finished, the top three in
// order with time and clicks against par, and yesterday's solution as a
// spoilered picture; named without pings. It holds across a restart at
// midnight, more ticks and another restart.
func TestE2ERecap(t *testing.T) {
	t.Parallel()
	fake, clock, app := startDaily(t)
	post, m := fake.postDaily(t, app, clock, nov30)
	for i, user := range recapPlayers {
		fake.playToGoal(t, clock, post, m, user, time.Duration(i+1)*time.Second)
	}
	// The bot restarts across midnight; the next day's post is made by
	// the new process.
	clock.Set(nov30.Add(23*time.Hour + 59*time.Minute))
	app = fake.restart(t, app)
	dec1 := nov30.Add(24 * time.Hour)
	next, _ := fake.postDaily(t, app, clock, dec1)
	text := next.Text()
	want := []string{"Yesterday's daily #334", "4 finishers", "🥇 <@" + recapPlayers[0] + ">", "🥈 <@" + recapPlayers[1] + ">", "🥉 <@" + recapPlayers[2] + ">", "par ±0"}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Fatalf("the next day's post lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, recapPlayers[3]) {
		t.Fatalf("the recap names the fourth finisher:\n%s", text)
	}
	if i, j := strings.Index(text, recapPlayers[0]), strings.Index(text, recapPlayers[1]); i > j {
		t.Fatalf("the recap's order is wrong:\n%s", text)
	}
	if strings.Contains(text, "`"+m.ID().String()+"`") {
		t.Fatalf("the recap names yesterday's maze by its ID, which 'Solve this maze' would take for today's:\n%s", text)
	}
	var solution *fakediscord.Attachment
	for i := range next.Attachments {
		if a := &next.Attachments[i]; strings.Contains(a.Filename, m.ID().String()) {
			solution = a
		}
	}
	if solution == nil || !solution.Spoiler() {
		t.Fatalf("the post's files %+v, want yesterday's solution as a SPOILER_ picture", next.Attachments)
	}
	if _, err := png.Decode(bytes.NewReader(solution.Data)); err != nil {
		t.Fatalf("the solution is not a PNG: %v", err)
	}
	if got := allowedMentions(t, fake, dailyChannel); len(got) != 2 || got[1] != "parse=[] users=[]" {
		t.Fatalf("allowed_mentions of the posts=%v, want the recap's parse empty and no users: named, not pinged", got)
	}
	// Exactly once: more ticks, another restart.
	ctx := testContext(t)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	app = fake.restart(t, app)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	posts, recaps := 0, 0
	for _, msg := range fake.ChannelMessages(dailyChannel) {
		if msg.InteractionID == "" { // not the games' replies
			posts++
			recaps += strings.Count(msg.Text(), "Yesterday's daily #334")
		}
	}
	if n := posts; n != 2 || recaps != 1 {
		t.Fatalf("%d messages with %d recaps in the daily channel, want 2 posts and 1 recap", n, recaps)
	}
}

// TestE2ERecapSettings: with recap-pings:true the post may notify the
// three it names, and only them; a day nobody finished is one line;
// recap:false posts none.
func TestE2ERecapSettings(t *testing.T) {
	t.Parallel()
	fake, clock, app := startDaily(t)
	setup := func(opts ...any) {
		t.Helper()
		options := []any{"channel", dailyChannel, "time", "09:00", "timezone", "UTC"}
		options = append(options, opts...)
		var mo []member.Option
		for i := 0; i < len(options); i += 2 {
			mo = append(mo, opt(options[i].(string), options[i+1]))
		}
		msg := final(t, fake.slashSpec(t, member.SlashSpec{Name: "daily", Permissions: managerPerms, Options: []member.Option{sub("setup", mo...)}}))
		if !strings.Contains(msg.Text(), "🌅") {
			t.Fatalf("setup answered %q, want the recap setting confirmed", msg.Text())
		}
	}
	setup("recap-pings", true)
	post, m := fake.postDaily(t, app, clock, nov30)
	for i, user := range recapPlayers[:3] {
		fake.playToGoal(t, clock, post, m, user, time.Duration(i+1)*time.Second)
	}
	fake.postDaily(t, app, clock, nov30.Add(24*time.Hour))
	got := allowedMentions(t, fake, dailyChannel)
	want := fmt.Sprintf("parse=[] users=[%s %s %s]", recapPlayers[0], recapPlayers[1], recapPlayers[2])
	if len(got) != 2 || got[1] != want {
		t.Fatalf("allowed_mentions=%v, want the second %s", got, want)
	}
	// Nobody plays dec1: dec2's post says so in one line, with no picture.
	dec2, _ := fake.postDaily(t, app, clock, nov30.Add(48*time.Hour))
	var lines []string
	for line := range strings.Lines(dec2.Text()) {
		if strings.Contains(line, "#335") {
			lines = append(lines, line)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "Nobody finished yesterday's daily #335") || len(dec2.Attachments) > 1 {
		t.Fatalf("dec2's post:\n%s\nfiles %+v; want one line saying nobody finished #335, and no solution", dec2.Text(), dec2.Attachments)
	}
	// Turned off: dec3's post has no recap.
	setup("recap", false)
	dec3, _ := fake.postDaily(t, app, clock, nov30.Add(72*time.Hour))
	if strings.Contains(dec3.Text(), "🌅") {
		t.Fatalf("a recap with recap:false:\n%s", dec3.Text())
	}
}
