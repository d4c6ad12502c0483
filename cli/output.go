package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// run makes the maze and writes it, showing progress on a terminal
// stderr when that takes a while.
func (c *command) run(ctx context.Context) int {
	for _, note := range c.notes {
		fmt.Fprintln(c.stderr, note)
	}
	// A file that cannot be written fails now, not after a minute of
	// generating.
	var out *output
	if path := c.o(); path != "" {
		var err error
		if out, err = createOutput(path, extensionOf(c.format)); err != nil {
			return fail(c.stderr, exitFailure, err)
		}
		defer out.abort() // a no-op once committed
	}
	pr := startProgress(c.stderr, c.pace)
	m, err := c.generate(ctx, pr)
	switch {
	case ctx.Err() != nil:
		pr.finish()
		return fail(c.stderr, exitInterrupted, err)
	case err != nil:
		pr.finish()
		return fail(c.stderr, exitFailure, err)
	}

	write := func(w io.Writer) error { return c.write(w, m) }
	if pr != nil {
		write = func(w io.Writer) error {
			return c.write(&countingWriter{w: w, p: pr, total: c.size()}, m)
		}
	}
	info := c.stderr // the ID must not mix with a maze on stdout
	if out != nil {
		err = out.write(ctx, write)
		if err == nil && ctx.Err() == nil {
			err = out.commit()
		}
		info = c.stdout
	} else {
		if isTerminal(c.stdout) {
			pr.finish() // the maze goes to the screen the line is on
			pr, write = nil, func(w io.Writer) error { return c.write(w, m) }
		}
		err = writeTo(ctx, c.stdout, write)
	}
	pr.finish()
	switch {
	case ctx.Err() != nil:
		return fail(c.stderr, exitInterrupted, fmt.Errorf("interrupted: %w", ctx.Err()))
	case errors.Is(err, render.ErrTooLarge):
		return usageFail(c.stderr, err.Error())
	case err != nil:
		return fail(c.stderr, exitFailure, err)
	}
	id := c.id
	loops := ""
	if id.Loops > 0 {
		loops = fmt.Sprintf(", loops %d", id.Loops)
	}
	if c.shaped() {
		fmt.Fprintf(info, "maze ID: %s (%s%s, seed %d)\n", id, describe(id), loops, id.Seed)
	} else {
		fmt.Fprintf(info, "maze ID: %s (%s %d×%d%s, seed %d)\n", id, id.Algorithm, id.Width, id.Height, loops, id.Seed)
	}
	if out := c.o(); out != "" {
		fmt.Fprintf(info, "wrote %s\n", out)
	}
	return exitOK
}

// size is the bytes the output will take when that is known in advance
// (text), else 0.
func (c *command) size() int64 {
	if c.format != formatText {
		return 0
	}
	return int64(c.id.Width+1) * int64(c.id.Height)
}

// made is a generated maze with what the output needs of it: the solution
// when it is shown, the measures and par for json.
type made struct {
	maze  *mazecore.Maze
	path  []mazecore.Point
	stats *mazecore.Stats
	par   int // json: the clicks a perfect game takes, -1 for a maze Play does not take
	// grid and gridPath are a maze on another grid or in a shape, and its
	// solution, in place of maze and path.
	grid     *mazecore.GridMaze
	gridPath []int
}

// generate chooses the seed for --difficulty, then builds the maze and what
// the output needs, off the main goroutine: a 20001-tile maze takes seconds,
// and Ctrl-C must not wait. The gif format generates for itself, step by
// step. On success c.id is the ID of the maze made.
func (c *command) generate(ctx context.Context, pr *progress) (made, error) {
	type result struct {
		id   mazecore.ID
		made made
		err  error
	}
	done := make(chan result, 1)
	go func() {
		if c.level != mazecore.AnyLevel {
			pr.set(fmt.Sprintf("choosing a %s maze among %d", c.level, mazecore.Candidates), 0, 0)
		}
		if c.shaped() {
			id, err := mazecore.ChooseGrid(c.id, c.level, c.image)
			if err != nil {
				done <- result{id: id, err: err}
				return
			}
			r, err := generateGrid(id, c.image)
			done <- result{id, r, err}
			return
		}
		id, err := mazecore.Choose(c.id, c.level)
		if err != nil || fromID(c.format) {
			done <- result{id: id, err: err}
			return
		}
		var r made
		phase := fmt.Sprintf("generating %s %d×%d", id.Algorithm, id.Width, id.Height)
		pr.set(phase, 0, int64(id.Cells()))
		r.maze, err = mazecore.GenerateWith(id, mazecore.Options{Progress: func(cells, total int) {
			pr.set(phase, int64(cells), int64(total))
		}})
		if err == nil && (c.solve || c.format == formatJSON || c.format == formatSVG) {
			pr.set("solving", 0, 0)
			r.path = mazecore.Solve(r.maze)
		}
		if err == nil && c.format == formatJSON {
			pr.set("measuring", 0, 0)
			stats := mazecore.Measure(r.maze)
			r.stats = &stats
			r.par = -1
			if id.Width <= play.MaxSide && id.Height <= play.MaxSide {
				r.par = play.Par(r.maze)
			}
		}
		done <- result{id, r, err}
	}()
	select {
	case <-ctx.Done():
		return made{}, fmt.Errorf("interrupted: %w", ctx.Err())
	case r := <-done:
		// The ID was validated while parsing, so an error here is a bug.
		if r.err == nil {
			c.id = r.id
		}
		return r.made, r.err
	}
}

