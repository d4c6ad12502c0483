package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
)

// commandNames lists the names of cmds, sorted.
func commandNames(cmds []*discordgo.ApplicationCommand) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	return names
}

// TestE2ECommandsLeaveTheGuild (issue 16 row 10): a bot started with
// DISCORD_GUILD_ID gives that server its own commands; restarted on the
// same database without it, it syncs the commands globally and empties
// the server's own, so the server lists each command once; a later start
// leaves the server alone.
func TestE2ECommandsLeaveTheGuild(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	const guild = fakediscord.DefaultGuildID
	cfg := fake.config(newDBFile(t))
	cfg.GuildID = guild
	a := fake.launch(t, cfg)
	inGuild := commandNames(fake.CommandsIn(guild))
	if len(inGuild) < 4 || len(fake.CommandsIn("")) != 0 {
		t.Fatalf("with DISCORD_GUILD_ID the server has %v and the global scope %v, want every command in the server only", inGuild, commandNames(fake.CommandsIn("")))
	}

	// The server is recorded just after its commands are written.
	waitFor(t, "the server recorded as having commands of its own", func() bool {
		guilds, err := dbOf(a).commandGuilds(testContext(t))
		return err == nil && slices.Contains(guilds, guild)
	})
	a.stop()
	cfg.GuildID = ""
	a = fake.launch(t, cfg)
	waitFor(t, "the server's own commands removed", func() bool { return len(fake.CommandsIn(guild)) == 0 })
	if global := commandNames(fake.CommandsIn("")); !slices.Equal(global, inGuild) {
		t.Fatalf("global commands %v, want those the server had: %v", global, inGuild)
	}
	waitLog(t, a, 1, "removed a server's own commands, left from an earlier DISCORD_GUILD_ID", "guild="+guild)
	// In the server, each command is there once: the global one.
	if cmd := fake.Command(guild, "maze", discordgo.ChatApplicationCommand); cmd == nil || cmd.GuildID != "" {
		t.Fatalf("/maze in the server: %+v, want the global command", cmd)
	}
	if msg := final(t, fake.slash(t, "maze", opt("size", 7))); !strings.Contains(msg.Text(), "7×7") {
		t.Fatalf("/maze after the move gave %q", msg.Text())
	}

}
