package render

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"mazebot/mazecore"
)

// TestGridPDF draws mazes of each grid and a shape as PDFs and reads
// their pages back as pictures (pdftoppm, of poppler-utils): two pages;
// on page 1 every edge no passage crosses is inked at its middle and
// every passage is blank there; the start's triangle and the goal's
// target are inked; page 2 has the solution's grey at the cells it
// passes and none at the others'.
func TestGridPDF(t *testing.T) {
	if testing.Short() { // testkit.SkipShort, which imports render
		t.Skip("-short: runs pdftoppm (go test without -short runs it)")
	}
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftoppm is missing but CI is set: .ci/run installs poppler-utils")
		}
		t.Skip("pdftoppm is missing: apt-get install poppler-utils (Debian) to read the PDF's pages")
	}
	const dpi = 100
	for _, tc := range []struct {
		name string
		id   mazecore.ID
	}{gridGoldens[0], gridGoldens[2], gridGoldens[3]} { // polar, hex, heart
		t.Run(tc.name, func(t *testing.T) {
			m := mustGridMaze(t, tc.id)
			var buf bytes.Buffer
			if err := GridPDF(&buf, m, PDFOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := len(pdfPage.FindAll(buf.Bytes(), -1)); got != 2 {
				t.Fatalf("%d pages, want 2", got)
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "maze.pdf")
			if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(pdftoppm, "-r", "100", "-png", file, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
				t.Fatalf("pdftoppm: %v\n%s", err, out)
			}
			pages := make([]image.Image, 2)
			for i := range pages {
				f, err := os.Open(filepath.Join(dir, []string{"page-1.png", "page-2.png"}[i]))
				if err != nil {
					t.Fatal(err)
				}
				pages[i], err = png.Decode(f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
			}
			geo := newGridGeometry(m.Grid())
			pen := gridPage(geo, pdfBox(210, 297)) // A4, in millimetres
			grey := func(page int, p point) uint32 {
				x, y := pen.at(p)
				r, g, b, _ := pages[page].At(int(x/25.4*dpi), int(y/25.4*dpi)).RGBA()
				return (r + g + b) / 3 >> 8
			}
			for _, e := range geo.edges {
				mid := point{(e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2}
				if e.arc {
					t := (e.t1 + e.t2) / 2
					mid = point{geo.cx + e.r*math.Sin(t), geo.cy - e.r*math.Cos(t)}
				}
				wall := e.b < 0 || !m.Linked(e.a, e.b)
				if v := grey(0, mid); (v < 128) != wall {
					t.Fatalf("edge %d–%d: grey %d at its middle, want a wall %v", e.a, e.b, v, wall)
				}
			}
			mk := markerShapes(geo.centres[m.Start()], geo.centres[m.Goal()])
			tri := mk[0].triangle
			if v := grey(0, point{(tri[0].x + tri[1].x + tri[2].x) / 3, (tri[0].y + tri[1].y + tri[2].y) / 3}); v > 64 {
				t.Fatalf("the start's triangle is grey %d, want black", v)
			}
			if v := grey(0, geo.centres[m.Goal()]); v > 64 {
				t.Fatalf("the goal's dot is grey %d, want black", v)
			}
			onPath := map[int]bool{}
			for _, c := range m.Solve() {
				onPath[c] = true
			}
			for c, centre := range geo.centres {
				if c == m.Start() || c == m.Goal() {
					continue
				}
				// Print's path is 0x6a: grey, neither paper nor ink.
				v := grey(1, centre)
				if got := v > 64 && v < 160; got != onPath[c] || !onPath[c] && grey(0, centre) < 250 {
					t.Fatalf("cell %d: grey %d on page 2 (%d on page 1), on the solution %v", c, v, grey(0, centre), onPath[c])
				}
			}
		})
	}
}

// TestGridPDFRefusals: a grid too large to print is ErrTooLarge; a
// writer's error is returned.
func TestGridPDFRefusals(t *testing.T) {
	big := mustGridMaze(t, mazecore.ID{Algorithm: mazecore.Wilson, GridKind: mazecore.Hex, Width: 250, Height: 100, Seed: 1})
	if err := GridPDF(io.Discard, big, PDFOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a 250-wide hex PDF: %v, want ErrTooLarge", err)
	}
	polar := mustGridMaze(t, mazecore.ID{Algorithm: mazecore.Wilson, GridKind: mazecore.Polar, Width: mazecore.MaxRings, Height: mazecore.MaxRings, Seed: 1})
	if err := GridPDF(io.Discard, polar, PDFOptions{Paper: Letter}); err != nil {
		t.Fatalf("a %d-ring polar PDF: %v", mazecore.MaxRings, err)
	}
	if err := GridPDF(&failWriter{n: 100}, mustGridMaze(t, gridGoldens[0].id), PDFOptions{}); !errors.Is(err, errWrite) {
		t.Fatalf("err=%v, want the writer's", err)
	}
}
