package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
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
	RecentPosts(ctx context.Context, channelID string, limit int) ([]contest.Post, error)
}

// Embargo says whether a maze's solution is held back (a running daily
// or event) and until when.
type Embargo interface {
	Held(ctx context.Context, maze mazecore.ID, guildID string) (contest.Hold, error)
}

// Mazes is /maze, /solve and its message menu, and the Solve button.
type Mazes struct {
	posts    PostLog
	embargo  Embargo
	cards    views.Setup // what the buttons of its cards depend on
	pictures *pictures.Queue
	seed     func() uint64
	now      func() time.Time
	// The pictures made into masks, and where they are fetched from
	// (shapes.go): set by New.
	images      Images
	attachments AttachmentFetcher
}

// NewMazes makes mazes with random seeds from seed, drawing pictures on
// the queue, records where they are shown in posts, and holds back the
// solutions embargo holds; setup is what the cards' buttons depend on.
func NewMazes(posts PostLog, embargo Embargo, q *pictures.Queue, seed func() uint64, now func() time.Time, setup views.Setup) *Mazes {
	return &Mazes{posts: posts, embargo: embargo, pictures: q, seed: seed, now: now, cards: setup}
}

func (f *Mazes) Commands() []bot.Command {
	return []bot.Command{
		{Definition: anywhere(&discordgo.ApplicationCommand{
			Name: "maze",
			Options: append([]*discordgo.ApplicationCommandOption{
				algorithmOption(false),
				sizeOption("size", views.PNGMaxSide),
				sizeOption("height", views.PNGMaxSide),
				choicesOption("render", views.RenderModes),
				intOption("seed", 0, maxSeed),
				difficultyOption(),
				loopsOption(),
				choicesOption("theme", render.PaletteNames()),
				choicesOption("style", render.StyleNames()),
			}, shapeOptions()...),
		}), Handle: f.handleMaze},
		{Definition: anywhere(&discordgo.ApplicationCommand{
			Name:    "solve",
			Options: []*discordgo.ApplicationCommandOption{mazeIDOption()},
		}), Handle: f.handleSolve, Autocomplete: f.completeMazeID},
		{Definition: anywhere(&discordgo.ApplicationCommand{Name: solveMessageCommandName, Type: discordgo.MessageApplicationCommand}), Handle: f.handleSolveMessage},
	}
}

func (f *Mazes) Components() []bot.Component {
	return []bot.Component{
		{Prefix: customid.SolvePrefix, Handle: f.handleSolveButton},
		{Prefix: customid.PrintPrefix, Handle: f.handlePrintButton},
	}
}

// mazeOptions are /maze's options as typed.
type mazeOptions struct {
	Algorithm  string `option:"algorithm"`
	Size       *int64 `option:"size"`
	Height     *int64 `option:"height"`
	Render     string `option:"render"`
	Seed       *int64 `option:"seed"`
	Difficulty string `option:"difficulty"`
	Loops      *int64 `option:"loops"`
	Theme      string `option:"theme"`
	Style      string `option:"style"`
	Grid       string `option:"grid"`
	Shape      string `option:"shape"`
	Text       string `option:"text"`
	Image      string `option:"image"` // an attachment's id
}

// mazeRequest is a validated /maze: the maze of id, or at a level the
// one of that level among the candidates of id, chosen when it is drawn
// (choosing generates and rates mazecore.Candidates mazes).
type mazeRequest struct {
	id      mazecore.ID
	level   mazecore.Level
	mode    string
	look    look            // the picture's theme and style
	notices []lang.Msg      // said to the member privately, e.g. rounding
	shaped  bool            // a maze on another grid or in a shape (shapes.go)
	image   *mazecore.Image // the picture of a maze in an image's shape
}

