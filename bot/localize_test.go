package bot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/lang"
)

// The checks of the real definitions over the catalogs run in package
// commands (TestDefinitionsLocalized), with the checkers of bot/bottest;
// these tests hold what Localize does on its own.

// TestLocalizeMissing: a command the catalogs do not know is reported,
// and the rest still localized: the English description filled in, every
// other language's name and description, and the same again when it runs
// twice (the sync may run again).
func TestLocalizeMissing(t *testing.T) {
	help := &discordgo.ApplicationCommand{Name: "help"}
	cmds := []*discordgo.ApplicationCommand{help, {Name: "teleport", Description: "Go elsewhere"}}
	err := Localize(cmds)
	if err == nil || !strings.Contains(err.Error(), "cmd.teleport.name") || !strings.Contains(err.Error(), "cmd.teleport.description") {
		t.Fatalf("Localize=%v, want the missing teleport IDs", err)
	}
	if help.Description != lang.English.T("cmd.help.description") || (*help.NameLocalizations)[discordgo.Korean] != lang.For("ko").T("cmd.help.name") {
		t.Fatalf("the known command was not localized: %+v", help)
	}
	if _, ok := (*help.NameLocalizations)[discordgo.EnglishUS]; ok {
		t.Error("an English localization; the definition is the English")
	}
	once, _ := json.Marshal(help)
	_ = Localize([]*discordgo.ApplicationCommand{help})
	if twice, _ := json.Marshal(help); string(twice) != string(once) {
		t.Errorf("Localize is not idempotent:\n%s\n%s", once, twice)
	}
}

func TestLanguageChoices(t *testing.T) {
	choices := LanguageChoices()
	if len(choices) != len(lang.Languages()) || choices[0].Value != "en" || choices[1].Name != "한국어" {
		t.Fatalf("LanguageChoices=%+v", choices)
	}
}
