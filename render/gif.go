package render

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"

	"mazebot/mazecore"
)

// GIFMaxSize is the largest side, in tiles, GIF animates: beyond it the
// cells are too small to follow and the file too big for a chat.
const GIFMaxSize = 101

// GIFOptions tunes the animation. Zero values pick the defaults.
type GIFOptions struct {
	Scale     int  // pixels per tile; 0 = about 400 px per side
	MaxFrames int  // at most this many frames, at least 4; 0 = 150
	Delay     int  // between frames, in 1/100 s; 0 = 4
	Solve     bool // draw the solution on the poster and the final frame
}

const (
	defaultGIFFrames = 150
	defaultGIFDelay  = 4
	gifTargetSide    = 420
	posterDelay      = 100 // the finished maze first, for a viewer that shows one frame
	firstFrameDelay  = 50  // let the empty grid be seen
	finalFrameDelay  = 300 // and the finished maze linger
	// minHeadPixels is the least side of the generator's head: it
	// covers the tiles around its own below that, so that it shows in
	// a 101-tile maze at 4 px a tile.
	minHeadPixels = 10
)

// GIF states of a tile, which are also palette indexes.
const (
	gFloor uint8 = iota
	gWall
	gUnvisited // a cell no generator step has reached
	gDug       // carved, still in play: on the backtracker's stack
	gDone      // backtracked from: finished
	gHead      // where the generator is now
	gStart
	gGoal
	gPath
)

// gifPalette is Dark's, with the generation's own colours: the stack,
// the head and the solution each apart from the other two for every
// common colour vision (see TestColourVision).
var gifPalette = color.Palette{
	gFloor:     Dark.colours[kFloor],
	gWall:      Dark.colours[kWall],
	gUnvisited: rgb(0x4a5263), // grey: cells yet to dig
	gDug:       rgb(0x74c0fc), // light blue
	gDone:      rgb(0xd8dee6), // pale grey, nearly floor: done with
	gHead:      rgb(0xfcc419), // amber yellow
	gStart:     Dark.colours[kStart],
	gGoal:      Dark.colours[kGoal],
	gPath:      Dark.colours[kPath],
}

