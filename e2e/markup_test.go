package e2e

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// liveMarkup finds what Discord would act on in content outside code
// spans, of what the tests below type: a bidi control, a masked or bare
// link, the timestamp <t:0:…> (the bot's own are later), a mention.
func liveMarkup(content string) string {
	outside := regexp.MustCompile("`[^`]*`").ReplaceAllString(content, "")
	for _, r := range outside {
		if r == '\u061c' || r == '\u200e' || r == '\u200f' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			return "bidi control"
		}
	}
	for what, re := range map[string]*regexp.Regexp{
		"masked link": regexp.MustCompile(`[^\\]\]\(\s*<?https?:`),
		"bare link":   regexp.MustCompile(`https?://`),
		"timestamp":   regexp.MustCompile(`<t:0:`),
		"mention":     regexp.MustCompile(`<@|<#|@everyone|@here`),
	} {
		if re.MatchString(outside) {
			return what
		}
	}
	return ""
}

// TestE2EEchoAndMarkup: a refusal repeats only a short, inert piece of
// what was typed, privately; a name the bot posts carries no link, bidi
// control, timestamp or mention.
func TestE2EEchoAndMarkup(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	evil := "[x](https://evil.example/a) \u202egnp.exe <t:0:R> @everyone "
	t.Run("ErrLongAlgorithm", func(t *testing.T) {
		ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", SkipValidation: true,
			Options: []member.Option{opt("algorithm", evil+strings.Repeat("x", 10_000))}})
		if err != nil {
			t.Fatal(err)
		}
		msg := final(t, ix)
		if !msg.Ephemeral() || utf8.RuneCountInString(msg.Text()) > 400 || strings.Count(msg.Text(), "x") > 60 {
			t.Fatalf("refusal of %d code points (ephemeral %v): %.200q…, want a short private one", utf8.RuneCountInString(msg.Text()), msg.Ephemeral(), msg.Text())
		}
		if what := liveMarkup(msg.Text()); what != "" {
			t.Fatalf("refusal %q echoes a live %s", msg.Text(), what)
		}
	})
	for _, name := range []string{evil, "Night \u202erace\u2066 <t:0:R> <@1400000000000000001> @here [go](https://x.example)"} {
		msg := final(t, fake.eventSlash(t, e2eManagePerms, "start", opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "30m"), opt("name", name)))
		if strings.HasPrefix(msg.Text(), "⚠️") {
			if !msg.Ephemeral() || liveMarkup(msg.Text()) != "" {
				t.Fatalf("refusal of the name %q: %q, want private and inert", name, msg.Text())
			}
			continue
		}
		// Accepted: whatever it posted is inert.
		for _, m := range fake.ChannelMessages(fakediscord.DefaultChannelID) {
			if what := liveMarkup(m.Text()); what != "" {
				t.Fatalf("posted %q with a live %s from the name %q", m.Text(), what, name)
			}
		}
	}
	// A name with markup but no link is posted, defused.
	msg := final(t, fake.eventSlash(t, e2eManagePerms, "start", opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "30m"), opt("channel", "1300000000000000303"),
		opt("name", "Night \u202erace\u2066 <t:0:R> <@1400000000000000001> @here")))
	if !strings.Contains(msg.Text(), "Event started") {
		t.Fatalf("/event start with a name without links answered %q", msg.Text())
	}
	posted := fake.ChannelMessages("1300000000000000303")
	if len(posted) == 0 {
		t.Fatal("nothing posted")
	}
	for _, m := range posted {
		if what := liveMarkup(m.Text()); what != "" {
			t.Fatalf("posted %q with a live %s", m.Text(), what)
		}
	}
}
