package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord/member"
)

// TestE2EUserInstall (issue 18 item 3): the maze commands are offered in
// servers, the DM with the bot and other private channels, through a
// server's install or a member's own; the daily, events and leaderboards
// only in servers that added the bot. Through a member's own install the
// bot answers where it is no member, without a channel post or fetch; a
// daily command there (a stale client's) is refused privately, saying
// why.
func TestE2EUserInstall(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	everywhere := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	bothInstalls := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	for _, c := range []struct {
		name     string
		typ      discordgo.ApplicationCommandType
		contexts []discordgo.InteractionContextType
		installs []discordgo.ApplicationIntegrationType
	}{
		{"maze", discordgo.ChatApplicationCommand, everywhere, bothInstalls},
		{"solve", discordgo.ChatApplicationCommand, everywhere, bothInstalls},
		{"help", discordgo.ChatApplicationCommand, everywhere, bothInstalls},
		{"Solve this maze", discordgo.MessageApplicationCommand, everywhere, bothInstalls},
		{"daily", discordgo.ChatApplicationCommand, everywhere[:1], bothInstalls[:1]},
		{"event", discordgo.ChatApplicationCommand, everywhere[:1], bothInstalls[:1]},
		{"leaderboard", discordgo.ChatApplicationCommand, everywhere[:1], bothInstalls[:1]},
		{"profile", discordgo.ChatApplicationCommand, everywhere[:1], bothInstalls[:1]},
	} {
		def := fake.Command("", c.name, c.typ)
		if def == nil || def.Contexts == nil || def.IntegrationTypes == nil ||
			!slices.Equal(*def.Contexts, c.contexts) || !slices.Equal(*def.IntegrationTypes, c.installs) {
			t.Fatalf("/%s synced as %+v, want contexts %v and integration types %v", c.name, def, c.contexts, c.installs)
		}
	}

	const (
		groupDM      = "1300000000000000901"
		foreignGuild = "1200000000000000902"
		foreignCanal = "1300000000000000903"
	)
	// The bot is in neither: Discord refuses it their channels.
	fake.SetChannelPermissions(groupDM, 0)
	fake.SetChannelPermissions(foreignCanal, 0)
	for _, where := range []member.SlashSpec{
		{DM: true, UserInstall: true},                                           // the DM with the bot
		{DM: true, PrivateChannel: true, ChannelID: groupDM, UserInstall: true}, // a group DM
		{GuildID: foreignGuild, ChannelID: foreignCanal, UserInstall: true},     // a server that never added it
	} {
		spec := where
		spec.Name, spec.Options = "maze", []member.Option{opt("size", 9), opt("seed", 8)}
		ix, err := fake.SlashCommand(testContext(t), spec)
		if err != nil {
			t.Fatal(err)
		}
		if msg := final(t, ix); msg.Ephemeral() || !strings.Contains(msg.Text(), "9×9") {
			t.Fatalf("/maze through a member's own install (%+v) answered %q", where, msg.Text())
		}
		spec.Name, spec.Options = "solve", nil
		if ix, err = fake.SlashCommand(testContext(t), spec); err != nil {
			t.Fatal(err)
		}
		if msg := final(t, ix); !strings.Contains(msg.Text(), "✅ Solution") {
			t.Fatalf("/solve there (%+v) answered %q, want the last maze's solution", where, msg.Text())
		}
	}
	for _, channel := range []string{groupDM, foreignCanal} {
		for _, r := range fake.Requests("") {
			if strings.Contains(r.Path, "/channels/"+channel+"/") {
				t.Fatalf("the bot called %s %s in a channel it is no member of", r.Method, r.Path)
			}
		}
	}

	// A stale client still showing /daily where only the member installed
	// the bot.
	ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", Options: []member.Option{sub("today")},
		GuildID: foreignGuild, ChannelID: foreignCanal, UserInstall: true, SkipValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if msg := final(t, ix); !msg.Ephemeral() || !strings.Contains(msg.Text(), "added to this server") {
		t.Fatalf("/daily through a member's own install answered %q (ephemeral %v), want a private refusal saying why", msg.Text(), msg.Ephemeral())
	}
	// And the fake's clients don't offer it there at all.
	if _, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", Options: []member.Option{sub("today")}, DM: true, UserInstall: true}); err == nil {
		t.Fatal("a client offered /daily in the DM of a member's own install")
	}
}
