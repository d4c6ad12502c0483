package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeTerminal is a buffer that says it is a terminal.
type fakeTerminal struct{ bytes.Buffer }

func (*fakeTerminal) IsTerminal() bool { return true }

func runWithStderr(t *testing.T, stderr interface {
	Write([]byte) (int, error)
	String() string
}, p pace, args ...string) (stdout string) {
	t.Helper()
	var out bytes.Buffer
	if code := runPaced(context.Background(), args, &out, stderr, p); code != exitOK {
		t.Fatalf("%q: exit %d; stderr:\n%s", args, code, stderr.String())
	}
	return out.String()
}

func TestProgress(t *testing.T) {
	now := pace{delay: 0, interval: time.Millisecond}
	t.Run("OnTerminal", func(t *testing.T) {
		var stderr fakeTerminal
		stdout := runWithStderr(t, &stderr, now, "maze", "digging", "301", "--seed", "1", "--format", "text")
		got := stderr.String()
		if !strings.HasPrefix(got, "\rmazebot: ") {
			t.Fatalf("stderr=%q, want the progress line first", got)
		}
		// The line is erased before the maze ID, and the maze on stdout
		// is untouched.
		if !strings.Contains(got, "\r\x1b[Kmaze ID: ") {
			t.Fatalf("stderr=%q, want the line erased before the ID", got)
		}
		if strings.ContainsAny(stdout, "\r\x1b") {
			t.Fatal("progress got into the maze")
		}
	})
	t.Run("Percent", func(t *testing.T) {
		var stderr fakeTerminal
		runWithStderr(t, &stderr, now, "maze", "backtracking", "1001", "--seed", "2", "-o", filepath.Join(t.TempDir(), "m.txt"))
		if !strings.Contains(stderr.String(), "%\x1b[K") {
			t.Fatalf("stderr=%q, want a share done", stderr.String())
		}
	})
	t.Run("Piped", func(t *testing.T) {
		var stderr bytes.Buffer
		runWithStderr(t, &stderr, now, "maze", "digging", "301", "--seed", "1", "--format", "text")
		if got := stderr.String(); strings.ContainsAny(got, "\r\x1b") || !strings.HasPrefix(got, "maze ID: ") {
			t.Fatalf("stderr=%q, want only the maze ID when stderr is not a terminal", got)
		}
	})
	t.Run("Quick", func(t *testing.T) {
		var stderr fakeTerminal
		runWithStderr(t, &stderr, pace{delay: time.Hour, interval: time.Millisecond}, "maze", "digging", "301", "--seed", "1", "--format", "text")
		if got := stderr.String(); strings.ContainsAny(got, "\r\x1b") {
			t.Fatalf("stderr=%q, want no progress for work under the delay", got)
		}
	})
	t.Run("Difficulty", func(t *testing.T) {
		var stderr fakeTerminal
		runWithStderr(t, &stderr, now, "maze", "digging", "41", "--seed", "1", "--difficulty", "hard", "--format", "text")
		if got := stderr.String(); !strings.Contains(got, "maze ID: ") || strings.Count(got, "\r\x1b[K") != 1 {
			t.Fatalf("stderr=%q, want one erased progress line and the ID", got)
		}
	})
}

func TestProgressLine(t *testing.T) {
	var w fakeTerminal
	p := &progress{w: &w, pace: defaultPace, stop: make(chan struct{})}
	p.draw()
	p.set("generating digging 20001×20001", 43, 100)
	p.draw()
	p.set("writing", 2_500_000, 0)
	p.draw()
	p.finish()
	want := "\rmazebot: generating digging 20001×20001… 43%\x1b[K" + "\rmazebot: writing… 2.5 MB\x1b[K" + "\r\x1b[K"
	if got := w.String(); got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
	var nothing *progress // stderr is not a terminal
	nothing.set("generating", 1, 2)
	nothing.finish()
}

func TestIsTerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) {
		t.Fatal("a buffer is a terminal")
	}
	if !isTerminal(&fakeTerminal{}) {
		t.Fatal("a fake terminal is not one")
	}
}
