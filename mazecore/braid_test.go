package mazecore

import (
	"fmt"
	"testing"
)

var braidSizes = []struct{ w, h int }{{5, 5}, {5, 21}, {21, 5}, {7, 9}, {21, 21}, {41, 15}, {41, 41}, {101, 101}, {101, 41}}

// deadEnds counts the cells with one passage.
func deadEnds(m *Maze) int {
	n := 0
	for cell := range m.cols * m.rows {
		if m.degree(cell) == 1 {
			n++
		}
	}
	return n
}

// TestBraid checks the braid against its definition by replaying it: the
// maze with loops is the perfect maze of the same seed plus openings, each
// from a cell that is a dead end at that moment, to a dead end whenever it
// has one behind a wall (except for the last opening, see braid), and
// together they remove round(loops% of the dead ends) exactly, or one more
// only when the last opening had no other choice.
func TestBraid(t *testing.T) {
	t.Parallel()
	over := 0
	for _, algo := range Algorithms {
		for _, size := range braidSizes {
			for _, loops := range []int{0, 1, 30, 50, 99, 100} {
				t.Run(fmt.Sprintf("%s/%dx%d/loops%d", algo, size.w, size.h, loops), func(t *testing.T) {
					seeds := uint64(20)
					if size.w*size.h > 2000 {
						seeds = 4
					}
					for seed := range seeds {
						over += checkBraid(t, ID{Algorithm: algo, Width: size.w, Height: size.h, Seed: seed, Loops: loops})
					}
				})
			}
		}
	}
	// Every 5×5 maze is a ring with one wall: its two dead ends face each
	// other, so removing one removes both.
	t.Logf("%d braids removed one dead end too many for want of a choice", over)
}

// checkBraid replays the braid of id and returns 1 if it removed one dead
// end more than asked.
func checkBraid(t *testing.T, id ID) int {
	t.Helper()
	perfectID := id
	perfectID.Loops = 0
	perfect := mustGenerate(t, perfectID)
	var steps []Step
	m, err := GenerateObserved(id, func(s Step) {
		if s.Kind == Carved {
			steps = append(steps, s)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	cells := m.cols * m.rows
	if len(steps) < cells-1 {
		t.Fatalf("%+v: %d carves, fewer than the %d of a perfect maze", id, len(steps), cells-1)
	}
	// The generation proper is untouched: the braid only adds.
	replay := mustGenerate(t, perfectID)
	before, target := deadEnds(perfect), (deadEnds(perfect)*id.Loops+50)/100
	noChoice := false
	for i, s := range steps[cells-1:] {
		from, to := s.From.Y*m.cols+s.From.X, s.To.Y*m.cols+s.To.X
		d := dirBetween(t, s.From, s.To)
		if replay.degree(from) != 1 || replay.openIndex(from, d) {
			t.Fatalf("%+v: opening %d from %v, which is not a dead end or already open that way", id, i, s.From)
		}
		w := replay.closedWalls(from)
		left := target - (before - deadEnds(replay))
		toEnd := replay.degree(to) == 1
		switch {
		case left >= 2 && w.nEnds > 0 && !toEnd:
			t.Fatalf("%+v: opening %d joins %v to a non-dead end though a dead end was behind a wall", id, i, s.From)
		case left == 1 && w.nOthers > 0 && toEnd:
			t.Fatalf("%+v: last opening joins two dead ends though one would do", id)
		case left == 1 && toEnd:
			noChoice = !anyDeadEndOpensToOther(replay)
		case left <= 0:
			t.Fatalf("%+v: opening %d after the target was reached", id, i)
		}
		replay.carve(from, d)
	}
	if got, want := tileText(replay), tileText(m); got != want {
		t.Fatalf("%+v: the perfect maze plus the reported openings is not the maze", id)
	}
	if got, want := passages(m), cells-1+len(steps)-(cells-1); got != want {
		t.Fatalf("%+v: %d passages, want %d", id, got, want)
	}
	removed := before - deadEnds(m)
	if id.Loops == MaxLoops && deadEnds(m) != 0 {
		t.Fatalf("%+v: %d dead ends left, want none", id, deadEnds(m))
	}
	over := 0
	switch {
	case removed == target:
	case removed == target+1 && noChoice:
		over = 1
	default:
		t.Fatalf("%+v: removed %d of %d dead ends, want round(%d%%)=%d", id, removed, before, id.Loops, target)
	}
	checkReachable(t, m)
	return over
}

// anyDeadEndOpensToOther reports whether some dead end has a neighbour that
// is not a dead end behind a wall.
func anyDeadEndOpensToOther(m *Maze) bool {
	for cell := range m.cols * m.rows {
		if m.degree(cell) == 1 && m.closedWalls(cell).nOthers > 0 {
			return true
		}
	}
	return false
}

func dirBetween(t *testing.T, from, to Point) Dir {
	t.Helper()
	for _, d := range Dirs {
		if dx, dy := d.Delta(); from.X+dx == to.X && from.Y+dy == to.Y {
			return d
		}
	}
	t.Fatalf("%v and %v are not neighbours", from, to)
	return 0
}

// checkReachable fails unless every cell is reachable from the start.
func checkReachable(t *testing.T, m *Maze) {
	t.Helper()
	dist := tileBFS(m, m.Start())
	for cy := range m.Rows() {
		for cx := range m.Cols() {
			if dist[(2*cy+1)*m.Width()+2*cx+1] < 0 {
				t.Fatalf("%+v: cell (%d,%d) unreachable", m.ID(), cx, cy)
			}
		}
	}
}
