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
	MaxFrames int  // at most this many frames, at least 3; 0 = 150
	Delay     int  // between frames, in 1/100 s; 0 = 4
	Solve     bool // draw the solution on the final frame
}

const (
	defaultGIFFrames = 150
	defaultGIFDelay  = 4
	gifTargetSide    = 420
	firstFrameDelay  = 50  // let the empty grid be seen
	finalFrameDelay  = 300 // and the finished maze linger
)

// GIF states of a tile, which are also palette indexes.
const (
	gFloor uint8 = iota
	gWall
	gUnvisited // a cell no generator step has reached
	gDug       // carved, still in play
	gDone      // backtracked from: finished
	gHead      // where the generator is now
	gStart
	gGoal
	gPath
)

var gifPalette = color.Palette{
	gFloor:     pngColours[kFloor],
	gWall:      pngColours[kWall],
	gUnvisited: color.RGBA{0x4a, 0x52, 0x63, 0xff}, // grey: cells yet to dig
	gDug:       color.RGBA{0xff, 0xb8, 0x4d, 0xff}, // amber
	gDone:      color.RGBA{0x9a, 0xc8, 0xf5, 0xff}, // pale blue
	gHead:      color.RGBA{0xe6, 0x2e, 0x8a, 0xff}, // magenta
	gStart:     pngColours[kStart],
	gGoal:      pngColours[kGoal],
	gPath:      pngColours[kPath],
}

// GIF writes an animated GIF of the generation of the maze id names: cells
// turn amber as they are dug, the generator's head is magenta, cells the
// backtracker leaves for good turn pale blue; with loops, the walls the
// braid opens are then carved one by one; the last frame, held for three
// seconds, is the finished maze. Steps are batched so there are at
// most MaxFrames frames, and each frame after the first holds only the
// rectangle that changed, which keeps the file small. Mazes wider or taller
// than GIFMaxSize tiles are refused with ErrTooLarge.
func GIF(w io.Writer, id mazecore.ID, opts GIFOptions) error {
	if err := id.Validate(); err != nil {
		return fmt.Errorf("gif: %w", err)
	}
	if id.Width > GIFMaxSize || id.Height > GIFMaxSize {
		return fmt.Errorf("gif of %d×%d tiles: %w (at most %d×%d)", id.Width, id.Height, ErrTooLarge, GIFMaxSize, GIFMaxSize)
	}
	if opts.MaxFrames == 0 {
		opts.MaxFrames = defaultGIFFrames
	}
	if opts.MaxFrames < 3 {
		return fmt.Errorf("gif: MaxFrames %d is below 3 (first, one step, last)", opts.MaxFrames)
	}
	if opts.Delay <= 0 {
		opts.Delay = defaultGIFDelay
	}
	if opts.Scale <= 0 {
		opts.Scale = min(max(gifTargetSide/max(id.Width, id.Height), 2), 16)
	}

	var steps []mazecore.Step
	m, err := mazecore.GenerateObserved(id, func(s mazecore.Step) { steps = append(steps, s) })
	if err != nil {
		return fmt.Errorf("gif: %w", err)
	}

	a := newAnimation(m, opts.Scale)
	// Frames: the empty grid, ceil(len(steps)/per) batches, the final maze.
	per := max(1, (len(steps)+opts.MaxFrames-3)/(opts.MaxFrames-2))
	anim := &gif.GIF{Config: image.Config{ColorModel: gifPalette, Width: a.w * a.scale, Height: a.h * a.scale}}
	add := func(img *image.Paletted, delay int) {
		anim.Image = append(anim.Image, img)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	add(a.frame(image.Rect(0, 0, a.w, a.h)), max(opts.Delay, firstFrameDelay))
	for i := 0; i < len(steps); i += per {
		for _, s := range steps[i:min(i+per, len(steps))] {
			a.apply(s)
		}
		add(a.frame(a.takeDirty()), opts.Delay)
	}
	add(a.final(opts.Solve), finalFrameDelay)

	if err := gif.EncodeAll(w, anim); err != nil {
		return fmt.Errorf("encode gif: %w", err)
	}
	return nil
}

// animation is the tile state of a generation in progress.
type animation struct {
	m       *mazecore.Maze
	w, h    int
	scale   int
	tiles   []uint8
	head    mazecore.Point // tile
	onHead  bool           // false until the first step
	dirty   image.Rectangle
	scratch []byte
}

func newAnimation(m *mazecore.Maze, scale int) *animation {
	a := &animation{m: m, w: m.Width(), h: m.Height(), scale: scale}
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
	// The old head's tile goes back to its state, the new one lights up.
	if a.onHead {
		a.touch(a.head)
	}
	a.head, a.onHead = to, true
	a.touch(to)
}

func (a *animation) takeDirty() image.Rectangle {
	r := a.dirty
	a.dirty = image.Rectangle{}
	return r
}

// frame draws the tiles of r (in tiles) as a frame covering just r, a row
// of tiles at a time: one row of pixels, copied down the tile.
func (a *animation) frame(r image.Rectangle) *image.Paletted {
	g := uniform(a.scale)
	img := image.NewPaletted(image.Rect(g.start(r.Min.X), g.start(r.Min.Y), g.start(r.Max.X), g.start(r.Max.Y)), gifPalette)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := a.tiles[y*a.w+r.Min.X : y*a.w+r.Max.X]
		if a.onHead && a.head.Y == y && a.head.X >= r.Min.X && a.head.X < r.Max.X {
			a.scratch = append(a.scratch[:0], row...)
			row = a.scratch
			row[a.head.X-r.Min.X] = gHead
		}
		a.paintRow(img, y, r.Min.X, row)
	}
	return img
}

// final draws the finished maze over the whole picture.
func (a *animation) final(solve bool) *image.Paletted {
	g := uniform(a.scale)
	img := image.NewPaletted(image.Rect(0, 0, g.start(a.w), g.start(a.h)), gifPalette)
	mk := marks{}
	if solve {
		mk = newMarks(a.m, Overlay{Path: mazecore.Solve(a.m)}, Window{}.clip(a.m))
	} else {
		mk = newMarks(a.m, Overlay{}, Window{}.clip(a.m))
	}
	values := [numKinds]byte{kFloor: gFloor, kWall: gWall, kStart: gStart, kGoal: gGoal, kPath: gPath}
	rows := newTileRows(a.m, gFloor, gWall)
	row := newRow(a.m)
	for y := range a.h {
		rows.fill(row[:cap(row)], y)
		mk.mark(row, y, 0, &values)
		a.paintRow(img, y, 0, row)
	}
	return img
}

// paintRow paints tiles, tiles x0… of row y, into img: one row of pixels
// from the tiles, then its copies down the tile.
func (a *animation) paintRow(img *image.Paletted, y, x0 int, tiles []byte) {
	g := uniform(a.scale)
	top := img.PixOffset(g.start(x0), g.start(y))
	first := img.Pix[top : top+g.start(len(tiles))]
	i := 0
	for _, s := range tiles {
		run := first[i : i+a.scale]
		for j := range run {
			run[j] = s
		}
		i += a.scale
	}
	for r := 1; r < g.size(y); r++ {
		copy(img.Pix[top+r*img.Stride:], first)
	}
}
