package commands

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
)

// solveMessageCommandName is the context-menu entry on messages.
const solveMessageCommandName = "Solve this maze"

// mazeIDOption is /solve's id, completed from the mazes recently posted
// in the channel: IDs are made to be copied, not typed.
func mazeIDOption() *discordgo.ApplicationCommandOption {
	o := stringOption("id", 40, false)
	o.Autocomplete = true
	return o
}

// recentMazes is how many of a channel's posts the ID completion reads:
// a channel's posts repeat mazes (a maze, its solution, a game's share),
// and Discord shows 25 choices.
const recentMazes = 50

// completeMazeID offers the mazes posted in the channel, newest first,
// whose ID contains what the member has typed (in any case).
func (f *Mazes) completeMazeID(ctx context.Context, in *bot.Interaction) error {
	name, typed := bot.Focused(in)
	if name != "id" {
		return in.Respond.Choices(ctx, nil)
	}
	posts, err := f.posts.RecentPosts(ctx, in.ChannelID, recentMazes)
	if err != nil {
		return err
	}
	typed = strings.ToLower(strings.TrimSpace(typed))
	l := in.Lang()
	seen := map[mazecore.ID]bool{}
	choices := []*discordgo.ApplicationCommandOptionChoice{}
	for _, p := range posts {
		id := p.MazeID.String()
		if seen[p.MazeID] || !strings.Contains(strings.ToLower(id), typed) || len(choices) == maxChoices {
			continue
		}
		seen[p.MazeID] = true
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: views.MazeChoice(l, p.MazeID), Value: id})
	}
	return in.Respond.Choices(ctx, choices)
}

// solveOptions are /solve's options as typed.
type solveOptions struct {
	ID string `option:"id"`
}

func (f *Mazes) handleSolve(ctx context.Context, in *bot.Interaction) error {
	var (
		o   solveOptions
		id  mazecore.ID
		err error
	)
	bot.Options(in, &o)
	if o.ID != "" {
		id, err = parseMazeID(o.ID)
	} else {
		id, err = f.lastMaze(ctx, in)
	}
	if err != nil {
		return err
	}
	return f.sendSolution(ctx, in, id, false)
}

func (f *Mazes) handleSolveButton(ctx context.Context, in *bot.Interaction) error {
	id, err := parseMazeID(customid.Rest(in.MessageComponentData().CustomID))
	if err != nil {
		return err
	}
	return f.sendSolution(ctx, in, id, true)
}

func (f *Mazes) handleSolveMessage(ctx context.Context, in *bot.Interaction) error {
	data := in.ApplicationCommandData()
	var target *discordgo.Message
	if data.Resolved != nil {
		target = data.Resolved.Messages[data.TargetID]
	}
	id, ok := mazeIDInMessage(target, in.AppID)
	if !ok {
		return bot.Refuse("error.not_a_maze_message")
	}
	return f.sendSolution(ctx, in, id, true)
}

// parseMazeID parses an ID a member typed and checks it is drawable here.
func parseMazeID(text string) (mazecore.ID, error) {
	id, err := mazecore.Parse(text)
	if err != nil {
		return id, bot.RefuseWith(err, "error.bad_maze_id", lang.Args{"Text": sanitize(text)})
	}
	if !id.Plain() {
		if id.GridKind == mazecore.Polar || max(id.Width, id.Height) <= views.PNGMaxSide/2 {
			return id, nil // drawn by shapedSolution
		}
		return id, notPlain(id)
	}
	if id.Width > views.PNGMaxSide || id.Height > views.PNGMaxSide {
		return id, bot.Refuse("error.maze_too_big_to_draw", lang.Args{
			"ID": id.String(), "Size": views.Size(id), "Max": views.Side(views.PNGMaxSide),
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
	for _, b := range bot.Buttons(m.Components) {
		if id, ok := customid.SolveMaze(b.CustomID); ok {
			return id, true
		}
	}
	return views.IDInContent(bot.Text(m.Content, m.Components))
}

// checkEmbargo refuses what shows the solution of id while the embargo
// holds it back (a running daily's or event's maze).
func (f *Mazes) checkEmbargo(ctx context.Context, in *bot.Interaction, id mazecore.ID) error {
	hold, err := f.embargo.Held(ctx, id, in.GuildID)
	if err != nil {
		return err
	}
	if hold.Held() {
		return &bot.UserError{Msg: views.Held(hold, in.GuildID)}
	}
	return nil
}

// sendSolution answers with the solution of id, unless the embargo holds
// it back.
func (f *Mazes) sendSolution(ctx context.Context, in *bot.Interaction, id mazecore.ID, ephemeral bool) error {
	if err := f.checkEmbargo(ctx, in, id); err != nil {
		return err
	}
	l := in.Lang()
	if !id.Plain() {
		img, err := f.maskImage(ctx, id)
		if err != nil {
			return err
		}
		reply, err := f.pictures.Reply(ctx, in, pictures.Request{Key: solutionKey(l, id), Big: big(id.Cells()), Ephemeral: ephemeral}, func() (bot.Reply, error) {
			return shapedSolution(l, id, img, ephemeral)
		})
		if err != nil {
			return err
		}
		return answer(ctx, in, reply)
	}
	reply, err := showReply(ctx, f.pictures, in, id, renderAuto, pictures.Request{Key: solutionKey(l, id), Big: big(cost(id, renderPNG, mazecore.AnyLevel)), Ephemeral: ephemeral}, func() (bot.Reply, error) {
		m, err := generate(id)
		if err != nil {
			return bot.Reply{}, err
		}
		return solution(l, m, ephemeral)
	})
	if err != nil {
		return err
	}
	return answer(ctx, in, reply)
}
