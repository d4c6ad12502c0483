package commands

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// Limits of what the bot draws in Discord.
const (
	// AutoEmojiMaxWidth is the widest maze render:auto shows as emoji. A
	// phone in portrait fits about 25 emoji on a line before wrapping, and a
	// wrapped grid is unreadable, so wider mazes become a PNG.
	AutoEmojiMaxWidth = 25
	// MaxContent is Discord's message content limit in code points.
	MaxContent = 2000
	// PNGMaxSide is the largest side drawn as a PNG; 1001 tiles at the
	// automatic scale stays far below the 10 MiB upload limit.
	PNGMaxSide = 1001
	// slowPNGTiles: above this many tiles a PNG may take long enough that
	// the handler defers before drawing.
	slowPNGTiles = 301 * 301
	// DifficultyMaxSide is the largest side a difficulty is chosen for.
	// Choosing makes and rates mazecore.Candidates mazes: about 40 ms at
	// 201×201, growing with the area to about a second at 1001×1001,
	// which would be a second of CPU for anyone's /maze. 201 is also the
	// largest maze Play takes, and difficulty is about playing.
	DifficultyMaxSide = play.MaxSide
	// maxRating is the top of mazecore.Rate's scale (1 to 5).
	maxRating = 5
)

// Render modes of /maze.
const (
	renderAuto  = "auto"
	renderEmoji = "emoji"
	renderPNG   = "png"
	renderGIF   = "gif"
)

// idTag is how every message names its maze; idInContent reads it back,
// so that "Solve this maze" finds the maze of a message without buttons.
// It is a marker, not a word: the same in every language.
func idTag(id mazecore.ID) string { return "ID `" + id.String() + "`" }

var idInContent = regexp.MustCompile("ID `([0-9a-zA-Z]{1,40})`")

// algorithmTitle is an algorithm's name at the start of a line or in bold,
// and algorithmName in running text ("an 11×11 sidewinder maze").
func algorithmTitle(a mazecore.Algorithm) lang.Msg {
	return lang.M("algorithm." + a.String() + ".title")
}
func algorithmName(a mazecore.Algorithm) lang.Msg { return lang.M("algorithm." + a.String()) }

// sizeOf writes a maze's size, "21×21".
func sizeOf(id mazecore.ID) lang.Msg {
	return lang.M("format.size", lang.Args{"Width": id.Width, "Height": id.Height})
}

// mazeHeader is the line above a maze: what it is, how hard (rating and,
// for a maze Play takes, par) and how to get it again. Rating and par each
// search the maze, so a message builds its header once.
func mazeHeader(l *lang.Lang, m *mazecore.Maze) string {
	id := m.ID()
	parts := []string{"🧩 **" + algorithmTitle(id.Algorithm).In(l) + "**", sizeOf(id).In(l)}
	if id.Loops > 0 {
		parts = append(parts, l.T("maze.loops", lang.Args{"Loops": id.Loops}))
	}
	parts = append(parts, stars(mazecore.Rate(m).Rating))
	if playable(id) {
		parts = append(parts, l.T("maze.par", lang.Args{"Par": play.Par(m)}))
	}
	return strings.Join(append(parts, idTag(id)), " · ")
}

// stars shows a rating out of maxRating: ★★★☆☆ for 3.
func stars(rating int) string {
	return strings.Repeat("★", rating) + strings.Repeat("☆", max(maxRating-rating, 0))
}

// overPar writes clicks against par: "+2", "−1" (a minus sign, not a
// hyphen) or "±0".
func overPar(clicks, par int) string {
	switch d := clicks - par; {
	case d > 0:
		return fmt.Sprintf("+%d", d)
	case d < 0:
		return fmt.Sprintf("−%d", -d)
	}
	return "±0"
}

// shape describes a maze made from settings, for the confirmations of
// /daily setup and /event start: "Recursive backtracking, 25×25, hard,
// loops 30 %".
func shape(algo mazecore.Algorithm, side int, level mazecore.Level, loops int) lang.List {
	parts := lang.List{algorithmTitle(algo), sizeOf(mazecore.ID{Width: side, Height: side})}
	if level != mazecore.AnyLevel {
		parts = append(parts, lang.M("choice.difficulty."+level.String()))
	}
	if loops > 0 {
		parts = append(parts, lang.M("maze.loops", lang.Args{"Loops": loops}))
	}
	return parts
}

// chooseLevel is the maze of the level among the candidates of id, whose
// size and loops were checked on their way in.
func chooseLevel(id mazecore.ID, level mazecore.Level) (mazecore.ID, error) {
	chosen, err := mazecore.Choose(id, level)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("choose %s maze from %v: %w", level, id, err)
	}
	return chosen, nil
}

// generate builds the maze of an ID that was validated on its way in: an
// error here is a bug, reported with the ID.
func generate(id mazecore.ID) (*mazecore.Maze, error) {
	m, err := mazecore.Generate(id)
	if err != nil {
		return nil, fmt.Errorf("generate %v: %w", id, err)
	}
	return m, nil
}

// emojiFits reports whether the maze, with overlay markers, fits in one
// message together with a header of the given length plus extra code points
// (newline, spoiler bars).
func emojiFits(m *mazecore.Maze, header string, extra int) bool {
	limit := MaxContent - utf8.RuneCountInString(header) - extra
	return render.FitsEmoji(m, render.DefaultTheme, render.Window{}, limit)
}

