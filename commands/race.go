package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
)

// Races is the Activity's side of a launch (*arena.Server): the maze a
// member launched Maze Arena on in a channel, which the room of the
// instance Discord opens there races.
type Races interface {
	// Pend: card says whether the bot may post the race's result card in
	// the channel; where it may not, followup is the launch's interaction
	// token, for the card to follow the launch ("" for none).
	Pend(ctx context.Context, guildID, channelID, userID string, maze mazecore.ID, card bool, followup string) error
}

// Race launches Maze Arena: the Entry Point command, on today's daily
// (the launcher may pick another maze in the lobby), and the Race button
// of a maze card, a daily post or an event post, on its maze. Both answer
// LAUNCH_ACTIVITY. Without Races (no DISCORD_CLIENT_SECRET) there is no
// Entry Point, and the button says why it does nothing.
//
// Where: Discord runs an Activity in a server's channel, and in a DM or
// group DM only for an app the member installed to their account
// (racesHere). The Entry Point is offered wherever the other commands
// are; outside a server that added the bot it races a new maze (there is
// no daily), and a launch where no race can run is refused privately,
// saying why, before Discord is asked.
type Race struct {
	races   Races
	dailies *contest.Dailies
	seed    func() uint64
}

// NewRace launches through races (nil: Maze Arena is off) on the dailies'
// mazes, or a new maze of seed where there is no daily.
func NewRace(races Races, dailies *contest.Dailies, seed func() uint64) *Race {
	return &Race{races: races, dailies: dailies, seed: seed}
}

// racesHere tells whether Maze Arena can launch where in came from: in a
// server's channel, or in a DM or group DM through the member's own
// install of the app (USER_INSTALL among the authorizing integration
// owners), as Discord runs Activities outside servers only for those.
func racesHere(in *bot.Interaction) bool {
	if in.GuildID != "" {
		return true
	}
	_, own := in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall]
	return own
}

// cardHere tells whether the bot may post in in's channel: a server that
// added it, or its own DM with the member; not a group DM, nor a server
// only the member's own install reaches, where it is no member.
func cardHere(in *bot.Interaction) bool {
	return serverInstalled(in) || (in.GuildID == "" && in.Context == discordgo.InteractionContextBotDM)
}

// serverInstalled tells whether the server in came from added the bot
// (its daily is there); false outside a server.
func serverInstalled(in *bot.Interaction) bool {
	_, ok := in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return in.GuildID != "" && (ok || len(in.AuthorizingIntegrationOwners) == 0)
}

func (f *Race) Commands() []bot.Command {
	if f.races == nil {
		return nil
	}
	return []bot.Command{{
		Definition: anywhere(&discordgo.ApplicationCommand{Name: "race", Type: bot.PrimaryEntryPoint}),
		Handle:     f.handleEntryPoint,
	}}
}

func (f *Race) Components() []bot.Component {
	return []bot.Component{{Prefix: customid.RacePrefix, Handle: f.handleButton}}
}

// handleEntryPoint opens the lobby on today's daily of the server, or,
// where there is none (a DM, a group DM, a server that never added the
// bot), on a new maze of the daily's default kind.
func (f *Race) handleEntryPoint(ctx context.Context, in *bot.Interaction) error {
	if !racesHere(in) {
		return bot.Refuse("error.race_not_here")
	}
	if !serverInstalled(in) {
		return f.launch(ctx, in, mazecore.ID{Algorithm: contest.DefaultAlgorithm, Width: contest.DefaultSize, Height: contest.DefaultSize, Seed: f.seed()})
	}
	day, err := f.dailies.Show(ctx, in.GuildID)
	if err != nil {
		return fmt.Errorf("race: today's daily: %w", err)
	}
	return f.launch(ctx, in, day.MazeID)
}

// handleButton launches the race on the button's maze.
func (f *Race) handleButton(ctx context.Context, in *bot.Interaction) error {
	text := customid.Rest(in.MessageComponentData().CustomID)
	id, err := mazecore.Parse(text)
	switch {
	case err != nil:
		return bot.RefuseWith(err, "error.play_bad_id", lang.Args{"Text": sanitize(text)})
	case f.races == nil:
		return bot.Refuse("error.race_off")
	case !racesHere(in):
		return bot.Refuse("error.race_not_here")
	case !views.Raceable(id):
		return bot.Refuse("error.race_too_big", lang.Args{"Max": views.Side(contest.EventMaxSide), "Size": views.Size(id)})
	}
	return f.launch(ctx, in, id)
}

// launch tells the Activity's rooms the maze, then opens the Activity.
func (f *Race) launch(ctx context.Context, in *bot.Interaction, id mazecore.ID) error {
	if f.races == nil {
		return bot.Refuse("error.race_off")
	}
	card, followup := cardHere(in), ""
	if !card && in.GuildID == "" {
		// A DM or group DM through the member's own install: Discord
		// shows the launch's followups there, for 15 minutes. (In a server
		// only their install reaches, a large one's would be private.)
		followup = in.Token
	}
	if err := f.races.Pend(ctx, in.GuildID, in.ChannelID, in.UserID(), id, card, followup); err != nil {
		return fmt.Errorf("race on %s: %w", id, err)
	}
	if err := in.Respond.Launch(ctx); err != nil {
		// Discord refused to open it here: the member hears so, privately.
		return bot.RefuseWith(fmt.Errorf("race on %s: %w", id, err), "error.race_launch_refused")
	}
	return nil
}
