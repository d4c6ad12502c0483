package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// message is a bot message to draw: its components (Components V2), the
// files they show by name, and what Discord shows around it.
type message struct {
	command    string // the interaction it answers: "/maze", "Play"
	components []discordgo.MessageComponent
	files      map[string][]byte
	ephemeral  bool // "Only you can see this" under it
}

// Sizes in CSS pixels as Discord's desktop client lays out a message; the
// picture has scale device pixels to each.
const (
	scale      = 2
	width      = 520 // the picture
	margin     = 16
	avatar     = 40
	contentX   = margin + avatar + 16 // where a message's content starts
	padding    = 16                   // inside a container
	accentBar  = 4
	gap        = 8 // between a container's parts
	textSize   = 16
	lineHeight = 22
	emojiSize  = 22 // an emoji in text
	buttonH    = 32
	buttonPad  = 16
	buttonGap  = 8
	buttonText = 14
	buttonIcon = 18
)

// Discord's dark theme.
var (
	background = hexColour(0x313338)
	container  = hexColour(0x2b2d31)
	textColour = hexColour(0xdbdee1)
	strong     = hexColour(0xf2f3f5)
	muted      = hexColour(0x949ba4)
	codeBack   = hexColour(0x1e1f22)
	divider    = hexColour(0x3f4147)
	blurple    = hexColour(0x5865f2)
	buttonBack = map[discordgo.ButtonStyle]color.RGBA{
		discordgo.PrimaryButton:   blurple,
		discordgo.SecondaryButton: hexColour(0x4e5058),
		discordgo.SuccessButton:   hexColour(0x248046),
		discordgo.DangerButton:    hexColour(0xda373c),
	}
)

