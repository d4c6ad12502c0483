package mazecore

import (
	"errors"
	"fmt"
	"strings"
)

// ShapeKind says where a mask comes from. The numbers are part of the
// maze ID format (version 3) and must never change.
type ShapeKind uint8

const (
	NoShape     ShapeKind = 0 // the whole rectangle (or the polar grid's disc)
	PresetShape ShapeKind = 1 // one of the Presets, drawn to the grid's size
	TextShape   ShapeKind = 2 // text in the embedded bitmap font
)

// Shape names a mask that can be drawn again from the ID alone: a preset
// or a text, each with the version of its drawing, so that a later change
// to a preset or to the font keeps every older ID's maze.
type Shape struct {
	Kind    ShapeKind
	Preset  Preset   // PresetShape
	Text    string   // TextShape: upper-case letters, digits and spaces
	Version uint8    // the preset's, the font's or the image mask's version
	Hash    [16]byte // ImageShape: the image's Hash
}

// Preset is a built-in shape. The numbers are part of the maze ID format.
type Preset uint8

const (
	Circle   Preset = 1
	Ring     Preset = 2
	Heart    Preset = 3
	Star     Preset = 4
	Diamond  Preset = 5
	Triangle Preset = 6
	Hexagon  Preset = 7
)

// presetNames are in the order lists show them.
var presetNames = [...]string{Circle: "circle", Ring: "ring", Heart: "heart", Star: "star", Diamond: "diamond", Triangle: "triangle", Hexagon: "hexagon"}

// Presets lists the presets in a stable order.
var Presets = []Preset{Circle, Ring, Heart, Star, Diamond, Triangle, Hexagon}

// presetVersion is the version of every preset's drawing today; Shape.Mask
// keeps drawing older versions as they were.
const presetVersion = 1

func (p Preset) String() string {
	if p.Valid() {
		return presetNames[p]
	}
	return fmt.Sprintf("preset(%d)", uint8(p))
}

// Valid reports whether p is one of the presets.
func (p Preset) Valid() bool { return p >= Circle && int(p) < len(presetNames) }

// PresetNames returns the presets' names in order.
func PresetNames() []string { return presetNames[1:] }

// ErrUnknownShape is matched by the error of ParseShape for a name it does
// not know.
var ErrUnknownShape = errors.New("unknown shape")

// ParseShape returns the preset shape of that name (any case), at today's
// version.
func ParseShape(name string) (Shape, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, p := range Presets {
		if presetNames[p] == key {
			return Shape{Kind: PresetShape, Preset: p, Version: presetVersion}, nil
		}
	}
	return Shape{}, fmt.Errorf("%w %q: choose one of %s", ErrUnknownShape, name, strings.Join(PresetNames(), ", "))
}

// TextShapeOf returns the shape of a text (up to MaxTextLength letters,
// digits and spaces; lower case is drawn as upper case), at today's font.
func TextShapeOf(text string) (Shape, error) {
	t := strings.ToUpper(strings.Join(strings.Fields(text), " "))
	if err := checkText(t); err != nil {
		return Shape{}, err
	}
	return Shape{Kind: TextShape, Text: t, Version: fontVersion}, nil
}

// String names the shape for people: "", "heart", "text \"HI\"".
func (s Shape) String() string {
	switch s.Kind {
	case PresetShape:
		return s.Preset.String()
	case TextShape:
		return fmt.Sprintf("text %q", s.Text)
	case ImageShape:
		return fmt.Sprintf("image %x", s.Hash[:4])
	}
	return ""
}

// validate checks a shape read from an ID or built by a caller.
func (s Shape) validate() error {
	switch s.Kind {
	case NoShape:
		if s != (Shape{}) {
			return errors.New("a shape of kind none has no preset, text or version")
		}
	case PresetShape:
		if !s.Preset.Valid() {
			return fmt.Errorf("%w: preset number %d", ErrUnknownShape, s.Preset)
		}
		if s.Version != presetVersion || s.Text != "" || s.Hash != [16]byte{} {
			return fmt.Errorf("%w: %s version %d", ErrUnknownShape, s.Preset, s.Version)
		}
	case TextShape:
		if s.Version != fontVersion || s.Preset != 0 || s.Hash != [16]byte{} {
			return fmt.Errorf("%w: font version %d", ErrUnknownShape, s.Version)
		}
		if s.Text != strings.Join(strings.Fields(s.Text), " ") || s.Text != strings.ToUpper(s.Text) {
			return fmt.Errorf("%w: text %q is not in its one spelling", ErrUnknownShape, s.Text)
		}
		return checkText(s.Text)
	case ImageShape:
		if s.Version != imageVersion || s.Preset != 0 || s.Text != "" {
			return fmt.Errorf("%w: image mask version %d", ErrUnknownShape, s.Version)
		}
	default:
		return fmt.Errorf("%w: shape kind %d", ErrUnknownShape, s.Kind)
	}
	return nil
}

