package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord/member"
)

// complete types typed into /daily setup's timezone (or, for "solve", the
// id of /solve) and returns the bot's type 8 answer.
func (d *discord) complete(tb testing.TB, command, typed string) ([]*discordgo.ApplicationCommandOptionChoice, time.Duration) {
	tb.Helper()
	spec := member.SlashSpec{Name: command}
	switch command {
	case "daily":
		spec.Options = []member.Option{sub("setup", opt("channel", "1300000000000000001"), member.Option{Name: "timezone", Value: typed, Focused: true})}
	case "solve":
		spec.Options = []member.Option{{Name: "id", Value: typed, Focused: true}}
	}
	ix, err := d.Autocomplete(testContext(tb), spec)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := ix.Wait(testContext(tb))
	if err != nil {
		tb.Fatal(err)
	}
	if resp.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
		tb.Fatalf("autocomplete of %q answered type %d, want 8", typed, resp.Type)
	}
	return resp.Choices, resp.Elapsed
}

// TestE2EAutocomplete (issue 18 item 4): time zones complete by city, a
// maze ID from the channel's mazes. How fast: BenchmarkE2E's
// autocomplete cases.
func TestE2EAutocomplete(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	for typed, want := range map[string]string{"seoul": "Asia/Seoul", "new york": "America/New_York"} {
		if choices, _ := fake.complete(t, "daily", typed); len(choices) == 0 || choices[0].Value != want {
			t.Fatalf("timezone %q completed to %+v, want %s first", typed, choices, want)
		}
	}
	mazeMsg, m := fake.postMaze(t, opt("algorithm", "digging"), opt("size", 9), opt("seed", 5))
	id := m.ID().String()
	choices, _ := fake.complete(t, "solve", strings.ToUpper(id[len(id)-3:]))
	if len(choices) != 1 || choices[0].Value != id {
		t.Fatalf("/solve id completed to %+v, want %s, posted as %s", choices, id, mazeMsg.ID)
	}
}
