package render

import (
	"io"
	"slices"

	"mazebot/mazecore"
)

// Format is one way to write a maze: a row of the table the command
// line's --format and -o, /maze's render choices and their limits and
// costs are all read from. Adding a format is its writer and its row.
type Format struct {
	Name        string // --format's value and /maze's render choice: "png"
	Extension   string // the files it is written to: ".png"; text formats share ".txt"
	ContentType string // as an attachment: "image/png"
	// MaxSide is the largest side, in tiles, it draws; 0 is any the maze
	// core makes.
	MaxSide int
	// Cost is the work of a tile, in PNG tiles: a GIF draws up to 150
	// frames of the maze. What a cooldown counts.
	Cost int
	// Binary formats are not shown on a terminal.
	Binary bool
	// Tiles formats draw a square grid's tiles as characters, so they
	// draw no polar or hex maze, which has none.
	Tiles bool
	// Looks formats draw in a theme and a style (Options.Palette, Style).
	Looks bool
	// Chat formats are offered in Discord, by /maze's render option.
	Chat bool
	// FromID formats draw from the maze's ID alone (Options.ID), m may be
	// nil: a GIF replays the generation.
	FromID bool
	// Write draws m (a square-grid maze) as o asks.
	Write func(w io.Writer, m *mazecore.Maze, o Options) error
	// WriteGrid draws g, a maze on any grid or in a shape, as o asks
	// (GridPath and Image, not Path); a Tiles format only a square
	// grid's. nil: the format draws square mazes only.
	WriteGrid func(w io.Writer, g *mazecore.GridMaze, o Options) error
}

// Options are what a Format's Write takes; each format reads the fields
// that apply to it and ignores the rest.
type Options struct {
	ID      mazecore.ID      // the maze, for a FromID format; zero: m's
	Path    []mazecore.Point // the solution
	Solve   bool             // show Path (an SVG keeps it, hidden, without)
	Scale   int              // pixels (or SVG units) a tile; 0: the format's own
	Palette Palette          // pictures' colours; the zero Palette is the format's default
	Style   Style
	Paper   Paper    // PDF
	Emoji   Theme    // emoji; the zero Theme is DefaultTheme
	Window  Window   // emoji: the part shown; zero: all
	Overlay *Overlay // text, terminal, emoji and PNG: drawn in place of Path when set
	// GridPath is the solution of a maze on any grid (WriteGrid), by
	// cell.
	GridPath []int
	Image    *mazecore.Image // WriteGrid's GIF: the image a maze's shape was made from
}

// shownGridPath is the solution WriteGrid draws: GridPath when it is
// shown.
func (o Options) shownGridPath() []int {
	if o.Solve {
		return o.GridPath
	}
	return nil
}

// emojiTheme is o's emoji theme, DefaultTheme when unset.
func (o Options) emojiTheme() Theme {
	if o.Emoji == (Theme{}) {
		return DefaultTheme
	}
	return o.Emoji
}