func (c *command) write(w io.Writer, m made) error {
	if m.grid != nil {
		return c.writeGrid(w, m)
	}
	if c.format == formatJSON {
		return writeJSON(w, m)
	}
	f, ok := render.FormatByName(c.format)
	if !ok {
		return fmt.Errorf("format %q is not in render's table", c.format) // parseOutput checked it
	}
	return f.Write(w, m.maze, render.Options{ID: c.id, Path: m.path, Solve: c.solve, Scale: c.scale,
		Palette: c.palette, Style: c.style, Paper: c.paper, Emoji: c.emoji})
}

// measures is the json form of mazecore.Stats: lengths in tiles.
type measures struct {
	Cells       int     `json:"cells"`
	DeadEnds    int     `json:"dead_ends"`
	Junctions   int     `json:"junctions"`
	LongestPath int     `json:"longest_path"`
	Solution    int     `json:"solution"`
	Decisions   int     `json:"decisions"`
	FalsePaths  int     `json:"false_paths"`
	Turns       float64 `json:"turns"`
	Score       float64 `json:"score"`
	Rating      int     `json:"rating"`
}

func newMeasures(s mazecore.Stats) measures {
	return measures{
		Cells: s.Cells, DeadEnds: s.DeadEnds, Junctions: s.Junctions, LongestPath: s.LongestPath,
		Solution: s.Solution, Decisions: s.Decisions, FalsePaths: s.FalsePaths,
		// Three decimals are plenty for a share, one for a score.
		Turns: math.Round(s.Turns*1000) / 1000, Score: math.Round(s.Score*10) / 10, Rating: s.Rating,
	}
}

// writeJSON streams the maze as JSON, one row per line: '#' walls, ' '
// floor, 'S' the start and 'G' the goal, as the text has them. It is
// written by hand rather than marshalled because a 20001-tile maze would
// otherwise be built in memory twice over (400 MB of rows, then their
// encoding).
func writeJSON(w io.Writer, made made) error {
	m, path := made.maze, made.path
	id := m.ID()
	bw := bufio.NewWriter(w)
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	stats, err := json.Marshal(newMeasures(*made.stats))
	if err != nil {
		return err
	}
	// par is a game's measure: null for a maze Play does not take.
	par := "null"
	if made.par >= 0 {
		par = strconv.Itoa(made.par)
	}
	start, goal := m.Start(), m.Goal()
	fmt.Fprintf(bw, "{\n  \"id\": %s,\n  \"algorithm\": %s,\n  \"width\": %d,\n  \"height\": %d,\n  \"seed\": %d,\n  \"loops\": %d,\n",
		str(id.String()), str(id.Algorithm.String()), m.Width(), m.Height(), id.Seed, id.Loops)
	fmt.Fprintf(bw, "  \"start\": [%d,%d],\n  \"goal\": [%d,%d],\n  \"rating\": %d,\n  \"par\": %s,\n  \"measures\": %s,\n  \"rows\": [\n",
		start.X, start.Y, goal.X, goal.Y, made.stats.Rating, par, stats)
	// The rows are the text's, S and G included, each line quoted: none
	// of its characters needs escaping in JSON.
	rows := &jsonRows{w: bw}
	if err := render.Text(rows, m, render.Overlay{}); err != nil {
		return err
	}
	bw.WriteString("\n  ],\n  \"solution\": [")
	var buf []byte
	for i, p := range path {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, int64(p.X), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(p.Y), 10)
		buf = append(buf, ']')
		bw.Write(buf)
	}
	bw.WriteString("],\n")
	writeSquareGraph(bw, m, path)
	bw.WriteString("\n}\n")
	return bw.Flush() // a bufio.Writer keeps its first error: this reports it
}

