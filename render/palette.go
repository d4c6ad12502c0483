package render

import (
	"errors"
	"fmt"
	"image/color"
	"strings"
)

// ErrUnknownName is returned (wrapped) by ParsePalette, ParseStyle and
// ParseEmojiTheme for a name they do not know; the message lists the
// names they do.
var ErrUnknownName = errors.New("unknown name")

// Palette is a picture's theme: the colours of a PNG, SVG, PDF and GIF, by
// kind of tile, the colours of the start and goal markers, whether the
// start and goal tiles are filled, and the style a picture takes when none
// is asked. The zero Palette is Dark. The palettes are the three below,
// each checked in a test: path against floor ≥ 3:1 and against walls ≥
// 3:1 (its outline where it touches them), and the overlay colours apart
// under the common colour-vision deficiencies.
type Palette struct {
	name    string
	colours [numKinds]color.RGBA
	markers [2]color.RGBA // the start's and the goal's, drawn beside the maze
	style   Style         // what StyleAuto means
}

var (
	// Dark is today's look: dark slate walls on warm white, ink-heavy.
	Dark = Palette{name: "dark", style: StyleBlock, colours: [numKinds]color.RGBA{
		kFloor:  rgb(0xf7f5f0), // warm white
		kWall:   rgb(0x1f2430), // dark slate
		kStart:  rgb(0x2f9e44), // green
		kGoal:   rgb(0xe03131), // red
		kPath:   rgb(0xcc5500), // burnt orange: 3.96:1 on the floor, 3.60:1 on the walls
		kTrail:  rgb(0x74c0fc), // light blue
		kPlayer: rgb(0x1f4fae), // blue, apart from the path and trail for every colour vision
	}, markers: [2]color.RGBA{rgb(0x2f9e44), rgb(0xe03131)}}

	// Light is less ink: warm grey walls on white, the path a dark rust
	// that stands out from both.
	Light = Palette{name: "light", style: StyleBlock, colours: [numKinds]color.RGBA{
		kFloor:  rgb(0xffffff),
		kWall:   rgb(0x90887c), // 3.50:1 on white
		kStart:  rgb(0x2f9e44),
		kGoal:   rgb(0xe03131),
		kPath:   rgb(0x6e1a0a), // 11.6:1 on white, 3.30:1 on the walls
		kTrail:  rgb(0x74c0fc),
		kPlayer: rgb(0x1f4fae),
	}, markers: [2]color.RGBA{rgb(0x2f9e44), rgb(0xe03131)}}

	// Print is black on white for paper: thin walls, no fills (the start
	// and goal are told by their markers' shapes), the solution grey.
	Print = Palette{name: "print", style: StyleLine, colours: [numKinds]color.RGBA{
		kFloor:  rgb(0xffffff),
		kWall:   rgb(0x000000),
		kStart:  rgb(0xffffff), // no fill
		kGoal:   rgb(0xffffff),
		kPath:   rgb(0x6a6a6a), // 5.41:1 on white, 3.88:1 on black
		kTrail:  rgb(0xa8a8a8),
		kPlayer: rgb(0x000000),
	}, markers: [2]color.RGBA{rgb(0x000000), rgb(0x000000)}}
)

// palettes are the picture themes, in the order names list them.
var palettes = []Palette{Dark, Light, Print}

func rgb(v uint32) color.RGBA {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// PaletteNames lists the picture themes' names: dark, light, print.
func PaletteNames() []string { return namesOf(palettes, Palette.String) }

// ParsePalette returns the picture theme of that name (any case); ""
// is Dark.
func ParsePalette(name string) (Palette, error) {
	if name == "" {
		return Dark, nil
	}
	return named("theme", name, palettes, Palette.String)
}

// namesOf lists the names of items.
func namesOf[T any](items []T, nameOf func(T) string) []string {
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = nameOf(it)
	}
	return names
}

// named returns the item of items called name (any case), or an error
// wrapping ErrUnknownName that lists the names.
func named[T any](what, name string, items []T, nameOf func(T) string) (T, error) {
	for _, it := range items {
		if strings.EqualFold(name, nameOf(it)) {
			return it, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("%s %q: %w: choose one of %s", what, name, ErrUnknownName, strings.Join(namesOf(items, nameOf), ", "))
}

func (p Palette) String() string { return p.orDefault().name }

func (p Palette) orDefault() Palette {
	if p.name == "" {
		return Dark
	}
	return p
}

// Style is how walls are drawn.
type Style uint8

const (
	// StyleAuto is the palette's style: line for Print, block otherwise.
	StyleAuto Style = iota
	// StyleBlock draws every tile as a square: walls as thick as
	// corridors, the tile model of the emoji grid and the text.
	StyleBlock
	// StyleLine draws thin walls between wide cells, as printed mazes
	// look.
	StyleLine
)

var styleNames = [...]string{StyleAuto: "auto", StyleBlock: "block", StyleLine: "line"}

// StyleNames lists the styles a member can ask for: block, line.
func StyleNames() []string { return []string{styleNames[StyleBlock], styleNames[StyleLine]} }

// ParseStyle returns the style of that name (any case); "" and "auto"
// are StyleAuto.
func ParseStyle(name string) (Style, error) {
	for s, n := range styleNames {
		if strings.EqualFold(name, n) || (name == "" && Style(s) == StyleAuto) {
			return Style(s), nil
		}
	}
	return StyleAuto, fmt.Errorf("style %q: %w: choose one of %s", name, ErrUnknownName, strings.Join(StyleNames(), ", "))
}

func (s Style) String() string {
	if int(s) < len(styleNames) {
		return styleNames[s]
	}
	return fmt.Sprintf("Style(%d)", s)
}

// resolve is the style a picture in palette p draws.
func (s Style) resolve(p Palette) Style {
	if s == StyleBlock || s == StyleLine {
		return s
	}
	return p.orDefault().style
}
