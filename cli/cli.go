package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mazebot/mazecore"
	"mazebot/render"
)

// MaxSize is the largest side, in tiles, the command line makes: a
// 20001×20001 maze has 100 million cells and still fits in a few hundred
// megabytes while generating.
const MaxSize = 20001

// maxChooseSize is the largest side --difficulty takes: choosing makes and
// rates mazecore.Candidates mazes, about a second at 1001×1001.
const maxChooseSize = 1001

// maxChooseCells is maxChooseSize for a maze on another grid or in a
// shape: the cells of the largest square maze --difficulty takes.
const maxChooseCells = (maxChooseSize / 2) * (maxChooseSize / 2)

// Exit statuses.
const (
	exitOK          = 0
	exitFailure     = 1   // I/O or another failure while working
	exitUsage       = 2   // bad arguments
	exitInterrupted = 130 // SIGINT or SIGTERM, as shells report a signal
)

// usage is built from mazecore's table of algorithms, so a new algorithm
// shows up here without an edit; on first use, so that a run which prints
// no usage does not format it.
var usage = sync.OnceValue(func() string {
	return fmt.Sprintf(`usage: mazebot maze ALGORITHM SIZE [flags]
       mazebot maze --id ID [flags]
%s       mazebot help

Make a maze and write it to stdout or to a file.

  ALGORITHM  %s
             (aliases work too: %s, ...)
  SIZE       width in tiles, odd, from 5 to 20001; an even size is
             rounded up to the next odd one

flags (before or after ALGORITHM and SIZE):
  --height H     height in tiles (default SIZE)
  --seed N       seed, for the same maze every time (default random)
  --loops N      open one wall of N %% of the dead ends, which makes loops:
                 0 (the default) is a perfect maze, 100 has no dead ends
  --grid G       square (the default), polar or hex: SIZE then counts
                 rings (5 to 100; start on the rim, goal in the centre)
                 or hex cells across (3 to 1001, --height the rows)
  --shape S      %s:
                 the maze fills that shape, on a square or hex grid,
                 start and goal at the ends of its longest path
  --text T       up to %d letters, digits and spaces: the maze fills the
                 text (SIZE may be left out); polar and hex mazes are
                 drawn as png, gif, svg, pdf or json, square shapes in
                 every format ('~' outside the shape in text)
  --mask FILE    a PNG or JPEG (at most 1 MiB and 2000×2000 pixels): the
                 maze fills its dark pixels (SIZE may be left out); its ID
                 holds the image's hash, so --id ID needs --mask FILE too
  --difficulty D %s: among %d mazes made from the seed,
                 take one of that difficulty for its algorithm, size and
                 loops (sizes up to %d); any (the default) takes the seed
  --id ID        make the maze a maze ID names; replaces ALGORITHM, SIZE,
                 --height, --seed, --loops and --difficulty
  --format F     %s
                 (default: the -o file's, else terminal on a terminal,
                 else text)
  --solve        draw the shortest path from start (top left) to goal
                 (bottom right); json always includes it, with par, the
                 difficulty measures and rating; svg holds it hidden
                 without --solve; a pdf has it on page 2
  --theme T      png, svg and pdf: %s (default dark,
                 for pdf print); emoji: %s (default %s)
  --style S      png, svg and pdf: %s (default the theme's:
                 line for print, block for the others)
  --paper P      pdf: %s (default a4)
  --scale N      pixels per tile for png, gif and svg (default automatic)
  -o FILE        write to FILE instead of stdout; its extension says the
                 format, and one not among these needs --format:
                 %s
  -h, --help     show this help

png, gif and pdf are binary: use -o FILE or redirect stdout. gif animates
the generation and is limited to mazes of 101×101 tiles (a shape or a
hex grid 100 cells a side, a polar one 50 rings); svg draws mazes up to
2001×2001 and pdf up to 401×401 (200 cells a side, 100 rings; page 1 the
maze, its title and ID; page 2 the solution).

The maze ID is printed after the maze (on stderr when the maze goes to
stdout); --id ID makes exactly the same maze again.

%sexamples:
  mazebot maze sidewinder 21 --seed 7
  mazebot maze backtracking 41 --solve --format emoji
  mazebot maze digging 31 --loops 30 --difficulty hard
  mazebot maze digging 2001 -o maze.png
  mazebot maze backtracking 41 --theme print -o maze.pdf
  mazebot maze backtracking 20 --grid polar -o circle.png
  mazebot maze wilson 41 --shape heart -o heart.svg
  mazebot maze --id 2840bt0f34 --format json
`, storeSynopsis, orList(mazecore.AlgorithmNames()), strings.Join(shortAliases(), ", "),
		orList(mazecore.PresetNames()), mazecore.MaxTextLength,
		orList(choosableLevels()), mazecore.Candidates, maxChooseSize,
		orList(formats), orList(render.PaletteNames()), orList(render.EmojiThemeNames()), render.EmojiThemes[0].Name,
		orList(render.StyleNames()), orList(render.PaperNames()), extensionTable(), storeSummary)
})

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// choosableLevels are the difficulty names but "any".
func choosableLevels() []string {
	return slices.DeleteFunc(mazecore.LevelNames(), func(name string) bool { return name == mazecore.AnyLevel.String() })
}

