package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

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
		return userErrorf("That message is not one of my mazes. Use “Solve this maze” on a message that shows a maze I posted, or /solve id:<maze ID>.")
	}
	return f.sendSolution(ctx, in, id, true)
}

// parseMazeID parses an ID a member typed and checks it is drawable here.
func parseMazeID(text string) (mazecore.ID, error) {
	id, err := mazecore.Parse(text)
	if err != nil {
		return id, userError(err, fmt.Sprintf("`%s` is not a maze ID. IDs look like `2840g1w3`: copy one from a maze message.", sanitize(text)))
	}
	if id.Width > PNGMaxSide || id.Height > PNGMaxSide {
		return id, userErrorf("Maze `%s` is %d×%d, bigger than the %d×%d I draw in Discord. The command line draws it: `mazebot maze --id %s --solve`.", id, id.Width, id.Height, PNGMaxSide, PNGMaxSide, id)
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
func heldMessage(h contest.Hold, id mazecore.ID, guildID string) string {
	switch {
	case h.Daily != nil:
		what := "today's daily challenge"
		if h.Daily.GuildID != guildID {
			what = "a server's running daily challenge"
		}
		return fmt.Sprintf("That's %s, so its solution stays hidden while the day runs: solutions open <t:%d:R> (at midnight, %s). Try it with **Play**!",
			what, h.Until().Unix(), h.Daily.Zone)
	case h.Closing:
		return fmt.Sprintf("Maze `%s` is the maze of the event **%s**, which is closing: its solution is posted in <#%s> in a moment.", id, h.Event.Name, h.Event.ChannelID)
	}
	return fmt.Sprintf("Maze `%s` is the maze of the running event **%s**. Solutions open when the event ends <t:%d:R>; the bot posts it in <#%s> then.", id, h.Event.Name, h.Until().Unix(), h.Event.ChannelID)
}

// sendSolution answers with the solution of id, unless the embargo holds
// it back.
func (f *Mazes) sendSolution(ctx context.Context, in *Interaction, id mazecore.ID, ephemeral bool) error {
	hold, err := f.embargo.Held(ctx, id, in.GuildID)
	if err != nil {
		return err
	}
	if hold.Held() {
		return userErrorf("%s", heldMessage(hold, id, in.GuildID))
	}
	build := func() (Reply, error) {
		m, err := generate(id)
		if err != nil {
			return Reply{}, err
		}
		return solutionMessage(m, ephemeral)
	}
	if !pictured(id, renderAuto) {
		reply, err := build()
		if err != nil {
			return err
		}
		return answer(ctx, in, reply)
	}
	return f.render.answer(ctx, in, picture{key: solutionKey(id), big: bigRender(id, renderPNG), ephemeral: ephemeral}, build)
}
