package render

import (
	"io"

	"mazebot/mazecore"
)

// textChars maps a tile to its character: walls '#', floor ' '.
var textChars = [numKinds]byte{kFloor: ' ', kWall: '#', kStart: 'S', kGoal: 'G', kPath: '.', kTrail: 'o', kPlayer: '@'}

// blockSize is how much text the renderers gather before a write: big
// enough that a buffered writer passes it straight through and a 20001-row
// maze takes a few thousand writes, small enough to stay in cache.
const blockSize = 256 << 10

// Text writes the maze as plain text: '#' walls, ' ' floor, 'S' start,
// 'G' goal, '.' solution, 'o' trail, '@' player. Every row is exactly
// Width characters followed by "\n"; trailing spaces are kept, so the text
// reads back tile for tile.
func Text(w io.Writer, m *mazecore.Maze, ov Overlay) error {
	win := Window{}.clip(m)
	mk := newMarks(m, ov, win)
	rows := newTileRows(m, textChars[kFloor], textChars[kWall])
	line := win.W + 1
	block := make([]byte, 0, max(blockSize, line+rowSlack))
	for y := 0; y < win.H; y++ {
		if len(block)+line+rowSlack > cap(block) {
			if _, err := w.Write(block); err != nil {
				return err
			}
			block = block[:0]
		}
		n := len(block)
		block = block[:n+line]
		row := block[n : n+win.W]
		rows.fill(block[n:n+win.W+rowSlack], y)
		mk.mark(row, y, 0, &textChars)
		block[n+win.W] = '\n'
	}
	_, err := w.Write(block)
	return err
}
