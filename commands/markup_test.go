package commands

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// live reports the first thing in s that Discord would act on when posted
// outside a code span: a bidi control, a link, a mention or a timestamp.
func live(s string) string {
	for _, r := range s {
		if isBidiControl(r) {
			return "a bidi control"
		}
	}
	lower := strings.ToLower(s)
	for _, bad := range []string{"://", "](", "<t:", "<@", "<#", "@everyone", "@here"} {
		if strings.Contains(lower, bad) && !(bad == "](" && strings.Contains(lower, `\](`)) {
			return bad
		}
	}
	return ""
}

// liveMarkdown reads s as Discord's Markdown does its escapes: a
// backslash escapes the character after it. It reports an unescaped
// emphasis, spoiler or strike character inside the outer bold, or a bold
// whose closing stars are escaped.
func liveMarkdown(s string) string {
	inner, ok := strings.CutPrefix(s, "**")
	if !ok {
		return "no bold"
	}
	inner, ok = strings.CutSuffix(inner, "**")
	if !ok {
		return "no closing bold"
	}
	escaped := false
	for _, r := range inner {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case strings.ContainsRune("*_~|`", r):
			return fmt.Sprintf("a live %q", r)
		}
	}
	if escaped {
		return "the closing bold escaped"
	}
	return ""
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"prim", "prim"},
		{"a`b\nc", "a'b c"},
		{"@everyone", "＠everyone"},
		{"ab\u202ecd\u2066e\u200ff\u061c", "abcdef"},
		{strings.Repeat("x", 10_000), strings.Repeat("x", maxEcho) + "…"},
	} {
		if got := sanitize(tc.in); got != tc.want {
			t.Errorf("sanitize(%.20q)=%q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEventName(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     string // "" when refused
	}{
		{"OK", "Friday race", "Friday race"},
		{"OKDefault", "  ", "Maze event"},
		{"OKMarkdown", "*bold* _it_ ~~x~~ ||spoiler|| [x]", `\*bold\* \_it\_ \~\~x\~\~ \|\|spoiler\|\| \[x\]`},
		{"OKMentions", "@everyone <@123> <#456>", "＠everyone ＜＠123\\> ＜\\#456\\>"},
		{"OKTimestamp", "ends <t:0:R>", `ends ＜t:0:R\>`},
		{"OKEscapedMarkdown", `\*x\*`, `\\\*x\\\*`},
		{"OKTrailingBackslash", `race\`, `race\\`},
		{"OKBidi", "race\u202e\u2066 night\u200f", "race night"},
		{"ErrMaskedLink", "[x](https://evil.example)", ""},
		{"ErrBareLink", "see https://evil.example", ""},
		{"ErrInvite", "join discord.gg/abc", ""},
		{"ErrAll", "[x](https://e.x) \u202e <t:0:R>", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := eventName(tc.in, "Maze event")
			if tc.want == "" {
				if err == nil {
					t.Fatalf("eventName(%q)=%q, want refused", tc.in, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("eventName(%q)=%q, %v; want %q", tc.in, got, err, tc.want)
			}
			if what := live(got); what != "" {
				t.Fatalf("eventName(%q)=%q keeps %s live", tc.in, got, what)
			}
			if what := liveMarkdown("**" + got + "**"); what != "" {
				t.Fatalf("eventName(%q)=%q in bold: %s", tc.in, got, what)
			}
		})
	}
	if _, err := eventName(strings.Repeat("é", maxEventName+1), ""); err == nil || utf8.RuneCountInString(err.Error()) > 200 {
		t.Fatalf("a long name: %v, want a short refusal", err)
	}
}
