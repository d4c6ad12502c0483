package render

import (
	"io"
	"strconv"

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
	kinds := make([]kind, win.W)
	var line []byte
	for y := 0; y < win.H; y++ {
		mk.row(m, y, 0, kinds)
		line = line[:0]
		for i, k := range kinds {
			// Only a change of colour needs an escape sequence.
			if i == 0 || k != kinds[i-1] {
				line = append(line, "\x1b[48;5;"...)
				line = strconv.AppendInt(line, int64(terminalColours[k]), 10)
				line = append(line, 'm')
			}
			line = append(line, "  "...)
		}
		line = append(line, "\x1b[0m\n"...)
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
