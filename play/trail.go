package play

import (
	"fmt"
	"math/bits"

	"mazebot/mazecore"
)

// trail is the set of tiles a player has walked, one bit per tile,
// row-major, least significant bit first. Keeping tiles rather than cells
// stores the passages walked as they were, so the drawing stays right
// whatever the maze's shape.
type trail struct {
	bits  []byte
	width int
}

func newTrail(m *mazecore.Maze) trail {
	return trail{bits: make([]byte, trailBytes(m)), width: m.Width()}
}

func trailBytes(m *mazecore.Maze) int { return (m.Width()*m.Height() + 7) / 8 }

// trailFrom wraps stored bits, refusing any that don't fit the maze.
func trailFrom(m *mazecore.Maze, bits []byte) (trail, error) {
	if len(bits) != trailBytes(m) {
		return trail{}, fmt.Errorf("trail of %d bytes, want %d for a %d×%d maze", len(bits), trailBytes(m), m.Width(), m.Height())
	}
	return trail{bits: bits, width: m.Width()}, nil
}

func (t trail) mark(p mazecore.Point) {
	i := p.Y*t.width + p.X
	t.bits[i>>3] |= 1 << (i & 7)
}

func (t trail) has(p mazecore.Point) bool {
	i := p.Y*t.width + p.X
	return t.bits[i>>3]&(1<<(i&7)) != 0
}

// points lists the walked tiles in row-major order.
func (t trail) points() []mazecore.Point {
	var out []mazecore.Point
	for b, v := range t.bits {
		for ; v != 0; v &= v - 1 {
			i := b*8 + bits.TrailingZeros8(v)
			out = append(out, mazecore.Point{X: i % t.width, Y: i / t.width})
		}
	}
	return out
}
