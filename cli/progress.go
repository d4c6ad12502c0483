package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// terminal is what a writer may say about itself; tests fake one.
type terminal interface{ IsTerminal() bool }

// isTerminal reports whether w is a terminal: a terminal as above, or an
// *os.File that is a character device. Anything else (a buffer, a pipe
// wrapper) is not.
func isTerminal(w io.Writer) bool {
	if t, ok := w.(terminal); ok {
		return t.IsTerminal()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// pace is when progress shows: after delay, every interval.
type pace struct{ delay, interval time.Duration }

// defaultPace shows work that lasts over a second, five times a second.
var defaultPace = pace{delay: time.Second, interval: 200 * time.Millisecond}

// progress shows how far the work has got on one line of stderr, rewritten
// in place, once the work has lasted pace.delay: "mazebot: generating
// digging 20001×20001… 43%". The line is erased when the work ends, so
// what follows (the maze ID) prints as if it had never been there. A nil
// *progress, for a stderr that is not a terminal, shows nothing.
type progress struct {
	w     io.Writer
	pace  pace
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup

	mu          sync.Mutex
	phase       string
	done, total int64 // total 0: no share to show, done is a byte count
	shown       bool
}

// startProgress starts showing progress on w if it is a terminal.
func startProgress(w io.Writer, p pace) *progress {
	if !isTerminal(w) {
		return nil
	}
	pr := &progress{w: w, pace: p, start: time.Now(), stop: make(chan struct{})}
	pr.wg.Add(1)
	go pr.run()
	return pr
}

func (p *progress) run() {
	defer p.wg.Done()
	select {
	case <-time.After(p.pace.delay):
	case <-p.stop:
		return
	}
	tick := time.NewTicker(max(p.pace.interval, time.Millisecond))
	defer tick.Stop()
	for {
		p.draw()
		select {
		case <-tick.C:
		case <-p.stop:
			return
		}
	}
}

// set says what the work is doing now: done of total units, or done bytes
// written when total is 0.
func (p *progress) set(phase string, done, total int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.phase, p.done, p.total = phase, done, total
	p.mu.Unlock()
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.phase == "" {
		return
	}
	line := "\rmazebot: " + p.phase + "…"
	switch {
	case p.total > 0:
		line += fmt.Sprintf(" %d%%", 100*p.done/p.total)
	case p.done > 0:
		line += fmt.Sprintf(" %.1f MB", float64(p.done)/1e6)
	}
	fmt.Fprint(p.w, line+"\x1b[K")
	p.shown = true
}

// finish stops the display and erases its line. Work that outlasted the
// delay shows at least once, even if it ended between two ticks.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if !p.shown && time.Since(p.start) >= p.pace.delay {
		p.draw()
	}
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// countingWriter reports the bytes written through it as progress.
type countingWriter struct {
	w     io.Writer
	p     *progress
	n     int64
	total int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.p.set("writing", c.n, c.total)
	return n, err
}
