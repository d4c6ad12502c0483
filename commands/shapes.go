package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// /maze's grid:, shape: and text: make a maze on a polar or hex grid, or
// cut to a shape (mazecore.GridMaze, a version 3 ID). Such a maze is shown
// as a picture with Play (playgrid.go) and Solve buttons; Print, Race and
// emoji take only the whole square grid so far.

// Default sizes of shaped mazes when /maze gives none: a shape needs more
// cells than the bare default's 10×10 to read as one.
const (
	defaultShapeSize = 41 // tiles
	defaultRings     = 12
	defaultHexSide   = 15 // cells
	textScale        = 3  // cells a font pixel of a text with no size
)

// shapeOptions are /maze's grid, shape and text options.
func shapeOptions() []*discordgo.ApplicationCommandOption {
	return []*discordgo.ApplicationCommandOption{
		choicesOption("grid", mazecore.GridNames()),
		choicesOption("shape", mazecore.PresetNames()),
		stringOption("text", mazecore.MaxTextLength, false),
		{Type: discordgo.ApplicationCommandOptionAttachment, Name: "image"},
	}
}

// Images keeps the pictures made into masks under their hash (the
// store's image_masks), so that a maze in one's shape can be drawn again
// from its ID.
type Images interface {
	SaveImage(ctx context.Context, img *mazecore.Image, at time.Time) error
	Image(ctx context.Context, hash [16]byte) (*mazecore.Image, error)
}

// AttachmentFetcher fetches a file a member attached, refusing with
// bot.ErrAttachmentTooLarge one longer than limit (bot.Attachments).
type AttachmentFetcher interface {
	Fetch(ctx context.Context, a *discordgo.MessageAttachment, limit int) ([]byte, error)
}

// shaped reports whether /maze's options ask for a maze not on the whole
// square grid.
func (o mazeOptions) shaped() bool {
	return (o.Grid != "" && o.Grid != mazecore.Square.String()) || o.Shape != "" || o.Text != "" || o.Image != ""
}

// parseShapedRequest reads a /maze that asks for a grid or a shape: the
// size option counts rings on a polar grid and cells across on a hex
// one.
func (f *Mazes) parseShapedRequest(ctx context.Context, in *bot.Interaction, o mazeOptions) (mazeRequest, error) {
	req := mazeRequest{mode: renderPNG, shaped: true}
	switch o.Render {
	case "", renderAuto, renderPNG:
	default:
		return req, bot.Refuse("error.shape_picture_only")
	}
	var err error
	if req.level, _, err = levelAndLoops(o.Difficulty, nil, mazecore.AnyLevel, 0); err != nil {
		return req, err
	}
	lk, err := parseLook(o.Theme, o.Style)
	if err != nil {
		return req, err
	}
	req.look = lk
	algo, err := algorithm(o.Algorithm, defaultAlgorithm)
	if err != nil {
		return req, err
	}
	kind := mazecore.Square
	if o.Grid != "" {
		if kind, err = mazecore.ParseGrid(o.Grid); err != nil {
			return req, bot.RefuseWith(err, "error.unknown_grid", lang.Args{"Name": sanitize(o.Grid)})
		}
	}
	id := mazecore.ID{Algorithm: algo, GridKind: kind}
	switch {
	case countTrue(o.Shape != "", o.Text != "", o.Image != "") > 1:
		return req, bot.Refuse("error.shape_and_text")
	case (o.Shape != "" || o.Text != "" || o.Image != "") && kind == mazecore.Polar:
		return req, bot.Refuse("error.polar_no_shape")
	case o.Image != "":
		if req.image, err = f.fetchMask(ctx, in, o.Image); err != nil {
			return req, err
		}
		id.Shape = mazecore.ImageShapeOf(req.image)
	case o.Shape != "":
		if id.Shape, err = mazecore.ParseShape(o.Shape); err != nil {
			return req, bot.RefuseWith(err, "error.unknown_shape", lang.Args{"Name": sanitize(o.Shape), "Choices": shapeChoices()})
		}
	case o.Text != "":
		if id.Shape, err = mazecore.TextShapeOf(o.Text); err != nil {
			return req, maskRefusal(err)
		}
	}
	if err := shapedSize(&id, o.Size, o.Height, req.image); err != nil {
		return req, err
	}
	if o.Loops != nil {
		if *o.Loops < 0 || *o.Loops > mazecore.MaxLoops {
			return req, bot.Refuse("error.loops_range", lang.Args{"Max": mazecore.MaxLoops, "Asked": *o.Loops})
		}
		id.Loops = int(*o.Loops)
	}
	id.Seed = f.seed() & maxSeed
	if o.Seed != nil {
		if *o.Seed < 0 || *o.Seed > maxSeed {
			return req, bot.Refuse("error.seed_range", lang.Args{"Max": int64(maxSeed)})
		}
		id.Seed = uint64(*o.Seed)
	}
	if err := validShaped(id); err != nil {
		return req, err
	}
	// The mask is drawn now: a shape too small for it is refused before
	// the queue.
	grid, err := id.GridWithImage(req.image)
	if err != nil {
		var me *mazecore.MaskError
		if req.image != nil && errors.As(err, &me) {
			// The picture's own words: the member fixes the picture.
			return req, bot.RefuseWith(err, "error.image."+string(me.Code), lang.Args{"N": lang.Number(me.N), "M": lang.Number(me.M)})
		}
		return req, maskRefusal(err)
	}
	if err := levelFits(req.level, grid); err != nil {
		return req, err
	}
	if req.image != nil {
		// Kept before the maze is shown, so that its Solve finds it.
		if err := f.images.SaveImage(ctx, req.image, f.now()); err != nil {
			return req, err
		}
	}
	req.id = id
	return req, nil
}

