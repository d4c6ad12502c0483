package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mazebot/mazecore"
	"mazebot/render"
)

// The flags of mazes in shapes and on other grids: --grid, --shape and
// --text. Their mazes are mazecore.GridMazes, drawn in the formats
// gridFormats lists.

// shapeFlags are the flags that make a maze a shaped or non-square one.
var shapeFlags = []string{"grid", "shape", "text", "mask"}

// wantsShape reports whether the flags ask for a maze not on the whole
// square grid.
func wantsShape(values map[string]string) bool {
	for _, f := range shapeFlags {
		if _, ok := values[f]; ok {
			return true
		}
	}
	return false
}

// textScale is the cells a font pixel takes in a --text maze of no SIZE
// given larger: strokes three cells wide hold a maze.
const textScale = 3

// parseShaped settles the ID of a maze on another grid or in a shape:
// SIZE is rings for --grid polar, cells across for --grid hex, tiles for
// a square grid; --height is a hex grid's rows or a square's tiles down
// (a text's default keeps its proportions).
func (c *command) parseShaped(values map[string]string, positional []string) error {
	maskPath, haveMask := values["mask"]
	if idText, ok := values["id"]; ok {
		if haveMask && firstGiven(values) == "mask" && len(shapeFlagsGiven(values)) == 1 {
			return c.parseImageID(idText, maskPath)
		}
		return fmt.Errorf("use either --%s or --id, not both: a maze ID already holds its grid and shape", firstGiven(values))
	}
	if levelText, ok := values["difficulty"]; ok {
		level, err := mazecore.ParseLevel(levelText)
		if err != nil {
			return err
		}
		c.level = level
	}
	kind := mazecore.Square
	if g, ok := values["grid"]; ok {
		k, err := mazecore.ParseGrid(g)
		if err != nil {
			return err
		}
		kind = k
	}
	shapeName, haveShape := values["shape"]
	text, haveText := values["text"]
	var shape mazecore.Shape
	switch {
	case b2i(haveShape)+b2i(haveText)+b2i(haveMask) > 1:
		return errors.New("use one of --shape, --text and --mask, not several")
	case (haveShape || haveText || haveMask) && kind == mazecore.Polar:
		return errors.New("a polar maze is a disc and takes no --shape, --text or --mask")
	case haveMask:
		img, err := loadMask(maskPath)
		if err != nil {
			return err
		}
		c.image, shape = img, mazecore.ImageShapeOf(img)
	case haveShape:
		s, err := mazecore.ParseShape(shapeName)
		if err != nil {
			return err
		}
		shape = s
	case haveText:
		s, err := mazecore.TextShapeOf(text)
		if err != nil {
			return fmt.Errorf("--text: %w", err)
		}
		shape = s
	}
	switch len(positional) {
	case 0:
		return errors.New("missing ALGORITHM and SIZE")
	case 1:
		if !haveText && !haveMask {
			return errors.New("missing SIZE")
		}
	case 2:
	default:
		return fmt.Errorf("unexpected argument %q", positional[2])
	}
	algo, err := mazecore.ParseAlgorithm(positional[0])
	if err != nil {
		return err
	}
	c.id = mazecore.ID{Algorithm: algo, GridKind: kind, Shape: shape}
	if err := c.parseShapedSize(values, positional); err != nil {
		return err
	}
	if loopsText, ok := values["loops"]; ok {
		loops, err := strconv.Atoi(loopsText)
		if err != nil || loops < 0 || loops > mazecore.MaxLoops {
			return fmt.Errorf("loops %q is not a whole number from 0 to %d", loopsText, mazecore.MaxLoops)
		}
		c.id.Loops = loops
	}
	c.id.Seed = uint64(rand.Uint32())
	if seedText, ok := values["seed"]; ok {
		seed, err := strconv.ParseUint(seedText, 10, 64)
		if err != nil {
			return fmt.Errorf("seed %q is not a whole number from 0 to %d", seedText, uint64(1<<64-1))
		}
		c.id.Seed = seed
	}
	if c.id.GridKind == mazecore.Square && (c.id.Width > maxShapedSize || c.id.Height > maxShapedSize) {
		return fmt.Errorf("a maze in a shape is at most %d×%d tiles, not %d×%d: its cells are a graph, which takes more memory than the square grid's bits", maxShapedSize, maxShapedSize, c.id.Width, c.id.Height)
	}
	if err := c.id.Validate(); err != nil {
		return err
	}
	// The mask is checked now, so that a shape too small or in pieces
	// is a usage error, before a file is opened.
	grid, err := c.id.GridWithImage(c.image)
	if err != nil {
		return err
	}
	if c.level != mazecore.AnyLevel && grid.Len() > maxChooseCells {
		return fmt.Errorf("--difficulty rates %d candidate mazes, so it takes mazes of at most %d cells, not %d", mazecore.Candidates, maxChooseCells, grid.Len())
	}
	return nil
}