// GIF writes an animated GIF of the generation of the maze id names. The
// first frame is the finished maze (a poster: what a viewer showing one
// frame shows), with its solution if asked; then from the empty grid,
// cells turn light blue as they are dug, the generator's head is an amber
// square at least minHeadPixels wide, cells the backtracker leaves for
// good turn pale; with loops, the walls the braid opens are then carved
// one by one; the last frame, held for three seconds, is the finished
// maze again. The start and goal markers stand beside the maze
// throughout. Steps are batched so there are at most MaxFrames frames,
// and each frame of the generation holds only the rectangle that changed,
// which keeps the file small. Mazes wider or taller than GIFMaxSize tiles
// are refused with ErrTooLarge.
func GIF(w io.Writer, id mazecore.ID, opts GIFOptions) error {
	if err := id.Validate(); err != nil {
		return fmt.Errorf("gif: %w", err)
	}
	if id.Width > GIFMaxSize || id.Height > GIFMaxSize {
		return fmt.Errorf("gif of %d×%d tiles: %w (at most %d×%d)", id.Width, id.Height, ErrTooLarge, GIFMaxSize, GIFMaxSize)
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return err
	}
	opts.Scale = opts.scale(id.Width, id.Height)

	var steps []mazecore.Step
	m, err := mazecore.GenerateObserved(id, func(s mazecore.Step) { steps = append(steps, s) })
	if err != nil {
		return fmt.Errorf("gif: %w", err)
	}

	a := newAnimation(m, opts.Scale)
	// Frames: the poster, the empty grid, ceil(len(steps)/per) batches,
	// the final maze.
	per := max(1, (len(steps)+opts.MaxFrames-4)/(opts.MaxFrames-3))
	pw, ph := a.g.pictureSize(m)
	anim := &gif.GIF{Config: image.Config{ColorModel: gifPalette, Width: pw, Height: ph}}
	add := func(img *image.Paletted, delay int) {
		anim.Image = append(anim.Image, img)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	finished := a.final(opts.Solve)
	add(finished, posterDelay)
	// The empty grid covers the maze; the markers stay from the poster.
	add(a.frame(image.Rect(0, 0, a.w, a.h)), max(opts.Delay, firstFrameDelay))
	for i := 0; i < len(steps); i += per {
		for _, s := range steps[i:min(i+per, len(steps))] {
			a.apply(s)
		}
		add(a.frame(a.takeDirty()), opts.Delay)
	}
	add(finished, finalFrameDelay)

	if err := gif.EncodeAll(w, anim); err != nil {
		return fmt.Errorf("encode gif: %w", err)
	}
	return nil
}

// withDefaults fills in the zero fields' defaults, and refuses too few
// frames.
func (o GIFOptions) withDefaults() (GIFOptions, error) {
	if o.MaxFrames == 0 {
		o.MaxFrames = defaultGIFFrames
	}
	if o.MaxFrames < 4 {
		return o, fmt.Errorf("gif: MaxFrames %d is below 4 (poster, empty grid, one step, last)", o.MaxFrames)
	}
	if o.Delay <= 0 {
		o.Delay = defaultGIFDelay
	}
	return o, nil
}

// scale is the pixels a tile of a w×h maze takes: Scale, or about
// gifTargetSide pixels a side.
func (o GIFOptions) scale(w, h int) int {
	if o.Scale > 0 {
		return o.Scale
	}
	return min(max(gifTargetSide/max(w, h), 2), 16)
}

// animation is the tile state of a generation in progress.
type animation struct {
	m       *mazecore.Maze
	w, h    int
	g       geometry // uniform, with the markers' margin
	d       int      // the markers' size
	head    mazecore.Point
	reach   int // the head covers the tiles this far around it
	tiles   []uint8
	onHead  bool // false until the first step
	dirty   image.Rectangle
	scratch []byte
}

func newAnimation(m *mazecore.Maze, scale int) *animation {
	a := &animation{m: m, w: m.Width(), h: m.Height()}
	a.g, a.d = newGeometry(m, scale, StyleBlock)
	for (2*a.reach+1)*scale < minHeadPixels {
		a.reach++
	}
	a.tiles = make([]uint8, a.w*a.h)
	for y := 0; y < a.h; y++ {
		for x := 0; x < a.w; x++ {
			s := gWall
			if x%2 == 1 && y%2 == 1 {
				s = gUnvisited
			}
			a.tiles[y*a.w+x] = s
		}
	}
	return a
}

func cellTile(c mazecore.Point) mazecore.Point { return mazecore.Point{X: 2*c.X + 1, Y: 2*c.Y + 1} }

func (a *animation) set(p mazecore.Point, s uint8) {
	a.tiles[p.Y*a.w+p.X] = s
	a.touch(p)
}

func (a *animation) touch(p mazecore.Point) {
	// Union treats an empty rectangle as nothing, so the first touch sets it.
	a.dirty = a.dirty.Union(image.Rect(p.X, p.Y, p.X+1, p.Y+1))
}

func (a *animation) apply(s mazecore.Step) {
	from, to := cellTile(s.From), cellTile(s.To)
	mid := mazecore.Point{X: (from.X + to.X) / 2, Y: (from.Y + to.Y) / 2}
	switch s.Kind {
	case mazecore.Carved:
		for _, p := range []mazecore.Point{from, mid, to} {
			if a.tiles[p.Y*a.w+p.X] != gDone {
				a.set(p, gDug)
			}
		}
	case mazecore.Backtracked:
		a.set(from, gDone)
		a.set(mid, gDone)
	case mazecore.Visited:
		if a.tiles[to.Y*a.w+to.X] == gUnvisited {
			a.set(to, gDug)
		}
	}
	// The old head's tiles go back to their states, the new ones light up.
	if a.onHead {
		a.touchHead()
	}
	a.head, a.onHead = to, true
	a.touchHead()
}

// headArea is the tiles the head covers, inside the maze.
func (a *animation) headArea() image.Rectangle {
	r := a.reach
	return image.Rect(a.head.X-r, a.head.Y-r, a.head.X+r+1, a.head.Y+r+1).Intersect(image.Rect(0, 0, a.w, a.h))
}

func (a *animation) touchHead() { a.dirty = a.dirty.Union(a.headArea()) }

func (a *animation) takeDirty() image.Rectangle {
	r := a.dirty
	a.dirty = image.Rectangle{}
	return r
}

// frame draws the tiles of r (in tiles) as a frame covering just r, a row
// of tiles at a time: one row of pixels, copied down the tile.
func (a *animation) frame(r image.Rectangle) *image.Paletted {
	g := a.g
	img := image.NewPaletted(image.Rect(g.start(r.Min.X), g.start(r.Min.Y), g.start(r.Max.X), g.start(r.Max.Y)), gifPalette)
	head := image.Rectangle{}
	if a.onHead {
		head = a.headArea()
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := a.tiles[y*a.w+r.Min.X : y*a.w+r.Max.X]
		if on := head.Intersect(image.Rect(r.Min.X, y, r.Max.X, y+1)); !on.Empty() {
			a.scratch = append(a.scratch[:0], row...)
			row = a.scratch
			for x := on.Min.X; x < on.Max.X; x++ {
				row[x-r.Min.X] = gHead
			}
		}
		a.paintRow(img, y, r.Min.X, row)
	}
	return img
}

// whole returns the whole picture with the maze area's frame in it and
// the markers beside it.
func (a *animation) whole(maze *image.Paletted) *image.Paletted {
	pw, ph := a.g.pictureSize(a.m)
	img := image.NewPaletted(image.Rect(0, 0, pw, ph), gifPalette)
	b := maze.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		copy(img.Pix[img.PixOffset(b.Min.X, y):], maze.Pix[maze.PixOffset(b.Min.X, y):maze.PixOffset(b.Max.X, y)])
	}
	for _, mk := range markersOf(a.m, a.g, a.d) {
		state := gStart
		if mk.goal {
			state = gGoal
		}
		for j := range mk.d {
			for i := range mk.d {
				if mk.covers(i, j) {
					img.SetColorIndex(mk.x+i, mk.y+j, state)
				}
			}
		}
	}
	return img
}

