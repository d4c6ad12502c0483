package mazecore

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// StepKind says what a generator did in one step, for animations.
type StepKind uint8

const (
	// Carved: a passage was opened from From to To; To is the new head.
	Carved StepKind = iota + 1
	// Backtracked: the head moved back from From to To along a passage.
	Backtracked
	// Restarted: the digger jumped to To, an already dug cell.
	Restarted
	// Visited: the generator looked at cell To (binary tree, sidewinder).
	Visited
)

// Step is one event of a generation, in cell coordinates.
type Step struct {
	Kind     StepKind
	From, To Point
}

// Observer receives each step of a generation as it happens.
type Observer func(Step)

// Generate builds the maze an ID names: the algorithm's perfect maze for the
// seed, then, if id.Loops > 0, braided (see ID.Loops) with random numbers of
// its own, so the perfect part is the same maze as with Loops 0.
func Generate(id ID) (*Maze, error) { return GenerateWith(id, Options{}) }

// GenerateObserved is Generate with a callback for every step, used to
// animate generation.
func GenerateObserved(id ID, observe Observer) (*Maze, error) {
	return GenerateWith(id, Options{Observe: observe})
}

// Options are what a caller may ask of a generation besides the maze; none
// of them changes the maze.
type Options struct {
	// Observe receives every step. Without it the generators run loops
	// that have no steps to report; binary tree and sidewinder report
	// theirs once the maze is made, from its passages.
	Observe Observer
	// Progress is called now and then (every 64 Ki cells, or every few
	// rows) with the cells the generator has reached so far and the total,
	// from the generating goroutine: a command line shows it for a huge
	// maze. It must return quickly.
	Progress func(done, total int)
}

// GenerateWith is Generate with options.
func GenerateWith(id ID, opts Options) (*Maze, error) {
	if err := id.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", id.Algorithm, err)
	}
	if !id.Plain() {
		return nil, fmt.Errorf("generate %s on a %s grid %s: %w", id.Algorithm, id.GridKind, id.Shape, ErrNotSquare)
	}
	m := newMaze(id)
	g := generator{maze: m, rng: newSource(id.Seed), observe: opts.Observe, progress: opts.Progress}
	id.Algorithm.spec().generate(&g)
	if g.progress != nil {
		g.progress(id.Cells(), id.Cells())
	}
	if id.Loops > 0 {
		g.braid(id.Loops)
	}
	return m, nil
}

type generator struct {
	maze     *Maze
	rng      *source
	observe  Observer
	progress func(done, total int)
}

// progressEvery is how many cells the walking generators carve between
// calls of Progress; a mask, so the test is one AND.
const progressEvery = 1<<16 - 1

func (g *generator) point(cell int) Point {
	return Point{cell % g.maze.cols, cell / g.maze.cols}
}

// emit reports a step. Hot loops test g.observe before calling it.
func (g *generator) emit(kind StepKind, from, to int) {
	g.observe(Step{Kind: kind, From: g.point(from), To: g.point(to)})
}

// carve opens cell→d and reports it, for braiding.
func (g *generator) carve(cell int, d Dir) int {
	next := g.maze.neighbour(cell, d)
	g.maze.carve(cell, d)
	if g.observe != nil {
		g.emit(Carved, cell, next)
	}
	return next
}

// bitChunk is how many cells' bits orBits takes at once: 29 cells are 58
// bits, which with the cell's place in its byte (up to 6 bits) fill one
// 64-bit word.
const bitChunk = 29

// eastBits[n] has the east bit of the first n cells of a chunk set.
var eastBits = func() (t [bitChunk + 1]uint64) {
	for n := range t {
		t[n] = 0x5555555555555555 & (1<<(2*n) - 1)
	}
	return t
}()

// openEastRun opens the passages east of n cells from first on.
func (m *Maze) openEastRun(first, n int) {
	for k := 0; k < n; k += bitChunk {
		m.orBits(first+k, eastBits[min(bitChunk, n-k)])
	}
}

