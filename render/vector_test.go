package render

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mazebot/mazecore"
)

// svgDoc is what the tests read of an SVG.
type svgDoc struct {
	width, height int
	walls         string            // the d of path#walls
	solution      []string          // the d of each path in g#solution
	ids           map[string]string // element of each id
}

// parseSVG decodes an SVG as XML, checking its root.
func parseSVG(t *testing.T, b []byte) svgDoc {
	t.Helper()
	doc := svgDoc{ids: map[string]string{}}
	dec := xml.NewDecoder(bytes.NewReader(b))
	inSolution, depth := false, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			if depth == 1 {
				if el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root is %v, want svg in the SVG namespace", el.Name)
				}
				doc.width, _ = strconv.Atoi(attr["width"])
				doc.height, _ = strconv.Atoi(attr["height"])
				if attr["viewBox"] != fmt.Sprintf("0 0 %d %d", doc.width, doc.height) {
					t.Fatalf("viewBox %q for %d×%d", attr["viewBox"], doc.width, doc.height)
				}
			}
			if id := attr["id"]; id != "" {
				if _, dup := doc.ids[id]; dup {
					t.Fatalf("id %q twice", id)
				}
				doc.ids[id] = el.Name.Local
			}
			switch {
			case attr["id"] == "walls":
				doc.walls = attr["d"]
			case attr["id"] == "solution":
				inSolution = true
			case inSolution && el.Name.Local == "path":
				doc.solution = append(doc.solution, attr["d"])
			}
		case xml.EndElement:
			depth--
			if el.Name.Local == "g" {
				inSolution = false
			}
		}
	}
	return doc
}

var wallRun = regexp.MustCompile(`M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z`)

// checkSVGWalls checks that the rectangles of walls are the maze's walls:
// one a run of wall tiles in a row, and every tile's centre inside one
// exactly when it is a wall.
func checkSVGWalls(t *testing.T, m *mazecore.Maze, g geometry, walls string) int {
	t.Helper()
	runs := wallRun.FindAllStringSubmatch(walls, -1)
	if got := strings.Count(walls, "M"); got != len(runs) {
		t.Fatalf("%d subpaths, %d of them rectangles", got, len(runs))
	}
	want := 0
	for y := range m.Height() {
		for x := range m.Width() {
			if m.Wall(x, y) && (x == 0 || !m.Wall(x-1, y)) {
				want++
			}
		}
	}
	if len(runs) != want {
		t.Fatalf("%d wall rectangles, want %d: one a run of wall tiles", len(runs), want)
	}
	inside := map[[2]int]bool{}
	for _, r := range runs {
		n := func(i int) int { v, _ := strconv.Atoi(r[i]); return v }
		x, y, w, h := n(1), n(2), n(3), n(4)
		for tx := range m.Width() {
			cx := g.start(tx) + g.size(tx)/2
			if cx < x || cx >= x+w {
				continue
			}
			for ty := range m.Height() {
				if cy := g.start(ty) + g.size(ty)/2; cy >= y && cy < y+h {
					inside[[2]int{tx, ty}] = true
				}
			}
		}
	}
	for y := range m.Height() {
		for x := range m.Width() {
			if inside[[2]int{x, y}] != m.Wall(x, y) {
				t.Fatalf("tile (%d,%d): in a wall rectangle %v, wall %v", x, y, inside[[2]int{x, y}], m.Wall(x, y))
			}
		}
	}
	return len(runs)
}

