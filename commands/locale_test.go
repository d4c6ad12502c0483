package commands

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// TestKoreanDefinitions: every built-in command, option and choice has its
// Korean text, within Discord's limits, so the picker is never half
// translated.
func TestKoreanDefinitions(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, def := range e.router.Definitions() {
		if def.Type == discordgo.MessageApplicationCommand {
			if def.NameLocalizations == nil || (*def.NameLocalizations)[discordgo.Korean] == "" {
				t.Errorf("%q has no Korean name", def.Name)
			}
			continue
		}
		if def.DescriptionLocalizations == nil {
			t.Errorf("/%s has no Korean description", def.Name)
		} else {
			checkKorean(t, "/"+def.Name, (*def.DescriptionLocalizations)[discordgo.Korean], 100)
		}
		checkKoreanOptions(t, "/"+def.Name, def.Options)
	}
}

func checkKoreanOptions(t *testing.T, path string, opts []*discordgo.ApplicationCommandOption) {
	t.Helper()
	for _, o := range opts {
		p := path + " " + o.Name
		checkKorean(t, p, o.DescriptionLocalizations[discordgo.Korean], 100)
		for _, c := range o.Choices {
			checkKorean(t, fmt.Sprintf("%s choice %v", p, c.Value), c.NameLocalizations[discordgo.Korean], 100)
		}
		checkKoreanOptions(t, p, o.Options)
	}
}

func checkKorean(t *testing.T, what, text string, limit int) {
	t.Helper()
	if n := utf8.RuneCountInString(text); n == 0 || n > limit {
		t.Errorf("%s: Korean text %q has %d characters, want 1..%d", what, text, n, limit)
	}
}

func TestHelpSpeaksKorean(t *testing.T) {
	e := newEnv(t, envOptions{})
	for locale, want := range map[string]string{"ko": "새 미로", "en-US": "a fresh maze", "fr": "a fresh maze"} {
		ix := slash(t, "help", nil)
		ix.Locale = discordgo.Locale(locale)
		rec := e.send(t, ix)
		if len(rec.replies) != 1 || len(rec.replies[0].Embeds) != 1 {
			t.Fatalf("%s: replies=%+v", locale, rec.replies)
		}
		desc := rec.replies[0].Embeds[0].Description
		if !strings.Contains(desc, want) || strings.Contains(desc, "%!") || !strings.Contains(desc, "`digging`") {
			t.Fatalf("%s: help %q, want %q with the algorithms filled in", locale, desc, want)
		}
		if n := utf8.RuneCountInString(desc); n > 4096 {
			t.Fatalf("%s: help is %d characters, above an embed's 4096", locale, n)
		}
	}
}