// reportRows calls Progress after row cy of a row-by-row generator.
func (g *generator) reportRows(cy int) {
	if g.progress != nil && cy&63 == 0 {
		g.progress(cy*g.maze.cols, g.maze.cols*g.maze.rows)
	}
}

// binaryTree carves each cell north or east at random; the top row can only
// go east and the east column only north, which makes those two edges
// unbroken corridors. Each other cell draws intn(2), a draw's top bit: 0
// carves north (the south bit of the cell above), 1 east. The bits of
// bitChunk cells are gathered in a word and ORed into the maze at once, the
// north ones as the complement of the east ones, with no branch on the
// draws.
func (g *generator) binaryTree() {
	m := g.maze
	cols := m.cols
	m.openEastRun(0, cols-1)
	rng := *g.rng
	for cy := 1; cy < m.rows; cy++ {
		row := cy * cols
		for cx := 0; cx < cols-1; cx += bitChunk {
			n := min(bitChunk, cols-1-cx)
			east := rng.evenBits(n)
			m.orBits(row+cx, east)
			m.orBits(row-cols+cx, (eastBits[n]&^east)<<1)
		}
		m.setBit(row-1, bitSouth) // the last cell goes north
		g.reportRows(cy)
	}
	*g.rng = rng
	if g.observe != nil {
		g.replayBinaryTree()
	}
}

// replayBinaryTree reports binaryTree's steps, in the order it took them,
// from the passages it carved: each cell's choice is its east bit.
func (g *generator) replayBinaryTree() {
	m := g.maze
	for cell := range m.cols * m.rows {
		cx, cy := cell%m.cols, cell/m.cols
		switch {
		case cy == 0 && cx == m.cols-1:
			g.emit(Visited, cell, cell)
		case cy == 0 || m.bits(cell)&bitEast != 0:
			g.emit(Carved, cell, cell+1)
		default:
			g.emit(Carved, cell, cell-m.cols)
		}
	}
}

// sidewinder works row by row: a run of cells is carved east; when the run
// closes, one passage north is carved from a random cell of the run (not its
// last cell, a common bug). The top row has no row above, so it is one
// corridor.
//
// A cell other than the last of its row closes its run when a draw's top
// bit is 0, and a closing run draws its member: the draws form tokens,
// "1" (carve east) and "0x" (close, then the member's draw x). tokens
// parses 64 draws' top bits at once with a few additions, and the closes
// are then taken one by one with no chain of dependent steps between them:
// a branch per cell, mispredicted every other time, or a count per run,
// each waiting for the one before, would be slower. Every cell is first
// opened east a word at a time, and a closing one closed again.
func (g *generator) sidewinder() {
	m := g.maze
	cols := m.cols
	m.openEastRun(0, cols-1)
	a := newAhead(*g.rng)
	pos := 0
	for row := cols; row < cols*m.rows; row += cols {
		m.openEastRun(row, cols-1)
		pos = m.sidewinderRow(a, pos, row)
		g.reportRows(row / cols)
	}
	if pos >= aheadHalf {
		pos = a.slide(pos)
	}
	*g.rng = a.source(pos)
	if g.observe != nil {
		g.replaySidewinder()
	}
}

