// Package render draws a maze for people: an emoji grid for Discord messages,
// a PNG, an animated GIF of the generation (and of the braiding, for a maze
// with loops), plain text and a coloured terminal view.
//
// Every format draws a row of tiles at a time from the maze's packed passage
// rows (Maze.PassageRow), four cells a byte, through lookup tables (tileRows,
// segments), and writes in large blocks: a 64 MB text costs about what
// copying it does. A PNG is drawn straight in palette indexes a row of
// pixels at a time and written by its own encoder (pngWriter); gg draws
// only the antialiased shapes, the player's disc and a path's dots. The
// palette and the tile geometry are data the loops read (picture), so a
// theme or a thin-wall style changes no loop.
//
// Every renderer writes to an io.Writer and returns the first error it meets,
// encoder errors included, so a caller never sends half an image as if it
// were whole. An Overlay (solution path, a player's trail, the player) is
// drawn the same way by every format, with the precedence
// Player > Start/Goal > Trail > Path > floor.
//
// A maze on any grid (mazecore.GridMaze: polar, hex, or cut to a shape)
// is drawn from its geometry instead (grid.go): cell centres and the edges
// between cells in cell units, thin walls along the edges no passage
// crosses, arcs for a polar grid's rings. GridPNG (through gg), GridSVG,
// GridPDF (its pages laid out as PDF's, by pdfDocument) and GridGIF draw
// every grid; the GIF replays the passages in the order the generation
// opened them (mazecore.GenerateGridObserved) on one canvas, filling the
// cells they join and stroking those cells' walls again, each frame the
// rectangle that changed, quantised to the GIF's palette. In the GIF and
// the PDF the start is a triangle and the goal a target, as a square
// maze's markers. A square grid's maze has tiles too (gridTiles):
// GridText, GridEmoji and GridTerminal spell them, the tiles outside the
// shape as '~', the theme's Outside and the terminal's own background;
// a polar or hex maze has none, and those refuse it with ErrGridFormat.
//
// render imports mazecore and no other mazebot package: no Discord, no
// storage, no command handling. Those depend on render, never the other way
// round.
package render