// writeSquareGraph streams the "graph" object of a maze on the whole
// square grid, as writeGridJSON has it for any grid: its cells row by
// row (id row·cols+col), the passages, the start's and goal's cells and
// the solution's. One cell or link a line, so a huge maze is never held
// in memory twice.
func writeSquareGraph(bw *bufio.Writer, m *mazecore.Maze, path []mazecore.Point) {
	cols, rows := m.Width()/2, m.Height()/2
	cell := func(p mazecore.Point) int { return p.Y/2*cols + p.X/2 }
	g := graphWriter{bw: bw}
	g.cells(cols*rows, func(c int) (int, int) { return c / cols, c % cols })
	g.links(func(link func(a, b int)) {
		for r := range rows {
			for c := range cols {
				x, y := 2*c+1, 2*r+1
				if c+1 < cols && !m.Wall(x+1, y) {
					link(r*cols+c, r*cols+c+1)
				}
				if r+1 < rows && !m.Wall(x, y+1) {
					link(r*cols+c, (r+1)*cols+c)
				}
			}
		}
	})
	var solution []int
	for _, p := range path {
		if p.X%2 == 1 && p.Y%2 == 1 { // not a passage's tile between two cells
			solution = append(solution, cell(p))
		}
	}
	g.ends(cell(m.Start()), cell(m.Goal()), solution)
}

// graphWriter writes a json "graph" object a part at a time: the cells,
// each {"id", "row", "col"} on a line of its own (on a polar grid the
// row is the ring and the column the cell's place clockwise from north),
// the links as [a, b], one a line, then the start, the goal and the
// solution's cells.
type graphWriter struct {
	bw  *bufio.Writer
	buf []byte
}

func (g *graphWriter) cells(n int, place func(c int) (row, col int)) {
	g.bw.WriteString("  \"graph\": {\n    \"cells\": [")
	for c := range n {
		row, col := place(c)
		g.buf = g.buf[:0]
		if c > 0 {
			g.buf = append(g.buf, ',')
		}
		g.buf = append(g.buf, "\n      {\"id\": "...)
		g.buf = strconv.AppendInt(g.buf, int64(c), 10)
		g.buf = append(g.buf, ", \"row\": "...)
		g.buf = strconv.AppendInt(g.buf, int64(row), 10)
		g.buf = append(g.buf, ", \"col\": "...)
		g.buf = strconv.AppendInt(g.buf, int64(col), 10)
		g.buf = append(g.buf, '}')
		g.bw.Write(g.buf)
	}
}

func (g *graphWriter) links(each func(link func(a, b int))) {
	g.bw.WriteString("\n    ],\n    \"links\": [")
	first := true
	each(func(a, b int) {
		g.buf = g.buf[:0]
		if !first {
			g.buf = append(g.buf, ',')
		}
		first = false
		g.buf = append(g.buf, "\n      ["...)
		g.buf = strconv.AppendInt(g.buf, int64(a), 10)
		g.buf = append(g.buf, ", "...)
		g.buf = strconv.AppendInt(g.buf, int64(b), 10)
		g.buf = append(g.buf, ']')
		g.bw.Write(g.buf)
	})
}

func (g *graphWriter) ends(start, goal int, solution []int) {
	fmt.Fprintf(g.bw, "\n    ],\n    \"start\": %d,\n    \"goal\": %d,\n    \"solution\": [", start, goal)
	for i, c := range solution {
		g.buf = g.buf[:0]
		if i > 0 {
			g.buf = append(g.buf, ", "...)
		}
		g.buf = strconv.AppendInt(g.buf, int64(c), 10)
		g.bw.Write(g.buf)
	}
	g.bw.WriteString("]\n  }")
}

// jsonRows turns lines of text into the elements of a JSON array, one a
// line: `    "…"`, separated by ",\n". The text must need no escaping.
type jsonRows struct {
	w       *bufio.Writer
	started bool // a row is open: its opening quote is written
	rows    int  // the rows begun
}

func (j *jsonRows) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if !j.started {
			if j.rows > 0 {
				j.w.WriteString(",\n")
			}
			j.w.WriteString(`    "`)
			j.started = true
			j.rows++
		}
		line, rest, eol := bytes.Cut(p, []byte{'\n'})
		j.w.Write(line)
		if eol {
			j.w.WriteByte('"')
			j.started = false
		}
		p = rest
	}
	return n, nil // the bufio.Writer keeps any error for writeJSON's Flush
}