// shortAliases is the shortest alias of each algorithm, for the usage.
func shortAliases() []string {
	var list []string
	for _, a := range mazecore.Algorithms {
		if aliases := a.Aliases(); len(aliases) > 0 {
			list = append(list, aliases[0])
		}
	}
	return list
}

// Run runs the command line: args are the arguments after the program name,
// such as ["maze", "sidewinder", "21", "--seed", "7"]. It returns the exit
// status: 0 on success, 1 when writing fails, 2 for bad arguments (a
// one-line message on stderr and where the usage is), 130 when ctx is
// cancelled.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runPaced(ctx, args, stdout, stderr, defaultPace)
}

// runPaced is Run with the pace of the progress display, which tests
// shorten.
func runPaced(ctx context.Context, args []string, stdout, stderr io.Writer, pace pace) int {
	if len(args) == 0 {
		return hintFail(stderr, "missing command: try \"mazebot maze sidewinder 21\"", "mazebot help")
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return exitOK
	case "store":
		return runStore(ctx, args[1:], stdout, stderr)
	case "maze":
		cmd, err := parse(args[1:])
		switch {
		case errors.Is(err, errHelp):
			fmt.Fprint(stdout, usage())
			return exitOK
		case err != nil:
			return usageFail(stderr, err.Error())
		}
		if err := cmd.resolve(isTerminal(stdout)); err != nil {
			return usageFail(stderr, err.Error())
		}
		cmd.stdout, cmd.stderr, cmd.pace = stdout, stderr, pace
		return cmd.run(ctx)
	}
	return hintFail(stderr, fmt.Sprintf("unknown command %q: try maze, store or help", args[0]), "mazebot help")
}

// usageFail reports bad arguments: one line that says what is wrong and
// what is allowed, and where the usage is, not the usage itself, which
// would push the line off the screen.
func usageFail(stderr io.Writer, msg string) int { return hintFail(stderr, msg, "mazebot maze --help") }

func hintFail(stderr io.Writer, msg, help string) int {
	fmt.Fprintf(stderr, "mazebot: %s\n(%s shows the usage)\n", msg, help)
	return exitUsage
}

func fail(stderr io.Writer, code int, err error) int {
	fmt.Fprintf(stderr, "mazebot: %v\n", err)
	return code
}

var errHelp = errors.New("help requested")

// Output formats.
const (
	formatText     = "text"
	formatTerminal = "terminal"
	formatEmoji    = "emoji"
	formatPNG      = "png"
	formatGIF      = "gif"
	formatSVG      = "svg"
	formatPDF      = "pdf"
	formatJSON     = "json"
)

