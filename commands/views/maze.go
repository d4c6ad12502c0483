package views

import (
	"regexp"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// MaxRating is the top of mazecore.Rate's scale (1 to 5).
const MaxRating = 5

// Maze is a maze as a message shows it: what it is, how hard, and its
// picture, an emoji grid or an attachment (neither: the message keeps the
// attachment it has).
type Maze struct {
	ID     mazecore.ID
	Rating int // mazecore.Rate's, 1–5
	Par    int // play.Par's; 0 for a maze Play does not take
	Grid   string
	File   *bot.File
	// Setup is the configuration the card's buttons depend on (Row).
	Setup Setup
	// NoRace: the card stands where no race can launch (a DM or group DM
	// without the member's own install of the app).
	NoRace bool
	// Shape says what grid and shape a maze not on the whole square grid
	// has ("circular, 12 rings"), written where a square maze's size is;
	// nil for a square maze. It is rated by mazecore.RateGrid.
	Shape lang.Localizable
}

// IDTag is how every message names its maze; IDInContent reads it back,
// so that "Solve this maze" finds the maze of a message without buttons.
// It is a marker, not a word: the same in every language.
func IDTag(id mazecore.ID) string { return "ID `" + id.String() + "`" }

var idInContent = regexp.MustCompile("ID `([0-9a-zA-Z]{1,64})`")

// IDInContent finds the maze a message's text names by its IDTag.
func IDInContent(content string) (mazecore.ID, bool) {
	match := idInContent.FindStringSubmatch(content)
	if match == nil {
		return mazecore.ID{}, false
	}
	id, err := mazecore.Parse(match[1])
	return id, err == nil
}

// AlgorithmTitle is an algorithm's name at the start of a line or in
// bold, and AlgorithmName in running text ("an 11×11 sidewinder maze").
func AlgorithmTitle(a mazecore.Algorithm) lang.Msg {
	return lang.M("algorithm." + a.String() + ".title")
}

// AlgorithmName is an algorithm's name in running text.
func AlgorithmName(a mazecore.Algorithm) lang.Msg { return lang.M("algorithm." + a.String()) }

// Size writes a maze's size, "21×21".
func Size(id mazecore.ID) lang.Msg {
	return lang.M("format.size", lang.Args{"Width": id.Width, "Height": id.Height})
}

// Side writes a square size, "201×201".
func Side(side int) lang.Msg { return Size(mazecore.ID{Width: side, Height: side}) }

// MazeChoice names maze id in an autocomplete list: "Sidewinder 21×21 ·
// 2840g1w3", well inside Discord's 100 characters.
func MazeChoice(l *lang.Lang, id mazecore.ID) string {
	return AlgorithmTitle(id.Algorithm).In(l) + " " + Size(id).In(l) + " · " + id.String()
}

// AutoPicture tells whether render:auto shows maze id as a picture: wider
// than a phone's row, or taller than a message holds.
func AutoPicture(id mazecore.ID) bool {
	return id.Width > AutoEmojiMaxWidth || id.Height > MaxEmojiSide
}

// Playable tells whether Play takes maze id.
func Playable(id mazecore.ID) bool { return id.Width <= play.MaxSide && id.Height <= play.MaxSide }

// Header is the line above a maze: what it is, how hard (rating and, for
// a maze Play takes, par) and how to get it again.
func Header(l *lang.Lang, m Maze) string {
	id := m.ID
	var size lang.Localizable = Size(id)
	if m.Shape != nil {
		size = m.Shape
	}
	parts := []string{"🧩 **" + AlgorithmTitle(id.Algorithm).In(l) + "**", size.In(l)}
	if id.Loops > 0 {
		parts = append(parts, l.T("maze.loops", lang.Args{"Loops": lang.Percent(id.Loops)}))
	}
	if m.Rating > 0 {
		parts = append(parts, Stars(m.Rating))
	}
	if Playable(id) {
		parts = append(parts, l.T("maze.par", lang.Args{"Par": lang.Number(m.Par)}))
	} else {
		parts = append(parts, l.T("maze.too_big_to_play", lang.Args{"Max": Side(play.MaxSide)}))
	}
	return strings.Join(append(parts, IDTag(id)), " · ")
}

// Stars shows a rating out of MaxRating: ★★★☆☆ for 3.
func Stars(rating int) string {
	return strings.Repeat("★", rating) + strings.Repeat("☆", max(MaxRating-rating, 0))
}

// OverPar writes clicks against par: "+2", "−1" (a minus sign, not a
// hyphen) or "±0", the number grouped as the reader's language writes it
// ("+1.234" in German).
func OverPar(clicks, par int) lang.Func {
	return func(l *lang.Lang) string {
		switch d := clicks - par; {
		case d > 0:
			return "+" + l.Int(int64(d))
		case d < 0:
			return "−" + l.Int(int64(-d))
		}
		return "±0"
	}
}

// Shape describes a maze made from settings, for the confirmations of
// /daily setup and /event start: "Recursive backtracking, 25×25, hard,
// loops 30%".
func Shape(algo mazecore.Algorithm, side int, level mazecore.Level, loops int) lang.List {
	parts := lang.List{AlgorithmTitle(algo), Side(side)}
	if level != mazecore.AnyLevel {
		parts = append(parts, lang.M("choice.difficulty."+level.String()))
	}
	if loops > 0 {
		parts = append(parts, lang.M("maze.loops", lang.Args{"Loops": lang.Percent(loops)}))
	}
	return parts
}

// Show is a card of m below header: the grid in a text display of its
// own, or the picture, then the buttons.
func Show(header string, m Maze, buttons []discordgo.MessageComponent) bot.Reply {
	return card(filesOf(m.File), text(header), text(m.Grid), picture(m.File, false), buttons)
}

// Card is the public reply that shows a maze, with /maze's buttons.
func Card(l *lang.Lang, m Maze) bot.Reply { return Show(Header(l, m), m, Row(l, m, OnMaze)) }

// FormatCard is the public reply that shows a maze as a file of render's
// table in format (its File), with /maze's buttons: an image Discord
// shows in a message (a GIF) in the card, any other (an SVG, a PDF) as a
// file to open. The header ends with the format's caption
// (maze.caption.<format>) when the catalog has one.
func FormatCard(l *lang.Lang, m Maze, format string) bot.Reply {
	header := Header(l, m)
	if key := "maze.caption." + format; l.Has(key) {
		header += " · " + l.T(key)
	}
	if m.File != nil && !Inline(m.File.ContentType) {
		return card(filesOf(m.File), text(header),
			[]part{discordgo.FileComponent{File: discordgo.UnfurledMediaItem{URL: "attachment://" + m.File.Name}}},
			Row(l, m, OnMaze))
	}
	return Show(header, m, Row(l, m, OnMaze))
}

// Inline tells whether Discord shows a file of contentType in a message
// (a media gallery takes it): raster images do; an SVG, a PDF or text is
// a file to open.
func Inline(contentType string) bool {
	switch contentType {
	case "image/png", "image/gif", "image/jpeg", "image/webp":
		return true
	}
	return false
}

// PrintMaxSide is the largest side /maze offers Print for: on an A4 or
// Letter page (180 mm inside its margins) a tile of 101 is 1.8 mm, as
// narrow as a pencil line can follow without touching the walls.
const PrintMaxSide = 101

// Printable tells whether maze id gets a Print button.
func Printable(id mazecore.ID) bool { return id.Width <= PrintMaxSide && id.Height <= PrintMaxSide }

// Printout is the private reply to Print: the PDF of maze id, page 1
// the maze and page 2 its solution, on paper (its name in l).
func Printout(l *lang.Lang, id mazecore.ID, paper string, f bot.File) bot.Reply {
	reply := card(filesOf(&f), text(l.T("print.ready", lang.Args{"Algorithm": AlgorithmTitle(id.Algorithm), "Size": Size(id), "ID": IDTag(id), "Paper": paper})),
		[]part{discordgo.FileComponent{File: discordgo.UnfurledMediaItem{URL: "attachment://" + f.Name}}})
	reply.Ephemeral = true
	return reply
}

// SolutionHeader is the line above a maze's solution, whose path is
// pathTiles long.
func SolutionHeader(l *lang.Lang, id mazecore.ID, pathTiles int) string {
	return l.T("solve.header", lang.Args{
		"Algorithm": AlgorithmTitle(id.Algorithm), "Size": Size(id), "ID": IDTag(id),
		"Path": lang.M("count.tiles", lang.Args{"Count": pathTiles}),
	})
}

// SpoilerExtra is what Solution adds around a grid, in code points.
const SpoilerExtra = len("\n||||")

// Solution is a maze's solution under header, spoilered: one spoiler
// around the whole grid (Discord renders only about 198 spoiler tags a
// message), or the picture spoilered, also by its name (SPOILER_…).
func Solution(header string, m Maze, ephemeral bool) bot.Reply {
	grid := ""
	if m.Grid != "" {
		grid = "||" + m.Grid + "||"
	}
	reply := card(filesOf(m.File), text(header), text(grid), picture(m.File, true))
	reply.Ephemeral = ephemeral
	return reply
}

// Grid is the emoji grid of a maze in the default theme.
func Grid(m *mazecore.Maze, ov render.Overlay, win render.Window) string {
	return render.EmojiString(m, render.DefaultTheme, ov, win)
}

// ShapeWords says what grid and shape a maze has: "a heart, 20×20
// cells", "circular, 12 rings".
func ShapeWords(id mazecore.ID) lang.Msg {
	args := lang.Args{"Width": id.Width, "Height": id.Height, "Text": id.Shape.Text}
	if id.GridKind == mazecore.Square {
		args["Width"], args["Height"] = id.Width/2, id.Height/2
	}
	switch {
	case id.Shape.Kind == mazecore.PresetShape:
		args["Shape"] = lang.M("choice.shape." + id.Shape.Preset.String())
		return lang.M("maze.shape."+id.GridKind.String(), args)
	case id.Shape.Kind == mazecore.TextShape:
		return lang.M("maze.text."+id.GridKind.String(), args)
	}
	return lang.M("maze.grid."+id.GridKind.String(), args)
}