// chooseEmoji decides between emoji and PNG for a render mode.
func chooseEmoji(m *mazecore.Maze, mode, header string, extra int) (bool, error) {
	switch mode {
	case renderEmoji:
		if !emojiFits(m, header, extra) {
			return false, refuse("error.emoji_too_big", lang.Args{"Size": sizeOf(m.ID()), "Limit": MaxContent, "Max": maxEmojiSide})
		}
		return true, nil
	case renderPNG:
		return false, nil
	default:
		return m.Width() <= AutoEmojiMaxWidth && emojiFits(m, header, extra), nil
	}
}

// pngFile draws m as a PNG attachment.
func pngFile(m *mazecore.Maze, name string, ov render.Overlay) (File, error) {
	var buf bytes.Buffer
	if err := render.PNG(&buf, m, render.PNGOptions{Overlay: ov}); err != nil {
		return File{}, fmt.Errorf("draw %s: %w", name, err)
	}
	return File{Name: name, ContentType: "image/png", Data: buf.Bytes()}, nil
}

// gifFile animates the generation of id.
func gifFile(id mazecore.ID) (File, error) {
	var buf bytes.Buffer
	if err := render.GIF(&buf, id, render.GIFOptions{}); err != nil {
		return File{}, fmt.Errorf("animate %s: %w", id, err)
	}
	return File{Name: "maze-" + id.String() + ".gif", ContentType: "image/gif", Data: buf.Bytes()}, nil
}

// mazeMessage builds the public reply that shows a maze, with its buttons.
func mazeMessage(l *lang.Lang, m *mazecore.Maze, mode string) (Reply, error) {
	reply, err := showMaze(l, m, mode, mazeHeader(l, m), true)
	reply.Components = mazeButtons(l, m.ID())
	return reply, err
}

// showMaze is the content of a message that shows m below header: the emoji
// grid when mode allows and it fits, else a PNG (or, for render:gif, the
// animation). withFile false leaves the picture out, for an edit that keeps
// the attachment already on the message.
func showMaze(l *lang.Lang, m *mazecore.Maze, mode, header string, withFile bool) (Reply, error) {
	id := m.ID()
	if mode == renderGIF {
		file, err := gifFile(id)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Content: header + " · " + l.T("maze.gif_caption"), Files: []File{file}}, nil
	}
	emoji, err := chooseEmoji(m, mode, header, 1)
	if err != nil {
		return Reply{}, err
	}
	if emoji {
		return Reply{Content: header + "\n" + render.EmojiString(m, render.DefaultTheme, render.Overlay{}, render.Window{})}, nil
	}
	reply := Reply{Content: header}
	if withFile {
		file, err := pngFile(m, "maze-"+id.String()+".png", render.Overlay{})
		if err != nil {
			return Reply{}, err
		}
		reply.Files = []File{file}
	}
	return reply, nil
}

// solutionMessage builds the spoilered solution of m.
func solutionMessage(l *lang.Lang, m *mazecore.Maze, ephemeral bool) (Reply, error) {
	id := m.ID()
	path := mazecore.Solve(m)
	header := l.T("solve.header", lang.Args{
		"Algorithm": algorithmTitle(id.Algorithm), "Size": sizeOf(id), "ID": idTag(id),
		"Path": lang.M("count.tiles", lang.Args{"Count": len(path)}),
	})
	ov := render.Overlay{Path: path}
	emoji, err := chooseEmoji(m, renderAuto, header, len("\n||||"))
	if err != nil {
		return Reply{}, err
	}
	reply := Reply{Ephemeral: ephemeral}
	if emoji {
		// One spoiler around the whole grid: Discord renders only about 198
		// spoiler tags a message.
		reply.Content = header + "\n||" + render.EmojiString(m, render.DefaultTheme, ov, render.Window{}) + "||"
		return reply, nil
	}
	file, err := pngFile(m, "SPOILER_maze-"+id.String()+"-solution.png", ov)
	if err != nil {
		return Reply{}, err
	}
	reply.Content = header
	reply.Files = []File{file}
	return reply, nil
}

// Custom ID prefixes of the maze message's buttons.
const solvePrefix = "solve"

// mazeButtons are Play (for mazes small enough to play) and Solve.
func mazeButtons(l *lang.Lang, id mazecore.ID) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	if playable(id) {
		buttons = append(buttons, playButtonFor(l, id))
	}
	buttons = append(buttons, discordgo.Button{Label: l.T("button.solve"), Style: discordgo.SecondaryButton, CustomID: solvePrefix + ":" + id.String(), Emoji: &discordgo.ComponentEmoji{Name: "🔎"}})
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
}

// playable tells whether Play takes maze id.
func playable(id mazecore.ID) bool { return id.Width <= play.MaxSide && id.Height <= play.MaxSide }

// playButtonFor is the Play button of maze id.
func playButtonFor(l *lang.Lang, id mazecore.ID) discordgo.Button {
	return discordgo.Button{Label: l.T("button.play"), Style: discordgo.PrimaryButton, CustomID: playPrefix + ":" + id.String(), Emoji: &discordgo.ComponentEmoji{Name: "🎮"}}
}