func (f *Mazes) parseMazeRequest(ctx context.Context, in *bot.Interaction) (mazeRequest, error) {
	var o mazeOptions
	bot.Options(in, &o)
	if o.shaped() {
		return f.parseShapedRequest(ctx, in, o)
	}
	req := mazeRequest{mode: o.Render}
	if req.mode == "" {
		req.mode = renderAuto
	}
	if !slices.Contains(views.RenderModes, req.mode) {
		return req, bot.Refuse("error.unknown_render", lang.Args{"Name": sanitize(req.mode), "Renders": views.RenderChoices()})
	}
	lk, err := parseLook(o.Theme, o.Style)
	if err != nil {
		return req, err
	}
	format, _ := render.FormatByName(req.mode) // auto has no row
	if lk.chosen() {
		// A theme or style is a picture's: asked for, the maze is one.
		switch {
		case req.mode == renderAuto:
			req.mode = renderPNG
		case !format.Looks:
			return req, bot.Refuse("error.look_png_only")
		}
	}
	req.look = lk
	algo, err := algorithm(o.Algorithm, defaultAlgorithm)
	if err != nil {
		return req, err
	}
	const why = "size.why.maze"
	width, notice, err := side("size", o.Size, defaultSize, views.PNGMaxSide, why)
	if err != nil {
		return req, err
	}
	height, heightNotice, err := side("height", o.Height, width, views.PNGMaxSide, why)
	if err != nil {
		return req, err
	}
	for _, n := range []lang.Msg{notice, heightNotice} {
		if !n.IsZero() {
			req.notices = append(req.notices, n)
		}
	}
	var seed int64
	if o.Seed == nil {
		seed = int64(f.seed() & maxSeed)
	} else if seed = *o.Seed; seed < 0 || seed > maxSeed {
		return req, bot.Refuse("error.seed_range", lang.Args{"Max": int64(maxSeed)})
	}
	if req.mode == renderEmoji && (width > views.MaxEmojiSide || height > views.MaxEmojiSide) {
		// Refused before any cooldown or queue: no grid that wide fits.
		return req, bot.Refuse("error.emoji_too_big", lang.Args{"Size": views.Size(mazecore.ID{Width: width, Height: height}), "Limit": lang.Number(views.MaxText), "Max": views.MaxEmojiSide})
	}
	if most := format.MaxSide; most > 0 && (width > most || height > most) {
		return req, bot.Refuse("error.render_too_big", lang.Args{
			"Render": req.mode,
			"Max":    views.Side(most),
			"Asked":  views.Size(mazecore.ID{Width: width, Height: height}),
		})
	}
	level, loops, err := levelAndLoops(o.Difficulty, o.Loops, mazecore.AnyLevel, 0)
	if err != nil {
		return req, err
	}
	if level != mazecore.AnyLevel && (width > views.DifficultyMaxSide || height > views.DifficultyMaxSide) {
		return req, bot.Refuse("error.difficulty_too_big", lang.Args{
			"Max":        views.Side(views.DifficultyMaxSide),
			"Candidates": lang.Number(mazecore.Candidates),
			"Asked":      views.Size(mazecore.ID{Width: width, Height: height}),
		})
	}
	// The seed is the base the level is chosen from; the reply's ID holds
	// the chosen one.
	req.id = mazecore.ID{Algorithm: algo, Width: width, Height: height, Seed: uint64(seed), Loops: loops}
	req.level = level
	return req, nil
}

func (f *Mazes) handleMaze(ctx context.Context, in *bot.Interaction) error {
	req, err := f.parseMazeRequest(ctx, in)
	if err != nil {
		return err
	}
	if req.shaped {
		return f.showShaped(ctx, in, req)
	}
	return f.show(ctx, in, req, false)
}

// defaultRequest is a bare /maze: the default maze with a random seed.
func (f *Mazes) defaultRequest() mazeRequest {
	return mazeRequest{id: mazecore.ID{Algorithm: defaultAlgorithm, Width: defaultSize, Height: defaultSize, Seed: f.seed() & maxSeed}, mode: renderAuto}
}

// show answers in with the maze req asks for: publicly, the channel's
// latest maze from then on, or privately (the help's example).
func (f *Mazes) show(ctx context.Context, in *bot.Interaction, req mazeRequest, private bool) error {
	l := in.Lang()
	// A level is chosen on the pool, with the picture: only a maze shown
	// as emoji (43×43 at most, a few milliseconds) is chosen at once.
	noRace := !racesHere(in) // a card where no race can launch offers none
	key := mazeKey(l, req.id, req.mode, req.look) + "|" + req.level.String() + "|" + strconv.FormatBool(noRace)
	shown, err := showMaze(ctx, f.pictures, in, req.id, req.mode, pictures.Request{Key: key, Big: big(cost(req.id, req.mode, req.level)), Ephemeral: private}, func() (pictures.Shown, error) {
		id, err := chooseLevel(req.id, req.level)
		if err != nil {
			return pictures.Shown{}, err
		}
		m, err := generate(id)
		if err != nil {
			return pictures.Shown{}, err
		}
		reply, err := card(l, m, req.mode, req.look, f.cards, noRace)
		return pictures.Shown{Reply: reply, Maze: id}, err
	})
	if err != nil {
		return err
	}
	reply := shown.Reply
	// Recorded before it is shown, so a /solve typed the moment the maze
	// appears finds it. A failed reply leaves a post whose maze nobody saw;
	// /solve then reveals a maze that is only reachable by its ID anyway.
	if !private {
		if err := recordPost(ctx, f.posts, in.GuildID, in.ChannelID, "", shown.Maze, f.now()); err != nil {
			return err
		}
	}
	if err := answer(ctx, in, reply); err != nil {
		return err
	}
	for _, notice := range req.notices {
		if err := in.Respond.Followup(ctx, bot.Reply{Content: views.Notice(l, notice), Ephemeral: true}); err != nil {
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
func (f *Mazes) lastMaze(ctx context.Context, in *bot.Interaction) (mazecore.ID, error) {
	post, err := f.posts.LastPost(ctx, in.ChannelID)
	if errors.Is(err, contest.ErrNotFound) {
		return mazecore.ID{}, bot.RefuseWith(err, "error.no_maze_in_channel")
	}
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("last post in %s: %w", in.ChannelID, err)
	}
	return post.MazeID, nil
}
