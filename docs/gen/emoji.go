package main

import (
	"image/color"
	"math"
	"unicode/utf8"

	"github.com/fogleman/gg"
)

// Emoji are drawn as small figures in their Twemoji colours (the same
// colours render's emoji tests check the themes with): no emoji font is
// at hand, and a figure of the right colour and shape says what Discord
// shows.

// squares are the square emoji, by colour.
var squares = map[rune]color.RGBA{
	'⬛': hexColour(0x31373d), '⬜': hexColour(0xe6e7e8), '🟥': hexColour(0xdd2e44),
	'🟧': hexColour(0xf4900c), '🟨': hexColour(0xfdcb58), '🟩': hexColour(0x78b159),
	'🟦': hexColour(0x55acee), '🟪': hexColour(0xaa8ed6), '🟫': hexColour(0xc1694f),
}

// emojiPresentation are the code points below U+1F000 that show as emoji
// without a variation selector.
var emojiPresentation = map[rune]bool{'⬛': true, '⬜': true, '⭐': true, '⭕': true}

// symbols are text characters the Go fonts lack, drawn as figures in the
// text's colour.
var symbols = map[rune]bool{'★': true, '☆': true, '↗': true, '↘': true, '↖': true, '↙': true}

// isEmoji tells whether s starts with an emoji.
func isEmoji(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	if r >= 0x1F000 || emojiPresentation[r] {
		return true
	}
	next, _ := utf8.DecodeRuneInString(s[n:])
	return next == 0xFE0F
}

// emojiAt is the emoji s starts with, its variation selector included.
func emojiAt(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	if next, m := utf8.DecodeRuneInString(s[n:]); next == 0xFE0F {
		n += m
	}
	return s[:n]
}

// drawEmoji draws emoji e in the size×size box at x, y (CSS pixels).
func drawEmoji(dc *gg.Context, e string, x, y, size float64) {
	r, _ := utf8.DecodeRuneInString(e)
	s := px(size)
	ox, oy := px(x), px(y)
	at := func(fx, fy float64) (float64, float64) { return ox + fx*s, oy + fy*s }
	circle := func(fx, fy, fr float64, c color.RGBA) {
		cx, cy := at(fx, fy)
		dc.SetColor(c)
		dc.DrawCircle(cx, cy, fr*s)
		dc.Fill()
	}
	rect := func(fx, fy, fw, fh, fr float64, c color.RGBA) {
		rx, ry := at(fx, fy)
		dc.SetColor(c)
		dc.DrawRoundedRectangle(rx, ry, fw*s, fh*s, fr*s)
		dc.Fill()
	}
	pole := func() { rect(0.16, 0.06, 0.08, 0.9, 0.03, hexColour(0x66757f)) }
	if c, ok := squares[r]; ok {
		rect(0.05, 0.05, 0.9, 0.9, 0.12, c)
		return
	}
	switch r {
	case '🟢':
		circle(0.5, 0.5, 0.45, hexColour(0x78b159))
	case '🏁': // a chequered flag on a pole
		pole()
		for row := range 3 {
			for col := range 4 {
				c := hexColour(0xe1e8ed)
				if (row+col)%2 == 0 {
					c = hexColour(0x31373d)
				}
				rect(0.24+float64(col)*0.17, 0.1+float64(row)*0.15, 0.17, 0.15, 0, c)
			}
		}
	case '🏳': // a white flag
		pole()
		rect(0.24, 0.1, 0.66, 0.46, 0.04, hexColour(0xe1e8ed))
	case '🐭': // a mouse's face
		grey, pink := hexColour(0x99aab5), hexColour(0xf4abba)
		circle(0.24, 0.3, 0.2, grey)
		circle(0.76, 0.3, 0.2, grey)
		circle(0.24, 0.3, 0.12, pink)
		circle(0.76, 0.3, 0.12, pink)
		circle(0.5, 0.6, 0.34, grey)
		circle(0.38, 0.54, 0.05, hexColour(0x292f33))
		circle(0.62, 0.54, 0.05, hexColour(0x292f33))
		circle(0.5, 0.72, 0.07, pink)
	case '🧩': // a puzzle piece
		green := hexColour(0x77b255)
		rect(0.1, 0.26, 0.64, 0.64, 0.06, green)
		circle(0.42, 0.22, 0.13, green)
		circle(0.8, 0.58, 0.13, green)
	case '🎮': // a game controller
		rect(0.04, 0.3, 0.92, 0.46, 0.2, hexColour(0x31373d))
		rect(0.18, 0.48, 0.2, 0.08, 0, hexColour(0xe1e8ed))
		rect(0.24, 0.42, 0.08, 0.2, 0, hexColour(0xe1e8ed))
		circle(0.7, 0.46, 0.06, hexColour(0xdd2e44))
		circle(0.8, 0.57, 0.06, hexColour(0x55acee))
	case '🔎': // a magnifying glass
		cx, cy := at(0.42, 0.42)
		dc.SetColor(hexColour(0xbbddf5))
		dc.DrawCircle(cx, cy, 0.28*s)
		dc.Fill()
		dc.SetColor(hexColour(0x8899a6))
		dc.SetLineWidth(0.08 * s)
		dc.DrawCircle(cx, cy, 0.28*s)
		dc.Stroke()
		hx0, hy0 := at(0.63, 0.63)
		hx1, hy1 := at(0.9, 0.9)
		dc.SetColor(hexColour(0x31373d))
		dc.SetLineWidth(0.14 * s)
		dc.SetLineCap(gg.LineCapRound)
		dc.DrawLine(hx0, hy0, hx1, hy1)
		dc.Stroke()
	case '🗺': // a folded map
		for i, c := range []uint32{0xe8dcb4, 0xd7c9a0, 0xe8dcb4} {
			rect(0.05+float64(i)*0.3, 0.18, 0.3, 0.64, 0, hexColour(c))
		}
		circle(0.4, 0.45, 0.14, hexColour(0x77b255))
		circle(0.68, 0.6, 0.1, hexColour(0x55acee))
	case '📍': // a round pushpin
		rect(0.47, 0.45, 0.06, 0.5, 0.02, hexColour(0x99aab5))
		circle(0.5, 0.35, 0.27, hexColour(0xdd2e44))
	case '⬅', '⬆', '⬇', '➡': // an arrow on a blue key
		rect(0.05, 0.05, 0.9, 0.9, 0.14, hexColour(0x3b88c3))
		angle := map[rune]float64{'➡': 0, '⬇': 90, '⬅': 180, '⬆': 270}[r]
		dc.Push()
		cx, cy := at(0.5, 0.5)
		dc.RotateAbout(gg.Radians(angle), cx, cy)
		arrow := [][2]float64{{0.2, 0.42}, {0.5, 0.42}, {0.5, 0.25}, {0.8, 0.5}, {0.5, 0.75}, {0.5, 0.58}, {0.2, 0.58}}
		for i, p := range arrow {
			ax, ay := at(p[0], p[1])
			if i == 0 {
				dc.MoveTo(ax, ay)
			} else {
				dc.LineTo(ax, ay)
			}
		}
		dc.ClosePath()
		dc.SetColor(color.White)
		dc.Fill()
		dc.Pop()
	default: // an emoji gen has no figure for: a neutral tile
		rect(0.1, 0.1, 0.8, 0.8, 0.2, hexColour(0x99aab5))
	}
}

