package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"mazebot/mazecore"
	"mazebot/render"
)

// run makes the maze and writes it, showing progress on a terminal
// stderr when that takes a while.
func (c *command) run(ctx context.Context) int {
	for _, note := range c.notes {
		fmt.Fprintln(c.stderr, note)
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
	if out := c.o(); out != "" {
		err = writeFile(ctx, out, write)
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
	fmt.Fprintf(info, "maze ID: %s (%s %d×%d%s, seed %d)\n", id, id.Algorithm, id.Width, id.Height, loops, id.Seed)
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
// when it is shown, the measures for json.
type made struct {
	maze  *mazecore.Maze
	path  []mazecore.Point
	stats *mazecore.Stats
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
		id, err := mazecore.Choose(c.id, c.level)
		if err != nil || c.format == formatGIF {
			done <- result{id: id, err: err}
			return
		}
		var r made
		phase := fmt.Sprintf("generating %s %d×%d", id.Algorithm, id.Width, id.Height)
		pr.set(phase, 0, int64(id.Cells()))
		r.maze, err = mazecore.GenerateWith(id, mazecore.Options{Progress: func(cells, total int) {
			pr.set(phase, int64(cells), int64(total))
		}})
		if err == nil && (c.solve || c.format == formatJSON) {
			pr.set("solving", 0, 0)
			r.path = mazecore.Solve(r.maze)
		}
		if err == nil && c.format == formatJSON {
			pr.set("measuring", 0, 0)
			stats := mazecore.Measure(r.maze)
			r.stats = &stats
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
	var ov render.Overlay
	if c.solve {
		ov.Path = m.path
	}
	switch c.format {
	case formatTerminal:
		return render.Terminal(w, m.maze, ov)
	case formatEmoji:
		if err := render.Emoji(w, m.maze, render.DefaultTheme, ov, render.Window{}); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	case formatPNG:
		return render.PNG(w, m.maze, render.PNGOptions{Overlay: ov, Scale: c.scale})
	case formatGIF:
		return render.GIF(w, c.id, render.GIFOptions{Scale: c.scale, Solve: c.solve})
	case formatJSON:
		return writeJSON(w, m)
	default:
		return render.Text(w, m.maze, ov)
	}
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

// writeJSON streams the maze as JSON, one row per line. It is written by
// hand rather than marshalled because a 20001-tile maze would otherwise be
// built in memory twice over (400 MB of rows, then their encoding).
func writeJSON(w io.Writer, made made) error {
	m, path := made.maze, made.path
	id := m.ID()
	bw := bufio.NewWriter(w)
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	stats, err := json.Marshal(newMeasures(*made.stats))
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, "{\n  \"id\": %s,\n  \"algorithm\": %s,\n  \"width\": %d,\n  \"height\": %d,\n  \"seed\": %d,\n  \"loops\": %d,\n  \"measures\": %s,\n  \"rows\": [\n",
		str(id.String()), str(id.Algorithm.String()), m.Width(), m.Height(), id.Seed, id.Loops, stats)
	row := make([]byte, 0, m.Width()+8)
	for y := 0; y < m.Height(); y++ {
		row = append(row[:0], "    \""...)
		for x := 0; x < m.Width(); x++ {
			if m.Wall(x, y) {
				row = append(row, '#')
			} else {
				row = append(row, ' ')
			}
		}
		row = append(row, '"')
		if y < m.Height()-1 {
			row = append(row, ',')
		}
		row = append(row, '\n')
		if _, err := bw.Write(row); err != nil {
			return err
		}
	}
	bw.WriteString("  ],\n  \"solution\": [")
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
	bw.WriteString("]\n}\n")
	return bw.Flush() // a bufio.Writer keeps its first error: this reports it
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

// writeFile writes to a temporary file next to path and renames it into
// place only when everything is written and synced, so a failure or an
// interrupt never leaves a half-written file under the real name.
func writeFile(ctx context.Context, path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(ctxWriter{ctx, tmp}, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// CreateTemp makes the file 0600; an exported maze is for sharing.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