// sidewinderRow carves the row of cells from cell row on, with the draws
// of a from pos on, and returns where the next row's draws start.
func (m *Maze) sidewinderRow(a *ahead, pos, row int) int {
	cols, p := m.cols, m.passages
	// c is the next cell to decide, run the first of its run.
	c, run, last := row, row, row+cols-1
	for c < last {
		if pos >= aheadHalf {
			pos = a.slide(pos)
		}
		starts, closes := tokens(a.tops[0]>>pos | a.tops[1]<<1<<(aheadHalf-1-pos))
		span := aheadHalf
		if closes>>63 != 0 {
			// Its member is in the next window: parse it there.
			starts, closes, span = starts&^(1<<63), closes&^(1<<63), aheadHalf-1
		}
		if need := last - c; bits.OnesCount64(starts) >= need {
			// The row's last decision is token need-1, at j; then come
			// its member's draw if it closes, and the last cell's.
			s := starts
			for range need - 1 {
				s &= s - 1
			}
			j := bits.TrailingZeros64(s)
			starts &= 2<<j - 1
			closes &= starts
			span = j + 1 + int(closes>>j&1)
		}
		east, north, r, rare := closeWindowFast(&a.draws, p, closes, pos, c, run, cols)
		applyCells(p, c, east, north, cols)
		run = r
		if rare >= 0 {
			// Lemire's method may draw again for the close at draw rare,
			// which moves the tokens after: finish that close, then parse
			// again after it.
			cell := c + rare - bits.OnesCount64(closes&(1<<rare-1))
			member, used := a.intn(pos+rare+1, uint64(cell-run+1))
			closeRun(p, cell, run+int(member)-cols)
			pos, c, run = pos+rare+1+used, cell+1, cell+1
			continue
		}
		c += bits.OnesCount64(starts)
		pos += span
	}
	if pos >= aheadHalf {
		pos = a.slide(pos)
	}
	// The last cell closes its run without a draw for it.
	member, used := a.intn(pos, uint64(last-run+1))
	m.setBit(run+int(member)-cols, bitSouth)
	return pos + used
}

// closeRun closes the run at cell (if not -1) in passages p: no passage
// east, one north from member. On a slice rather than a *Maze, whose
// fields the compiler would load again after every store.
func closeRun(p []byte, cell, member int) {
	if cell >= 0 {
		p[cell>>2] &^= bitEast << ((cell & 3) * 2)
	}
	p[member>>2] |= bitSouth << ((member & 3) * 2)
}

// closeWindow takes the closes of a window of draws (from draw pos, whose
// first token is cell c) in order. Between two closes every token is "1",
// so the close at draw i is cell c+i less one for each close before it,
// and the draw after it picks the member. It returns the cells that close
// (east, bit k for cell c+k) and the members among the window's cells
// (north; a member before c, of a run begun in an earlier window, it sets
// itself), the next run's first cell, and the draw of a close whose
// member's draw Lemire's method may reject, or -1: it stops there. A
// function of its own with no calls, so that its loop keeps everything in
// registers.
func closeWindow(draws *[2 * aheadHalf]uint64, p []byte, closes uint64, pos, c, run, cols int) (east, north uint64, next, rare int) {
	for off := 0; closes != 0; off-- {
		i := bits.TrailingZeros64(closes)
		closes &= closes - 1
		k := i + off // the cell, from c
		size := uint64(c + k - run + 1)
		member, lo := bits.Mul64(draws[(pos+i+1)&(len(draws)-1)], size)
		if lo < size {
			return east, north, run, i
		}
		east |= 1 << (uint(k) & 63)
		if up := run + int(member) - c; up >= 0 {
			north |= 1 << (uint(up) & 63)
		} else {
			up += c - cols
			p[up>>2] |= bitSouth << ((up & 3) * 2)
		}
		run = c + k + 1
	}
	return east, north, run, -1
}

// applyCells closes the passages east of the cells east marks (bit k for
// cell first+k) and opens those north of the cells north marks, in
// passages p.
func applyCells(p []byte, first int, east, north uint64, cols int) {
	if east != 0 {
		andNot128(p, first, spread(uint32(east)), spread(uint32(east>>32)))
	}
	if north != 0 {
		or128(p, first-cols, spread(uint32(north))<<1, spread(uint32(north>>32))<<1)
	}
}

// spread moves bit k of x to bit 2k: a cell's bit to its east bit.
func spread(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000ffff0000ffff
	v = (v | v<<8) & 0x00ff00ff00ff00ff
	v = (v | v<<4) & 0x0f0f0f0f0f0f0f0f
	v = (v | v<<2) & 0x3333333333333333
	return (v | v<<1) & 0x5555555555555555
}