// parseImageID reads --id of an image's maze with --mask, the image it
// was made from.
func (c *command) parseImageID(idText, maskPath string) error {
	id, err := mazecore.Parse(idText)
	if err != nil {
		return err
	}
	if id.Shape.Kind != mazecore.ImageShape {
		return fmt.Errorf("maze ID %s is not an image's maze: leave --mask out", idText)
	}
	img, err := loadMask(maskPath)
	if err != nil {
		return err
	}
	if img.Hash() != id.Shape.Hash {
		return fmt.Errorf("--mask %s is not the image maze ID %s was made from (its pixels differ)", filepath.Base(maskPath), idText)
	}
	c.id, c.image = id, img
	_, err = id.GridWithImage(img)
	return err
}

// shapeFlagsGiven lists the shape flags given.
func shapeFlagsGiven(values map[string]string) []string {
	var given []string
	for _, f := range shapeFlags {
		if _, ok := values[f]; ok {
			given = append(given, f)
		}
	}
	return given
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// loadMask reads a PNG or JPEG whose dark pixels are inside the shape
// (render.MaskImage): its size on disk and its dimensions are checked
// before it is decoded.
func loadMask(path string) (*mazecore.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--mask: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, render.MaxMaskBytes+1))
	if err != nil {
		return nil, fmt.Errorf("--mask %s: %w", path, err)
	}
	img, err := render.MaskImage(data)
	var bad *render.MaskImageError
	if errors.As(err, &bad) {
		name := filepath.Base(path)
		switch bad.Code {
		case render.MaskTooLarge:
			return nil, fmt.Errorf("--mask %s is larger than 1 MiB: shrink the image", name)
		case render.MaskTooMany:
			return nil, fmt.Errorf("--mask %s is %d×%d pixels; the most is %d×%d", name, bad.W, bad.H, render.MaxMaskPixels, render.MaxMaskPixels)
		case render.MaskNotImage:
			return nil, fmt.Errorf("--mask %s is not a PNG or JPEG image", name)
		}
		return nil, fmt.Errorf("--mask %s: %w", name, bad.Err)
	}
	return img, err
}

// maxShapedSize is the largest side, in tiles, of a maze in a shape:
// 4 million cells, about 200 MB while generating.
const maxShapedSize = 4001

// firstGiven names the first shape flag given.
func firstGiven(values map[string]string) string {
	for _, f := range shapeFlags {
		if _, ok := values[f]; ok {
			return f
		}
	}
	return ""
}

