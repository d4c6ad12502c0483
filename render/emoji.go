package render

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"mazebot/mazecore"
)

// Theme holds the emoji of an emoji grid, one per kind of tile. An empty
// field falls back to DefaultTheme's, so a theme may change only some.
type Theme struct {
	Wall, Floor, Start, Goal, Path, Trail, Player string
	// Outside is a tile outside a maze's shape (GridEmoji): the
	// background the shape stands on.
	Outside string
}

// DefaultTheme uses raw emoji (Discord shows :shortcodes: only when a person
// types them), each a single code point with emoji presentation, so every
// tile costs exactly one of the 2000 code points a message may hold. It
// is the "brick" theme: its walls stand out from Discord's dark and light
// backgrounds alike (TestEmojiThemes has the figures), and the start and
// goal are a circle and a flag, not two squares told apart by colour.
var DefaultTheme = Theme{
	Wall:   "\U0001F7EB", // 🟫 brown square
	Floor:  "\u2B1C",     // ⬜ white large square
	Start:  "\U0001F7E2", // 🟢 green circle
	Goal:   "\U0001F3C1", // 🏁 chequered flag
	Path:   "\U0001F7E8", // 🟨 yellow square
	Trail:  "\U0001F7E6", // 🟦 blue square
	Player: "\U0001F42D", // 🐭 mouse face: a maze runner, unlike any square
	// ⬛ black large square: a shape stands out on it on Discord's dark
	// and light backgrounds alike, its outline walled in brick.
	Outside: "\u2B1B",
}

// EmojiTheme is an emoji theme by name, for a member to choose.
type EmojiTheme struct {
	Name string
	Theme
}

// EmojiThemes are the emoji themes offered by name, the default first.
// Each keeps the default's meaning (walls, floor, start, goal, path, trail,
// player) and is readable on Discord's dark and light backgrounds.
var EmojiThemes = []EmojiTheme{
	{"brick", DefaultTheme},
	// Dark corridors: on a dark background they are the page itself.
	{"cave", Theme{Wall: "\U0001F7EB", Floor: "\u2B1B", Start: "\U0001F7E2", Goal: "\U0001F3C1",
		Path: "\U0001F7E8", Trail: "\U0001F7E6", Player: "\U0001F42D", Outside: "\u2B1B"}},
}

// EmojiThemeNames lists the names of EmojiThemes.
func EmojiThemeNames() []string { return namesOf(EmojiThemes, EmojiTheme.name) }

func (t EmojiTheme) name() string { return t.Name }

// ParseEmojiTheme returns the emoji theme of that name (any case); "" is
// DefaultTheme.
func ParseEmojiTheme(name string) (Theme, error) {
	if name == "" {
		return DefaultTheme, nil
	}
	t, err := named("emoji theme", name, EmojiThemes, EmojiTheme.name)
	return t.Theme, err
}

func (t Theme) withDefaults() Theme {
	for _, f := range []struct {
		field *string
		def   string
	}{
		{&t.Wall, DefaultTheme.Wall}, {&t.Floor, DefaultTheme.Floor},
		{&t.Start, DefaultTheme.Start}, {&t.Goal, DefaultTheme.Goal},
		{&t.Path, DefaultTheme.Path}, {&t.Trail, DefaultTheme.Trail},
		{&t.Player, DefaultTheme.Player}, {&t.Outside, DefaultTheme.Outside},
	} {
		if *f.field == "" {
			*f.field = f.def
		}
	}
	return t
}

func (t Theme) byKind() [numKinds]string {
	return [numKinds]string{kFloor: t.Floor, kWall: t.Wall, kStart: t.Start, kGoal: t.Goal,
		kPath: t.Path, kTrail: t.Trail, kPlayer: t.Player}
}

// Window is a rectangle of tiles: X, Y is its top-left tile, W×H its size.
// The zero Window means the whole maze. Any other window is clipped to the
// maze, so a window reaching past the border shows only what is inside.
type Window struct{ X, Y, W, H int }

// clip returns the part of win inside m, the whole maze for the zero Window.
func (win Window) clip(m *mazecore.Maze) Window {
	if win == (Window{}) {
		return Window{0, 0, m.Width(), m.Height()}
	}
	x0, y0 := max(win.X, 0), max(win.Y, 0)
	x1, y1 := min(win.X+win.W, m.Width()), min(win.Y+win.H, m.Height())
	if x1 <= x0 || y1 <= y0 {
		return Window{X: x0, Y: y0}
	}
	return Window{x0, y0, x1 - x0, y1 - y0}
}

