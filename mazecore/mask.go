package mazecore

import (
	"errors"
	"fmt"
	"strings"
)

// Mask says which cells of a rectangle belong to a maze: a shape cut out
// of a square (or hex) grid. Cells outside it are not part of the maze.
type Mask struct {
	cols, rows int
	in         []bool
}

// NewMask makes a cols × rows mask holding the cells for which in is true.
func NewMask(cols, rows int, in func(col, row int) bool) *Mask {
	m := &Mask{cols: cols, rows: rows, in: make([]bool, cols*rows)}
	for r := range rows {
		for c := range cols {
			m.in[r*cols+c] = in(c, r)
		}
	}
	return m
}

// Cols and Rows are the mask's size in cells.
func (m *Mask) Cols() int { return m.cols }
func (m *Mask) Rows() int { return m.rows }

// Has reports whether cell (col, row) is inside; cells off the mask are
// not.
func (m *Mask) Has(col, row int) bool {
	return col >= 0 && row >= 0 && col < m.cols && row < m.rows && m.in[row*m.cols+col]
}

// Count is the number of cells inside.
func (m *Mask) Count() int {
	n := 0
	for _, in := range m.in {
		if in {
			n++
		}
	}
	return n
}

// MinMaskCells is the fewest cells a mask may hold: below it a shape is a
// corridor, not a maze.
const MinMaskCells = 50

// ErrBadMask is matched by every *MaskError.
var ErrBadMask = errors.New("unusable mask")

// MaskError says why a mask cannot hold a maze, in words for the person
// who drew it (Reason), and as a code with its numbers for a caller that
// words it in another language.
type MaskError struct {
	Reason string
	Code   MaskProblem
	N, M   int    // TooFewCells: the cells and the least; Pieces: the pieces; TextTooLong: the characters and the most; TextTooSmall: the least columns and rows
	Text   string // TextTooSmall: the text; TextChar: the character
}

// MaskProblem is what is wrong with a mask.
type MaskProblem string

// The mask problems.
const (
	TooFewCells  MaskProblem = "too_few_cells"
	Pieces       MaskProblem = "pieces"
	TextEmpty    MaskProblem = "text_empty"
	TextTooLong  MaskProblem = "text_too_long"
	TextChar     MaskProblem = "text_char"
	TextTooSmall MaskProblem = "text_too_small"
)

func (e *MaskError) Error() string        { return "mask: " + e.Reason }
func (e *MaskError) Is(target error) bool { return target == ErrBadMask }

// Check refuses a mask that cannot hold a perfect maze: fewer than
// MinMaskCells cells, or cells in several pieces (a maze's cells must all
// be reachable, and passages join cells that share a side, for a square
// grid, or an edge, for a hex grid of kind).
func (m *Mask) Check(kind GridKind) error {
	n := m.Count()
	if n < MinMaskCells {
		return &MaskError{Reason: fmt.Sprintf("it has %d cells inside the shape, and a maze needs at least %d: draw a larger shape or make the maze bigger", n, MinMaskCells), Code: TooFewCells, N: n, M: MinMaskCells}
	}
	pieces, _ := m.pieces(kind)
	if pieces > 1 {
		return &MaskError{Reason: fmt.Sprintf("its cells form %d separate pieces, and every cell of a maze must be reachable: join the pieces (cells touching only at a corner are apart)", pieces), Code: Pieces, N: pieces}
	}
	return nil
}

// pieces counts the mask's connected pieces and labels each cell with its
// piece (from 1; 0 outside).
func (m *Mask) pieces(kind GridKind) (int, []int32) {
	label := make([]int32, len(m.in))
	var g *Grid
	if kind == Hex {
		g, _ = NewHexGrid(max(m.cols, MinHexSide), max(m.rows, MinHexSide), nil)
	} else {
		g, _ = NewSquareGrid(max(m.cols, 2), max(m.rows, 2), nil)
	}
	n := int32(0)
	var stack []int
	for start, in := range m.in {
		if !in || label[start] != 0 {
			continue
		}
		n++
		label[start] = n
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, q := range g.Neighbours(g.At(p/m.cols, p%m.cols)) {
				c := g.Cell(int(q))
				if c.Col < m.cols && c.Row < m.rows && m.Has(c.Col, c.Row) && label[c.Row*m.cols+c.Col] == 0 {
					label[c.Row*m.cols+c.Col] = n
					stack = append(stack, c.Row*m.cols+c.Col)
				}
			}
		}
	}
	return int(n), label
}

// largestPiece returns the mask with only its largest piece (the first of
// equals), for presets whose thin tips may fall apart from the rest at
// small sizes.
func (m *Mask) largestPiece(kind GridKind) *Mask {
	n, label := m.pieces(kind)
	if n <= 1 {
		return m
	}
	size := make([]int, n+1)
	for _, l := range label {
		size[l]++
	}
	best := int32(1)
	for l := 2; l <= n; l++ {
		if size[l] > size[best] {
			best = int32(l)
		}
	}
	out := &Mask{cols: m.cols, rows: m.rows, in: make([]bool, len(m.in))}
	for i, l := range label {
		out.in[i] = l == best
	}
	return out
}

// String draws the mask in text, # inside and . outside, a row a line.
func (m *Mask) String() string {
	var sb strings.Builder
	for r := range m.rows {
		for c := range m.cols {
			sb.WriteByte(".#"[b2i(m.Has(c, r))])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
