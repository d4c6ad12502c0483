// Package render draws a maze for people: an emoji grid for Discord messages,
// a PNG (drawn with github.com/fogleman/gg), an animated GIF of the
// generation (and of the braiding, for a maze with loops), plain text and a
// coloured terminal view. Every format draws from Maze.Wall, so a maze with
// loops needs nothing special.
//
// Every renderer writes to an io.Writer and returns the first error it meets,
// encoder errors included, so a caller never sends half an image as if it
// were whole. An Overlay (solution path, a player's trail, the player) is
// drawn the same way by every format, with the precedence
// Player > Start/Goal > Trail > Path > floor.
//
// render imports mazecore and no other mazebot package: no Discord, no
// storage, no command handling. Those depend on render, never the other way
// round.
package render
