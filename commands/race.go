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
	Pend(ctx context.Context, guildID, channelID, userID string, maze mazecore.ID) error
}

// Race launches Maze Arena: the Entry Point command, on today's daily
// (the launcher may pick another maze in the lobby), and the Race button
// of a maze card, a daily post or an event post, on its maze. Both answer
// LAUNCH_ACTIVITY. Without Races (no DISCORD_CLIENT_SECRET) there is no
// Entry Point, and the button says why it does nothing.
type Race struct {
	races   Races
	dailies *contest.Dailies
}

// NewRace launches through races (nil: Maze Arena is off) on the dailies'
// mazes.
func NewRace(races Races, dailies *contest.Dailies) *Race {
	return &Race{races: races, dailies: dailies}
}

func (f *Race) Commands() []bot.Command {
	if f.races == nil {
		return nil
	}
	return []bot.Command{{
		Definition: serverOnly(&discordgo.ApplicationCommand{Name: "race", Type: bot.PrimaryEntryPoint}),
		Handle:     f.handleEntryPoint,
	}}
}

func (f *Race) Components() []bot.Component {
	return []bot.Component{{Prefix: customid.RacePrefix, Handle: f.handleButton}}
}

// handleEntryPoint opens the lobby on today's daily of the server.
func (f *Race) handleEntryPoint(ctx context.Context, in *bot.Interaction) error {
	if in.GuildID == "" {
		return bot.Refuse("error.race_not_here")
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
	case in.GuildID == "":
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
	if err := f.races.Pend(ctx, in.GuildID, in.ChannelID, in.UserID(), id); err != nil {
		return fmt.Errorf("race on %s: %w", id, err)
	}
	if err := in.Respond.Launch(ctx); err != nil {
		return fmt.Errorf("race on %s: %w", id, err)
	}
	return nil
}
