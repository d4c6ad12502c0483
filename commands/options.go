package commands

import (
	"fmt"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
)

// Where the commands can be used. mazebot can be added to a server (a
// guild install) or by a member for themselves (a user install), which
// lets them use it in DMs, group DMs and servers that never added it. A
// maze, its solution and help work anywhere; the daily, events and
// leaderboards are a server's, and need it to have added the bot.
var (
	anyInstall    = &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	serverInstall = &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	anyContext    = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	serverContext = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
)

// anywhere and serverOnly say where a command is offered.
func anywhere(c *discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
	c.IntegrationTypes, c.Contexts = anyInstall, anyContext
	return c
}

func serverOnly(c *discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
	c.IntegrationTypes, c.Contexts = serverInstall, serverContext
	return c
}

// The options several commands share, defined once: the same name,
// choices and range wherever a command makes a maze.

// algorithmOption is the algorithm choice of a command.
func algorithmOption(required bool) *discordgo.ApplicationCommandOption {
	choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(mazecore.Algorithms))
	for _, a := range mazecore.Algorithms {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Value: a.String()})
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "algorithm", Choices: choices, Required: required}
}

func intOption(name string, min, max float64) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, MinValue: &min, MaxValue: max}
}

// sizeOption is a maze side in tiles, up to max.
func sizeOption(name string, max int) *discordgo.ApplicationCommandOption {
	return intOption(name, mazecore.MinSize, float64(max))
}

// difficultyOption and loopsOption shape a maze beyond its algorithm and
// size, the same way wherever a command makes one.
func difficultyOption() *discordgo.ApplicationCommandOption {
	return choicesOption("difficulty", mazecore.LevelNames())
}

// choicesOption is a string option of those choices, named by the
// catalog's choice.<name>.<value>.
func choicesOption(name string, values []string) *discordgo.ApplicationCommandOption {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, v := range values {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Value: v})
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Choices: choices}
}

func loopsOption() *discordgo.ApplicationCommandOption {
	return intOption("loops", 0, mazecore.MaxLoops)
}

// languageOption picks the language of a server's posts.
func languageOption() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: bot.LanguageOption, Choices: bot.LanguageChoices()}
}

// channelOption picks a text or announcement channel.
func channelOption(required bool) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Required: required,
		ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews},
	}
}

// maxChoices is the most choices Discord takes in a list or an
// autocomplete answer.
const maxChoices = 25

func stringOption(name string, maxLength int, required bool) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, MaxLength: maxLength, Required: required}
}

func roleOption(name string) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionRole, Name: name}
}

func boolOption(name string) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: name}
}

func subcommand(name string, options ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Options: options}
}

// The checks of the options' values, each refusing with what is allowed.

// side reads a maze side option, from mazecore.MinSize to max tiles, or
// fallback when it is absent (nil). An even size is rounded up, and the
// notice says so; a size out of range is refused, with why the range is
// what it is (why, a message). The option is "size" or "height", named as
// the member's picker names it.
func side(name string, raw *int64, fallback, max int, why string) (side int, notice lang.Msg, err error) {
	if raw == nil {
		return fallback, lang.Msg{}, nil
	}
	clamped := *raw
	if clamped > int64(mazecore.MaxSize) || clamped < -1 {
		clamped = mazecore.MaxSize + 1 // out of range either way; keeps the int conversion safe
	}
	// Every command's size option has /maze's name (bot.Localize checks
	// the names per command; these two are alike everywhere).
	option := lang.M("cmd.maze." + name + ".name")
	side, rounded, err := mazecore.NormalizeSize(int(clamped), max)
	if err != nil {
		return 0, lang.Msg{}, bot.RefuseWith(err, "error.size_range", lang.Args{"Option": option, "Min": mazecore.MinSize, "Max": max, "Asked": *raw, "Why": lang.M(why)})
	}
	if rounded {
		notice = lang.M("maze.rounded", lang.Args{"Option": option, "Asked": *raw, "Rounded": side})
	}
	return side, notice, nil
}