func TestSVG(t *testing.T) {
	for _, p := range palettes {
		for _, style := range []Style{StyleBlock, StyleLine} {
			t.Run(fmt.Sprintf("%s/%s", p, style), func(t *testing.T) {
				m := mustGenerateLoops(t, mazecore.Backtracking, 41, 2, 10*int(style))
				path := mazecore.Solve(m)
				var buf bytes.Buffer
				if err := SVG(&buf, m, SVGOptions{Path: path, Palette: p, Style: style}); err != nil {
					t.Fatal(err)
				}
				t.Logf("%d bytes", buf.Len())
				if buf.Len() > 32<<10 {
					t.Fatalf("%d bytes, want under 32 KiB for 41×41", buf.Len())
				}
				doc := parseSVG(t, buf.Bytes())
				opts := PNGOptions{Palette: p, Style: style}
				if w, h := opts.Size(m); doc.width != w || doc.height != h {
					t.Fatalf("SVG %d×%d, want the PNG's %d×%d", doc.width, doc.height, w, h)
				}
				checkSVGWalls(t, m, geom(m, opts), doc.walls)
				for _, id := range []string{"walls", "ends", "markers", "solution"} {
					if doc.ids[id] == "" {
						t.Fatalf("no element with id %q: %v", id, doc.ids)
					}
				}
				if doc.ids["solution"] != "g" || len(doc.solution) != 1 {
					t.Fatalf("solution is a %q with %d paths, want a g with one", doc.ids["solution"], len(doc.solution))
				}
				// The solution runs from the start's centre to the goal's
				// through the centres of its tiles.
				v, _ := newVector(m, 0, p, style)
				pts := regexp.MustCompile(`[ML]([\d.]+) ([\d.]+)`).FindAllStringSubmatch(doc.solution[0], -1)
				centre := func(q mazecore.Point) string {
					return num(float64(v.g.start(q.X))+float64(v.g.size(q.X))/2) + " " + num(float64(v.g.start(q.Y))+float64(v.g.size(q.Y))/2)
				}
				if first, last := pts[0][1]+" "+pts[0][2], pts[len(pts)-1][1]+" "+pts[len(pts)-1][2]; first != centre(m.Start()) || last != centre(m.Goal()) {
					t.Fatalf("solution from %s to %s, want %s to %s", first, last, centre(m.Start()), centre(m.Goal()))
				}
				turns := 0
				for i := 1; i+1 < len(path); i++ {
					if (path[i-1].X == path[i].X) != (path[i].X == path[i+1].X) {
						turns++
					}
				}
				if got, want := len(pts), turns+2; got != want {
					t.Fatalf("solution has %d points, want %d (its ends and %d turns)", got, want, turns)
				}
			})
		}
	}
	t.Run("NoSolution", func(t *testing.T) {
		m := mustGenerate(t, mazecore.Sidewinder, 21, 1)
		var buf bytes.Buffer
		if err := SVG(&buf, m, SVGOptions{Title: `a <maze> & "more"`}); err != nil {
			t.Fatal(err)
		}
		doc := parseSVG(t, buf.Bytes())
		if _, ok := doc.ids["solution"]; ok {
			t.Fatal("a solution group without a path")
		}
		if !strings.Contains(buf.String(), "<title>a &lt;maze&gt; &amp; &#34;more&#34;</title>") {
			t.Fatalf("title not escaped:\n%.300s", buf.String())
		}
	})
	t.Run("HidePath", func(t *testing.T) {
		m := mustGenerate(t, mazecore.Sidewinder, 21, 1)
		path := mazecore.Solve(m)
		var shown, hidden bytes.Buffer
		if err := SVG(&shown, m, SVGOptions{Path: path}); err != nil {
			t.Fatal(err)
		}
		if err := SVG(&hidden, m, SVGOptions{Path: path, HidePath: true}); err != nil {
			t.Fatal(err)
		}
		if got, want := len(parseSVG(t, hidden.Bytes()).solution), 1; got != want {
			t.Fatalf("hidden: %d solution paths, want %d", got, want)
		}
		// The same file but for the group's display.
		if got, want := strings.Replace(hidden.String(), `<g id="solution" display="none"`, `<g id="solution"`, 1), shown.String(); got != want {
			t.Fatalf("hidden differs from shown by more than display=\"none\":\n%s", hidden.String())
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		m := mustGenerate(t, mazecore.BinaryTree, SVGMaxSize+2, 1)
		if err := SVG(io.Discard, m, SVGOptions{}); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("err=%v, want ErrTooLarge", err)
		}
	})
}

var pdfPage = regexp.MustCompile(`/Type /Page\b[^s]`)

func TestPDF(t *testing.T) {
	m := mustGenerate(t, mazecore.Backtracking, 41, 7)
	for _, paper := range []Paper{A4, Letter} {
		t.Run(paper.String(), func(t *testing.T) {
			var a, b bytes.Buffer
			if err := PDF(&a, m, PDFOptions{Paper: paper}); err != nil {
				t.Fatal(err)
			}
			if err := PDF(&b, m, PDFOptions{Paper: paper}); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(a.Bytes(), []byte("%PDF-")) || !bytes.Contains(a.Bytes(), []byte("%%EOF")) {
				t.Fatal("not a PDF")
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("the same maze made two different files")
			}
			if got := len(pdfPage.FindAll(a.Bytes(), -1)); got != 2 {
				t.Fatalf("%d pages, want 2", got)
			}
			// A4 is 595×842 points, Letter 612×792.
			box := map[Paper]string{A4: "/MediaBox [0 0 595.28 841.89]", Letter: "/MediaBox [0 0 612.00 792.00]"}[paper]
			if !bytes.Contains(a.Bytes(), []byte(box)) {
				t.Fatalf("no %s", box)
			}
			t.Logf("%d bytes", a.Len())
		})
	}
	for _, name := range []string{"a4", "Letter", ""} {
		if _, err := ParsePaper(name); err != nil {
			t.Fatalf("ParsePaper(%q): %v", name, err)
		}
	}
	if _, err := ParsePaper("a5"); !errors.Is(err, ErrUnknownName) {
		t.Fatalf("ParsePaper(a5): %v", err)
	}
	big := mustGenerate(t, mazecore.BinaryTree, PDFMaxSize+2, 1)
	if err := PDF(io.Discard, big, PDFOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err=%v, want ErrTooLarge", err)
	}
	if err := PDF(&failWriter{n: 100}, m, PDFOptions{}); !errors.Is(err, errWrite) {
		t.Fatalf("err=%v, want the writer's", err)
	}
}
