package commands

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
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

// size reads a maze side option, from mazecore.MinSize to max tiles, or
// fallback when it is absent. An even size is rounded up, and the notice
// says so; a size out of range is refused, with why the range is what it
// is (why, a message). The option is "size" or "height", named as the
// member's picker names it.
func (o options) size(name string, fallback, max int, why string) (side int, notice lang.Msg, err error) {
	raw, ok := o.int(name)
	if !ok {
		return fallback, lang.Msg{}, nil
	}
	clamped := raw
	if clamped > int64(mazecore.MaxSize) || clamped < -1 {
		clamped = mazecore.MaxSize + 1 // out of range either way; keeps the int conversion safe
	}
	// Every command's size option has /maze's name (lang.Localize checks
	// the names per command; these two are alike everywhere).
	option := lang.M("cmd.maze." + name + ".name")
	side, rounded, err := mazecore.NormalizeSize(int(clamped), max)
	if err != nil {
		return 0, lang.Msg{}, refuseWith(err, "error.size_range", lang.Args{"Option": option, "Min": mazecore.MinSize, "Max": max, "Asked": raw, "Why": lang.M(why)})
	}
	if rounded {
		notice = lang.M("maze.rounded", lang.Args{"Option": option, "Asked": raw, "Rounded": side})
	}
	return side, notice, nil
}

// algorithmChoices names the algorithms as the picker lists them.
func algorithmChoices() lang.List {
	var names lang.List
	for _, a := range mazecore.Algorithms {
		names = append(names, lang.M("choice.algorithm."+a.String()))
	}
	return names
}

// algorithm reads an algorithm option, or fallback when it is absent.
func (o options) algorithm(fallback mazecore.Algorithm) (mazecore.Algorithm, error) {
	name := o.string("algorithm", "")
	if name == "" {
		return fallback, nil
	}
	algo, err := mazecore.ParseAlgorithm(name)
	if err != nil {
		return 0, refuseWith(err, "error.unknown_algorithm", lang.Args{"Name": sanitize(name), "Choices": algorithmChoices()})
	}
	return algo, nil
}

// levelAndLoops reads the difficulty and loops options, each of them
// falling back to the given value when absent.
func (o options) levelAndLoops(level mazecore.Level, loops int) (mazecore.Level, int, error) {
	if name := o.string("difficulty", ""); name != "" {
		var err error
		if level, err = mazecore.ParseLevel(name); err != nil {
			var choices lang.List
			for _, n := range mazecore.LevelNames() {
				choices = append(choices, lang.M("choice.difficulty."+n))
			}
			return 0, 0, refuseWith(err, "error.unknown_difficulty", lang.Args{"Name": sanitize(name), "Choices": choices})
		}
	}
	if n, ok := o.int("loops"); ok {
		if n < 0 || n > mazecore.MaxLoops {
			return 0, 0, refuse("error.loops_range", lang.Args{"Max": mazecore.MaxLoops, "Asked": n})
		}
		loops = int(n)
	}
	return level, loops, nil
}

// language reads the language option: a language code, or fallback when
// it is absent.
func (o options) language(fallback string) (string, error) {
	code := o.string(lang.LanguageOption, "")
	if code == "" {
		return fallback, nil
	}
	if _, ok := lang.Lookup(code); !ok {
		return "", refuse("error.unknown_language", lang.Args{"Name": sanitize(code), "Choices": languageNames()})
	}
	return code, nil
}

// languageOption picks the language of a server's posts.
func languageOption(description string) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: lang.LanguageOption, Description: description, Choices: lang.LanguageChoices()}
}

func intOption(name, description string, min, max float64) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: description,
		MinValue: &min, MaxValue: max,
	}
}

// algorithmOption is the algorithm choice of a command.
func algorithmOption(description string, required bool) *discordgo.ApplicationCommandOption {
	choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(mazecore.Algorithms))
	for _, a := range mazecore.Algorithms {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: a.Title(), Value: a.String()})
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "algorithm", Description: description, Choices: choices, Required: required}
}

// difficultyOption and loopsOption shape a maze beyond its algorithm and
// size, the same way wherever a command makes one.
func difficultyOption(description string) *discordgo.ApplicationCommandOption {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, name := range mazecore.LevelNames() {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: name})
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "difficulty", Description: description, Choices: choices}
}

func loopsOption(description string) *discordgo.ApplicationCommandOption {
	return intOption("loops", description, 0, mazecore.MaxLoops)
}

// guildChannel is the channel option, or fallback when it is absent,
// refused unless it is a channel of the invoking server. Discord resolves
// an option's channel (resolved.channels) only among those the member can
// pick in the server the command is used in; a channel it did not resolve,
// or resolved in another server, comes only from a forged interaction.
func guildChannel(in *Interaction, opts options, fallback string) (string, error) {
	id := opts.string("channel", "")
	if id == "" {
		return fallback, nil
	}
	var ch *discordgo.Channel
	if res := in.ApplicationCommandData().Resolved; res != nil {
		ch = res.Channels[id]
	}
	if ch == nil || (ch.GuildID != "" && ch.GuildID != in.GuildID) {
		return "", refuse("error.foreign_channel")
	}
	return id, nil
}

// channelOption picks a text or announcement channel.
func channelOption(description string, required bool) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Description: description, Required: required,
		ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews},
	}
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

// requireManager refuses DMs and members without Manage Server (or
// Administrator, which implies it), as Discord computed for this channel:
// the command's default permissions hide it, but overrides can change that.
// refusal is the message that says what needs the permission and what the
// member can do instead.
func requireManager(in *Interaction, refusal string) error {
	if in.GuildID == "" || in.Member == nil {
		return refuse("error.manager_dm")
	}
	if in.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
		return refuse(refusal)
	}
	return nil
}