// algorithm reads an algorithm option, or fallback when it is absent.
func algorithm(name string, fallback mazecore.Algorithm) (mazecore.Algorithm, error) {
	if name == "" {
		return fallback, nil
	}
	algo, err := mazecore.ParseAlgorithm(name)
	if err != nil {
		return 0, bot.RefuseWith(err, "error.unknown_algorithm", lang.Args{"Name": sanitize(name), "Choices": views.AlgorithmChoices()})
	}
	return algo, nil
}

// levelAndLoops reads the difficulty and loops options, each of them
// falling back to the given value when absent.
func levelAndLoops(name string, raw *int64, level mazecore.Level, loops int) (mazecore.Level, int, error) {
	if name != "" {
		var err error
		if level, err = mazecore.ParseLevel(name); err != nil {
			var choices lang.List
			for _, n := range mazecore.LevelNames() {
				choices = append(choices, lang.M("choice.difficulty."+n))
			}
			return 0, 0, bot.RefuseWith(err, "error.unknown_difficulty", lang.Args{"Name": sanitize(name), "Choices": choices})
		}
	}
	if raw != nil {
		if *raw < 0 || *raw > mazecore.MaxLoops {
			return 0, 0, bot.Refuse("error.loops_range", lang.Args{"Max": mazecore.MaxLoops, "Asked": *raw})
		}
		loops = int(*raw)
	}
	return level, loops, nil
}

// language reads the language option: a language code, or fallback when
// it is absent.
func language(code, fallback string) (string, error) {
	if code == "" {
		return fallback, nil
	}
	if _, ok := lang.Lookup(code); !ok {
		return "", bot.Refuse("error.unknown_language", lang.Args{"Name": sanitize(code), "Choices": views.LanguageNames()})
	}
	return code, nil
}

// guildChannel is the channel option id, or fallback when it is absent,
// refused unless it is a channel of the invoking server. Discord resolves
// an option's channel (resolved.channels) only among those the member can
// pick in the server the command is used in; a channel it did not resolve,
// or resolved in another server, comes only from a forged interaction.
func guildChannel(in *bot.Interaction, id, fallback string) (string, error) {
	if id == "" {
		return fallback, nil
	}
	var ch *discordgo.Channel
	if res := in.ApplicationCommandData().Resolved; res != nil {
		ch = res.Channels[id]
	}
	if ch == nil || (ch.GuildID != "" && ch.GuildID != in.GuildID) {
		return "", bot.Refuse("error.foreign_channel")
	}
	return id, nil
}

// chooseGridLevel is chooseLevel for a maze on any grid, img the picture
// of an image shape (nil for any other); its cells were checked against
// views.DifficultyMaxCells on their way in.
func chooseGridLevel(id mazecore.ID, level mazecore.Level, img *mazecore.Image) (mazecore.ID, error) {
	chosen, err := mazecore.ChooseGrid(id, level, img)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("choose %s maze from %v: %w", level, id, err)
	}
	return chosen, nil
}

// levelFits refuses a level on a grid of more cells than a level is
// chosen among (views.DifficultyMaxCells).
func levelFits(level mazecore.Level, grid *mazecore.Grid) error {
	if level != mazecore.AnyLevel && grid.Len() > views.DifficultyMaxCells {
		return bot.Refuse("error.difficulty_too_many_cells", lang.Args{"Max": lang.Number(views.DifficultyMaxCells), "Candidates": lang.Number(mazecore.Candidates), "Asked": lang.Number(grid.Len())})
	}
	return nil
}

// chooseLevel is the maze of the level among the candidates of id, whose
// size and loops were checked on their way in.
func chooseLevel(id mazecore.ID, level mazecore.Level) (mazecore.ID, error) {
	chosen, err := mazecore.Choose(id, level)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("choose %s maze from %v: %w", level, id, err)
	}
	return chosen, nil
}