// final draws the finished maze over the whole picture.
func (a *animation) final(solve bool) *image.Paletted {
	g := a.g
	img := image.NewPaletted(image.Rect(g.start(0), g.start(0), g.start(a.w), g.start(a.h)), gifPalette)
	ov := Overlay{}
	if solve {
		ov.Path = mazecore.Solve(a.m)
	}
	mk := newMarks(a.m, ov, Window{}.clip(a.m))
	values := [numKinds]byte{kFloor: gFloor, kWall: gWall, kStart: gStart, kGoal: gGoal, kPath: gPath}
	rows := newTileRows(a.m, gFloor, gWall)
	row := newRow(a.m)
	for y := range a.h {
		rows.fill(row[:cap(row)], y)
		mk.mark(row, y, 0, &values)
		a.paintRow(img, y, 0, row)
	}
	return a.whole(img)
}

// paintRow paints tiles, tiles x0… of row y, into img: one row of pixels
// from the tiles, then its copies down the tile.
func (a *animation) paintRow(img *image.Paletted, y, x0 int, tiles []byte) {
	g := a.g
	top := img.PixOffset(g.start(x0), g.start(y))
	first := img.Pix[top : top+g.start(x0+len(tiles))-g.start(x0)]
	i := 0
	for _, s := range tiles {
		run := first[i : i+g.cell]
		for j := range run {
			run[j] = s
		}
		i += g.cell
	}
	for r := 1; r < g.size(y); r++ {
		copy(img.Pix[top+r*img.Stride:], first)
	}
}