// or128 and andNot128 apply 128 bits of passages, two a cell, from cell
// first on: three words, as the first cell may sit anywhere in its byte.
func or128(p []byte, first int, lo, hi uint64) {
	i, s := first>>2, uint(first&3)*2
	b := p[i : i+24]
	le := binary.LittleEndian
	le.PutUint64(b, le.Uint64(b)|lo<<s)
	le.PutUint64(b[8:], le.Uint64(b[8:])|hi<<s|lo>>1>>(63-s))
	le.PutUint64(b[16:], le.Uint64(b[16:])|hi>>1>>(63-s))
}

func andNot128(p []byte, first int, lo, hi uint64) {
	i, s := first>>2, uint(first&3)*2
	b := p[i : i+24]
	le := binary.LittleEndian
	le.PutUint64(b, le.Uint64(b)&^(lo<<s))
	le.PutUint64(b[8:], le.Uint64(b[8:])&^(hi<<s|lo>>1>>(63-s)))
	le.PutUint64(b[16:], le.Uint64(b[16:])&^(hi>>1>>(63-s)))
}

// tokens parses 64 draws' top bits t, the first starting a token, into
// sidewinder's tokens: starts has a bit for the first draw of each token,
// closes for those that close a run ("0x"; the others are "1"). The draws
// that are not starts are the members: in each run of 0s, every other
// draw from the run's second on, and the draw after the run when it is of
// odd length. Adding a run's first bit to the 0s clears the run and sets
// the bit after it, so run ^ (run + first) marks the run and that bit;
// the members are then those at the other parity from the first.
func tokens(t uint64) (starts, closes uint64) {
	const even, odd = 0x5555555555555555, 0xaaaaaaaaaaaaaaaa
	z := ^t
	first := z &^ (z << 1)
	fromEven := z ^ (z + first&even)
	fromOdd := z ^ (z + first&odd)
	starts = ^(fromEven&odd | fromOdd&even)
	return starts, starts & z
}

// replaySidewinder reports sidewinder's steps from the passages it carved:
// a cell closed to the east closes its run, whose one passage north is the
// member it drew.
func (g *generator) replaySidewinder() {
	m := g.maze
	for cy := range m.rows {
		runStart := 0
		for cx := range m.cols {
			cell := cy*m.cols + cx
			switch {
			case m.bits(cell)&bitEast != 0:
				g.emit(Carved, cell, cell+1)
				continue
			case cy == 0:
				g.emit(Visited, cell, cell)
			default:
				for x := cy*m.cols + runStart; x <= cell; x++ {
					if m.bits(x-m.cols)&bitSouth != 0 {
						g.emit(Carved, x, x-m.cols)
					}
				}
			}
			runStart = cx + 1
		}
	}
}

// dirStack is a stack of directions packed four to a byte: the explicit
// stack of the backtracker costs a quarter byte per cell at worst. Its
// room is reserved at the start: memory the walk never reaches is never
// touched, and growing would copy.
type dirStack struct {
	data []byte
	n    int
}

func newDirStack(max int) dirStack { return dirStack{data: make([]byte, max/4+1)} }

func (s *dirStack) push(d Dir) {
	shift := (s.n & 3) * 2
	s.data[s.n>>2] = s.data[s.n>>2]&^(3<<shift) | byte(d)<<shift
	s.n++
}

func (s *dirStack) pop() Dir {
	s.n--
	return Dir(s.data[s.n>>2] >> ((s.n & 3) * 2) & 3)
}

// walk holds what backtracking needs to move around: a visited
// set with a border, and the offsets of the four moves. Cell (cx, cy) is
// bit (cy+1)·stride+cx+1 of a grid stride = cols+1 wide whose first column
// (which is also east of the row above's last cell) and first and last
// rows are set, as if visited: a move off the maze is never free, and
// finding the free moves takes four bit tests, with no bounds test and no
// division. A walker keeps both its cell (for the passages) and its bit
// (for the visited set) and moves them together. The free moves from bit q,
// bit d for Dir d, are
//
//	15 &^ uint8(v.bit(q-s) | v.bit(q+1)<<East | v.bit(q+s)<<South | v.bit(q-1)<<West)
//
// spelt out in the loops: as a function it is too big to be inlined.
type walk struct {
	m       *Maze
	visited bitset
	stride  int
	step    [4]int // bit offsets of the moves, by Dir
	move    [4]int // cell offsets of the moves
	carveAt [4]int // the cell whose bit a move opens: itself or the one north or west
}

