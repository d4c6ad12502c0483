package mazecore

import (
	"fmt"
	"strings"
)

// The text masks' font: 5×7 pixel glyphs of the Latin capitals and the
// digits, drawn for mazebot (public domain, no other font's data). A text
// is its glyphs side by side one pixel apart, standing on a bar one pixel
// high across the whole text that joins them into one piece; every
// diagonal step of a stroke is then filled at its lower corner
// (thicken), since passages join cells that share a side. fontVersion is
// the version of all of this: a change to a glyph, the bar or the
// thickening is a new version, with the old one kept, so that an old
// text ID draws the same maze forever.
const fontVersion = 1

// MaxTextLength is the most characters a text mask holds.
const MaxTextLength = 12

// glyphHeight and glyphWidth are a glyph's size in pixels.
const (
	glyphWidth  = 5
	glyphHeight = 7
)

// font holds version 1's glyphs, a row a string, # for ink.
var font = map[byte][glyphHeight]string{
	'A': {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'B': {"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."},
	'C': {".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."},
	'D': {"####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."},
	'E': {"#####", "#....", "#....", "####.", "#....", "#....", "#####"},
	'F': {"#####", "#....", "#....", "####.", "#....", "#....", "#...."},
	'G': {".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"},
	'H': {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'I': {".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'J': {"..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."},
	'K': {"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"},
	'L': {"#....", "#....", "#....", "#....", "#....", "#....", "#####"},
	'M': {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"},
	'N': {"#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"},
	'O': {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'P': {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."},
	'Q': {".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"},
	'R': {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"},
	'S': {".####", "#....", "#....", ".###.", "....#", "....#", "####."},
	'T': {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."},
	'U': {"#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'V': {"#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."},
	'W': {"#...#", "#...#", "#...#", "#.#.#", "#.#.#", "##.##", "#...#"},
	'X': {"#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"},
	'Y': {"#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."},
	'Z': {"#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"},
	'0': {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
	'1': {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'2': {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	'3': {"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."},
	'4': {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	'5': {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	'6': {"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."},
	'7': {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	'8': {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	'9': {".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."},
}

// TextCharacters lists the characters a text mask may hold besides the
// space.
const TextCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// checkText checks an upper-case, space-normalized text.
func checkText(t string) error {
	if t == "" || strings.Trim(t, " ") == "" {
		return &MaskError{Reason: "the text is empty", Code: TextEmpty}
	}
	if n := len([]rune(t)); n > MaxTextLength {
		return &MaskError{Reason: fmt.Sprintf("the text has %d characters, and a text mask holds at most %d", n, MaxTextLength), Code: TextTooLong, N: n, M: MaxTextLength}
	}
	for _, r := range t {
		if r != ' ' && (r > 127 || strings.IndexByte(TextCharacters, byte(r)) < 0) {
			return &MaskError{Reason: fmt.Sprintf("the font has no %q: use the letters A to Z, the digits and spaces", r), Code: TextChar, Text: string(r)}
		}
	}
	return nil
}

// TextSize returns the size in cells of a text's bitmap: the least a
// maze of it can be.
func TextSize(text string) (cols, rows int) {
	n := len(text)
	return n*(glyphWidth+1) - 1, glyphHeight + 1
}

// textBitmap draws a checked text in font version 1: its glyphs, the bar
// under them, and the diagonals thickened.
func textBitmap(text string) [][]bool {
	w, h := TextSize(text)
	bm := make([][]bool, h)
	for y := range bm {
		bm[y] = make([]bool, w)
	}
	for i := range len(text) {
		g, ok := font[text[i]]
		if !ok {
			continue // a space
		}
		for y, row := range g {
			for x := range glyphWidth {
				bm[y][i*(glyphWidth+1)+x] = row[x] == '#'
			}
		}
	}
	for x := range w {
		bm[glyphHeight][x] = true
	}
	thicken(bm)
	return bm
}

// thicken fills, in every 2×2 block whose ink is only a diagonal pair, the
// lower pixel under the upper ink pixel, in row order, until no such block
// is left.
func thicken(bm [][]bool) {
	for changed := true; changed; {
		changed = false
		for y := 0; y+1 < len(bm); y++ {
			for x := 0; x+1 < len(bm[y]); x++ {
				a, b, c, d := bm[y][x], bm[y][x+1], bm[y+1][x], bm[y+1][x+1]
				switch {
				case a && d && !b && !c: // "\"
					bm[y+1][x], changed = true, true
				case b && c && !a && !d: // "/"
					bm[y+1][x+1], changed = true, true
				}
			}
		}
	}
}
