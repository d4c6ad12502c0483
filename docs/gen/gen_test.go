package main

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mazebot/app"
)

var update = flag.Bool("update", false, "rewrite the pictures in docs/")

// TestPictures: the README's pictures are what the code draws now, so
// they show the bot as it is. After a change to a card, a game or the
// renderer, go run ./docs/gen (or go test ./docs/gen -update) draws them
// again.
func TestPictures(t *testing.T) {
	pics, err := pictures()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pics {
		path := filepath.Join("..", p.name)
		if *update {
			if err := os.WriteFile(path, p.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		img, err := png.Decode(bytes.NewReader(p.data))
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if w := img.Bounds().Dx(); w != width*scale {
			t.Fatalf("%s is %d px wide, want %d", p.name, w, width*scale)
		}
		committed, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v: run go run ./docs/gen from the repository's root", err)
		}
		if !bytes.Equal(committed, p.data) {
			t.Errorf("docs/%s is not what the code draws now (%d bytes, now %d): run go run ./docs/gen from the repository's root and commit it", p.name, len(committed), len(p.data))
		}
	}
}

// TestPicturesSameTwice: drawing is deterministic, or TestPictures would
// fail at random.
func TestPicturesSameTwice(t *testing.T) {
	a, err := pictures()
	if err != nil {
		t.Fatal(err)
	}
	b, err := pictures()
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if !bytes.Equal(a[i].data, b[i].data) {
			t.Fatalf("%s differs between two draws", a[i].name)
		}
	}
}

// TestConfigurationDocumented: docs/configuration.md names every variable
// the bot reads (app.Variables, which mazebot bot --help lists and
// .env.example explains).
func TestConfigurationDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range app.Variables {
		if !strings.Contains(string(doc), "`"+v.Name+"`") {
			t.Errorf("docs/configuration.md does not document %s", v.Name)
		}
	}
}
