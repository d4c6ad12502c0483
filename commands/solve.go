package commands

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
)

// solveMessageCommandName is the context-menu entry on messages.
const solveMessageCommandName = "Solve this maze"

func solveCommand() Command {
	return Command{
		Definition: &discordgo.ApplicationCommand{
			Name:        "solve",
			Description: "Reveal the shortest path of a maze (a spoiler)",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "id", Description: "The maze ID (default: the last maze in this channel)", MaxLength: 40},
			},
		},
		Handle: handleSolve,
	}
}

func solveMessageCommand() Command {
	return Command{
		Definition: &discordgo.ApplicationCommand{Name: solveMessageCommandName, Type: discordgo.MessageApplicationCommand},
		Handle:     handleSolveMessage,
	}
}

func solveButton() Component {
	return Component{Prefix: solvePrefix, Handle: handleSolveButton}
}

func handleSolve(ctx context.Context, in *Interaction) error {
	var (
		id  mazecore.ID
		err error
	)
	if text := commandOptions(in).string("id", ""); text != "" {
		id, err = parseMazeID(text)
	} else {
		id, err = lastMaze(ctx, in)
	}
	if err != nil {
		return err
	}
	return sendSolution(ctx, in, id, false)
}

func handleSolveButton(ctx context.Context, in *Interaction) error {
	_, text, _ := strings.Cut(in.MessageComponentData().CustomID, ":")
	id, err := parseMazeID(text)
	if err != nil {
		return err
	}
	return sendSolution(ctx, in, id, true)
}

func handleSolveMessage(ctx context.Context, in *Interaction) error {
	data := in.ApplicationCommandData()
	var target *discordgo.Message
	if data.Resolved != nil {
		target = data.Resolved.Messages[data.TargetID]
	}
	id, ok := mazeIDInMessage(target, in.AppID)
	if !ok {
		return userErrorf("That message is not one of my mazes. Use “Solve this maze” on a message that shows a maze I posted, or /solve id:<maze ID>.")
	}
	return sendSolution(ctx, in, id, true)
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

var idInContent = regexp.MustCompile("ID `([0-9a-zA-Z]{1,40})`")

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

// solutionGuard refuses, with a UserError saying when solutions open, the
// solution of a running daily challenge or event maze.
func solutionGuard(ctx context.Context, in *Interaction, id mazecore.ID) error {
	if err := refuseRunningDaily(ctx, in, id); err != nil {
		return err
	}
	return eventSolveGuard(ctx, in, id)
}

// sendSolution answers with the solution of id, unless solutionGuard
// holds it back.
func sendSolution(ctx context.Context, in *Interaction, id mazecore.ID, ephemeral bool) error {
	if err := solutionGuard(ctx, in, id); err != nil {
		return err
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		return fmt.Errorf("generate %v: %w", id, err)
	}
	if isSlowPNG(m) {
		if err := in.Respond.Defer(ctx, ephemeral); err != nil {
			return fmt.Errorf("defer: %w", err)
		}
	}
	reply, err := solutionMessage(m, ephemeral)
	if err != nil {
		return err
	}
	if err := in.Respond.Reply(ctx, reply); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// sanitize keeps a member's text from breaking out of a code span or
// pinging anyone when echoed back.
func sanitize(s string) string {
	s = strings.NewReplacer("`", "'", "@", "＠", "\n", " ").Replace(s)
	if len([]rune(s)) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return s
}
