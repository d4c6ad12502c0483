package commands

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/contest"
	"mazebot/mazecore"
)

// solveMessageCommandName is the context-menu entry on messages.
const solveMessageCommandName = "Solve this maze"

func (f *Mazes) handleSolve(ctx context.Context, in *Interaction) error {
	var (
		id  mazecore.ID
		err error
	)
	if text := commandOptions(in).string("id", ""); text != "" {
		id, err = parseMazeID(text)
	} else {
		id, err = f.lastMaze(ctx, in)
	}
	if err != nil {
		return err
	}
	return f.sendSolution(ctx, in, id, false)
}

func (f *Mazes) handleSolveButton(ctx context.Context, in *Interaction) error {
	_, text, _ := strings.Cut(in.MessageComponentData().CustomID, ":")
	id, err := parseMazeID(text)
	if err != nil {
		return err
	}
	return f.sendSolution(ctx, in, id, true)
}

func (f *Mazes) handleSolveMessage(ctx context.Context, in *Interaction) error {
	data := in.ApplicationCommandData()
	var target *discordgo.Message
	if data.Resolved != nil {
		target = data.Resolved.Messages[data.TargetID]
	}
	id, ok := mazeIDInMessage(target, in.AppID)
	if !ok {
		return refuse("error.not_a_maze_message")
	}
	return f.sendSolution(ctx, in, id, true)
}

// parseMazeID parses an ID a member typed and checks it is drawable here.
func parseMazeID(text string) (mazecore.ID, error) {
	id, err := mazecore.Parse(text)
	if err != nil {
		return id, refuseWith(err, "error.bad_maze_id", lang.Args{"Text": sanitize(text)})
	}
	if id.Width > PNGMaxSide || id.Height > PNGMaxSide {
		return id, refuse("error.maze_too_big_to_draw", lang.Args{
			"ID": id.String(), "Size": sizeOf(id),
			"Max": lang.M("format.size", lang.Args{"Width": PNGMaxSide, "Height": PNGMaxSide}),
		})
	}
	return id, nil
}

// mazeIDInMessage finds the maze a message of ours shows: from its Solve
// button, else from the ID in its text.
func mazeIDInMessage(m *discordgo.Message, appID string) (mazecore.ID, bool) {
	if m == nil || m.Author == nil || m.Author.ID != appID {
		return mazecore.ID{}, false
	}
	for _, row := range m.Components {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range r.Components {
			if b, ok := c.(*discordgo.Button); ok {
				if text, found := strings.CutPrefix(b.CustomID, solvePrefix+":"); found {
					if id, err := mazecore.Parse(text); err == nil {
						return id, true
					}
				}
			}
		}
	}
	if match := idInContent.FindStringSubmatch(m.Content); match != nil {
		if id, err := mazecore.Parse(match[1]); err == nil {
			return id, true
		}
	}
	return mazecore.ID{}, false
}

// heldMessage explains why a maze's solution is held back, and when it
// opens, asked in guildID.
func heldMessage(h contest.Hold, id mazecore.ID, guildID string) lang.Msg {
	switch {
	case h.Daily != nil:
		which := "held.daily_today"
		if h.Daily.GuildID != guildID {
			which = "held.daily_elsewhere"
		}
		return lang.M(which, lang.Args{"Opens": h.Until().Unix(), "Zone": h.Daily.Zone.String()})
	case h.Closing:
		return lang.M("held.event_closing", lang.Args{"ID": id.String(), "Name": h.Event.Name, "Channel": h.Event.ChannelID})
	}
	return lang.M("held.event_running", lang.Args{"ID": id.String(), "Name": h.Event.Name, "Opens": h.Until().Unix(), "Channel": h.Event.ChannelID})
}

// sendSolution answers with the solution of id, unless the embargo holds
// it back.
func (f *Mazes) sendSolution(ctx context.Context, in *Interaction, id mazecore.ID, ephemeral bool) error {
	hold, err := f.embargo.Held(ctx, id, in.GuildID)
	if err != nil {
		return err
	}
	if hold.Held() {
		return &UserError{Msg: heldMessage(hold, id, in.GuildID)}
	}
	l := in.Lang()
	build := func() (Reply, error) {
		m, err := generate(id)
		if err != nil {
			return Reply{}, err
		}
		return solutionMessage(l, m, ephemeral)
	}
	if !pictured(id, renderAuto) {
		reply, err := build()
		if err != nil {
			return err
		}
		return answer(ctx, in, reply)
	}
	return f.render.answer(ctx, in, picture{key: solutionKey(l, id), big: bigRender(id, renderPNG), ephemeral: ephemeral}, build)
}
