package commands

import (
	"bytes"
	"context"
	"fmt"
	"unicode/utf8"

	"mazebot/bot"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// How a maze is shown, once, for every message that shows one: /maze,
// /solve, the daily, an event's maze and solution.

// Render modes of /maze: views.RenderModes, auto and the formats of
// render's table that are offered in Discord (Chat), by their names; the
// ones below are those a reply is laid out for.
const (
	renderAuto  = views.RenderAuto
	renderEmoji = "emoji"
	renderPNG   = "png"
)

// bigSide: a square maze up to this side is not a big picture: its PNG
// takes a few tens of milliseconds.
const bigSide = 301

// bigCost is the most work a reply may take and still come at once, in
// tiles drawn (cost): a PNG of bigSide×bigSide. Above it the reply defers
// at once and counts against the member's cooldown.
const bigCost = bigSide * bigSide

// cost is the work of the reply that shows id in mode, chosen at level,
// in tiles drawn: the maze's tiles, times the format's cost (the frames a
// GIF draws), times
// the candidates a difficulty generates and rates. It is what the
// cooldown follows, not the format: a 15×15 GIF is cheap, a 201×201 maze
// of a difficulty is not.
func cost(id mazecore.ID, mode string, level mazecore.Level) int {
	n := id.Width * id.Height
	if f, ok := render.FormatByName(mode); ok {
		n *= f.Cost // a GIF's frames: render's table says
	}
	if level != mazecore.AnyLevel {
		n *= mazecore.Candidates
	}
	return n
}

// big tells whether a reply of that cost defers at once and counts
// against the member's cooldown.
func big(cost int) bool { return cost > bigCost }

// pictured tells whether the reply that shows id in mode is made on the
// pool: a picture, or an emoji grid too big for a message, which is
// refused only once the maze is made.
func pictured(id mazecore.ID, mode string) bool {
	switch mode {
	case renderAuto:
		return views.AutoPicture(id)
	case renderEmoji:
		return id.Width > views.MaxEmojiSide || id.Height > views.MaxEmojiSide
	}
	return true // a file drawn by its row of render's table
}

// look is how a picture is drawn: /maze's theme (a palette) and style.
// The zero look is the default: dark, in the palette's own style.
type look struct {
	palette render.Palette
	style   render.Style
}

// parseLook reads /maze's theme and style options; "" is the default.
func parseLook(theme, style string) (look, error) {
	var lk look
	var err error
	if theme != "" {
		if lk.palette, err = render.ParsePalette(theme); err != nil {
			return lk, bot.RefuseWith(err, "error.unknown_theme", lang.Args{"Name": sanitize(theme), "Names": choiceNames("theme", render.PaletteNames())})
		}
	}
	if lk.style, err = render.ParseStyle(style); err != nil {
		return lk, bot.RefuseWith(err, "error.unknown_style", lang.Args{"Name": sanitize(style), "Names": choiceNames("style", render.StyleNames())})
	}
	return lk, nil
}

// choiceNames lists an option's choices as the reader's picker names them
// (choice.<option>.<value>), joined as the reader's language joins a list:
// a refusal offers what the member can pick, in their language.
func choiceNames(option string, values []string) lang.List {
	names := make(lang.List, len(values))
	for i, v := range values {
		names[i] = lang.M("choice." + option + "." + v)
	}
	return names
}

// chosen tells whether a theme or style was asked for.
func (lk look) chosen() bool { return lk != look{} }

// key names the look in a cache key: "" for the default.
func (lk look) key() string {
	if !lk.chosen() {
		return ""
	}
	return "|" + lk.palette.String() + "/" + lk.style.String()
}

// mazeKey and solutionKey are the cache keys of /maze's reply in a mode
// and of a maze's (public) solution, each in a language: the replies hold
// their words as well as their pictures.
func mazeKey(l *lang.Lang, id mazecore.ID, mode string, lk look) string {
	return "maze|" + l.Code() + "|" + mode + "|" + id.String() + lk.key()
}
func solutionKey(l *lang.Lang, id mazecore.ID) string {
	return "solution|" + l.Code() + "|" + id.String()
}

// showReply makes the reply to in that shows maze id in mode: on the
// picture queue when it is pictured, at once otherwise (emoji replies
// don't wait behind pictures).
func showReply(ctx context.Context, q *pictures.Queue, in *bot.Interaction, id mazecore.ID, mode string, req pictures.Request, build func() (bot.Reply, error)) (bot.Reply, error) {
	shown, err := showMaze(ctx, q, in, id, mode, req, func() (pictures.Shown, error) {
		reply, err := build()
		return pictures.Shown{Reply: reply}, err
	})
	return shown.Reply, err
}

// showMaze is showReply for a reply whose maze is chosen as it is made
// (a difficulty's): the maze comes back with the reply.
func showMaze(ctx context.Context, q *pictures.Queue, in *bot.Interaction, id mazecore.ID, mode string, req pictures.Request, build func() (pictures.Shown, error)) (pictures.Shown, error) {
	if !pictured(id, mode) {
		shown, err := build()
		shown.Reply.Ephemeral = req.Ephemeral
		return shown, err
	}
	return q.Show(ctx, in, req, build)
}

// showPost makes a post nobody asked for that shows maze id: on the
// queue's posts' pool when pictured, cached under key ("" for none).
func showPost(ctx context.Context, q *pictures.Queue, id mazecore.ID, key string, build func() (bot.Reply, error)) (bot.Reply, error) {
	if !pictured(id, renderAuto) {
		return build()
	}
	return q.Post(ctx, key, build)
}

// generate builds the maze of an ID that was validated on its way in: an
// error here is a bug, reported with the ID.
func generate(id mazecore.ID) (*mazecore.Maze, error) {
	if !id.Plain() {
		return nil, notPlain(id)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		return nil, fmt.Errorf("generate %v: %w", id, err)
	}
	return m, nil
}

// notPlain refuses a maze in a shape or on a polar or hex grid (a
// version 3 ID, which only the command line makes so far), saying how to
// draw it there.
func notPlain(id mazecore.ID) error {
	return bot.Refuse("error.maze_not_square", lang.Args{"ID": id.String()})
}

// describe measures m once for its messages: its rating and, for a maze
// Play takes, its par. Each searches the maze.
func describe(m *mazecore.Maze) views.Maze {
	v := views.Maze{ID: m.ID(), Rating: mazecore.Rate(m).Rating}
	if views.Playable(v.ID) {
		v.Par = play.Par(m)
	}
	return v
}

// emojiFits reports whether the maze, with overlay markers, fits in one
// message together with a header of the given length plus extra code points
// (newline, spoiler bars).
func emojiFits(m *mazecore.Maze, header string, extra int) bool {
	limit := views.MaxText - utf8.RuneCountInString(header) - extra
	return render.FitsEmoji(m, render.DefaultTheme, render.Window{}, limit)
}

// chooseEmoji decides between emoji and PNG for a render mode.
func chooseEmoji(m *mazecore.Maze, mode, header string, extra int) (bool, error) {
	switch mode {
	case renderEmoji:
		if !emojiFits(m, header, extra) {
			return false, bot.Refuse("error.emoji_too_big", lang.Args{"Size": views.Size(m.ID()), "Limit": lang.Number(views.MaxText), "Max": views.MaxEmojiSide})
		}
		return true, nil
	case renderPNG:
		return false, nil
	default:
		return m.Width() <= views.AutoEmojiMaxWidth && emojiFits(m, header, extra), nil
	}
}

// pictureOptions are how picture shows a maze. The zero value is the
// maze as render:auto shows it, below no header, its PNG attached.
type pictureOptions struct {
	mode   string // renderAuto (""), renderEmoji or renderPNG
	header string // the text above the maze
	extra  int    // code points around the grid besides the header: newline, spoiler bars
	// solution is drawn over the maze, whose PNG is then a spoiler.
	solution []mazecore.Point
	look     look // the PNG's theme and style
	// keepFile attaches no PNG: an edit that keeps the one already on
	// the message.
	keepFile bool
}

// picture is how v shows m as o asks: the emoji grid when the mode
// allows and it fits with the header, else a PNG (named for the maze,
// SPOILER_ for a solution) with its alt text in l.
func picture(l *lang.Lang, v *views.Maze, m *mazecore.Maze, o pictureOptions) error {
	ov := render.Overlay{Path: o.solution}
	emoji, err := chooseEmoji(m, o.mode, o.header, o.extra)
	if err != nil {
		return err
	}
	if emoji {
		v.Grid = views.Grid(m, ov, render.Window{})
		return nil
	}
	if !o.keepFile {
		shows, name := views.ShowsMaze, "maze-"+v.ID.String()+".png"
		if o.solution != nil {
			shows, name = views.ShowsSolution, "SPOILER_maze-"+v.ID.String()+"-solution.png"
		}
		file, err := pngFile(m, name, views.Alt(l, m.ID(), shows, mazecore.Point{}), ov, o.look)
		if err != nil {
			return err
		}
		v.File = &file
	}
	return nil
}

// pngFile draws m in lk as a PNG attachment described by alt.
func pngFile(m *mazecore.Maze, name, alt string, ov render.Overlay, lk look) (bot.File, error) {
	var buf bytes.Buffer
	if err := render.PNG(&buf, m, render.PNGOptions{Overlay: ov, Palette: lk.palette, Style: lk.style}); err != nil {
		return bot.File{}, fmt.Errorf("draw %s: %w", name, err)
	}
	return bot.File{Name: name, ContentType: contentType(renderPNG), Data: buf.Bytes(), Description: alt}, nil
}

// contentType is a format's, as render's table has it.
func contentType(format string) string {
	f, _ := render.FormatByName(format)
	return f.ContentType
}

// formatFile draws m as f, described in l: the file a card in a format
// other than emoji and PNG attaches. A format that replays the
// generation (FromID) shows the carving.
func formatFile(l *lang.Lang, m *mazecore.Maze, f render.Format, lk look) (bot.File, error) {
	var buf bytes.Buffer
	id := m.ID()
	if err := f.Write(&buf, m, render.Options{ID: id, Palette: lk.palette, Style: lk.style}); err != nil {
		return bot.File{}, fmt.Errorf("draw %s as %s: %w", id, f.Name, err)
	}
	shows := views.ShowsMaze
	if f.FromID {
		shows = views.ShowsCarving
	}
	return bot.File{Name: "maze-" + id.String() + f.Extension, ContentType: f.ContentType, Data: buf.Bytes(),
		Description: views.Alt(l, id, shows, mazecore.Point{})}, nil
}

// card is a maze's public message in mode, with its buttons: the maze as
// emoji or PNG (drawn in lk), or else the file of mode's row of render's
// table (a GIF of its generation, an SVG…); its buttons as setup and a
// place where no race can launch (noRace) make them.
func card(l *lang.Lang, m *mazecore.Maze, mode string, lk look, setup views.Setup, noRace bool) (bot.Reply, error) {
	v := describe(m)
	v.Setup, v.NoRace = setup, noRace
	if f, ok := render.FormatByName(mode); ok && mode != renderEmoji && mode != renderPNG {
		file, err := formatFile(l, m, f, lk)
		if err != nil {
			return bot.Reply{}, err
		}
		v.File = &file
		return views.FormatCard(l, v, mode), nil
	}
	if err := picture(l, &v, m, pictureOptions{mode: mode, header: views.Header(l, v), extra: 1, look: lk}); err != nil {
		return bot.Reply{}, err
	}
	return views.Card(l, v), nil
}

// solution is the spoilered solution of m.
func solution(l *lang.Lang, m *mazecore.Maze, ephemeral bool) (bot.Reply, error) {
	path := mazecore.Solve(m)
	v := views.Maze{ID: m.ID()}
	header := views.SolutionHeader(l, v.ID, len(path))
	if err := picture(l, &v, m, pictureOptions{header: header, extra: views.SpoilerExtra, solution: path}); err != nil {
		return bot.Reply{}, err
	}
	return views.Solution(header, v, ephemeral), nil
}
