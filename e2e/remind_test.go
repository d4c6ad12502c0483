package e2e

// Streak reminders by DM (issue 38 item 2).

import (
	"strings"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/mazecore"
)

// remindAs runs /daily remind time:value as user and returns the answer.
func (d *discord) remindAs(t *testing.T, user, value string) *fakediscord.Message {
	t.Helper()
	return final(t, d.slashSpec(t, member.SlashSpec{Name: "daily", UserID: user, Options: []member.Option{sub("remind", opt("time", value))}}))
}

// dmsTo lists the messages in the DM channel the bot opened with user.
func (d *discord) dmsTo(user string) []*fakediscord.Message {
	ch := d.DMChannel(user)
	if ch == "" {
		return nil
	}
	return d.ChannelMessages(ch)
}

// TestE2ERemind: at 20:00, of four members opted in with a 2-day streak,
// the one who has not played today gets exactly one DM, with the day's
// Play (which counts for the server from the DM) and the streak; the one
// who finished today, the one who opted out and the one whose DMs are
// closed get none; later ticks, a restart and the next hour send no
// second one. The closed one is told once, privately, at their next
// command.
func TestE2ERemind(t *testing.T) {
	t.Parallel()
	fake, clock, app := startDaily(t)
	const (
		atRisk   = "1400000000000000501"
		finished = "1400000000000000502"
		optedOut = "1400000000000000503"
		closed   = "1400000000000000504"
	)
	all := []string{atRisk, finished, optedOut, closed}
	// Two days played by everyone: a streak of 2.
	for day := range 2 {
		post, m := fake.postDaily(t, app, clock, nov30.Add(time.Duration(day)*24*time.Hour))
		for i, user := range all {
			fake.playToGoal(t, clock, post, m, user, time.Duration(i+1)*time.Second)
		}
	}
	dec2 := nov30.Add(48 * time.Hour)
	post, m := fake.postDaily(t, app, clock, dec2)
	fake.playToGoal(t, clock, post, m, finished, time.Second)
	for _, user := range all {
		if msg := fake.remindAs(t, user, "20:00"); !msg.Ephemeral() || !strings.Contains(msg.Text(), "20:00") {
			t.Fatalf("/daily remind answered %q, want a private confirmation at 20:00", msg.Text())
		}
	}
	if msg := fake.remindAs(t, optedOut, "off"); !strings.Contains(msg.Text(), "No more streak reminders") {
		t.Fatalf("/daily remind time:off answered %q", msg.Text())
	}
	if msg := fake.remindAs(t, optedOut, "25:00"); !strings.Contains(msg.Text(), "is not a time of day") {
		t.Fatalf("/daily remind time:25:00 answered %q, want a refusal", msg.Text())
	}
	fake.remindAs(t, optedOut, "off")
	fake.CloseDMs(closed)

	ctx := testContext(t)
	clock.Set(dec2.Add(19*time.Hour + 59*time.Minute))
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if dms := fake.dmsTo(atRisk); len(dms) != 0 {
		t.Fatalf("%d DMs before 20:00", len(dms))
	}
	clock.Set(dec2.Add(20 * time.Hour))
	for range 2 {
		if err := app.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	app = fake.restart(t, app)
	clock.Set(dec2.Add(21 * time.Hour))
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	dms := fake.dmsTo(atRisk)
	if len(dms) != 1 {
		t.Fatalf("%d DMs to the member at risk, want exactly 1", len(dms))
	}
	dm := dms[0]
	if !strings.Contains(dm.Text(), "Your streak of 2 days is at risk: daily #336 ends") {
		t.Fatalf("the DM says %q, want the 2-day streak", dm.Text())
	}
	if dm.Button("play:"+m.ID().String()+":"+fakediscord.DefaultGuildID) == nil {
		t.Fatalf("the DM's buttons %+v, want the day's Play for the server", dm.Buttons())
	}
	for _, user := range []string{finished, optedOut, closed} {
		if got := fake.dmsTo(user); len(got) != 0 {
			t.Fatalf("%d DMs to %s, want none", len(got), user)
		}
	}
	refused := 0
	for _, e := range fake.RESTErrors() {
		if e.Code == 50007 {
			refused++
		}
	}
	if refused != 1 {
		t.Fatalf("%d DMs refused with 50007, want the one try", refused)
	}
	// The closed one is told once, after their next command's answer.
	first := fake.slashSpec(t, member.SlashSpec{Name: "daily", UserID: closed, Options: []member.Option{sub("today")}})
	final(t, first)
	notice, err := first.WaitFollowup(ctx, 0)
	if err != nil || !notice.Ephemeral() || !strings.Contains(notice.Text(), "DMs are closed") {
		t.Fatalf("the closed member's next command: followup %v, %v; want a private notice", notice, err)
	}
	second := fake.slashSpec(t, member.SlashSpec{Name: "daily", UserID: closed, Options: []member.Option{sub("today")}})
	final(t, second)
	final(t, fake.slashSpec(t, member.SlashSpec{Name: "daily", UserID: closed, Options: []member.Option{sub("today")}}))
	if n := len(second.Followups()); n != 0 {
		t.Fatalf("the notice came %d more times", n)
	}
	// The DM's Play counts for the server's daily from the DM.
	ix := fake.click(t, member.ButtonSpec{CustomID: "play:" + m.ID().String() + ":" + fakediscord.DefaultGuildID, Message: dm, DM: true, ChannelID: dm.ChannelID, UserID: atRisk})
	opened, err := gameOpened(ctx, ix)
	if err != nil {
		t.Fatal(err)
	}
	p := &player{t: t, fake: fake, userID: atRisk, maze: m, path: mazecore.Solve(m), msg: opened}
	p.walk()
	if !strings.Contains(p.msg.Text(), "🏆 Daily #336") {
		t.Fatalf("the game from the DM ended with:\n%s\nwant it counted for daily #336", p.msg.Text())
	}
}
