package render

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/fogleman/gg"

	"mazebot/mazecore"
)

// RaceWalk is one racer's part of a race's picture (RacePNG): the cells
// they walked, in any order, and their colour.
type RaceWalk struct {
	Cells  []int
	Colour color.RGBA
}

// maxRaceWalks bounds the walks one picture draws: past a handful, the
// lines are too thin to tell apart.
const maxRaceWalks = 8

// RacePNG draws a race on m as a PNG: the maze as GridPNG draws it, and
// under its walls each racer's walk (walks[0] the winner's), every
// passage they took a line through the cells' centres in their colour,
// outlined in the walls' colour so that a light colour shows on the
// floor. Where walks share a corridor they show side by side as nested
// lines: the later a walk in walks, the wider its line and the earlier
// drawn, so the winner's is the thin line on top. Works on every grid:
// a square maze is drawn from its Graph.
func RacePNG(w io.Writer, m *mazecore.GridMaze, walks []RaceWalk, opts GridOptions) error {
	if len(walks) > maxRaceWalks {
		return fmt.Errorf("png: %d racers' walks, at most %d: %w", len(walks), maxRaceWalks, ErrTooLarge)
	}
	l, err := newGridLayout(m, opts.Scale)
	if err != nil {
		return fmt.Errorf("png: %w", err)
	}
	pal := opts.Palette.orDefault()
	dc := gg.NewContext(l.width, l.high)
	dc.SetColor(pal.colours[kFloor])
	dc.Clear()
	g := m.Grid()
	n := len(walks)
	for k := n - 1; k >= 0; k-- {
		walked := make([]bool, g.Len())
		for _, c := range walks[k].Cells {
			if c >= 0 && c < g.Len() {
				walked[c] = true
			}
		}
		width := l.s * raceLineWidth(k, n)
		l.strokeWalk(dc, m, walked, width+math.Max(2, l.s/10), pal.colours[kWall])
		l.strokeWalk(dc, m, walked, width, walks[k].Colour)
	}
	l.strokeWalls(dc, l.geo.walls(m), pal.colours[kWall])
	l.markers(dc, m, pal.markers[0], pal.markers[1])
	return png.Encode(w, dc.Image())
}

// raceLineWidth is the k-th of n walks' line width in cells: from 0.2 for
// the winner's to 0.7 for the last's, so each shows as a band beside the
// narrower ones drawn over it.
func raceLineWidth(k, n int) float64 {
	if n <= 1 {
		return 0.3
	}
	return 0.2 + 0.5*float64(k)/float64(n-1)
}

// strokeWalk draws, width pixels wide in colour c, a line through the
// centres of every two walked cells a passage links, and a dot on a
// walked cell that links to no other walked cell.
func (l *gridLayout) strokeWalk(dc *gg.Context, m *mazecore.GridMaze, walked []bool, width float64, c color.Color) {
	g := m.Grid()
	dc.SetColor(c)
	dc.SetLineWidth(width)
	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	lines := 0
	for a := range g.Len() {
		if !walked[a] {
			continue
		}
		alone := true
		for _, nb := range g.Neighbours(a) {
			b := int(nb)
			if b < 0 || !walked[b] || !m.Linked(a, b) {
				continue
			}
			alone = false
			if b < a {
				continue // drawn from b
			}
			p, q := l.px(l.geo.centres[a]), l.px(l.geo.centres[b])
			dc.NewSubPath()
			dc.MoveTo(p.x, p.y)
			dc.LineTo(q.x, q.y)
			if lines++; lines%strokeBatch == 0 {
				dc.Stroke()
			}
		}
		if alone {
			p := l.px(l.geo.centres[a])
			dc.Stroke()
			dc.DrawCircle(p.x, p.y, width/2)
			dc.Fill()
		}
	}
	dc.Stroke()
}