// validShaped refuses a shaped maze's ID whose algorithm does not run on
// its grid, naming those that do.
func validShaped(id mazecore.ID) error {
	var fit *mazecore.FitError
	if err := id.Validate(); errors.As(err, &fit) {
		var names lang.List
		for _, a := range mazecore.Algorithms {
			if a.Fits(fit.Grid, fit.Masked) {
				names = append(names, lang.M("choice.algorithm."+a.String()))
			}
		}
		return bot.RefuseWith(err, "error.algorithm_not_on_grid", lang.Args{"Algorithm": views.AlgorithmTitle(id.Algorithm), "Choices": names})
	} else if err != nil {
		return fmt.Errorf("shaped maze %+v: %w", id, err)
	}
	return nil
}

// fetchMask fetches the picture attached as the image option (the
// attachment's id) and reads it into a mask: a file Discord says is
// longer than render.MaxMaskBytes, or larger than render.MaxMaskPixels,
// is refused before a byte is fetched, and the rest checked again on the
// bytes (render.MaskImage).
func (f *Mazes) fetchMask(ctx context.Context, in *bot.Interaction, attachmentID string) (*mazecore.Image, error) {
	var a *discordgo.MessageAttachment
	if data := in.ApplicationCommandData(); data.Resolved != nil {
		a = data.Resolved.Attachments[attachmentID]
	}
	if a == nil {
		return nil, bot.Refuse("error.image.missing")
	}
	tooMany := func(w, h int) error {
		return bot.Refuse("error.image.too_many", lang.Args{"Width": w, "Height": h, "Max": render.MaxMaskPixels})
	}
	if a.Width > render.MaxMaskPixels || a.Height > render.MaxMaskPixels {
		return nil, tooMany(a.Width, a.Height)
	}
	data, err := f.attachments.Fetch(ctx, a, render.MaxMaskBytes)
	if errors.Is(err, bot.ErrAttachmentTooLarge) {
		return nil, bot.RefuseWith(err, "error.image.too_large", lang.Args{"Size": lang.Number(a.Size)})
	} else if err != nil {
		return nil, bot.RefuseWith(err, "error.image.fetch")
	}
	img, err := render.MaskImage(data)
	var bad *render.MaskImageError
	switch {
	case errors.As(err, &bad) && bad.Code == render.MaskTooMany:
		return nil, tooMany(bad.W, bad.H)
	case errors.As(err, &bad) && bad.Code == render.MaskTooLarge:
		return nil, bot.RefuseWith(err, "error.image.too_large", lang.Args{"Size": lang.Number(len(data))})
	case errors.As(err, &bad):
		return nil, bot.RefuseWith(err, "error.image.not_image")
	}
	return img, err
}

// maskImage returns the picture of a maze in an image's shape, from the
// store; nil for any other maze.
func (f *Mazes) maskImage(ctx context.Context, id mazecore.ID) (*mazecore.Image, error) {
	return imageOf(ctx, f.images, id)
}