// parseShapedSize reads SIZE and --height in the grid's units.
func (c *command) parseShapedSize(values map[string]string, positional []string) error {
	number := func(what, text string, lo, hi int, unit string) (int, error) {
		n, err := strconv.Atoi(text)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%s %q is out of range: a %s maze takes %d to %d %s", what, text, c.id.GridKind, lo, hi, unit)
		}
		return n, nil
	}
	heightText, haveHeight := values["height"]
	switch c.id.GridKind {
	case mazecore.Polar:
		if haveHeight {
			return errors.New("--height does not apply to a polar maze: SIZE is its rings")
		}
		rings, err := number("size", positional[1], mazecore.MinRings, mazecore.MaxRings, "rings")
		c.id.Width, c.id.Height = rings, rings
		return err
	case mazecore.Hex:
		var err error
		if len(positional) < 2 {
			w, h := mazecore.TextSize(c.id.Shape.Text)
			c.id.Width, c.id.Height = textScale*w, textScale*h
		} else if c.id.Width, err = number("size", positional[1], mazecore.MinHexSide, mazecore.MaxHexSide, "cells across"); err != nil {
			return err
		} else {
			c.id.Height = c.id.Width
		}
		if haveHeight {
			c.id.Height, err = number("height", heightText, mazecore.MinHexSide, mazecore.MaxHexSide, "cells down")
		}
		return err
	}
	if len(positional) < 2 && c.image != nil {
		// An image's maze: up to 60 cells across, in its proportions.
		w, h := c.image.Size()
		cols := min(w, 60)
		c.id.Width, c.id.Height = 2*cols+1, 2*max(2, cols*h/w)+1
	} else if len(positional) < 2 {
		w, h := mazecore.TextSize(c.id.Shape.Text)
		c.id.Width, c.id.Height = 2*textScale*w+1, 2*textScale*h+1
	} else {
		w, err := c.parseSize("size", positional[1])
		if err != nil {
			return err
		}
		c.id.Width, c.id.Height = w, w
		if c.id.Shape.Kind == mazecore.TextShape {
			// A text keeps its proportions: as many rows as its
			// bitmap's at the columns' scale.
			tw, th := mazecore.TextSize(c.id.Shape.Text)
			c.id.Height = 2*max(th, (w/2)*th/tw) + 1
		}
	}
	if haveHeight {
		h, err := c.parseSize("height", heightText)
		if err != nil {
			return err
		}
		c.id.Height = h
	}
	return nil
}

// shaped reports whether the command's maze is not on the whole square
// grid.
func (c *command) shaped() bool {
	return c.id.GridKind != mazecore.Square || c.id.Shape.Kind != mazecore.NoShape
}

// gridFormats are the formats that draw a maze of grid kind, as
// render's table says: on a square grid (whole or in a shape) every one
// that draws other grids than the square (WriteGrid); on a polar or hex
// grid, which has no tiles, those that draw no tiles; and json.
func gridFormats(kind mazecore.GridKind) []string {
	var fits []string
	for _, f := range render.Formats {
		if f.WriteGrid != nil && (kind == mazecore.Square || !f.Tiles) {
			fits = append(fits, f.Name)
		}
	}
	return append(fits, formatJSON)
}

// checkGridFormat refuses a format that cannot draw the maze's grid.
func (c *command) checkGridFormat() error {
	if !c.shaped() {
		return nil
	}
	fits := gridFormats(c.id.GridKind)
	if slices.Contains(fits, c.format) {
		return nil
	}
	if !c.given["format"] && c.o() == "" {
		// The default for a terminal or a pipe, not a choice.
		return fmt.Errorf("a %s maze has no tiles to show as %s: write a picture with -o maze.png (or .gif, .svg, .pdf), or give --format svg or json", c.id.GridKind, c.format)
	}
	if f, _ := render.FormatByName(c.format); f.WriteGrid == nil {
		return fmt.Errorf("%s draws whole square mazes only, not one on a %s grid or in a shape: use %s", c.format, c.id.GridKind, orList(fits))
	}
	return fmt.Errorf("%s draws tiles, and a %s maze has none: use %s", c.format, c.id.GridKind, orList(fits))
}

// checkGridSize refuses, before it is made, a maze too large for the
// gif's animation or the pdf's page.
func (c *command) checkGridSize() error {
	if c.format != formatGIF && c.format != formatPDF {
		return nil
	}
	g, err := c.id.GridWithImage(c.image)
	if err != nil {
		return err
	}
	return render.GridFits(c.format, g)
}

// describe is the maze for the line after it: "backtracking, polar,
// 20 rings".
func describe(id mazecore.ID) string {
	switch id.GridKind {
	case mazecore.Polar:
		return fmt.Sprintf("%s, polar, %d rings", id.Algorithm, id.Width)
	case mazecore.Hex:
		return strings.TrimSuffix(fmt.Sprintf("%s, hex, %d×%d cells, %s", id.Algorithm, id.Width, id.Height, id.Shape), ", ")
	}
	return fmt.Sprintf("%s, %s, %d×%d", id.Algorithm, id.Shape, id.Width, id.Height)
}

