package render

import (
	"bufio"
	"fmt"
	"io"
	"unicode/utf8"

	"mazebot/mazecore"
)

// A square-grid maze cut to a shape is drawn in tiles too, as a whole
// square maze is: gridTiles lays it out, a kind a tile and tileOutside
// for the tiles outside the shape, and GridText, GridEmoji and
// GridTerminal spell them. A polar or hex maze has no tiles.

// tileOutside marks a tile outside the shape in gridTiles' rows; it is
// no kind, so every speller must spell it itself.
const tileOutside = byte(numKinds)

// outsideChar is the text's tile outside a shape.
const outsideChar = '~'

// gridTiles lays m out in tiles, 2·cols+1 by 2·rows+1: each cell inside
// opens its tile and walls its four sides and corners, a passage opens
// the wall it crosses, then the path's tiles and the start and goal are
// marked. format names the caller in the error for a polar or hex maze.
func gridTiles(m *mazecore.GridMaze, path []int, format string) ([][]byte, error) {
	g := m.Grid()
	if g.Kind() != mazecore.Square {
		return nil, fmt.Errorf("%s: a %s maze: %w; use png, svg, gif or pdf", format, g.Kind(), ErrGridFormat)
	}
	tw, th := 2*g.Cols()+1, 2*g.Rows()+1
	tiles := make([][]byte, th)
	for y := range tiles {
		tiles[y] = make([]byte, tw)
		for x := range tiles[y] {
			tiles[y][x] = tileOutside
		}
	}
	for c := range g.Len() {
		cell := g.Cell(c)
		x, y := 2*cell.Col+1, 2*cell.Row+1
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				tiles[y+dy][x+dx] = byte(kWall)
			}
		}
	}
	tile := func(c int) (int, int) { cell := g.Cell(c); return 2*cell.Col + 1, 2*cell.Row + 1 }
	for c := range g.Len() {
		x, y := tile(c)
		tiles[y][x] = byte(kFloor)
		for _, n := range m.Links(c) {
			nx, ny := tile(n)
			tiles[(y+ny)/2][(x+nx)/2] = byte(kFloor)
		}
	}
	for i, c := range path {
		x, y := tile(c)
		tiles[y][x] = byte(kPath)
		if i > 0 {
			px, py := tile(path[i-1])
			tiles[(y+py)/2][(x+px)/2] = byte(kPath)
		}
	}
	for k, c := range []int{m.Start(), m.Goal()} {
		x, y := tile(c)
		tiles[y][x] = byte([2]kind{kStart, kGoal}[k])
	}
	return tiles, nil
}

// GridText writes a maze on a square grid (cut to a shape or not) as
// Text does, tile for tile: '#' walls, ' ' floor, 'S' and 'G' the start
// and goal, '.' the path's tiles, and '~' the tiles outside the shape. A
// polar or hex maze has no tiles: ErrGridFormat.
func GridText(w io.Writer, m *mazecore.GridMaze, path []int) error {
	tiles, err := gridTiles(m, path, "text")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, row := range tiles {
		for _, t := range row {
			if t == tileOutside {
				bw.WriteByte(outsideChar)
			} else {
				bw.WriteByte(textChars[t])
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// GridEmoji writes a maze on a square grid as Emoji does, one emoji a
// tile, rows joined by "\n" and no trailing newline, the tiles outside
// the shape as the theme's Outside (the background: a dark square). A
// polar or hex maze has no tiles: ErrGridFormat.
func GridEmoji(w io.Writer, m *mazecore.GridMaze, theme Theme, path []int) error {
	tiles, err := gridTiles(m, path, "emoji")
	if err != nil {
		return err
	}
	t := theme.withDefaults()
	spell := t.byKind()
	bw := bufio.NewWriter(w)
	for y, row := range tiles {
		if y > 0 {
			bw.WriteByte('\n')
		}
		for _, k := range row {
			if k == tileOutside {
				bw.WriteString(t.Outside)
			} else {
				bw.WriteString(spell[k])
			}
		}
	}
	return bw.Flush()
}

// GridEmojiLength is the code points (what Discord counts) of m's emoji
// grid with or without its solution, at its longest, as EmojiLength
// counts a square maze's: each floor tile at the longer of Floor and
// Path. A polar or hex maze has none: 0.
func GridEmojiLength(m *mazecore.GridMaze, theme Theme) int {
	tiles, err := gridTiles(m, nil, "emoji")
	if err != nil {
		return 0
	}
	t := theme.withDefaults()
	n := utf8.RuneCountInString
	length := [numKinds + 1]int{kFloor: max(n(t.Floor), n(t.Path)), kWall: n(t.Wall), kStart: n(t.Start), kGoal: n(t.Goal), numKinds: n(t.Outside)}
	total := len(tiles) - 1 // the newlines between rows
	for _, row := range tiles {
		for _, k := range row {
			total += length[k]
		}
	}
	return total
}

// FitsGridEmoji reports whether m's emoji grid fits in limit code points
// (2000 for message content), solution or not, as FitsEmoji does for a
// square maze.
func FitsGridEmoji(m *mazecore.GridMaze, theme Theme, limit int) bool {
	n := GridEmojiLength(m, theme)
	return n > 0 && n <= limit
}

// GridTerminal writes a maze on a square grid as Terminal does, two
// coloured spaces a tile and a reset at each line's end; the tiles
// outside the shape are the terminal's own background. A polar or hex
// maze has no tiles: ErrGridFormat.
func GridTerminal(w io.Writer, m *mazecore.GridMaze, path []int) error {
	tiles, err := gridTiles(m, path, "terminal")
	if err != nil {
		return err
	}
	sp := terminalSpeller()
	bw := bufio.NewWriter(w)
	for _, row := range tiles {
		last := byte(0xff)
		for _, k := range row {
			if k != last {
				if k == tileOutside {
					bw.WriteString("\x1b[0m")
				} else {
					bw.WriteString(sp[k])
				}
				last = k
			}
			bw.WriteString("  ")
		}
		bw.WriteString("\x1b[0m\n")
	}
	return bw.Flush()
}
