package e2e

// What members read (issue 16 rows 21 and 22): an event name with
// backslashes stays text in the bot's posts, and a followup Discord made
// is not followed by an apology.

import (
	"fmt"
	"strings"
	"testing"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// readBold reads, as Discord's Markdown does, the bold text that starts
// text after prefix: a backslash escapes the character after it, and the
// first unescaped ** closes the bold. It returns the text a member reads
// there, or what in it is live markup.
func readBold(text, prefix string) (read, live string) {
	_, rest, ok := strings.Cut(text, prefix+"**")
	if !ok {
		return "", "no bold after " + prefix
	}
	var b strings.Builder
	runes := []rune(rest)
	for i := 0; i < len(runes); i++ {
		switch r := runes[i]; {
		case r == '\\' && i+1 < len(runes):
			i++
			b.WriteRune(runes[i])
		case r == '*' && i+1 < len(runes) && runes[i+1] == '*':
			return b.String(), ""
		case strings.ContainsRune("*_~|`", r):
			return b.String(), fmt.Sprintf("a live %q", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), "the bold never closes"
}

// TestE2EEventNameBackslashes (row 21): an event named with backslashes
// before Markdown, or ending in one, is posted as its name reads, in the
// bold the post gives it: no live italics, no broken bold.
func TestE2EEventNameBackslashes(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	for i, name := range []string{`\*x\*`, `race\`, `\_night\_ \~\~run\~\~ \|\|x\|\|`} {
		channel := fmt.Sprintf("13000000000000004%02d", i)
		started := final(t, fake.eventSlash(t, e2eManagePerms, "start", opt("algorithm", "backtracking"), opt("size", 15),
			opt("duration", "30m"), opt("channel", channel), opt("name", name)))
		if !strings.Contains(started.Text(), "Event started") {
			t.Fatalf("/event start name:%s answered %q", name, started.Text())
		}
		post, err := fake.WaitChannelMessage(testContext(t), channel, func(m *fakediscord.Message) bool { return strings.HasPrefix(m.Text(), "🏆 ") })
		if err != nil {
			t.Fatalf("no event post for %q: %v", name, err)
		}
		read, live := readBold(post.Text(), "🏆 ")
		if live != "" || read != name {
			t.Fatalf("the post of event %q reads %q (%s) in %q", name, read, live, strings.SplitN(post.Text(), "\n", 2)[0])
		}
	}
}

// TestE2EFollowupMaybeDelivered (row 22): Discord makes a followup and
// answers 502: the member reads the followup, and no apology after it.
func TestE2EFollowupMaybeDelivered(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startApp(t)
	// An even size: the maze, then a private followup saying it was
	// rounded up.
	fake.InjectFault("POST /webhooks/{app}/{token}", 1, fakediscord.Fault{Status: 502, After: true})
	ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", Options: []member.Option{opt("size", 20)}})
	if err != nil {
		t.Fatal(err)
	}
	if msg := final(t, ix); !strings.Contains(msg.Text(), "21×21") {
		t.Fatalf("/maze size:20 answered %q", msg.Text())
	}
	waitLog(t, app, 1, "msg=handled ", "interaction="+ix.ID+" ")
	var texts []string
	for _, f := range ix.Followups() {
		texts = append(texts, f.Text())
	}
	if len(texts) != 1 || !strings.Contains(texts[0], "21") || strings.Contains(strings.Join(texts, "\n"), "Sorry") {
		t.Fatalf("followups %q, want the notice alone, no apology", texts)
	}
}