// generateShaped makes the maze of a shaped ID, with its picture when
// its shape is one.
func generateShaped(id mazecore.ID, img *mazecore.Image) (*mazecore.GridMaze, error) {
	var m *mazecore.GridMaze
	var err error
	if img != nil {
		m, err = mazecore.GenerateGridImage(id, img)
	} else {
		m, err = mazecore.GenerateGrid(id)
	}
	if err != nil {
		return nil, fmt.Errorf("generate %v: %w", id, err)
	}
	return m, nil
}

// shapedSize sets the size of id from the size and height options, in
// the grid's units, checking them.
func shapedSize(id *mazecore.ID, size, height *int64, img *mazecore.Image) error {
	get := func(raw *int64, fallback, lo, hi int) (int, error) {
		if raw == nil {
			return fallback, nil
		}
		if *raw < int64(lo) || *raw > int64(hi) {
			return 0, bot.Refuse("error.shape_size_range", lang.Args{"Grid": lang.M("choice.grid." + id.GridKind.String()), "Min": lo, "Max": hi, "Asked": *raw})
		}
		return int(*raw), nil
	}
	var err error
	switch id.GridKind {
	case mazecore.Polar:
		id.Width, err = get(size, defaultRings, mazecore.MinRings, mazecore.MaxRings)
		id.Height = id.Width
		return err
	case mazecore.Hex:
		w, h := defaultHexSide, defaultHexSide
		if id.Shape.Kind == mazecore.TextShape {
			tw, th := mazecore.TextSize(id.Shape.Text)
			w, h = textScale*tw, textScale*th
		} else if img != nil {
			w, h = imageCells(img)
		}
		if id.Width, err = get(size, w, mazecore.MinHexSide, views.PNGMaxSide/2); err != nil {
			return err
		}
		if size != nil { // the rows keep the shape's proportions
			h = max(mazecore.MinHexSide, id.Width*h/w)
		}
		id.Height, err = get(height, h, mazecore.MinHexSide, views.PNGMaxSide/2)
		return err
	}
	w, h := defaultShapeSize, defaultShapeSize
	if id.Shape.Kind == mazecore.TextShape {
		tw, th := mazecore.TextSize(id.Shape.Text)
		w, h = 2*textScale*tw+1, 2*textScale*th+1
	} else if img != nil {
		cw, ch := imageCells(img)
		w, h = 2*cw+1, 2*ch+1
	}
	if id.Width, err = get(size, w, mazecore.MinSize, views.PNGMaxSide); err != nil {
		return err
	}
	if size != nil && id.Shape.Kind == mazecore.TextShape {
		tw, th := mazecore.TextSize(id.Shape.Text)
		h = 2*max(th, (id.Width/2)*th/tw) + 1
	} else if size != nil && img != nil {
		iw, ih := img.Size()
		h = 2*max(2, (id.Width/2)*ih/iw) + 1
	} else if size != nil {
		h = id.Width
	}
	if id.Height, err = get(height, h, mazecore.MinSize, views.PNGMaxSide); err != nil {
		return err
	}
	id.Width, id.Height = id.Width|1, id.Height|1 // odd, as every square maze's tiles
	return nil
}

// imageCells is the default size in cells of a maze in a picture's
// shape: imageMaxCells across, or fewer for a smaller picture, and as
// many down as keep its proportions.
func imageCells(img *mazecore.Image) (cols, rows int) {
	w, h := img.Size()
	cols = min(w, imageMaxCells)
	return cols, max(mazecore.MinHexSide, cols*h/w)
}

// imageMaxCells is the most cells across of a picture's maze with no
// size: enough for a logo's outline to read.
const imageMaxCells = 40

// shapeChoices names the preset shapes.
func shapeChoices() lang.List {
	var names lang.List
	for _, n := range mazecore.PresetNames() {
		names = append(names, lang.M("choice.shape."+n))
	}
	return names
}

// maskRefusal words why a shape cannot hold a maze.
func maskRefusal(err error) error {
	var me *mazecore.MaskError
	if !errors.As(err, &me) {
		return fmt.Errorf("shape: %w", err)
	}
	args := lang.Args{"N": lang.Number(me.N), "M": lang.Number(me.M), "Text": sanitize(me.Text)}
	if me.Code == mazecore.TextTooSmall {
		// N×M is a size, written as sizes are (21×21), not as counts.
		args["N"], args["M"] = me.N, me.M
	}
	return bot.RefuseWith(err, "error.mask."+string(me.Code), args)
}

