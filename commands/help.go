package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/mazecore"
)

// Help is /help.
type Help struct{}

func (Help) Commands() []Command {
	return []Command{{
		Definition: &discordgo.ApplicationCommand{Name: "help", Description: "How to use mazebot"},
		Handle:     handleHelp,
	}}
}

func (Help) Components() []Component { return nil }

func handleHelp(ctx context.Context, in *Interaction) error {
	l := in.Lang()
	return in.Respond.Reply(ctx, Reply{Ephemeral: true, Embeds: []*discordgo.MessageEmbed{{
		Title: l.T("help.title"),
		Description: l.T("help.body", lang.Args{
			"Algorithms": algorithmChoices(), "MinSize": mazecore.MinSize, "MaxSize": PNGMaxSide,
			"AutoEmojiWidth": AutoEmojiMaxWidth, "EmojiMax": maxEmojiSide,
			"Candidates": mazecore.Candidates, "DifficultyMax": DifficultyMaxSide, "Languages": languageNames(),
		}),
		Color: 0x2b9348,
	}}})
}

// languageNames lists the languages mazebot speaks, each by its own name.
func languageNames() lang.List {
	var names lang.List
	for _, l := range lang.Languages() {
		names = append(names, lang.Func(func(*lang.Lang) string { return l.Name() }))
	}
	return names
}