// Mask draws the shape on a cols × rows grid of kind. A preset is
// stretched to the rectangle; a thin tip that falls apart from the rest
// at a small size is left out. A text is scaled up to the rectangle,
// which must be at least as large as its bitmap (TextSize). The mask is
// checked (Mask.Check) before it is returned.
func (s Shape) Mask(kind GridKind, cols, rows int) (*Mask, error) {
	return s.maskWith(kind, cols, rows, nil)
}

// maskWith is Mask, with the image of an image's shape.
func (s Shape) maskWith(kind GridKind, cols, rows int, img *Image) (*Mask, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	var m *Mask
	switch s.Kind {
	case PresetShape:
		in := presetTests[s.Preset]
		m = NewMask(cols, rows, func(c, r int) bool {
			// The cell's centre in units of 1/unit of the half-width
			// and half-height, from −unit to unit: integers only, so
			// that no CPU's floating point moves a cell.
			u := (2*c + 1 - cols) * unit / cols
			v := (2*r + 1 - rows) * unit / rows
			return in(u, v)
		}).largestPiece(kind)
	case TextShape:
		bm := textBitmap(s.Text)
		w, h := len(bm[0]), len(bm)
		if cols < w || rows < h {
			return nil, &MaskError{Reason: fmt.Sprintf("the text %q needs a maze of at least %d×%d cells (%d×%d tiles)", s.Text, w, h, 2*w+1, 2*h+1), Code: TextTooSmall, N: w, M: h, Text: s.Text}
		}
		m = NewMask(cols, rows, func(c, r int) bool { return bm[r*h/rows][c*w/cols] })
	case ImageShape:
		if img == nil || img.Hash() != s.Hash {
			return nil, fmt.Errorf("mask: %w: give the image it was made from", ErrNeedsImage)
		}
		m = imageMask(img, cols, rows)
	default:
		return nil, errors.New("mask: the shape has no mask")
	}
	if err := m.Check(kind); err != nil {
		return nil, err
	}
	return m, nil
}

// unit is the presets' fixed-point scale: a preset sees cell centres at
// −unit to unit across and down.
const unit = 10000

// presetTests says, for each preset at version 1, whether the point (u,
// v), v growing down, lies inside.
var presetTests = [...]func(u, v int) bool{
	Circle: func(u, v int) bool { return u*u+v*v <= unit*unit },
	Ring: func(u, v int) bool {
		d := u*u + v*v
		return d <= unit*unit && d >= 45*45*unit*unit/100/100
	},
	Diamond:  func(u, v int) bool { return abs(u)+abs(v) <= unit },
	Triangle: func(u, v int) bool { return 2*abs(u) <= v+unit }, // apex up
	// Flat sides up and down, corners left and right: a hex grid's cells
	// in a hexagon of their own shape.
	Hexagon: func(u, v int) bool { return 2*abs(u)+abs(v) <= 2*unit },
	Heart: func(u, v int) bool {
		// A square standing on a corner, with a half disc on each of its
		// upper sides: d is its half-diagonal, c its centre's height, so
		// that the heart spans −unit to unit across and is centred down.
		const d, c = 8284, 856
		if abs(u)+abs(v-c) <= d {
			return true
		}
		lobe := func(x int) bool { x, y := u-x, v-(c-d/2); return 2*(x*x+y*y) <= d*d }
		return lobe(d/2) || lobe(-d/2)
	},
	Star: func(u, v int) bool {
		// Five points up, the inner corners at half the outer radius,
		// centred down: inside when inside one of the ten triangles from
		// the centre to two corners next to each other.
		v -= 955
		for i := range starCorners {
			a, b := starCorners[i], starCorners[(i+1)%len(starCorners)]
			if cross(a, b, u, v) >= 0 && cross([2]int{0, 0}, a, u, v) >= 0 && cross(b, [2]int{0, 0}, u, v) >= 0 {
				return true
			}
		}
		return false
	},
}

// starCorners are the star's corners clockwise from the top: round(unit ·
// (cos, sin)) of −90° + 36°·k, the inner ones at half the radius.
var starCorners = [10][2]int{
	{0, -10000}, {2939, -4045}, {9511, -3090}, {4755, 1545}, {5878, 8090},
	{0, 5000}, {-5878, 8090}, {-4755, 1545}, {-9511, -3090}, {-2939, -4045},
}

// cross is the z of (b − a) × (p − a): ≥ 0 when p lies right of a→b or on
// it, y growing down, so clockwise.
func cross(a, b [2]int, x, y int) int {
	return (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
