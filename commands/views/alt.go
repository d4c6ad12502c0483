package views

import (
	"mazebot/lang"
	"mazebot/mazecore"
)

// Shows is what a picture of a maze has drawn on it, for its alt text.
type Shows int

// What a picture shows.
const (
	ShowsMaze          Shows = iota // the maze alone
	ShowsSolution                   // its shortest path
	ShowsTrail                      // a game's trail and its player
	ShowsTrailSolution              // a given-up game: the trail and the solution
	ShowsCarving                    // the animation of its generation
	ShowsPrintout                   // a PDF: the maze, then its solution
)

// Alt is the alt text of a picture of maze id (an attachment's
// description): what a screen reader says, and what shows where the
// picture doesn't load. It names the maze, where the start and goal are,
// and whether it is solved; at is the player, for a trail.
func Alt(l *lang.Lang, id mazecore.ID, shows Shows, at mazecore.Point) string {
	key := [...]string{
		ShowsMaze: "alt.maze", ShowsSolution: "alt.solution", ShowsTrail: "alt.trail",
		ShowsTrailSolution: "alt.trail_solution", ShowsCarving: "alt.carving",
		ShowsPrintout: "alt.printout",
	}[shows]
	return l.T(key, lang.Args{
		"Algorithm": AlgorithmTitle(id.Algorithm), "Size": Size(id), "ID": id.String(),
		"Column": at.X + 1, "Row": at.Y + 1,
	})
}
