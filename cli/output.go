package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"mazebot/mazecore"
	"mazebot/render"
)

// run makes the maze and writes it.
func (c *command) run(ctx context.Context) int {
	for _, note := range c.notes {
		fmt.Fprintln(c.stderr, note)
	}
	m, path, err := c.generate(ctx)
	switch {
	case ctx.Err() != nil:
		return fail(c.stderr, exitInterrupted, err)
	case err != nil:
		return fail(c.stderr, exitFailure, err)
	}

	write := func(w io.Writer) error { return c.write(w, m, path) }
	info := c.stderr // the ID must not mix with a maze on stdout
	if out := c.o(); out != "" {
		err = writeFile(ctx, out, write)
		info = c.stdout
	} else {
		err = writeTo(ctx, c.stdout, write)
	}
	switch {
	case ctx.Err() != nil:
		return fail(c.stderr, exitInterrupted, fmt.Errorf("interrupted: %w", ctx.Err()))
	case errors.Is(err, render.ErrTooLarge):
		return usageFail(c.stderr, err.Error())
	case err != nil:
		return fail(c.stderr, exitFailure, err)
	}
	id := c.id
	fmt.Fprintf(info, "maze ID: %s (%s %d×%d, seed %d)\n", id, id.Algorithm, id.Width, id.Height, id.Seed)
	if out := c.o(); out != "" {
		fmt.Fprintf(info, "wrote %s\n", out)
	}
	return exitOK
}

// generate builds the maze, and its solution when it is shown, off the main
// goroutine: a 20001-tile maze takes seconds, and Ctrl-C must not wait.
// The gif format generates for itself, step by step.
func (c *command) generate(ctx context.Context) (*mazecore.Maze, []mazecore.Point, error) {
	if c.format == formatGIF {
		return nil, nil, nil
	}
	type result struct {
		m    *mazecore.Maze
		path []mazecore.Point
		err  error
	}
	done := make(chan result, 1)
	go func() {
		m, err := mazecore.Generate(c.id)
		var path []mazecore.Point
		if err == nil && (c.solve || c.format == formatJSON) {
			path = mazecore.Solve(m)
		}
		done <- result{m, path, err}
	}()
	select {
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("interrupted: %w", ctx.Err())
	case r := <-done:
		// The ID was validated while parsing, so an error here is a bug.
		return r.m, r.path, r.err
	}
}

func (c *command) write(w io.Writer, m *mazecore.Maze, path []mazecore.Point) error {
	var ov render.Overlay
	if c.solve {
		ov.Path = path
	}
	switch c.format {
	case formatTerminal:
		return render.Terminal(w, m, ov)
	case formatEmoji:
		if err := render.Emoji(w, m, render.DefaultTheme, ov, render.Window{}); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	case formatPNG:
		return render.PNG(w, m, render.PNGOptions{Overlay: ov, Scale: c.scale})
	case formatGIF:
		return render.GIF(w, c.id, render.GIFOptions{Scale: c.scale, Solve: c.solve})
	case formatJSON:
		return writeJSON(w, m, path)
	default:
		return render.Text(w, m, ov)
	}
}

// writeJSON streams the maze as JSON, one row per line. It is written by
// hand rather than marshalled because a 20001-tile maze would otherwise be
// built in memory twice over (400 MB of rows, then their encoding).
func writeJSON(w io.Writer, m *mazecore.Maze, path []mazecore.Point) error {
	id := m.ID()
	bw := bufio.NewWriter(w)
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	fmt.Fprintf(bw, "{\n  \"id\": %s,\n  \"algorithm\": %s,\n  \"width\": %d,\n  \"height\": %d,\n  \"seed\": %d,\n  \"rows\": [\n",
		str(id.String()), str(id.Algorithm.String()), m.Width(), m.Height(), id.Seed)
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