// line ends a text format's output, as the terminal expects.
func line(w io.Writer, err error) error {
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// overlay is what o draws over the maze in a format that takes an
// Overlay: o.Overlay, else the solution when it is shown.
func (o Options) overlay() Overlay {
	if o.Overlay != nil {
		return *o.Overlay
	}
	if o.Solve {
		return Overlay{Path: o.Path}
	}
	return Overlay{}
}

// gifCost is a GIF's work per tile: up to defaultGIFFrames frames, each a
// fraction of the maze; measured, a 15×15 GIF takes about as long as a
// 201×201 PNG (40 ms).
const gifCost = defaultGIFFrames

// Formats is the table, in the order the command line lists them; the
// first of an extension is the one a file of it is written in.
var Formats = []Format{
	{Name: "text", Extension: ".txt", ContentType: "text/plain; charset=utf-8", Cost: 1, Tiles: true,
		Write: func(w io.Writer, m *mazecore.Maze, o Options) error { return Text(w, m, o.overlay()) },
		WriteGrid: func(w io.Writer, g *mazecore.GridMaze, o Options) error {
			return GridText(w, g, o.shownGridPath())
		}},
	{Name: "terminal", Extension: ".txt", ContentType: "text/plain; charset=utf-8", Cost: 1, Tiles: true,
		Write: func(w io.Writer, m *mazecore.Maze, o Options) error { return Terminal(w, m, o.overlay()) },
		WriteGrid: func(w io.Writer, g *mazecore.GridMaze, o Options) error {
			return GridTerminal(w, g, o.shownGridPath())
		}},
	{Name: "emoji", Extension: ".txt", ContentType: "text/plain; charset=utf-8", Cost: 1, Tiles: true, Chat: true,
		Write: func(w io.Writer, m *mazecore.Maze, o Options) error {
			return line(w, Emoji(w, m, o.emojiTheme(), o.overlay(), o.Window))
		},
		WriteGrid: func(w io.Writer, g *mazecore.GridMaze, o Options) error {
			return line(w, GridEmoji(w, g, o.emojiTheme(), o.shownGridPath()))
		}},
	{Name: "png", Extension: ".png", ContentType: "image/png", Cost: 1, Binary: true, Looks: true, Chat: true,
		Write: func(w io.Writer, m *mazecore.Maze, o Options) error {
			return PNG(w, m, PNGOptions{Overlay: o.overlay(), Scale: o.Scale, Palette: o.Palette, Style: o.Style})
		},
		WriteGrid: func(w io.Writer, g *mazecore.GridMaze, o Options) error {
			return GridPNG(w, g, GridOptions{Path: o.shownGridPath(), Scale: o.Scale, Palette: o.Palette})
		}},
	{Name: "gif", Extension: ".gif", ContentType: "image/gif", MaxSide: GIFMaxSize, Cost: gifCost, Binary: true, Chat: true, FromID: true,
		Write: func(w io.Writer, m *mazecore.Maze, o Options) error {
			id := o.ID
			if id == (mazecore.ID{}) {
				id = m.ID()
			}
			return GIF(w, id, GIFOptions{Scale: o.Scale, Solve: o.Solve})
		},
		WriteGrid: func(w io.Writer, g *mazecore.GridMaze, o Options) error {
			return GridGIF(w, g.ID(), o.Image, GIFOptions{Scale: o.Scale, Solve: o.Solve})
		}},
	{Name: "svg", Extension: ".svg", ContentType: "image/svg+xml", MaxSide: SVGMaxSize, Cost: 1, Looks: true,
		Write: func(w io.Writer, m *mazecore.Maze, o Options) error {
			// The solution is always in the file, shown with Solve.
			return SVG(w, m, SVGOptions{Path: o.Path, HidePath: !o.Solve, Scale: o.Scale, Palette: o.Palette, Style: o.Style})
		},
		WriteGrid: func(w io.Writer, g *mazecore.GridMaze, o Options) error {
			return GridSVG(w, g, GridOptions{Path: o.GridPath, HidePath: !o.Solve, Scale: o.Scale, Palette: o.Palette})
		}},
	{Name: "pdf", Extension: ".pdf", ContentType: "application/pdf", MaxSide: PDFMaxSize, Cost: 1, Binary: true, Looks: true,
		Write: func(w io.Writer, m *mazecore.Maze, o Options) error {
			return PDF(w, m, PDFOptions{Paper: o.Paper, Palette: o.Palette, Style: o.Style})
		},
		WriteGrid: func(w io.Writer, g *mazecore.GridMaze, o Options) error {
			return GridPDF(w, g, PDFOptions{Paper: o.Paper, Palette: o.Palette})
		}},
}

// FormatByName finds a format of the table by its name.
func FormatByName(name string) (Format, bool) {
	i := slices.IndexFunc(Formats, func(f Format) bool { return f.Name == name })
	if i < 0 {
		return Format{}, false
	}
	return Formats[i], true
}

// FormatNames lists the table's names, in order.
func FormatNames() []string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	return names
}
