package mazecore

import "testing"

// TestExits checks the searches' fast exits and steps against Open and
// neighbour, on mazes with and without loops.
func TestExits(t *testing.T) {
	for _, algo := range Algorithms {
		for _, loops := range []int{0, 50, 100} {
			m := mustGenerate(t, ID{Algorithm: algo, Width: 23, Height: 9, Seed: 11, Loops: loops})
			step := m.steps()
			for cell := range m.cols * m.rows {
				exits := m.exits(cell)
				for _, d := range Dirs {
					open := m.Open(cell%m.cols, cell/m.cols, d)
					if got := exits&(1<<d) != 0; got != open {
						t.Fatalf("%v cell %d: exits says %v open=%v, Open says %v", m.ID(), cell, d, got, open)
					}
					if open && cell+step[d] != m.neighbour(cell, d) {
						t.Fatalf("%v cell %d: step %v leads to %d, want %d", m.ID(), cell, d, cell+step[d], m.neighbour(cell, d))
					}
				}
				if got, want := m.degree(cell), m.Degree(cell%m.cols, cell/m.cols); got != want {
					t.Fatalf("%v cell %d: degree %d, Degree %d", m.ID(), cell, got, want)
				}
			}
		}
	}
}