func hexColour(v uint32) color.RGBA {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// faces are the fonts, at device size.
type faces struct {
	regular, bold, mono, medium, small, smallBold, badge font.Face
}

func newFaces() (*faces, error) {
	face := func(ttf []byte, size float64) (font.Face, error) {
		f, err := truetype.Parse(ttf)
		if err != nil {
			return nil, err
		}
		return truetype.NewFace(f, &truetype.Options{Size: size * scale, Hinting: font.HintingFull}), nil
	}
	var fs faces
	for _, f := range []struct {
		dst  *font.Face
		ttf  []byte
		size float64
	}{
		{&fs.regular, goregular.TTF, textSize}, {&fs.bold, gobold.TTF, textSize},
		{&fs.mono, gomono.TTF, textSize * 0.85}, {&fs.medium, gomedium.TTF, buttonText},
		{&fs.small, goregular.TTF, 13}, {&fs.smallBold, gobold.TTF, textSize}, {&fs.badge, gobold.TTF, 10},
	} {
		var err error
		if *f.dst, err = face(f.ttf, f.size); err != nil {
			return nil, err
		}
	}
	return &fs, nil
}

// block is a laid-out part: its height, and how to draw it with its top
// left corner at x, y (CSS pixels).
type block struct {
	h    float64
	draw func(dc *gg.Context, x, y float64)
}

// draw lays msg out as Discord shows it and encodes the picture as PNG.
func draw(msg message) ([]byte, error) {
	fs, err := newFaces()
	if err != nil {
		return nil, err
	}
	var parts []block
	for _, c := range msg.components {
		b, err := layout(fs, msg, c, width-contentX-margin)
		if err != nil {
			return nil, err
		}
		parts = append(parts, b...)
	}
	const top = margin + 18 // the line of who used what
	const head = 22         // the author line
	h := top + head + 4.0
	for _, p := range parts {
		h += p.h
	}
	if msg.ephemeral {
		h += 24
	}
	h += margin

	dc := gg.NewContext(width*scale, int(h*scale))
	dc.SetColor(background)
	dc.Clear()

	// Who used what, above the message.
	dc.SetFontFace(fs.small)
	dc.SetColor(muted)
	dc.DrawString("A member used "+msg.command, px(contentX), px(margin+10))
	// The avatar (a maze of mazebot's green) and the author line.
	drawAvatar(dc, margin, top)
	dc.SetFontFace(fs.smallBold)
	dc.SetColor(strong)
	dc.DrawString("mazebot", px(contentX), px(top+16))
	nameW, _ := dc.MeasureString("mazebot")
	bx := contentX + nameW/scale + 6
	dc.SetColor(blurple)
	dc.DrawRoundedRectangle(px(bx), px(top+3), px(30), px(15), px(3))
	dc.Fill()
	dc.SetFontFace(fs.badge)
	dc.SetColor(color.White)
	dc.DrawStringAnchored("APP", px(bx+15), px(top+10.5), 0.5, 0.4)

	y := top + head + 4.0
	for _, p := range parts {
		p.draw(dc, contentX, y)
		y += p.h
	}
	if msg.ephemeral {
		dc.SetFontFace(fs.small)
		dc.SetColor(muted)
		dc.DrawString("Only you can see this · Dismiss message", px(contentX), px(y+16))
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// px is CSS pixels in device pixels.
func px(v float64) float64 { return v * scale }

// drawAvatar draws mazebot's avatar: a green disc with a small maze.
func drawAvatar(dc *gg.Context, x, y float64) {
	dc.SetColor(hexColour(0x2b9348))
	dc.DrawCircle(px(x+avatar/2), px(y+avatar/2), px(avatar/2))
	dc.Fill()
	// A 5×5 tile maze, as the tile model draws one.
	rows := []string{"#####", "#   #", "### #", "#   #", "#####"}
	t := 4.0
	ox, oy := x+avatar/2-2.5*t, y+avatar/2-2.5*t
	dc.SetColor(color.White)
	for r, row := range rows {
		for c, ch := range row {
			if ch == '#' {
				dc.DrawRectangle(px(ox+float64(c)*t), px(oy+float64(r)*t), px(t), px(t))
			}
		}
	}
	dc.Fill()
}

// layout lays out one component in w CSS pixels.
func layout(fs *faces, msg message, c discordgo.MessageComponent, w float64) ([]block, error) {
	switch c := c.(type) {
	case discordgo.Container:
		var inner []block
		for _, ic := range c.Components {
			b, err := layout(fs, msg, ic, w-accentBar-2*padding)
			if err != nil {
				return nil, err
			}
			inner = append(inner, b...)
		}
		h := 2.0 * padding
		for i, b := range inner {
			h += b.h
			if i > 0 {
				h += gap
			}
		}
		accent := blurple
		if c.AccentColor != nil {
			accent = hexColour(uint32(*c.AccentColor))
		}
		return []block{{h, func(dc *gg.Context, x, y float64) {
			dc.SetColor(container)
			dc.DrawRoundedRectangle(px(x), px(y), px(w), px(h), px(8))
			dc.Fill()
			dc.Push()
			dc.DrawRoundedRectangle(px(x), px(y), px(w), px(h), px(8))
			dc.Clip()
			dc.SetColor(accent)
			dc.DrawRectangle(px(x), px(y), px(accentBar), px(h))
			dc.Fill()
			dc.ResetClip() // gg's Pop keeps the clip
			dc.Pop()
			cy := y + padding
			for i, b := range inner {
				if i > 0 {
					cy += gap
				}
				b.draw(dc, x+accentBar+padding, cy)
				cy += b.h
			}
		}}}, nil
	case discordgo.TextDisplay:
		return []block{layoutText(fs, c.Content, w)}, nil
	case discordgo.MediaGallery:
		var out []block
		for _, item := range c.Items {
			name := strings.TrimPrefix(item.Media.URL, "attachment://")
			data, ok := msg.files[name]
			if !ok {
				return nil, fmt.Errorf("the gallery shows %s, which the message does not attach", name)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			b := img.Bounds()
			// Discord shows a picture at most the width of the card, in
			// its aspect.
			iw := min(w, float64(b.Dx())/scale)
			ih := iw * float64(b.Dy()) / float64(b.Dx())
			out = append(out, block{ih, func(dc *gg.Context, x, y float64) {
				dst := image.NewRGBA(image.Rect(0, 0, int(px(iw)), int(px(ih))))
				xdraw.CatmullRom.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
				dc.Push()
				dc.DrawRoundedRectangle(px(x), px(y), px(iw), px(ih), px(4))
				dc.Clip()
				dc.DrawImage(dst, int(px(x)), int(px(y)))
				dc.ResetClip()
				dc.Pop()
			}})
		}
		return out, nil
	case discordgo.Separator:
		return []block{{gap, func(dc *gg.Context, x, y float64) {
			if c.Divider != nil && *c.Divider {
				dc.SetColor(divider)
				dc.DrawRectangle(px(x), px(y+gap/2), px(w), px(1))
				dc.Fill()
			}
		}}}, nil
	case discordgo.ActionsRow:
		return []block{layoutButtons(fs, c.Components, w)}, nil
	}
	return nil, fmt.Errorf("no drawing for a %T", c)
}

// layoutButtons lays out a row of buttons, wrapping at w.
func layoutButtons(fs *faces, components []discordgo.MessageComponent, w float64) block {
	type placed struct {
		b    discordgo.Button
		x, y float64
		w    float64
	}
	var row []placed
	x, y := 0.0, 0.0
	for _, c := range components {
		b, ok := c.(discordgo.Button)
		if !ok {
			continue
		}
		bw := 2.0 * buttonPad
		if b.Emoji != nil {
			bw += buttonIcon
		}
		if b.Label != "" {
			lw, _ := measure(fs.medium, b.Label)
			bw += lw
			if b.Emoji != nil {
				bw += 6
			}
		}
		if x > 0 && x+bw > w {
			x, y = 0, y+buttonH+buttonGap
		}
		row = append(row, placed{b, x, y, bw})
		x += bw + buttonGap
	}
	return block{y + buttonH, func(dc *gg.Context, ox, oy float64) {
		for _, p := range row {
			drawButton(dc, fs, p.b, ox+p.x, oy+p.y, p.w)
		}
	}}
}

// drawButton draws b at x, y, w wide; a disabled one at half opacity.
func drawButton(dc *gg.Context, fs *faces, b discordgo.Button, x, y, w float64) {
	layer := gg.NewContext(int(px(w)), int(px(buttonH)))
	back, ok := buttonBack[b.Style]
	if !ok {
		back = buttonBack[discordgo.SecondaryButton]
	}
	layer.SetColor(back)
	layer.DrawRoundedRectangle(0, 0, px(w), px(buttonH), px(8))
	layer.Fill()
	cx := float64(buttonPad)
	if b.Emoji != nil {
		drawEmoji(layer, b.Emoji.Name, cx, (buttonH-buttonIcon)/2, buttonIcon)
		cx += buttonIcon + 6
	}
	if b.Label != "" {
		layer.SetFontFace(fs.medium)
		layer.SetColor(color.White)
		layer.DrawStringAnchored(b.Label, px(cx), px(buttonH/2), 0, 0.35)
	}
	alpha := uint8(0xff)
	if b.Disabled {
		alpha = 0x80
	}
	dst := dc.Image().(*image.RGBA)
	r := image.Rect(int(px(x)), int(px(y)), int(px(x+w)), int(px(y+buttonH)))
	xdraw.DrawMask(dst, r, layer.Image(), image.Point{}, image.NewUniform(color.Alpha{alpha}), image.Point{}, xdraw.Over)
}

// measure is the width of s in face, in CSS pixels.
func measure(face font.Face, s string) (float64, float64) {
	w := font.MeasureString(face, s)
	m := face.Metrics()
	return float64(w) / 64 / scale, float64(m.Ascent+m.Descent) / 64 / scale
}

// A run is a piece of text in one style: words, one emoji, or a space.
type run struct {
	text        string
	bold, code  bool
	emoji, char bool // an emoji drawn as a figure; a symbol drawn as a figure in text colour
	space       bool
	newline     bool
}

// runs splits Discord Markdown (the **bold** and `code` mazebot writes)
// into runs.
func runs(s string) []run {
	var out []run
	bold, code := false, false
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			out = append(out, run{text: word.String(), bold: bold, code: code})
			word.Reset()
		}
	}
	for i := 0; i < len(s); {
		if !code && strings.HasPrefix(s[i:], "**") {
			flush()
			bold = !bold
			i += 2
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '`':
			flush()
			code = !code
		case r == '\n':
			flush()
			out = append(out, run{newline: true})
		case r == ' ' && !code:
			flush()
			out = append(out, run{text: " ", space: true, bold: bold})
		case isEmoji(s[i:]):
			flush()
			e := emojiAt(s[i:])
			out = append(out, run{text: e, emoji: true})
			n = len(e)
		case symbols[r]:
			flush()
			out = append(out, run{text: string(r), char: true, bold: bold})
		default:
			word.WriteString(s[i : i+n])
		}
		i += n
	}
	flush()
	return out
}

// layoutText lays out a text display: its runs in lines wrapped at w.
func layoutText(fs *faces, content string, w float64) block {
	type placed struct {
		r    run
		x, y float64
	}
	var items []placed
	x, y := 0.0, 0.0
	faceOf := func(r run) font.Face {
		switch {
		case r.code:
			return fs.mono
		case r.bold:
			return fs.bold
		}
		return fs.regular
	}
	widthOf := func(r run) float64 {
		switch {
		case r.emoji:
			return emojiSize + 1
		case r.char:
			return textSize
		}
		rw, _ := measure(faceOf(r), r.text)
		if r.code {
			rw += 6
		}
		return rw
	}
	for _, r := range runs(content) {
		if r.newline {
			x, y = 0, y+lineHeight
			continue
		}
		rw := widthOf(r)
		if x > 0 && x+rw > w && !r.space {
			x, y = 0, y+lineHeight
		}
		if r.space && x == 0 {
			continue
		}
		items = append(items, placed{r, x, y})
		x += rw
	}
	return block{y + lineHeight, func(dc *gg.Context, ox, oy float64) {
		for _, it := range items {
			x, y := ox+it.x, oy+it.y
			r := it.r
			switch {
			case r.emoji:
				drawEmoji(dc, r.text, x, y, emojiSize)
			case r.char:
				drawSymbol(dc, r.text, x, y, textSize, strong)
			case r.space:
			default:
				face := faceOf(r)
				if r.code {
					rw, _ := measure(face, r.text)
					dc.SetColor(codeBack)
					dc.DrawRoundedRectangle(px(x), px(y+2), px(rw+6), px(lineHeight-4), px(3))
					dc.Fill()
					x += 3
				}
				dc.SetFontFace(face)
				dc.SetColor(textColour)
				if r.bold {
					dc.SetColor(strong)
				}
				dc.DrawString(r.text, px(x), px(y+16))
			}
		}
	}}
}
