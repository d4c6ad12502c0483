package render

import (
	"bytes"
	"strings"
	"testing"

	"mazebot/mazecore"
)

// TestFormats: every row of the table has a unique name, an extension and
// a content type, and its writer draws a maze as the format's own
// renderer does; a FromID format draws from the ID with no maze.
func TestFormats(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 11, Height: 11, Seed: 7}
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	path := mazecore.Solve(m)
	seen := map[string]bool{}
	for _, f := range Formats {
		if seen[f.Name] || f.Name == "" || !strings.HasPrefix(f.Extension, ".") || f.ContentType == "" || f.Cost < 1 || f.Write == nil {
			t.Errorf("row %+v: want a new name, an extension, a content type, a cost and a writer", f)
		}
		seen[f.Name] = true
		if got, ok := FormatByName(f.Name); !ok || got.Name != f.Name {
			t.Errorf("FormatByName(%q) = %q, %v", f.Name, got.Name, ok)
		}
		var buf bytes.Buffer
		maze := m
		if f.FromID {
			maze = nil
		}
		if err := f.Write(&buf, maze, Options{ID: id, Path: path, Solve: true}); err != nil || buf.Len() == 0 {
			t.Errorf("%s: wrote %d bytes, %v", f.Name, buf.Len(), err)
		}
	}
	// The rows draw what the renderers do.
	var want, got bytes.Buffer
	if err := PNG(&want, m, PNGOptions{Overlay: Overlay{Path: path}}); err != nil {
		t.Fatal(err)
	}
	png, _ := FormatByName("png")
	if err := png.Write(&got, m, Options{Path: path, Solve: true}); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the png row's picture differs from PNG's (%v)", err)
	}
	want.Reset()
	got.Reset()
	if err := Text(&want, m, Overlay{}); err != nil {
		t.Fatal(err)
	}
	text, _ := FormatByName("text")
	if err := text.Write(&got, m, Options{Path: path}); err != nil || got.String() != want.String() {
		t.Errorf("the text row without Solve shows the path, or differs from Text (%v)", err)
	}
	if _, ok := FormatByName("jpeg"); ok {
		t.Error("FormatByName found jpeg")
	}
}
