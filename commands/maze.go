package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
	"mazebot/render"
	"mazebot/store"
)

// Defaults for a bare /maze.
const (
	defaultAlgorithm = mazecore.Backtracking
	defaultSize      = 21
	maxSeed          = 1<<53 - 1 // Discord's largest integer option
)

func mazeCommand() Command {
	choices := algorithmChoices()
	return Command{
		Definition: &discordgo.ApplicationCommand{
			Name:        "maze",
			Description: "Generate a fresh maze",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "algorithm", Description: "How to carve it (default: backtracking)", Choices: choices},
				intOption("size", fmt.Sprintf("Width in tiles, odd, %d–%d (default %d)", mazecore.MinSize, PNGMaxSide, defaultSize), mazecore.MinSize, PNGMaxSide),
				intOption("height", "Height in tiles if different from size", mazecore.MinSize, PNGMaxSide),
				{Type: discordgo.ApplicationCommandOptionString, Name: "render", Description: "auto: emoji when small, PNG when big; gif animates the carving", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "auto", Value: renderAuto}, {Name: "emoji", Value: renderEmoji}, {Name: "png", Value: renderPNG},
					{Name: "gif (animated generation)", Value: renderGIF},
				}},
				intOption("seed", "Seed for a reproducible maze (default: random)", 0, maxSeed),
			},
		},
		Handle: handleMaze,
	}
}

// mazeRequest is a validated /maze.
type mazeRequest struct {
	id      mazecore.ID
	mode    string
	notices []string // said to the member privately, e.g. rounding
}

func parseMazeRequest(in *Interaction) (mazeRequest, error) {
	opts := commandOptions(in)
	req := mazeRequest{mode: opts.string("render", renderAuto)}
	switch req.mode {
	case renderAuto, renderEmoji, renderPNG, renderGIF:
	default:
		return req, userErrorf("Unknown render %q: use auto, emoji, png or gif.", req.mode)
	}
	algo, err := mazecore.ParseAlgorithm(opts.string("algorithm", defaultAlgorithm.String()))
	if err != nil {
		return req, userError(err, err.Error()+".")
	}
	width, err := sideOption(opts, "size", defaultSize, &req)
	if err != nil {
		return req, err
	}
	height, err := sideOption(opts, "height", width, &req)
	if err != nil {
		return req, err
	}
	seed, ok := opts.int("seed")
	if !ok {
		seed = int64(in.Deps.Seed() & maxSeed)
	} else if seed < 0 || seed > maxSeed {
		return req, userErrorf("The seed must be a whole number from 0 to %d.", int64(maxSeed))
	}
	if req.mode == renderGIF && (width > render.GIFMaxSize || height > render.GIFMaxSize) {
		return req, userErrorf("Animations go up to %d×%d tiles; you asked for %d×%d. Use render:png for big mazes.", render.GIFMaxSize, render.GIFMaxSize, width, height)
	}
	req.id = mazecore.ID{Algorithm: algo, Width: width, Height: height, Seed: uint64(seed)}
	return req, nil
}

// sideOption reads a size option, rounding an even size up and noting it.
func sideOption(opts options, name string, fallback int, req *mazeRequest) (int, error) {
	raw, ok := opts.int(name)
	if !ok {
		return fallback, nil
	}
	clamped := raw
	if clamped > int64(mazecore.MaxSize) || clamped < -1 {
		clamped = mazecore.MaxSize + 1 // out of range either way; keeps the int conversion safe
	}
	side, rounded, err := mazecore.NormalizeSize(int(clamped), PNGMaxSide)
	if err != nil {
		return 0, userError(err, fmt.Sprintf("The %s must be an odd number of tiles from %d to %d (emoji grids up to 43). You asked for %d.", name, mazecore.MinSize, PNGMaxSide, raw))
	}
	if rounded {
		req.notices = append(req.notices, fmt.Sprintf("Maze sides are odd (walls sit on even tiles), so %s %d was rounded up to %d.", name, raw, side))
	}
	return side, nil
}

func handleMaze(ctx context.Context, in *Interaction) error {
	req, err := parseMazeRequest(in)
	if err != nil {
		return err
	}
	m, err := mazecore.Generate(req.id)
	if err != nil {
		return fmt.Errorf("generate %v: %w", req.id, err)
	}
	if req.mode == renderGIF || (req.mode != renderEmoji && isSlowPNG(m)) {
		if err := in.Respond.Defer(ctx, false); err != nil {
			return fmt.Errorf("defer: %w", err)
		}
	}
	reply, err := mazeMessage(m, req.mode)
	if err != nil {
		return err
	}
	// Recorded before it is shown, so a /solve typed the moment the maze
	// appears finds it. A failed reply leaves a post whose maze nobody saw;
	// /solve then reveals a maze that is only reachable by its ID anyway.
	if err := recordPost(ctx, in, req.id); err != nil {
		return err
	}
	if err := in.Respond.Reply(ctx, reply); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	for _, notice := range req.notices {
		if err := in.Respond.Followup(ctx, Reply{Content: "ℹ️ " + notice, Ephemeral: true}); err != nil {
			return fmt.Errorf("followup: %w", err)
		}
	}
	return nil
}

// recordPost remembers the maze as the channel's latest, for /solve.
func recordPost(ctx context.Context, in *Interaction, id mazecore.ID) error {
	post := store.Post{MazeID: id.String(), GuildID: in.GuildID, ChannelID: in.ChannelID, AuthorID: in.UserID(), PostedAt: in.Deps.Now()}
	if err := in.Deps.Posts.AddPost(ctx, post); err != nil {
		return fmt.Errorf("record post: %w", err)
	}
	return nil
}

// lastMaze finds the last maze posted in the channel.
func lastMaze(ctx context.Context, in *Interaction) (mazecore.ID, error) {
	post, err := in.Deps.Posts.LastPost(ctx, in.ChannelID)
	if errors.Is(err, store.ErrNotFound) {
		return mazecore.ID{}, userError(err, "No maze has been posted in this channel yet. Make one with /maze, or give an ID: /solve id:<maze ID>.")
	}
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("last post in %s: %w", in.ChannelID, err)
	}
	id, err := mazecore.Parse(post.MazeID)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("stored maze ID %q: %w", post.MazeID, err)
	}
	return id, nil
}
