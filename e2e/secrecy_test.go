package e2e

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/contest"
	"mazebot/internal/fakediscord/member"
)

// TestE2EDailySecrecy: a daily's maze cannot be worked out from public
// data, and /solve refuses a running daily from anywhere, however many
// servers show its maze.
func TestE2EDailySecrecy(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	clock := fake.useClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	fake.startApp(t)
	const dailyGuild, dailyCh = "1200000000000000999", "1300000000000000999"
	ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", GuildID: dailyGuild, ChannelID: dailyCh,
		Options: []member.Option{{Name: "today", Type: discordgo.ApplicationCommandOptionSubCommand}}})
	if err != nil {
		t.Fatal(err)
	}
	id := mazeIDIn(t, final(t, ix).Text())
	// The unkeyed derivation of old, from the server and the date.
	sum := sha256.Sum256([]byte("mazebot daily|" + dailyGuild + "|" + contest.DateOf(clock.Now(), time.UTC).String()))
	if id.Seed == uint64(binary.BigEndian.Uint32(sum[:4])) {
		t.Fatalf("the daily %s has the seed anyone can compute", id)
	}
	// The same maze, shown with /maze in six servers that sort first.
	for i := range 6 {
		guild := "120000000000000000" + string(rune('1'+i))
		ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", GuildID: guild, ChannelID: "130000000000000000" + string(rune('1'+i)),
			Options: []member.Option{opt("algorithm", id.Algorithm.String()), opt("size", id.Width), opt("seed", id.Seed)}})
		if err != nil {
			t.Fatal(err)
		}
		if got := mazeIDIn(t, final(t, ix).Text()); got != id {
			t.Fatalf("/maze made %s, want %s", got, id)
		}
	}
	for _, spec := range []member.SlashSpec{
		{Name: "solve", DM: true, Options: []member.Option{opt("id", id.String())}},
		{Name: "solve", GuildID: "1200000000000000001", ChannelID: "1300000000000000001", Options: []member.Option{opt("id", id.String())}},
	} {
		ix, err := fake.SlashCommand(testContext(t), spec)
		if err != nil {
			t.Fatal(err)
		}
		if msg := final(t, ix); !msg.Ephemeral() || !strings.Contains(msg.Text(), "solution stays hidden") {
			t.Fatalf("/solve of the running daily (DM %v) answered %q, want it held", spec.DM, msg.Text())
		}
	}
}
