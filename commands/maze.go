package commands

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/render"
)

// Defaults for a bare /maze.
const (
	defaultAlgorithm = contest.DefaultAlgorithm
	defaultSize      = contest.DefaultSize
	maxSeed          = 1<<53 - 1 // Discord's largest integer option
)

// PostLog is where the mazes shown in channels are recorded, for a bare
// /solve there.
type PostLog interface {
	AddPost(ctx context.Context, p contest.Post) error
	LastPost(ctx context.Context, channelID string) (contest.Post, error)
}

// Embargo says whether a maze's solution is held back (a running daily
// or event) and until when.
type Embargo interface {
	Held(ctx context.Context, maze mazecore.ID, guildID string) (contest.Hold, error)
}

// Mazes is /maze, /solve and its message menu, and the Solve button.
type Mazes struct {
	posts   PostLog
	embargo Embargo
	render  *Renderer
	seed    func() uint64
	now     func() time.Time
}

// NewMazes makes mazes with random seeds from seed, drawing pictures on
// render, records where they are shown in posts, and holds back the
// solutions embargo holds.
func NewMazes(posts PostLog, embargo Embargo, render *Renderer, seed func() uint64, now func() time.Time) *Mazes {
	return &Mazes{posts: posts, embargo: embargo, render: render, seed: seed, now: now}
}

func (f *Mazes) Commands() []Command {
	return []Command{
		{Definition: &discordgo.ApplicationCommand{
			Name:        "maze",
			Description: "Generate a fresh maze",
			Options: []*discordgo.ApplicationCommandOption{
				algorithmOption("How to carve it (default: backtracking)", false),
				intOption("size", fmt.Sprintf("Width in tiles, odd, %d–%d (default %d)", mazecore.MinSize, PNGMaxSide, defaultSize), mazecore.MinSize, PNGMaxSide),
				intOption("height", "Height in tiles if different from size", mazecore.MinSize, PNGMaxSide),
				{Type: discordgo.ApplicationCommandOptionString, Name: "render", Description: "auto: emoji when small, PNG when big; gif animates the carving", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "auto", Value: renderAuto}, {Name: "emoji", Value: renderEmoji}, {Name: "png", Value: renderPNG},
					{Name: "gif (animated generation)", Value: renderGIF},
				}},
				intOption("seed", "Seed for a reproducible maze (default: random)", 0, maxSeed),
				difficultyOption(fmt.Sprintf("Among mazes like it: easy, medium or hard (default any; up to %d×%d)", DifficultyMaxSide, DifficultyMaxSide)),
				loopsOption("Share of dead ends opened into loops, 0–100 (default 0: no loops)"),
			},
		}, Handle: f.handleMaze},
		{Definition: &discordgo.ApplicationCommand{
			Name:        "solve",
			Description: "Reveal the shortest path of a maze (a spoiler)",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "id", Description: "The maze ID (default: the last maze in this channel)", MaxLength: 40},
			},
		}, Handle: f.handleSolve},
		{Definition: &discordgo.ApplicationCommand{Name: solveMessageCommandName, Type: discordgo.MessageApplicationCommand}, Handle: f.handleSolveMessage},
	}
}

func (f *Mazes) Components() []Component {
	return []Component{{Prefix: solvePrefix, Handle: f.handleSolveButton}}
}

// mazeRequest is a validated /maze.
type mazeRequest struct {
	id      mazecore.ID
	mode    string
	notices []lang.Msg // said to the member privately, e.g. rounding
}

