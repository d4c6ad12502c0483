package e2e

import (
	"strings"
	"testing"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// Two servers for the tests of guild boundaries: A holds the event and
// the daily, B's manager tries to reach them.
const (
	guildA, channelA = "1200000000000000101", "1300000000000000101"
	guildB, channelB = "1200000000000000202", "1300000000000000202"
)

// managerIn sends /name subcommand with opts as a manager of guild in channel.
func (d *discord) managerIn(t *testing.T, guild, channel, name, subcommand string, opts ...member.Option) *fakediscord.Message {
	t.Helper()
	ix, err := d.SlashCommand(testContext(t), member.SlashSpec{
		Name: name, GuildID: guild, ChannelID: channel, UserID: "1400000000000000" + guild[len(guild)-3:], Permissions: e2eManagePerms,
		Options: []member.Option{sub(subcommand, opts...)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return final(t, ix)
}

// TestE2EGuildBoundaries: a manager of server B cannot end, start or post
// into server A's channels by naming them.
func TestE2EGuildBoundaries(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startApp(t)
	ctx := testContext(t)
	started := fake.managerIn(t, guildA, channelA, "event", "start", opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "1h"), opt("name", "A race"))
	if !strings.Contains(started.Text(), "Event started") {
		t.Fatalf("A's /event start answered %q", started.Text())
	}
	ev, err := dbOf(app).runningEvent(ctx, channelA)
	if err != nil {
		t.Fatal(err)
	}
	posts := fake.MessagesCreated(channelA)
	for _, tc := range []struct {
		name, sub string
		opts      []member.Option
	}{
		{"event", "end", []member.Option{opt("channel", channelA)}},
		{"event", "start", []member.Option{opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "1h"), opt("channel", channelA)}},
		{"daily", "setup", []member.Option{opt("channel", channelA), opt("time", "09:00"), opt("timezone", "UTC")}},
	} {
		msg := fake.managerIn(t, guildB, channelB, tc.name, tc.sub, tc.opts...)
		if !msg.Ephemeral() || !strings.HasPrefix(msg.Text(), "⚠️") {
			t.Fatalf("B's /%s %s naming A's channel answered %q, want a private refusal", tc.name, tc.sub, msg.Text())
		}
	}
	if got, err := dbOf(app).event(ctx, ev.ID); err != nil || got.Status != contest.Running {
		t.Fatalf("A's event %+v (%v), want still running", got, err)
	}
	if n := fake.MessagesCreated(channelA); n != posts {
		t.Fatalf("%d posts in A's channel, want %d: B posted there", n, posts)
	}
	if _, err := dbOf(app).dailySettings(ctx, guildB); err == nil {
		t.Fatal("B's daily was set up to post in A's channel")
	}
	// B's /daily off leaves A's daily alone.
	if msg := fake.managerIn(t, guildA, channelA, "daily", "setup", opt("channel", channelA), opt("time", "09:00"), opt("timezone", "UTC")); strings.HasPrefix(msg.Text(), "⚠️") {
		t.Fatalf("A's /daily setup answered %q", msg.Text())
	}
	fake.managerIn(t, guildB, channelB, "daily", "off")
	if s, err := dbOf(app).dailySettings(ctx, guildA); err != nil || !s.Enabled {
		t.Fatalf("A's daily %+v (%v), want still on", s, err)
	}
}
