package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
)

// Help is /help: a quick start with buttons that try its examples, then
// the reference.
type Help struct {
	mazes *Mazes
	play  *Play
	daily *Daily
}

// NewHelp tries the examples on the features they show.
func NewHelp(mazes *Mazes, play *Play, daily *Daily) *Help {
	return &Help{mazes: mazes, play: play, daily: daily}
}

func (f *Help) Commands() []bot.Command {
	return []bot.Command{{
		Definition: anywhere(&discordgo.ApplicationCommand{Name: "help"}),
		Handle: func(ctx context.Context, in *bot.Interaction) error {
			return in.Respond.Reply(ctx, views.Help(in.Lang(), bot.ServerInstalled(in)))
		},
	}}
}

func (f *Help) Components() []bot.Component {
	return []bot.Component{{Prefix: customid.HelpPrefix, Handle: f.handleExample}}
}

// handleExample tries one of the quick start's examples for the member,
// privately.
func (f *Help) handleExample(ctx context.Context, in *bot.Interaction) error {
	switch customid.Rest(in.MessageComponentData().CustomID) {
	case customid.ExampleMaze:
		return f.mazes.show(ctx, in, f.mazes.defaultRequest(), true)
	case customid.ExamplePlay:
		return f.play.start(ctx, in, f.mazes.defaultRequest().id)
	case customid.ExampleDaily:
		return bot.Stack(f.daily.today, bot.GuildOnly("error.daily_dm"))(ctx, in)
	}
	return errInvalidButton
}