// formats are render's table and, the command line's own, JSON: the maze
// with its measures and a game's par, which render does not know.
var formats = append(render.FormatNames(), formatJSON)

// Formats lists the output formats --format takes.
func Formats() []string { return slices.Clone(formats) }

// extension is a file name's ending and the formats written to it.
type extension struct {
	ext     string
	formats []string // the first is the one the extension picks
}

// extensions are the -o file names each format is written to, from
// render's table (text, the terminal's colours and emoji are all .txt);
// a file named otherwise needs --format.
var extensions = func() []extension {
	var list []extension
	add := func(ext, format string) {
		for i := range list {
			if list[i].ext == ext {
				list[i].formats = append(list[i].formats, format)
				return
			}
		}
		list = append(list, extension{ext, []string{format}})
	}
	for _, f := range render.Formats {
		add(f.Extension, f.Name)
	}
	add(".json", formatJSON)
	return list
}()

func extensionList() []string {
	var list []string
	for _, e := range extensions {
		list = append(list, e.ext)
	}
	return list
}

// extensionTable lists the extensions for the usage, with the formats
// of those that take more than one: ".txt (text, terminal or emoji), .png,
// …".
func extensionTable() string {
	var list []string
	for _, e := range extensions {
		if len(e.formats) > 1 {
			list = append(list, e.ext+" ("+orList(e.formats)+")")
		} else {
			list = append(list, e.ext)
		}
	}
	return strings.Join(list, ", ")
}

// formatsOf returns the formats a file of that extension takes, nil for
// an extension that names none.
func formatsOf(ext string) []string {
	for _, e := range extensions {
		if strings.EqualFold(ext, e.ext) {
			return e.formats
		}
	}
	return nil
}

// command is a parsed "mazebot maze" invocation.
type command struct {
	id      mazecore.ID
	level   mazecore.Level // the difficulty to choose, when not AnyLevel
	notes   []string       // sizes rounded up, told on stderr
	format  string         // "" until resolved against stdout
	solve   bool
	scale   int
	outPath string // "" or "-" is stdout
	// theme is the --theme given, checked against the format in resolve;
	// palette, emoji, style and paper are what they choose.
	theme   string
	palette render.Palette
	emoji   render.Theme
	style   render.Style
	paper   render.Paper
	given   map[string]bool // the flags given, for resolve's checks
	image   *mazecore.Image // --mask's, for a maze in an image's shape

	stdout, stderr io.Writer
	pace           pace
}

// flagSpec says whether a flag takes a value, and whether there is one.
func flagSpec(name string) (takesValue, known bool) {
	switch name {
	case "height", "seed", "loops", "difficulty", "id", "format", "scale", "theme", "style", "paper", "o", "output", "grid", "shape", "text", "mask":
		return true, true
	case "solve", "h", "help":
		return false, true
	}
	return false, false
}

func isNumber(arg string) bool {
	_, err := strconv.ParseInt(arg, 10, 64)
	return err == nil
}

// parse reads the arguments of "maze". Flags may come before, between or
// after the positionals, which flag.FlagSet (stopping at the first
// positional) does not allow; "--" ends the flags.
func parse(args []string) (*command, error) {
	values := map[string]string{}
	var positional []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		// A negative number is a size given wrong, not a flag: the size's
		// check says what sizes there are.
		if len(arg) < 2 || arg[0] != '-' || isNumber(arg) {
			positional = append(positional, arg)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
		name, value, hasValue := strings.Cut(name, "=")
		takesValue, known := flagSpec(name)
		switch {
		case !known:
			return nil, fmt.Errorf("unknown flag %s", strings.SplitN(arg, "=", 2)[0])
		case name == "h" || name == "help":
			return nil, errHelp
		case takesValue && !hasValue:
			if i+1 == len(args) {
				return nil, fmt.Errorf("flag %s needs a value", flagName(name))
			}
			i++
			value = args[i]
		case !takesValue && hasValue:
			b, err := strconv.ParseBool(value)
			if err != nil {
				return nil, fmt.Errorf("flag %s takes no value (got %q)", flagName(name), value)
			}
			value = strconv.FormatBool(b)
		case !takesValue:
			value = "true"
		}
		if name == "output" {
			name = "o"
		}
		if _, dup := values[name]; dup {
			return nil, fmt.Errorf("flag %s is given twice", flagName(name))
		}
		values[name] = value
	}

	cmd := &command{solve: values["solve"] == "true", outPath: values["o"], given: map[string]bool{}}
	for name := range values {
		cmd.given[name] = true
	}
	if err := cmd.parseMaze(values, positional); err != nil {
		return nil, err
	}
	if err := cmd.parseOutput(values); err != nil {
		return nil, err
	}
	return cmd, nil
}

