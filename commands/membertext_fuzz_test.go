package commands

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"mazebot/bot"
	"mazebot/contest"
	"mazebot/lang"
)

// FuzzMemberText types anything where a member types free text: an
// event's name and duration, a maze ID. Whatever it is, the bot takes it
// or refuses it in every language with a short message that echoes it
// only sanitized, and a name it takes posts with nothing live in it.
func FuzzMemberText(f *testing.F) {
	for _, seed := range []string{
		"Friday race", "[x](https://evil.example)", "ends <t:0:R>", "@everyone <@123>", `race\`, "*_~|`>#-",
		"\u202erace\u2066", "30m", "1d12h", " 2 h ", "999d2562047h", "-1h", "2840g1w3", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return // Discord's JSON carries only valid UTF-8
		}
		if name, err := eventName(text, "Maze event"); err != nil {
			checkRefusedText(t, "eventName", text, err)
		} else {
			if what := live(name); what != "" {
				t.Fatalf("eventName(%q)=%q keeps %s live", text, name, what)
			}
			if what := liveMarkdown("**" + name + "**"); what != "" {
				t.Fatalf("eventName(%q)=%q in bold: %s", text, name, what)
			}
			// Escaping at most doubles a name: Discord's embed titles
			// (256) hold it with room to spare.
			if n := utf8.RuneCountInString(name); n > 2*maxEventName {
				t.Fatalf("eventName(%q) is %d characters", text, n)
			}
		}
		if d, err := parseEventDuration(text); err != nil {
			checkRefusedText(t, "parseEventDuration", text, err)
		} else if d < contest.MinEventDuration || d > contest.MaxEventDuration {
			t.Fatalf("parseEventDuration(%q)=%v, outside the events' bounds", text, d)
		}
		if _, err := parseMazeID(text); err != nil {
			checkRefusedText(t, "parseMazeID", text, err)
		}
	})
}

// checkRefusedText fails t unless err is a refusal that reads, in every
// language, as a short message without control characters, whose code
// spans (where the text is echoed) all close, and that says no negative
// duration.
func checkRefusedText(t *testing.T, what, text string, err error) {
	t.Helper()
	var ue *bot.UserError
	if errors.As(err, &ue) {
		if d, ok := ue.Msg.Args["Duration"].(lang.Span); ok && d < 0 {
			t.Fatalf("%s(%q): %q says a duration of %v", what, text, err, time.Duration(d))
		}
	}
	for _, l := range lang.Languages() {
		msg, internal := bot.UserMessage(err, l)
		if internal {
			t.Fatalf("%s(%q): %v, not a refusal", what, text, err)
		}
		if n := utf8.RuneCountInString(msg); n > 400 {
			t.Fatalf("%s(%q) in %s: a refusal of %d characters", what, text, l, n)
		}
		for _, r := range msg {
			if r != '\n' && (unicode.IsControl(r) || isBidiControl(r)) {
				t.Fatalf("%s(%q) in %s echoes %U: %q", what, text, l, r, msg)
			}
		}
		if strings.Count(msg, "`")%2 != 0 {
			t.Fatalf("%s(%q) in %s breaks its code span: %q", what, text, l, msg)
		}
	}
}