// drawSymbol draws symbol ch (one of symbols) in the size-wide box at x,
// y of a text line, in colour c.
func drawSymbol(dc *gg.Context, ch string, x, y, size float64, c color.RGBA) {
	r, _ := utf8.DecodeRuneInString(ch)
	cx, cy := px(x+size/2), px(y+lineHeight/2+0.5)
	dc.SetColor(c)
	switch r {
	case '★', '☆':
		outer, inner := px(size*0.45), px(size*0.18)
		for i := range 10 {
			rad := outer
			if i%2 == 1 {
				rad = inner
			}
			a := -math.Pi/2 + float64(i)*math.Pi/5
			px, py := cx+rad*math.Cos(a), cy+rad*math.Sin(a)
			if i == 0 {
				dc.MoveTo(px, py)
			} else {
				dc.LineTo(px, py)
			}
		}
		dc.ClosePath()
		if r == '★' {
			dc.Fill()
		} else {
			dc.SetLineWidth(px(1.2))
			dc.Stroke()
		}
	default: // a diagonal arrow
		dx := map[rune]float64{'↗': 1, '↘': 1, '↖': -1, '↙': -1}[r]
		dy := map[rune]float64{'↗': -1, '↘': 1, '↖': -1, '↙': 1}[r]
		l := px(size * 0.3)
		dc.SetLineWidth(px(1.5))
		dc.DrawLine(cx-dx*l, cy-dy*l, cx+dx*l, cy+dy*l)
		dc.DrawLine(cx+dx*l, cy+dy*l, cx+dx*l-dx*l*0.8, cy+dy*l)
		dc.DrawLine(cx+dx*l, cy+dy*l, cx+dx*l, cy+dy*l-dy*l*0.8)
		dc.Stroke()
	}
}
