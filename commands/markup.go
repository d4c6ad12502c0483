package commands

import (
	"mazebot/bot"
	"strings"
	"unicode"
)

// Member text the bot shows again: echoed in a refusal, or a name it posts.

// maxEcho is the most of a member's text a refusal repeats, in code points.
const maxEcho = 40

// sanitize makes a short, inert piece of a member's text to echo back in
// a code span: at most maxEcho code points, no backtick to break out of
// the span, no newline, no control or direction character to reorder the
// message around it, no @ to ping anyone. Inside a code span Discord shows
// links, mentions and <t:…> as plain text. Refusals that echo are private.
func sanitize(s string) string {
	s = strings.NewReplacer("`", "'", "@", "＠", "\n", " ", "\r", " ").Replace(stripControls(s))
	if r := []rune(s); len(r) > maxEcho {
		s = string(r[:maxEcho]) + "…"
	}
	return s
}

// stripControls drops control characters and the bidirectional controls
// (U+061C, U+200E/F, U+202A–202E, U+2066–2069), which can make a message
// read in another order than it was written. Newlines and tabs become
// spaces.
func stripControls(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case isBidiControl(r) || unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

func isBidiControl(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' || ('\u202a' <= r && r <= '\u202e') || ('\u2066' <= r && r <= '\u2069')
}

// nameMarkup defuses what a posted name could do: mentions (<@…>, <#…>,
// @everyone) and timestamps (<t:…>) lose their <  and @, Markdown (bold,
// italics, strike, spoilers, code, masked links) is escaped, and so is a
// backslash, which would otherwise escape the escapes (\*x\* is live
// italics) or, at the end of a name, the bold around it.
var nameMarkup = strings.NewReplacer(
	`\`, `\\`, "@", "＠", "<", "＜", "`", "'",
	"*", `\*`, "_", `\_`, "~", `\~`, "|", `\|`, "[", `\[`, "]", `\]`, "#", `\#`, ">", `\>`,
)

// postableName makes a member's name for something (an event) safe to post
// in a channel: without links, which it refuses (a masked link needs one,
// and a bare one would be live), and with mentions, timestamps and
// Markdown defused. The caller has stripped the controls.
func postableName(name string) (string, error) {
	lower := strings.ToLower(name)
	if strings.Contains(lower, "://") || strings.Contains(lower, "discord.gg/") || strings.Contains(lower, "www.") {
		return "", bot.Refuse("error.name_link")
	}
	return nameMarkup.Replace(name), nil
}
