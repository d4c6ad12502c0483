package render

import (
	"io"
	"strconv"
	"sync"

	"mazebot/mazecore"
)

// terminalColours are xterm-256 background colours. 256 colours rather than
// 24-bit because nearly every terminal still in use shows them.
var terminalColours = [numKinds]int{
	kWall:   236, // near black
	kFloor:  254, // near white
	kStart:  34,  // green
	kGoal:   160, // red
	kPath:   220, // yellow
	kTrail:  75,  // light blue
	kPlayer: 27,  // blue
}

// Terminal writes the maze for an ANSI terminal: each tile is two spaces on
// a coloured background (two, because terminal cells are about twice as
// tall as wide), and every line ends with a reset so a cut-off or scrolled
// output never leaves the terminal coloured.
func Terminal(w io.Writer, m *mazecore.Maze, ov Overlay) error {
	win := Window{}.clip(m)
	mk := newMarks(m, ov, win)
	rows := newTileRows(m, byte(kFloor), byte(kWall))
	seg := segmentsFor(terminalSpeller())
	tiles := newRow(m)
	block := seg.block(win.W, win.H)
	for y := 0; y < win.H; y++ {
		if cap(block)-len(block) < seg.room(win.W)+16 {
			if _, err := w.Write(block); err != nil {
				return err
			}
			block = block[:0]
		}
		rows.fill(tiles[:cap(tiles)], y)
		mk.mark(tiles, y, 0, &identity)
		block = seg.row(block, rows, y, tiles, mk.at(y), true)
		block = append(block, "\x1b[0m\n"...)
	}
	_, err := w.Write(block)
	return err
}

// terminalSpeller spells a tile as two spaces, after the escape sequence
// of its colour when it differs from the tile before's; made on first use.
var terminalSpeller = sync.OnceValue(func() (sp colourSpeller) {
	for k, c := range terminalColours {
		sp[k] = "\x1b[48;5;" + strconv.Itoa(c) + "m"
	}
	return sp
})

type colourSpeller [numKinds]string

func (c colourSpeller) spell(dst []byte, after, k kind) []byte {
	if k != after {
		dst = append(dst, c[k]...)
	}
	return append(dst, "  "...)
}
