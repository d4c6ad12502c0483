package e2e

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// completionSpec is what complete sends: typed into /daily setup's
// timezone, or for "solve" the id of /solve.
func completionSpec(command, typed string) member.SlashSpec {
	spec := member.SlashSpec{Name: command}
	switch command {
	case "daily":
		spec.Options = []member.Option{sub("setup", opt("channel", "1300000000000000001"), member.Option{Name: "timezone", Value: typed, Focused: true})}
	case "solve":
		spec.Options = []member.Option{{Name: "id", Value: typed, Focused: true}}
	}
	return spec
}

// complete types typed into /daily setup's timezone (or, for "solve", the
// id of /solve) and returns the bot's type 8 answer.
func (d *discord) complete(tb testing.TB, command, typed string) ([]*discordgo.ApplicationCommandOptionChoice, time.Duration) {
	tb.Helper()
	ix, err := d.Autocomplete(testContext(tb), completionSpec(command, typed))
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

// oddCompletions are option values that the time zone search failed on
// under load (issue 36 item 5), and which it now reads bounded: runs
// of accents, precomposed and combining, zero-width spaces, Hangul and
// thousands of words, up to Discord's 6,000 characters.
var oddCompletions = []string{
	strings.Repeat("é", 3000),
	strings.Repeat("e\u0301", 3000),
	strings.Repeat("\u200b", 6000),
	strings.Repeat("a\u200b", 3000),
	strings.Repeat("a ", 3000),
	strings.Repeat("서", 3000),
}

// completion is one answer of a flood: how long the bot took, what it
// offered, or why it did not answer.
type completion struct {
	command, typed string
	elapsed        time.Duration
	choices        []*discordgo.ApplicationCommandOptionChoice
	err            error
}

// completionFlood has 8 members type at once, rounds completions each:
// members 0 to 2 type odd values into the time zone (one of them in
// Korean), member 3 odd values into /solve's id, the others cities, as
// members do. It returns every answer.
func (d *discord) completionFlood(tb testing.TB, rounds int) []completion {
	tb.Helper()
	cities := []string{"seoul", "new york", "los ang", "+9", "kolkata"}
	var (
		mu  sync.Mutex
		out []completion
		wg  sync.WaitGroup
	)
	for m := range 8 {
		wg.Go(func() {
			for r := range rounds {
				c := completion{command: "daily", typed: cities[(m+r)%len(cities)]}
				switch {
				case m < 3:
					c.typed = oddCompletions[(m+r)%len(oddCompletions)]
				case m == 3:
					c.command, c.typed = "solve", oddCompletions[r%len(oddCompletions)]
				}
				spec := completionSpec(c.command, c.typed)
				spec.UserID = fmt.Sprintf("17000000000000000%02d", m)
				if m == 1 {
					spec.Locale = "ko"
				}
				ix, err := d.Autocomplete(testContext(tb), spec)
				if err == nil {
					var resp *fakediscord.Response
					if resp, err = ix.Wait(testContext(tb)); err == nil {
						c.elapsed, c.choices = resp.Elapsed, resp.Choices
					}
				}
				c.err = err
				mu.Lock()
				out = append(out, c)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// TestE2EAutocompleteFlood (issue 36 item 5): 8 members complete at once,
// odd values among them, and every answer comes within Discord's 3 s; the
// cities still complete as they did. Before, the time zone search shared
// one transform.Chain among all completions: under a flood their texts
// mixed, handlers panicked, and none of the flood's completions, the
// cities' included, was answered. How fast: BenchmarkE2E's
// autocomplete-flood.
func TestE2EAutocompleteFlood(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	want := map[string]string{"seoul": "Asia/Seoul", "new york": "America/New_York", "los ang": "America/Los_Angeles", "kolkata": "Asia/Kolkata"}
	for _, c := range fake.completionFlood(t, 6) {
		switch {
		case c.err != nil:
			t.Errorf("/%s completion of %q… was not answered: %v", c.command, startOf(c.typed), c.err)
		case c.elapsed > discordgo.InteractionDeadline:
			t.Errorf("/%s completion of %q… answered after %v, past Discord's %v", c.command, startOf(c.typed), c.elapsed, discordgo.InteractionDeadline)
		case want[c.typed] != "" && (len(c.choices) == 0 || c.choices[0].Value != want[c.typed]):
			t.Errorf("%q completed to %+v, want %s first", c.typed, c.choices, want[c.typed])
		}
	}
}

// startOf is the first characters of s, to name it in a message.
func startOf(s string) string {
	r := []rune(s)
	return string(r[:min(6, len(r))])
}

// floodP99 is the time within which 99% of a flood's answers came.
func floodP99(tb testing.TB, answers []completion) time.Duration {
	var times []time.Duration
	for _, c := range answers {
		if c.err != nil {
			tb.Fatalf("/%s completion not answered: %v", c.command, c.err)
		}
		times = append(times, c.elapsed)
	}
	slices.Sort(times)
	return times[min(len(times)-1, len(times)*99/100)]
}
