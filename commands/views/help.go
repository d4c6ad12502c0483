package views

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/render"
)

// Help is /help's answer, privately: three examples to start with, and
// buttons that try them (the daily only in a server that added mazebot),
// then the reference.
func Help(l *lang.Lang, server bool) bot.Reply {
	buttons := []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("help.try_maze"), Style: discordgo.PrimaryButton, CustomID: customid.Help(customid.ExampleMaze), Emoji: &discordgo.ComponentEmoji{Name: "🧩"}},
		discordgo.Button{Label: l.T("help.try_play"), Style: discordgo.SecondaryButton, CustomID: customid.Help(customid.ExamplePlay), Emoji: &discordgo.ComponentEmoji{Name: "🎮"}},
	}
	if server {
		buttons = append(buttons, discordgo.Button{Label: l.T("help.try_daily"), Style: discordgo.SecondaryButton, CustomID: customid.Help(customid.ExampleDaily), Emoji: &discordgo.ComponentEmoji{Name: "📅"}})
	}
	reply := card(nil,
		text("## "+l.T("help.title")+"\n"+l.T("help.quick")),
		[]part{discordgo.ActionsRow{Components: buttons}, discordgo.Separator{}},
		text(l.T("help.body", lang.Args{
			"Algorithms": AlgorithmChoices(), "Renders": RenderChoices(), "MinSize": mazecore.MinSize, "MaxSize": PNGMaxSide,
			"AutoEmojiWidth": AutoEmojiMaxWidth, "EmojiMax": MaxEmojiSide,
			"Candidates": lang.Number(mazecore.Candidates), "DifficultyMax": DifficultyMaxSide, "Languages": LanguageNames(),
		})))
	reply.Ephemeral = true
	return reply
}

// AlgorithmChoices names the algorithms as the picker lists them.
func AlgorithmChoices() lang.List {
	var names lang.List
	for _, a := range mazecore.Algorithms {
		names = append(names, lang.M("choice.algorithm."+a.String()))
	}
	return names
}

// RenderAuto is /maze's render choice that draws a maze as emoji when it
// fits a phone's row and as a picture beyond.
const RenderAuto = "auto"

// RenderModes are /maze's render choices: auto first, then the formats of
// render's table offered in Discord (Chat), by their names.
var RenderModes = func() []string {
	modes := []string{RenderAuto}
	for _, f := range render.Formats {
		if f.Chat {
			modes = append(modes, f.Name)
		}
	}
	return modes
}()

// RenderChoices names the render choices as /maze's option lists them,
// for the help and the refusal of an unknown one.
func RenderChoices() lang.List {
	var names lang.List
	for _, m := range RenderModes {
		names = append(names, lang.M("choice.render."+m))
	}
	return names
}

// LanguageNames lists the languages mazebot speaks, each by its own name.
func LanguageNames() lang.List {
	var names lang.List
	for _, l := range lang.Languages() {
		names = append(names, lang.Func(func(*lang.Lang) string { return l.Name() }))
	}
	return names
}
