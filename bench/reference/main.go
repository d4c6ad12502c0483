package main

import (
	"fmt"
	"math/bits"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: reference binary-tree|sidewinder|backtracking|digging SIZE SEED")
		os.Exit(2)
	}
	size, err1 := strconv.Atoi(os.Args[2])
	seed, err2 := strconv.ParseUint(os.Args[3], 10, 64)
	if err1 != nil || err2 != nil || size < 5 || size%2 == 0 {
		fmt.Fprintln(os.Stderr, "reference: SIZE must be odd and at least 5, SEED a number")
		os.Exit(2)
	}
	g := newGrid(size, size, seed)
	switch os.Args[1] {
	case "binary-tree":
		g.binaryTree()
	case "sidewinder":
		g.sidewinder()
	case "backtracking":
		g.backtracking()
	case "digging":
		g.digging()
	default:
		fmt.Fprintf(os.Stderr, "reference: unknown algorithm %q\n", os.Args[1])
		os.Exit(2)
	}
	g.tiles[g.at(1, 1)] = 'S'
	g.tiles[g.at(2*g.cols-1, 2*g.rows-1)] = 'G'
	if _, err := os.Stdout.Write(g.tiles); err != nil {
		fmt.Fprintln(os.Stderr, "reference:", err)
		os.Exit(1)
	}
}

// grid is the maze as text: width+1 bytes a row, the last one '\n'. A
// cell or passage is dug when its tile is ' '.
type grid struct {
	tiles      []byte
	stride     int // bytes a row
	cols, rows int // cells
	rng        rng
}

func newGrid(width, height int, seed uint64) *grid {
	g := &grid{stride: width + 1, cols: width / 2, rows: height / 2, rng: rng{seed}}
	g.tiles = make([]byte, g.stride*height)
	for i := range g.tiles {
		g.tiles[i] = '#'
	}
	for y := 0; y < height; y++ {
		g.tiles[y*g.stride+width] = '\n'
	}
	return g
}

// at is the index of tile (x, y).
func (g *grid) at(x, y int) int { return y*g.stride + x }

// cell is the index of the tile of cell (cx, cy).
func (g *grid) cell(cx, cy int) int { return g.at(2*cx+1, 2*cy+1) }

// The directions in mazebot's order, which the draws index.
var dx, dy = [4]int{0, 1, 0, -1}, [4]int{-1, 0, 1, 0}

// dig opens cell (cx, cy) and the wall in direction d, returning the
// neighbour's coordinates (and digging its tile too).
func (g *grid) dig(cx, cy, d int) (int, int) {
	x, y := 2*cx+1, 2*cy+1
	g.tiles[g.at(x+dx[d], y+dy[d])] = ' '
	nx, ny := cx+dx[d], cy+dy[d]
	g.tiles[g.cell(nx, ny)] = ' '
	return nx, ny
}

func (g *grid) inside(cx, cy int) bool { return cx >= 0 && cy >= 0 && cx < g.cols && cy < g.rows }

// moves lists the directions from (cx, cy) to cells not dug yet.
func (g *grid) moves(cx, cy int, list *[4]int) int {
	n := 0
	for d := 0; d < 4; d++ {
		nx, ny := cx+dx[d], cy+dy[d]
		if g.inside(nx, ny) && g.tiles[g.cell(nx, ny)] == '#' {
			list[n] = d
			n++
		}
	}
	return n
}

func (g *grid) openAllCells() {
	for cy := 0; cy < g.rows; cy++ {
		for cx := 0; cx < g.cols; cx++ {
			g.tiles[g.cell(cx, cy)] = ' '
		}
	}
}

const north, east, south, west = 0, 1, 2, 3

func (g *grid) binaryTree() {
	g.openAllCells()
	for cy := 0; cy < g.rows; cy++ {
		for cx := 0; cx < g.cols; cx++ {
			canNorth, canEast := cy > 0, cx < g.cols-1
			switch {
			case canNorth && canEast:
				if g.rng.intn(2) == 0 {
					g.dig(cx, cy, north)
				} else {
					g.dig(cx, cy, east)
				}
			case canNorth:
				g.dig(cx, cy, north)
			case canEast:
				g.dig(cx, cy, east)
			}
		}
	}
}

func (g *grid) sidewinder() {
	g.openAllCells()
	for cy := 0; cy < g.rows; cy++ {
		runStart := 0
		for cx := 0; cx < g.cols; cx++ {
			closeRun := cx == g.cols-1 || (cy > 0 && g.rng.intn(2) == 0)
			if !closeRun {
				g.dig(cx, cy, east)
				continue
			}
			if cy > 0 {
				g.dig(runStart+g.rng.intn(cx-runStart+1), cy, north)
			}
			runStart = cx + 1
		}
	}
}

// backtracking is depth-first search with a stack of the cells on the
// way back.
func (g *grid) backtracking() {
	start := g.rng.intn(g.cols * g.rows)
	cx, cy := start%g.cols, start/g.cols
	g.tiles[g.cell(cx, cy)] = ' '
	stack := [][2]int32{}
	var list [4]int
	for {
		if n := g.moves(cx, cy, &list); n > 0 {
			stack = append(stack, [2]int32{int32(cx), int32(cy)})
			cx, cy = g.dig(cx, cy, list[g.rng.intn(n)])
			continue
		}
		if len(stack) == 0 {
			return
		}
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		cx, cy = int(top[0]), int(top[1])
	}
}

// digging digs until stuck, then restarts from a random dug cell,
// dropping the cells that have no move left.
func (g *grid) digging() {
	start := g.rng.intn(g.cols * g.rows)
	cx, cy := start%g.cols, start/g.cols
	g.tiles[g.cell(cx, cy)] = ' '
	dug := [][2]int32{{int32(cx), int32(cy)}}
	var list [4]int
	for {
		if n := g.moves(cx, cy, &list); n > 0 {
			cx, cy = g.dig(cx, cy, list[g.rng.intn(n)])
			dug = append(dug, [2]int32{int32(cx), int32(cy)})
			continue
		}
		for {
			if len(dug) == 0 {
				return
			}
			i := g.rng.intn(len(dug))
			c := dug[i]
			if g.moves(int(c[0]), int(c[1]), &list) > 0 {
				cx, cy = int(c[0]), int(c[1])
				break
			}
			dug[i] = dug[len(dug)-1]
			dug = dug[:len(dug)-1]
		}
	}
}

// rng is SplitMix64, mazebot's generator.
type rng struct{ state uint64 }

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn is Lemire's unbiased draw in [0, n), as mazebot draws.
func (r *rng) intn(n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(r.next(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.next(), bound)
		}
	}
	return int(hi)
}