func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// parseMaze settles the maze ID from the positionals, --height, --seed,
// --loops, --difficulty and --id.
func (c *command) parseMaze(values map[string]string, positional []string) error {
	idText, haveID := values["id"]
	seedText, haveSeed := values["seed"]
	heightText, haveHeight := values["height"]
	loopsText, haveLoops := values["loops"]
	levelText, haveLevel := values["difficulty"]
	for _, conflict := range []struct {
		given bool
		flag  string
		why   string
	}{
		{haveSeed, "--seed", "a maze ID already holds its seed"},
		{haveHeight, "--height", "a maze ID already holds its size"},
		{haveLoops, "--loops", "a maze ID already holds its loops"},
		{haveLevel, "--difficulty", "a maze ID already names one maze"},
	} {
		if haveID && conflict.given {
			return fmt.Errorf("use either %s or --id, not both: %s", conflict.flag, conflict.why)
		}
	}
	if wantsShape(values) {
		return c.parseShaped(values, positional)
	}
	if len(positional) > 2 {
		return fmt.Errorf("unexpected argument %q", positional[2])
	}
	if !haveID {
		switch len(positional) {
		case 0:
			return errors.New("missing ALGORITHM and SIZE (or --id ID)")
		case 1:
			return errors.New("missing SIZE")
		}
	}

	var algo mazecore.Algorithm
	if len(positional) > 0 {
		a, err := mazecore.ParseAlgorithm(positional[0])
		if err != nil {
			return err
		}
		algo = a
	}
	var width int
	if len(positional) > 1 {
		w, err := c.parseSize("size", positional[1])
		if err != nil {
			return err
		}
		width = w
	}

	if haveID {
		id, err := mazecore.Parse(idText)
		if err != nil {
			return err
		}
		if id.Shape.Kind == mazecore.ImageShape {
			return fmt.Errorf("maze ID %s is a maze in an image's shape: give --mask FILE too, the image it was made from", idText)
		}
		if id.Width > MaxSize || id.Height > MaxSize {
			return fmt.Errorf("maze ID %s is %d×%d tiles; the command line makes at most %d×%d", idText, id.Width, id.Height, MaxSize, MaxSize)
		}
		// ALGORITHM and SIZE may be repeated with --id, but must agree.
		if algo != 0 && algo != id.Algorithm {
			return fmt.Errorf("maze ID %s is a %s maze, not %s", idText, id.Algorithm, algo)
		}
		if width != 0 && width != id.Width {
			return fmt.Errorf("maze ID %s is %d tiles wide, not %d", idText, id.Width, width)
		}
		c.id = id
		return nil
	}

	c.id = mazecore.ID{Algorithm: algo, Width: width, Height: width}
	if haveHeight {
		h, err := c.parseSize("height", heightText)
		if err != nil {
			return err
		}
		c.id.Height = h
	}
	if haveLoops {
		loops, err := strconv.Atoi(loopsText)
		if err != nil || loops < 0 || loops > mazecore.MaxLoops {
			return fmt.Errorf("loops %q is not a whole number from 0 to %d", loopsText, mazecore.MaxLoops)
		}
		c.id.Loops = loops
	}
	if haveLevel {
		level, err := mazecore.ParseLevel(levelText)
		if err != nil {
			return err
		}
		if level != mazecore.AnyLevel && (c.id.Width > maxChooseSize || c.id.Height > maxChooseSize) {
			return fmt.Errorf("--difficulty rates %d candidate mazes, so it takes mazes of at most %d×%d tiles, not %d×%d",
				mazecore.Candidates, maxChooseSize, maxChooseSize, c.id.Width, c.id.Height)
		}
		c.level = level
	}
	if haveSeed {
		seed, err := strconv.ParseUint(seedText, 10, 64)
		if err != nil {
			return fmt.Errorf("seed %q is not a whole number from 0 to %d", seedText, uint64(1<<64-1))
		}
		c.id.Seed = seed
	} else {
		// 32 bits keep the maze ID short (15 characters at 21×21) and are
		// plenty to tell mazes apart.
		c.id.Seed = uint64(rand.Uint32())
	}
	return nil
}