// WindowAround returns the w×h window centred on p and moved inside the
// maze, for play mode on mazes too big to show whole. A window larger than
// the maze shrinks to the maze.
func WindowAround(m *mazecore.Maze, p mazecore.Point, w, h int) Window {
	w, h = max(min(w, m.Width()), 1), max(min(h, m.Height()), 1)
	x := min(max(p.X-w/2, 0), m.Width()-w)
	y := min(max(p.Y-h/2, 0), m.Height()-h)
	return Window{x, y, w, h}
}

// Emoji writes the tiles of win (the whole maze for the zero Window) as an
// emoji grid: one emoji per tile, rows joined by "\n", no trailing newline.
func Emoji(w io.Writer, m *mazecore.Maze, theme Theme, ov Overlay, win Window) error {
	win = win.clip(m)
	mk := newMarks(m, ov, win)
	rows := newTileRows(m, byte(kFloor), byte(kWall))
	seg := segmentsFor(emojiSpeller(theme.withDefaults().byKind()))
	whole := win.X == 0 && win.W == m.Width()
	tiles := newRow(m)
	block := seg.block(win.W, win.H)
	for y := win.Y; y < win.Y+win.H; y++ {
		if cap(block)-len(block) < seg.room(win.W)+1 {
			if _, err := w.Write(block); err != nil {
				return err
			}
			block = block[:0]
		}
		if y > win.Y {
			block = append(block, '\n')
		}
		rows.fill(tiles[:cap(tiles)], y)
		row := tiles[win.X : win.X+win.W]
		mk.mark(row, y, win.X, &identity)
		block = seg.row(block, rows, y, row, mk.at(y), whole)
	}
	_, err := w.Write(block)
	return err
}

// emojiSpeller spells a tile as its emoji.
type emojiSpeller [numKinds]string

func (e emojiSpeller) spell(dst []byte, _, k kind) []byte { return append(dst, e[k]...) }

// EmojiString is Emoji into a string.
func EmojiString(m *mazecore.Maze, theme Theme, ov Overlay, win Window) string {
	var sb strings.Builder
	c := win.clip(m)
	sb.Grow(c.W*c.H*4 + c.H)          // most emoji are 4 bytes of UTF-8
	_ = Emoji(&sb, m, theme, ov, win) // a strings.Builder never fails
	return sb.String()
}

// EmojiLength returns how many code points (what Discord counts) the emoji
// grid of win takes, without building it. It holds for any overlay: each
// floor tile counts at the longest of the Floor, Path, Trail and Player
// emoji, and the start and goal at the longer of theirs and Player. With a
// theme whose emoji are equally long, such as DefaultTheme, it is exact.
func EmojiLength(m *mazecore.Maze, theme Theme, win Window) int {
	win = win.clip(m)
	if win.W == 0 {
		return 0
	}
	t := theme.withDefaults()
	n := utf8.RuneCountInString
	floor := max(n(t.Floor), n(t.Path), n(t.Trail), n(t.Player))
	wall := n(t.Wall)
	walls := 0
	rows, tiles := newTileRows(m, byte(kFloor), byte(kWall)), newRow(m)
	for y := win.Y; y < win.Y+win.H; y++ {
		rows.fill(tiles[:cap(tiles)], y)
		walls += bytes.Count(tiles[win.X:win.X+win.W], []byte{byte(kWall)})
	}
	total := walls*wall + (win.W*win.H-walls)*floor + win.H - 1 // newlines between rows
	inside := func(p mazecore.Point) bool {
		return p.X >= win.X && p.Y >= win.Y && p.X < win.X+win.W && p.Y < win.Y+win.H
	}
	if inside(m.Start()) {
		total += max(n(t.Start), n(t.Player)) - floor
	}
	if inside(m.Goal()) {
		total += max(n(t.Goal), n(t.Player)) - floor
	}
	return total
}

// FitsEmoji reports whether the emoji grid of win fits in limit code points
// (2000 for message content, 4096 for an embed description), whatever the
// overlay. An empty window never fits: there would be nothing to show.
func FitsEmoji(m *mazecore.Maze, theme Theme, win Window, limit int) bool {
	n := EmojiLength(m, theme, win)
	return n > 0 && n <= limit
}