func (f *Mazes) parseMazeRequest(in *Interaction) (mazeRequest, error) {
	opts := commandOptions(in)
	req := mazeRequest{mode: opts.string("render", renderAuto)}
	switch req.mode {
	case renderAuto, renderEmoji, renderPNG, renderGIF:
	default:
		return req, refuse("error.unknown_render", lang.Args{"Name": sanitize(req.mode)})
	}
	algo, err := opts.algorithm(defaultAlgorithm)
	if err != nil {
		return req, err
	}
	const why = "size.why.maze"
	width, notice, err := opts.size("size", defaultSize, PNGMaxSide, why)
	if err != nil {
		return req, err
	}
	height, heightNotice, err := opts.size("height", width, PNGMaxSide, why)
	if err != nil {
		return req, err
	}
	for _, n := range []lang.Msg{notice, heightNotice} {
		if !n.IsZero() {
			req.notices = append(req.notices, n)
		}
	}
	seed, ok := opts.int("seed")
	if !ok {
		seed = int64(f.seed() & maxSeed)
	} else if seed < 0 || seed > maxSeed {
		return req, refuse("error.seed_range", lang.Args{"Max": int64(maxSeed)})
	}
	if req.mode == renderGIF && (width > render.GIFMaxSize || height > render.GIFMaxSize) {
		return req, refuse("error.gif_too_big", lang.Args{
			"Max":   lang.M("format.size", lang.Args{"Width": render.GIFMaxSize, "Height": render.GIFMaxSize}),
			"Asked": lang.M("format.size", lang.Args{"Width": width, "Height": height}),
		})
	}
	level, loops, err := opts.levelAndLoops(mazecore.AnyLevel, 0)
	if err != nil {
		return req, err
	}
	if level != mazecore.AnyLevel && (width > DifficultyMaxSide || height > DifficultyMaxSide) {
		return req, refuse("error.difficulty_too_big", lang.Args{
			"Max":        lang.M("format.size", lang.Args{"Width": DifficultyMaxSide, "Height": DifficultyMaxSide}),
			"Candidates": mazecore.Candidates,
			"Asked":      lang.M("format.size", lang.Args{"Width": width, "Height": height}),
		})
	}
	// The seed is the base the level is chosen from; the reply's ID holds
	// the chosen one.
	req.id, err = chooseLevel(mazecore.ID{Algorithm: algo, Width: width, Height: height, Seed: uint64(seed), Loops: loops}, level)
	return req, err
}

func (f *Mazes) handleMaze(ctx context.Context, in *Interaction) error {
	req, err := f.parseMazeRequest(in)
	if err != nil {
		return err
	}
	l := in.Lang()
	build := func() (Reply, error) {
		m, err := generate(req.id)
		if err != nil {
			return Reply{}, err
		}
		return mazeMessage(l, m, req.mode)
	}
	var reply Reply
	if pictured(req.id, req.mode) {
		reply, err = f.render.reply(ctx, in, picture{key: mazeKey(l, req.id, req.mode), big: bigRender(req.id, req.mode)}, build)
	} else {
		reply, err = build()
	}
	if err != nil {
		return err
	}
	// Recorded before it is shown, so a /solve typed the moment the maze
	// appears finds it. A failed reply leaves a post whose maze nobody saw;
	// /solve then reveals a maze that is only reachable by its ID anyway.
	if err := recordPost(ctx, f.posts, in.GuildID, in.ChannelID, "", req.id, f.now()); err != nil {
		return err
	}
	if err := answer(ctx, in, reply); err != nil {
		return err
	}
	for _, notice := range req.notices {
		if err := in.Respond.Followup(ctx, Reply{Content: "ℹ️ " + notice.In(l), Ephemeral: true}); err != nil {
			return fmt.Errorf("followup: %w", err)
		}
	}
	return nil
}

// recordPost remembers a maze as the channel's latest, for /solve.
func recordPost(ctx context.Context, posts PostLog, guildID, channelID, messageID string, id mazecore.ID, at time.Time) error {
	post := contest.Post{MazeID: id, GuildID: guildID, ChannelID: channelID, MessageID: messageID, PostedAt: at}
	if err := posts.AddPost(ctx, post); err != nil {
		return fmt.Errorf("record post: %w", err)
	}
	return nil
}

// lastMaze finds the last maze posted in the channel.
func (f *Mazes) lastMaze(ctx context.Context, in *Interaction) (mazecore.ID, error) {
	post, err := f.posts.LastPost(ctx, in.ChannelID)
	if errors.Is(err, contest.ErrNotFound) {
		return mazecore.ID{}, refuseWith(err, "error.no_maze_in_channel")
	}
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("last post in %s: %w", in.ChannelID, err)
	}
	return post.MazeID, nil
}
