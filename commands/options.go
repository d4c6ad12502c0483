package commands

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
)

// options indexes a slash command's options by name.
type options map[string]*discordgo.ApplicationCommandInteractionDataOption

func commandOptions(in *Interaction) options {
	opts := options{}
	for _, o := range in.ApplicationCommandData().Options {
		opts[o.Name] = o
	}
	return opts
}

func (o options) string(name, fallback string) string {
	if opt, ok := o[name]; ok {
		if s, ok := opt.Value.(string); ok {
			return s
		}
	}
	return fallback
}

// int reads an integer option. Discord sends integers as JSON numbers, which
// discordgo decodes as float64.
func (o options) int(name string) (int64, bool) {
	opt, ok := o[name]
	if !ok {
		return 0, false
	}
	switch v := opt.Value.(type) {
	case float64:
		return int64(v), true
	case int64:
		return v, true
	case int:
		return int64(v), true
	}
	return 0, false
}

func intOption(name, description string, min, max float64) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: description,
		MinValue: &min, MaxValue: max,
	}
}

// algorithmChoices lists the algorithms for a command option.
func algorithmChoices() []*discordgo.ApplicationCommandOptionChoice {
	choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(mazecore.Algorithms))
	for _, a := range mazecore.Algorithms {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: a.Title(), Value: a.String()})
	}
	return choices
}

// subcommand returns the subcommand's name and its options.
func subcommand(in *Interaction) (string, options) {
	opts := options{}
	data := in.ApplicationCommandData()
	if len(data.Options) == 0 || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return "", opts
	}
	sub := data.Options[0]
	for _, o := range sub.Options {
		opts[o.Name] = o
	}
	return sub.Name, opts
}
