package views

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/lang"
	"mazebot/mazecore"
)

// Help is /help's answer, privately.
func Help(l *lang.Lang) bot.Reply {
	return bot.Reply{Ephemeral: true, Embeds: []*discordgo.MessageEmbed{{
		Title: l.T("help.title"),
		Description: l.T("help.body", lang.Args{
			"Algorithms": AlgorithmChoices(), "MinSize": mazecore.MinSize, "MaxSize": PNGMaxSide,
			"AutoEmojiWidth": AutoEmojiMaxWidth, "EmojiMax": MaxEmojiSide,
			"Candidates": mazecore.Candidates, "DifficultyMax": DifficultyMaxSide, "Languages": LanguageNames(),
		}),
		Color: 0x2b9348,
	}}}
}

// AlgorithmChoices names the algorithms as the picker lists them.
func AlgorithmChoices() lang.List {
	var names lang.List
	for _, a := range mazecore.Algorithms {
		names = append(names, lang.M("choice.algorithm."+a.String()))
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
