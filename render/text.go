package render

import (
	"io"

	"mazebot/mazecore"
)

// textChars maps a tile to its character: walls '#', floor ' '.
var textChars = [numKinds]byte{kFloor: ' ', kWall: '#', kStart: 'S', kGoal: 'G', kPath: '.', kTrail: 'o', kPlayer: '@'}

// Text writes the maze as plain text: '#' walls, ' ' floor, 'S' start,
// 'G' goal, '.' solution, 'o' trail, '@' player. Every row is exactly
// Width characters followed by "\n"; trailing spaces are kept, so the text
// reads back tile for tile.
func Text(w io.Writer, m *mazecore.Maze, ov Overlay) error {
	win := Window{}.clip(m)
	mk := newMarks(m, ov, win)
	kinds := make([]kind, win.W)
	line := make([]byte, win.W+1)
	line[win.W] = '\n'
	for y := 0; y < win.H; y++ {
		mk.row(m, y, 0, kinds)
		for i, k := range kinds {
			line[i] = textChars[k]
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