// showShaped answers /maze with a maze on another grid or in a shape: a
// picture, its header and a Solve button.
func (f *Mazes) showShaped(ctx context.Context, in *bot.Interaction, req mazeRequest) error {
	l := in.Lang()
	// A level is chosen on the queue, with the picture: it makes and
	// rates mazecore.Candidates mazes.
	noRace := !racesHere(in) // a card where no race can launch offers none
	key := mazeKey(l, req.id, req.mode, req.look) + "|" + req.level.String() + "|" + strconv.FormatBool(noRace)
	cost := req.id.Cells()
	if req.level != mazecore.AnyLevel {
		cost *= mazecore.Candidates
	}
	shown, err := f.pictures.Show(ctx, in, pictures.Request{Key: key, Big: big(cost)}, func() (pictures.Shown, error) {
		id, err := chooseGridLevel(req.id, req.level, req.image)
		if err != nil {
			return pictures.Shown{}, err
		}
		m, err := generateShaped(id, req.image)
		if err != nil {
			return pictures.Shown{}, err
		}
		file, err := gridFile(l, m, nil, req.look, "maze-"+id.String()+".png")
		if err != nil {
			return pictures.Shown{}, err
		}
		v := views.Maze{ID: id, File: &file, Rating: mazecore.RateGrid(m).Rating}
		var buttons []discordgo.MessageComponent
		if views.Playable(id) {
			buttons = append(buttons, views.PlayButton(l, id))
		}
		buttons = append(buttons, discordgo.Button{Label: l.T("button.solve"), Style: discordgo.SecondaryButton, CustomID: customid.Solve(id), Emoji: &discordgo.ComponentEmoji{Name: "🔎"}})
		// Race where a square card has it (views.Row).
		if f.cards.Arena && !noRace && views.Raceable(id) {
			buttons = append(buttons, views.RaceButton(l, id))
		}
		solve := discordgo.ActionsRow{Components: buttons}
		return pictures.Shown{Reply: views.Show(shapedHeader(l, m), v, []discordgo.MessageComponent{solve}), Maze: id}, nil
	})
	if err != nil {
		return err
	}
	if err := recordPost(ctx, f.posts, in.GuildID, in.ChannelID, "", shown.Maze, f.now()); err != nil {
		return err
	}
	return answer(ctx, in, shown.Reply)
}

// shapedSolution is the spoilered solution of a maze on another grid or
// in a shape.
func shapedSolution(l *lang.Lang, id mazecore.ID, img *mazecore.Image, ephemeral bool) (bot.Reply, error) {
	m, err := generateShaped(id, img)
	if err != nil {
		return bot.Reply{}, err
	}
	path := m.Solve()
	file, err := gridFile(l, m, path, look{}, "SPOILER_maze-"+id.String()+"-solution.png")
	if err != nil {
		return bot.Reply{}, err
	}
	header := l.T("solve.shaped_header", lang.Args{"Maze": shapedHeader(l, m), "Cells": lang.Number(len(path))})
	return views.Solution(header, views.Maze{ID: id, File: &file}, ephemeral), nil
}

// gridFile draws m (with path, when not nil) as a PNG attachment.
func gridFile(l *lang.Lang, m *mazecore.GridMaze, path []int, lk look, name string) (bot.File, error) {
	var buf bytes.Buffer
	if err := render.GridPNG(&buf, m, render.GridOptions{Path: path, Palette: lk.palette}); err != nil {
		return bot.File{}, fmt.Errorf("draw %s: %w", name, err)
	}
	alt := "alt.shaped"
	if path != nil {
		alt = "alt.shaped_solution"
	}
	return bot.File{Name: name, ContentType: "image/png", Data: buf.Bytes(), Description: l.T(alt, lang.Args{"Maze": shapeWords(m.ID()), "ID": m.ID().String()})}, nil
}

// shapeWords says what grid and shape a maze has (views.ShapeWords).
func shapeWords(id mazecore.ID) lang.Msg { return views.ShapeWords(id) }

// shapedHeader is the line above a shaped maze: its algorithm, grid and
// shape, loops, rating and par (as a square maze's), and ID.
func shapedHeader(l *lang.Lang, m *mazecore.GridMaze) string {
	return views.Header(l, views.Maze{ID: m.ID(), Shape: shapeWords(m.ID()), Rating: mazecore.RateGrid(m).Rating, Par: play.ParOnGrid(m)})
}

// countTrue counts the conditions that hold.
func countTrue(conds ...bool) int {
	n := 0
	for _, c := range conds {
		if c {
			n++
		}
	}
	return n
}
