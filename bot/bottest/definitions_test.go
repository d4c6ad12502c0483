package bottest

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// The checks run over the real definitions in the tests of commands and
// e2e; these tests show that each check finds what it is for.

func TestValidateRejects(t *testing.T) {
	ko := func(s string) *map[discordgo.Locale]string { return &map[discordgo.Locale]string{discordgo.Korean: s} }
	long := strings.Repeat("가", 33)
	for _, tc := range []struct {
		name string
		cmd  *discordgo.ApplicationCommand
		want string
	}{
		{"Uppercase", &discordgo.ApplicationCommand{Name: "Maze", Description: "d"}, "must be lowercase"},
		{"Space", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: ko("오늘의 미로")}, `"오늘의 미로" is not a valid name`},
		{"TooLong", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: ko(long)}, "is not a valid name"},
		{"Punctuation", &discordgo.ApplicationCommand{Name: "maze!", Description: "d"}, "is not a valid name"},
		{"Empty", &discordgo.ApplicationCommand{Name: "", Description: "d"}, "is not a valid name"},
		{"UppercaseGreek", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: &map[discordgo.Locale]string{discordgo.Greek: "Λαβύρινθος"}}, "must be lowercase"},
		{"NoDescription", &discordgo.ApplicationCommand{Name: "maze"}, "has 0 characters"},
		{"LongDescription", &discordgo.ApplicationCommand{Name: "maze", Description: "d", DescriptionLocalizations: ko(strings.Repeat("미", 101))}, "has 101 characters"},
		{"UnknownLocale", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: &map[discordgo.Locale]string{"kr": "미로"}}, `"kr" is not a Discord locale`},
		{"MenuDescription", &discordgo.ApplicationCommand{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand, Description: "d"}, "has no description"},
		{"MenuTooLong", &discordgo.ApplicationCommand{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand, NameLocalizations: ko(long)}, "not a valid context-menu name"},
		{"LongChoice", &discordgo.ApplicationCommand{Name: "maze", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "render", Description: "d", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "auto", Value: "auto", NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: strings.Repeat("자", 101)}},
			}},
		}}, "has 101 characters"},
		{"SameLocalizedName", &discordgo.ApplicationCommand{Name: "maze", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "size", Description: "d", NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: "크기"}},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "height", Description: "d", NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: "크기"}},
		}}, `two names "크기" in locale "ko"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate([]*discordgo.ApplicationCommand{tc.cmd})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate=%v, want %q", err, tc.want)
			}
		})
	}
	// Names Discord accepts.
	ok := []*discordgo.ApplicationCommand{
		{Name: "maze-2_x", Description: "d", NameLocalizations: &map[discordgo.Locale]string{discordgo.Korean: "미로2", discordgo.Hindi: "भूलभुलैया", discordgo.Thai: "เขาวงกต", discordgo.Japanese: "迷路"}},
		{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand, NameLocalizations: ko("이 미로 풀기")},
	}
	if err := Validate(ok); err != nil {
		t.Fatalf("Validate(valid)=%v", err)
	}
}

// TestLocales: every locale a language serves is one Discord knows.
func TestLocales(t *testing.T) {
	if err := CheckLocales(); err != nil {
		t.Fatal(err)
	}
}

// TestMentionWords: how a message's words are read as a command's name,
// with a Korean particle after it or not, and what is no command.
func TestMentionWords(t *testing.T) {
	// A particle after a name must be the one the name takes.
	for word, want := range map[string]string{"미로로": "", "미로에서": "", "순위표를": "", "미로으로": "미로 takes 로, not 으로", "도움말를": "도움말 takes 을, not 를", "미로들": "no such name"} {
		_, err := withParticle(word, map[string]bool{"미로": true, "순위표": true, "도움말": true})
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("withParticle(%q)=%v, want %q", word, err, want)
		}
	}
	for _, text := range []string{"Asia/Seoul", "HH:MM", "24/7"} {
		if mention().MatchString(text) {
			t.Errorf("%q read as a command", text)
		}
	}
	if m := mention().FindStringSubmatch("use **/daily today** now"); m == nil || m[1] != "daily" || m[2] != "today" {
		t.Errorf("mention=%q", m)
	}
}