// ctxWriter stops a long write when ctx is cancelled, so Ctrl-C during a
// huge export stops it (and removes a half-written file).
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (cw ctxWriter) Write(p []byte) (int, error) {
	if err := cw.ctx.Err(); err != nil {
		return 0, err
	}
	return cw.w.Write(p)
}

// writeTo runs write into stdout through a buffer: renderers write a row at
// a time, and a 20001-row maze should not take 20001 system calls.
func writeTo(ctx context.Context, stdout io.Writer, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(ctxWriter{ctx, stdout}, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("write stdout: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write stdout: %w", err)
	}
	return nil
}

// output is a file being written: a temporary file beside the path the
// user gave (so the rename stays on one file system), renamed into place
// by commit only when everything is written and synced, removed by abort.
// A failure or an interrupt never leaves a half-written file under the
// real name, and no message names the temporary file. A path through a
// symbolic link is written where the link points, and the link stays.
// What is not a file (-o /dev/null, a named pipe, a terminal) is written
// directly: renaming over it would put a file in its place.
type output struct {
	path   string   // as the user gave it, for messages
	target string   // where the file goes: path, its link resolved (not direct)
	tmp    *os.File // nil once committed or aborted
	direct bool     // tmp is the device or pipe itself
}

// createOutput checks that path can be written, before any work is done
// for it, by creating its temporary file (or opening the device); ext is
// the extension of the format, for the example an error gives.
func createOutput(path, ext string) (*output, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("cannot write %s: it is a directory: name a file in it, such as %s", path, filepath.Join(path, "maze"+ext))
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fileError(path, err)
		}
		return &output{path: path, tmp: f, direct: true}, nil
	}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, fileError(path, err)
	}
	return &output{path: path, target: target, tmp: tmp}, nil
}

// write runs write into the temporary file through a buffer, stopping
// when ctx ends.
func (o *output) write(ctx context.Context, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(ctxWriter{ctx, o.tmp}, 1<<16)
	if err := write(bw); err != nil {
		return o.writeError(err)
	}
	if err := bw.Flush(); err != nil {
		return o.writeError(err)
	}
	return nil
}

// writeError reports an error while writing: a renderer's as it is, the
// file's in the user's path.
func (o *output) writeError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fileError(o.path, pe.Err)
	}
	return err
}

// commit puts the written file in place.
func (o *output) commit() error {
	tmp := o.tmp
	if o.direct {
		o.tmp = nil
		if err := tmp.Close(); err != nil {
			return fileError(o.path, err)
		}
		return nil
	}
	// CreateTemp makes the file 0600; an exported maze is for sharing.
	err := tmp.Chmod(0o644)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), o.target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		o.tmp = nil
		return fileError(o.path, err)
	}
	o.tmp = nil
	return nil
}

// abort removes the temporary file, if it is still there; a device or a
// pipe is only closed.
func (o *output) abort() {
	if o == nil || o.tmp == nil {
		return
	}
	o.tmp.Close()
	if !o.direct {
		os.Remove(o.tmp.Name())
	}
	o.tmp = nil
}

// fileError says why path cannot be written, and what to do about it, in
// terms of path and its directory: the error of an operation on the
// temporary file names that file, which the user never chose.
func fileError(path string, err error) error {
	dir := filepath.Dir(path)
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	var why string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = fmt.Sprintf("there is no directory %s: create it (mkdir -p %s) or choose another -o", dir, dir)
	case errors.Is(err, syscall.ENOTDIR):
		why = fmt.Sprintf("%s is not a directory: choose another -o", dir)
	case errors.Is(err, syscall.EROFS):
		why = fmt.Sprintf("%s is on a read-only file system: choose another -o", dir)
	case errors.Is(err, fs.ErrPermission):
		why = fmt.Sprintf("no permission to write in %s: choose another -o, or make the directory writable", dir)
	case errors.Is(err, syscall.ENOSPC):
		why = fmt.Sprintf("no space left on the device of %s: free some, or choose another -o", dir)
	case errors.Is(err, syscall.EISDIR), errors.Is(err, syscall.EEXIST):
		why = "a directory of that name is in the way: choose another -o"
	default:
		why = err.Error()
	}
	return fmt.Errorf("cannot write %s: %s", path, why)
}