func newWalk(m *Maze) *walk {
	stride := m.cols + 1
	w := &walk{
		m: m, stride: stride, visited: newBitset((m.rows + 2) * stride),
		step:    [4]int{North: -stride, East: 1, South: stride, West: -1},
		move:    [4]int{North: -m.cols, East: 1, South: m.cols, West: -1},
		carveAt: [4]int{North: -m.cols, East: 0, South: 0, West: -1},
	}
	for q := range stride {
		w.visited.set(q)
		w.visited.set((m.rows+1)*stride + q)
	}
	for py := 1; py <= m.rows; py++ {
		w.visited.set(py * stride)
	}
	return w
}

// startWalk makes the walk of g's maze and puts it on a random cell, the
// first draw, returning the cell and its bit.
func (g *generator) startWalk() (w *walk, cell, q int) {
	w = newWalk(g.maze)
	cell = g.rng.intn(g.maze.cols * g.maze.rows)
	q = w.bitOf(cell)
	w.visited.set(q)
	return w, cell, q
}

// bitOf is a cell's bit in the visited set.
func (w *walk) bitOf(cell int) int { return cell + cell/w.m.cols + w.stride + 1 }

// carve opens the passage from cell (at bit q) in direction d, and returns
// the cell and bit it leads to, marked visited.
func (w *walk) carve(cell, q int, d Dir) (int, int) {
	w.m.setBit(cell+w.carveAt[d], carveOf[d])
	q += w.step[d]
	w.visited.set(q)
	return cell + w.move[d], q
}

// report tells the observer of the carved-th carve, from one cell to
// another, and now and then the progress. The walkers call it only when
// there is something to tell: it is not worth a call on every carve.
func (g *generator) report(from, to, carved int) {
	if g.observe != nil {
		g.emit(Carved, from, to)
	}
	if carved&progressEvery == 0 && g.progress != nil {
		g.progress(carved, g.maze.cols*g.maze.rows)
	}
}

// freeDirs[mask] lists the directions of a free-moves mask in Dirs order,
// the order generators have always drawn from, and freeCount[mask] counts
// them.
var freeDirs, freeCount = func() (dirs [16][4]Dir, count [16]uint8) {
	for mask := range 16 {
		for _, d := range Dirs {
			if mask&(1<<d) != 0 {
				dirs[mask][count[mask]] = d
				count[mask]++
			}
		}
	}
	return dirs, count
}()

// backtracking is randomized depth-first search with an explicit stack of
// the directions taken, so no recursion: a huge maze cannot overflow the
// goroutine stack. It starts at a random cell.
func (g *generator) backtracking() {
	w, cell, q := g.startWalk()
	v, s, rng := w.visited, w.stride, *g.rng
	stack := newDirStack(g.maze.cols * g.maze.rows)
	for carved := 1; ; {
		if mask := 15 &^ uint8(v.bit(q-s)|v.bit(q+1)<<East|v.bit(q+s)<<South|v.bit(q-1)<<West); mask != 0 {
			d := freeDirs[mask][rng.intn(int(freeCount[mask]))]
			from := cell
			cell, q = w.carve(cell, q, d)
			stack.push(d)
			if carved++; g.observe != nil || carved&progressEvery == 0 {
				g.report(from, cell, carved)
			}
			continue
		}
		if stack.n == 0 {
			break
		}
		d := stack.pop().Opposite()
		from := cell
		cell, q = cell+w.move[d], q+w.step[d]
		if g.observe != nil {
			g.emit(Backtracked, from, cell)
		}
	}
	*g.rng = rng
}