func (c *command) parseSize(what, text string) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, fmt.Errorf("%s %q is not a number: use an odd size from %d to %d", what, text, mazecore.MinSize, MaxSize)
	}
	size, rounded, err := mazecore.NormalizeSize(n, MaxSize)
	if err != nil {
		var se *mazecore.SizeError
		if errors.As(err, &se) {
			return 0, fmt.Errorf("%s %d is out of range: use an odd size from %d to %d", what, n, se.Min, se.Max)
		}
		return 0, err
	}
	if rounded {
		c.notes = append(c.notes, fmt.Sprintf("%s %d rounded up to %d", what, n, size))
	}
	return size, nil
}

// parseOutput checks --format, --scale, --theme, --style, --paper and -o;
// the default format waits for resolve, which knows whether stdout is a
// terminal.
func (c *command) parseOutput(values map[string]string) error {
	if f, ok := values["format"]; ok {
		f = strings.ToLower(f)
		if !slices.Contains(formats, f) {
			return fmt.Errorf("unknown format %q: choose one of %s", values["format"], strings.Join(formats, ", "))
		}
		c.format = f
	}
	if out := c.o(); out != "" {
		format, err := outputFormat(out, c.format)
		if err != nil {
			return err
		}
		c.format = format
	}
	if s, ok := values["scale"]; ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 64 {
			return fmt.Errorf("scale %q is not a number of pixels from 1 to 64", s)
		}
		c.scale = n
	}
	c.theme = values["theme"]
	var err error
	if c.style, err = render.ParseStyle(values["style"]); err != nil {
		return err
	}
	if c.paper, err = render.ParsePaper(values["paper"]); err != nil {
		return err
	}
	return nil
}

// outputFormat checks the format against the name of the file it goes
// to: an extension of ours (.txt, .png, …) says the format, and --format
// (format, "" when not given) must agree with it; any other extension
// (-o maze.jpg, -o maze.out) needs --format, so nothing is written in a
// format the name does not promise unless asked for.
func outputFormat(path, format string) (string, error) {
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	takes := formatsOf(ext)
	switch {
	case takes != nil && format == "":
		return takes[0], nil
	case takes != nil && !slices.Contains(takes, format):
		return "", fmt.Errorf("--format %s does not match -o %s: name the file %s, or leave --format out",
			format, base, rename(base, format))
	case takes != nil:
		return format, nil
	case format != "":
		return format, nil // an extension of the user's own, such as .out
	}
	known := orList(extensionList())
	name := strings.TrimPrefix(strings.ToLower(ext), ".")
	switch {
	case ext == "":
		return "", fmt.Errorf("-o %s has no extension to say the format: end the name in %s, or give --format", base, known)
	case slices.Contains(formats, name):
		// -o maze.emoji: a format, but not a file type.
		return "", fmt.Errorf("-o %s: %s is written to a %s file: name it %s and give --format %s", base, name, extensionOf(name), rename(base, name), name)
	}
	return "", fmt.Errorf("-o %s: mazebot does not write %s files: name the file %s, or give --format", base, ext, known)
}