// generateGrid makes a maze on another grid or in a shape (of img, for
// an image's), and its solution.
func generateGrid(id mazecore.ID, img *mazecore.Image) (made, error) {
	generate := mazecore.GenerateGrid
	if img != nil {
		generate = func(id mazecore.ID) (*mazecore.GridMaze, error) { return mazecore.GenerateGridImage(id, img) }
	}
	m, err := generate(id)
	if err != nil {
		return made{}, err
	}
	return made{grid: m, gridPath: m.Solve()}, nil
}

// writeGrid writes a maze on another grid or in a shape, by its format's
// row of render's table (checkGridFormat chose a format that has one).
func (c *command) writeGrid(w io.Writer, m made) error {
	if c.format == formatJSON {
		return writeGridJSON(w, m)
	}
	f, ok := render.FormatByName(c.format)
	if !ok || f.WriteGrid == nil {
		return fmt.Errorf("format %q draws no maze on a %s grid", c.format, m.grid.ID().GridKind) // checkGridFormat refused it
	}
	return f.WriteGrid(w, m.grid, render.Options{GridPath: m.gridPath, Solve: c.solve, Scale: c.scale,
		Palette: c.palette, Paper: c.paper, Emoji: c.emoji, Image: c.image})
}

// gridJSON is the json of a maze on any grid, before its graph (written
// by graphWriter, as a square maze's is) and, on a square grid, the
// text's rows.
type gridJSON struct {
	ID        string       `json:"id"`
	Algorithm string       `json:"algorithm"`
	Grid      string       `json:"grid"`
	Shape     string       `json:"shape,omitempty"`
	Width     int          `json:"width"`
	Height    int          `json:"height"`
	Seed      uint64       `json:"seed"`
	Loops     int          `json:"loops"`
	Par       int          `json:"par"`
	Measures  gridMeasures `json:"measures"`
}

type gridMeasures struct {
	Cells     int `json:"cells"`
	DeadEnds  int `json:"dead_ends"`
	Junctions int `json:"junctions"`
	Solution  int `json:"solution"`
	Decisions int `json:"decisions"`
}

// writeGridJSON writes the maze as gridJSON, then its graph: cells by id
// with their place (row and column; on a polar grid ring and index
// clockwise from north), the passages as pairs of cell ids, the start
// and goal, and the solution's cells from start to goal; a square grid's
// maze then has the text's rows, '~' outside the shape.
func writeGridJSON(w io.Writer, m made) error {
	g, id := m.grid.Grid(), m.grid.ID()
	stats := m.grid.Measure()
	head, err := json.MarshalIndent(gridJSON{
		ID: id.String(), Algorithm: id.Algorithm.String(), Grid: id.GridKind.String(), Shape: id.Shape.String(),
		Width: id.Width, Height: id.Height, Seed: id.Seed, Loops: id.Loops, Par: stats.Par,
		Measures: gridMeasures{Cells: stats.Cells, DeadEnds: stats.DeadEnds, Junctions: stats.Junctions, Solution: stats.Solution, Decisions: stats.Decisions},
	}, "", "  ")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(bytes.TrimSuffix(head, []byte("\n}")))
	bw.WriteString(",\n")
	gw := graphWriter{bw: bw}
	gw.cells(g.Len(), func(c int) (int, int) { cell := g.Cell(c); return cell.Row, cell.Col })
	gw.links(func(link func(a, b int)) {
		for c := range g.Len() {
			for _, n := range m.grid.Links(c) {
				if n > c {
					link(c, n)
				}
			}
		}
	})
	gw.ends(m.grid.Start(), m.grid.Goal(), m.gridPath)
	if g.Kind() == mazecore.Square {
		var text strings.Builder
		if err := render.GridText(&text, m.grid, nil); err != nil {
			return err
		}
		bw.WriteString(",\n  \"rows\": [")
		for i, row := range strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n") {
			if i > 0 {
				bw.WriteByte(',')
			}
			// The text's characters need no escaping in json.
			bw.WriteString("\n    \"" + row + "\"")
		}
		bw.WriteString("\n  ]")
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}
