package render

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"mazebot/mazecore"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// mustGenerate builds the perfect maze of (algorithm, size×size, seed).
func mustGenerate(tb testing.TB, a mazecore.Algorithm, size int, seed uint64) *mazecore.Maze {
	tb.Helper()
	return mustGenerateLoops(tb, a, size, seed, 0)
}

// mustGenerateLoops is mustGenerate for a maze with loops.
func mustGenerateLoops(tb testing.TB, a mazecore.Algorithm, size int, seed uint64, loops int) *mazecore.Maze {
	tb.Helper()
	id := mazecore.ID{Algorithm: a, Width: size, Height: size, Seed: seed, Loops: loops}
	m, err := mazecore.Generate(id)
	if err != nil {
		tb.Fatalf("Generate(%+v): %v", id, err)
	}
	return m
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// readTestdata reads testdata/name.
func readTestdata(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }

// failWriter fails after n bytes, to check renderers return writer errors.
type failWriter struct{ n int }

var errWrite = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, errWrite
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriterErrors(t *testing.T) {
	m := mustGenerate(t, mazecore.Backtracking, 21, 1)
	id := m.ID()
	for _, tt := range []struct {
		name   string
		render func(w *failWriter) error
	}{
		{"Text", func(w *failWriter) error { return Text(w, m, Overlay{}) }},
		{"Terminal", func(w *failWriter) error { return Terminal(w, m, Overlay{}) }},
		{"Emoji", func(w *failWriter) error { return Emoji(w, m, DefaultTheme, Overlay{}, Window{}) }},
		{"PNG", func(w *failWriter) error { return PNG(w, m, PNGOptions{}) }},
		{"PNGPaletted", func(w *failWriter) error { return PNG(w, m, PNGOptions{Scale: 1}) }},
		{"GIF", func(w *failWriter) error { return GIF(w, id, GIFOptions{}) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{0, 100} {
				if err := tt.render(&failWriter{n: n}); !errors.Is(err, errWrite) {
					t.Fatalf("after %d bytes: err=%v, want %v", n, err, errWrite)
				}
			}
		})
	}
}