// extensionOf is the extension a format is written with.
func extensionOf(format string) string {
	for _, e := range extensions {
		if slices.Contains(e.formats, format) {
			return e.ext
		}
	}
	return ""
}

// rename is the file name base with the extension format is written with.
func rename(base, format string) string {
	return strings.TrimSuffix(base, filepath.Ext(base)) + extensionOf(format)
}

// resolve settles the default format, which depends on whether stdout is a
// terminal, and checks what only then can be checked.
func (c *command) resolve(stdoutIsTerminal bool) error {
	toStdout := c.o() == ""
	if c.format == "" {
		c.format = formatText
		if toStdout && stdoutIsTerminal {
			c.format = formatTerminal
		}
	}
	if err := c.checkGridFormat(); err != nil {
		return err
	}
	row, _ := render.FormatByName(c.format) // json has none
	picture := row.Looks                    // drawn in a theme and style
	for _, rule := range []struct {
		flag string
		ok   bool
		what string
	}{
		{"scale", picture && c.format != formatPDF || c.format == formatGIF, "png, gif and svg"},
		{"theme", picture || c.format == formatEmoji, "png, svg, pdf and emoji"},
		{"style", picture, "png, svg and pdf"},
		{"paper", c.format == formatPDF, "pdf"},
	} {
		if c.given[rule.flag] && !rule.ok {
			return fmt.Errorf("--%s applies to %s, not %s", rule.flag, rule.what, c.format)
		}
	}
	var err error
	switch {
	case c.format == formatEmoji:
		if c.emoji, err = render.ParseEmojiTheme(c.theme); err != nil {
			if _, perr := render.ParsePalette(c.theme); perr == nil {
				return fmt.Errorf("--theme %s is a picture's theme; emoji takes %s", c.theme, orList(render.EmojiThemeNames()))
			}
			return err
		}
	case picture && c.theme == "" && c.format == formatPDF:
		c.palette = render.Print // a PDF is for paper
	case picture:
		if c.palette, err = render.ParsePalette(c.theme); err != nil {
			if _, eerr := render.ParseEmojiTheme(c.theme); eerr == nil {
				return fmt.Errorf("--theme %s is an emoji theme; %s takes %s", c.theme, c.format, orList(render.PaletteNames()))
			}
			return err
		}
	}
	switch {
	case toStdout && stdoutIsTerminal && binary(c.format):
		return fmt.Errorf("%s is binary: write it with -o FILE or redirect stdout", c.format)
	case c.shaped():
		return c.checkGridSize()
	}
	return squareFits(c.format, c.id)
}

// squareFits refuses a square maze wider or taller than its format's
// largest side, as render's table has it.
func squareFits(format string, id mazecore.ID) error {
	f, _ := render.FormatByName(format)
	if f.MaxSide == 0 || id.Width <= f.MaxSide && id.Height <= f.MaxSide {
		return nil
	}
	verb, instead := "draws", "png"
	switch format {
	case formatGIF:
		verb = "animates"
	case formatPDF:
		verb, instead = "prints", "svg or png"
	}
	return fmt.Errorf("%s %s mazes of at most %d×%d tiles, not %d×%d: use %s for bigger ones",
		format, verb, f.MaxSide, f.MaxSide, id.Width, id.Height, instead)
}

// binary tells whether a format is not for a terminal (render's table
// says).
func binary(format string) bool {
	f, ok := render.FormatByName(format)
	return ok && f.Binary
}

// fromID tells whether a format draws from the maze's ID alone, with no
// maze generated first (render's table says).
func fromID(format string) bool {
	f, ok := render.FormatByName(format)
	return ok && f.FromID
}

// o is the output file, "" for stdout.
func (c *command) o() string {
	if c.outPath == "-" {
		return ""
	}
	return c.outPath
}
