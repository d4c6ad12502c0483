package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/views"
)

// Help is /help.
type Help struct{}

func (Help) Commands() []bot.Command {
	return []bot.Command{{
		Definition: anywhere(&discordgo.ApplicationCommand{Name: "help"}),
		Handle: func(ctx context.Context, in *bot.Interaction) error {
			return in.Respond.Reply(ctx, views.Help(in.Lang()))
		},
	}}
}

func (Help) Components() []bot.Component { return nil }
