package cli

import (
	"bytes"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mazebot/render"
)

var shapedIDLine = regexp.MustCompile(`(?m)^maze ID: ([0-9a-z]+) \(`)

// TestShapedMazes makes a maze of each grid and a shape in each format
// that draws it, and again from its ID, byte for byte.
func TestShapedMazes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args   []string
		format string
	}{
		{[]string{"backtracking", "12", "--grid", "polar"}, "png"},
		{[]string{"sidewinder", "8", "--grid", "circular"}, "svg"},
		{[]string{"wilson", "15", "--grid", "hex", "--height", "9"}, "png"},
		{[]string{"dig", "41", "--shape", "heart", "--loops", "30"}, "text"},
		{[]string{"wilson", "--text", "Hi 40"}, "svg"},
		{[]string{"dfs", "31", "--grid", "hex", "--shape", "star"}, "json"},
	} {
		out := filepath.Join(dir, "maze."+map[string]string{"text": "txt"}[tc.format])
		if tc.format != "text" {
			out = filepath.Join(dir, "maze."+tc.format)
		}
		args := append([]string{"maze", "--seed", "5", "--solve", "--format", tc.format, "-o", out}, tc.args...)
		stdout, _ := mustRun(t, args...)
		first, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if tc.format == "png" {
			if _, err := png.Decode(bytes.NewReader(first)); err != nil {
				t.Fatalf("%q: %v", args, err)
			}
		}
		match := shapedIDLine.FindStringSubmatch(stdout)
		if match == nil {
			t.Fatalf("%q: no maze ID in %q", args, stdout)
		}
		mustRun(t, "maze", "--id", match[1], "--solve", "--format", tc.format, "-o", out)
		again, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("%q: the maze made from its ID %s differs", args, match[1])
		}
	}
}

// jsonGraph is the "graph" of a maze's json, on any grid.
type jsonGraph struct {
	Cells    []struct{ ID, Row, Col int } `json:"cells"`
	Links    [][2]int                     `json:"links"`
	Start    int                          `json:"start"`
	Goal     int                          `json:"goal"`
	Solution []int                        `json:"solution"`
}

// TestShapedJSON checks the graph of a polar maze's json: a spanning
// tree of its cells, the solution from the rim to the centre along
// passages.
func TestShapedJSON(t *testing.T) {
	stdout, _ := mustRun(t, "maze", "wilson", "10", "--grid", "polar", "--seed", "2", "--format", "json")
	var got struct {
		Grid  string    `json:"grid"`
		Graph jsonGraph `json:"graph"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	g := got.Graph
	if got.Grid != "polar" || len(g.Links) != len(g.Cells)-1 || g.Goal != 0 || g.Cells[g.Start].Row != 9 {
		t.Fatalf("grid %q, %d cells, %d links, start %+v, goal %d", got.Grid, len(g.Cells), len(g.Links), g.Cells[g.Start], g.Goal)
	}
	linked := map[[2]int]bool{}
	for _, l := range g.Links {
		linked[l], linked[[2]int{l[1], l[0]}] = true, true
	}
	if g.Solution[0] != g.Start || g.Solution[len(g.Solution)-1] != g.Goal {
		t.Fatalf("solution from %d to %d", g.Solution[0], g.Solution[len(g.Solution)-1])
	}
	for i := 1; i < len(g.Solution); i++ {
		if !linked[[2]int{g.Solution[i-1], g.Solution[i]}] {
			t.Fatalf("the solution crosses a wall between %d and %d", g.Solution[i-1], g.Solution[i])
		}
	}
}

// TestShapedRefusals: what cannot be made or drawn is refused with the
// reason, before anything is written.
func TestShapedRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bt", "9", "--grid", "hex"}, "use backtracking, digging, wilson"},
		{[]string{"sw", "41", "--shape", "star"}, "use backtracking, digging, wilson"},
		{[]string{"dfs", "12", "--grid", "polar", "--format", "emoji"}, "emoji draws tiles, and a polar maze has none: use png, gif, svg, pdf or json"},
		{[]string{"dfs", "15", "--grid", "hex", "--format", "terminal"}, "terminal draws tiles, and a hex maze has none: use png, gif, svg, pdf or json"},
		{[]string{"dfs", "15", "--grid", "hex", "-o", "maze.txt"}, "text draws tiles, and a hex maze has none"},
		{[]string{"dfs", "15", "--grid", "hex", "--no-format"}, "a hex maze has no tiles to show as text: write a picture with -o maze.png"},
		{[]string{"dfs", "51", "--grid", "polar", "--format", "gif"}, "gif animates polar mazes of at most 50 rings, not 51"},
		{[]string{"dfs", "201", "--grid", "hex", "--format", "gif"}, "gif animates mazes of at most 100 cells a side, not 202: too large to render; use png"},
		{[]string{"dfs", "403", "--shape", "circle", "--format", "pdf"}, "pdf prints mazes of at most 200 cells a side, not 201"},
		{[]string{"dfs", "120", "--grid", "polar"}, "a polar maze takes 5 to 100 rings"},
		{[]string{"dfs", "12", "--grid", "polar", "--shape", "heart"}, "takes no --shape"},
		{[]string{"dfs", "12", "--grid", "triangle"}, "choose square, polar or hex"},
		{[]string{"dfs", "41", "--shape", "moon"}, "choose one of circle, ring, heart, star, diamond, triangle, hexagon"},
		{[]string{"dfs", "--text", "¿qué?"}, "the font has no"},
		{[]string{"dfs", "21", "--text", "HELLO"}, "needs a maze of at least 29×8 cells"},
		{[]string{"dfs", "11", "--shape", "heart"}, "a maze needs at least 50"},
		{[]string{"dfs", "4003", "--shape", "circle"}, "at most 4001×4001 tiles"},
		{[]string{"dfs", "41", "--shape", "heart", "--difficulty", "brutal"}, "choose one of easy, medium, hard, any"},
		{[]string{"dfs", "1001", "--grid", "hex", "--difficulty", "hard"}, "--difficulty rates 32 candidate mazes, so it takes mazes of at most 250000 cells, not 1002001"},
		{[]string{"--id", "2840g1w4", "--grid", "hex"}, "use either --grid or --id"},
	} {
		args := append([]string{"maze", "--format", "text"}, tc.args...)
		if joined := strings.Join(tc.args, " "); strings.Contains(joined, "--format") || strings.Contains(joined, "-o ") {
			args = append([]string{"maze"}, tc.args...)
		}
		if n := len(tc.args); tc.args[n-1] == "--no-format" { // stdout, the default format
			args = append([]string{"maze"}, tc.args[:n-1]...)
		}
		code, stdout, stderr := run(t, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Fatalf("%q: exit %d, stdout %q, stderr %q: want a refusal saying %q", args, code, stdout, stderr, tc.want)
		}
	}
}

// docsShapes are the pictures of docs/mazes.md: each grid and shape,
// drawn from these arguments with --seed 2026 --scale 12.
var docsShapes = []struct{ name, args string }{
	{"polar", "backtracking 16 --grid polar"},
	{"hex", "wilson 21 --grid hex --height 15"},
	{"circle", "backtracking 41 --shape circle"},
	{"ring", "backtracking 41 --shape ring"},
	{"heart", "backtracking 41 --shape heart"},
	{"star", "digging 51 --shape star"},
	{"diamond", "wilson 41 --shape diamond"},
	{"triangle", "backtracking 41 --shape triangle"},
	{"text", "backtracking --text MAZEBOT"},
	{"hexheart", "backtracking 25 --grid hex --shape heart"},
	{"hexagon", "wilson 27 --grid hex --shape hexagon"},
}

// TestDocsShapePictures keeps docs/shapes/*.png what the command line
// draws now, pixel for pixel; go test ./cli -run TestDocsShapePictures
// -update draws them again.
func TestDocsShapePictures(t *testing.T) {
	for _, d := range docsShapes {
		path := filepath.Join("..", "docs", "shapes", d.name+".png")
		out := path
		if !*update {
			out = filepath.Join(t.TempDir(), d.name+".png")
		}
		mustRun(t, append([]string{"maze", "--seed", "2026", "--scale", "12", "-o", out}, strings.Fields(d.args)...)...)
		if *update {
			continue
		}
		got, want := decodePNGFile(t, out), decodePNGFile(t, path)
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%s: %v, the docs' %v (go test ./cli -run TestDocsShapePictures -update)", d.name, got.Bounds(), want.Bounds())
		}
		for y := got.Bounds().Min.Y; y < got.Bounds().Max.Y; y++ {
			for x := got.Bounds().Min.X; x < got.Bounds().Max.X; x++ {
				if got.At(x, y) != want.At(x, y) {
					t.Fatalf("%s: pixel (%d, %d) differs from the docs' (go test ./cli -run TestDocsShapePictures -update)", d.name, x, y)
				}
			}
		}
	}
}

func decodePNGFile(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// writeMaskPNG writes a w × h PNG, dark where dark says.
func writeMaskPNG(t *testing.T, path string, w, h int, dark func(x, y int) bool) {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			if !dark(x, y) {
				img.Pix[y*img.Stride+x] = 0xff
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMaskImage: --mask makes a maze in an image's dark pixels; its ID
// with the same image makes it again, byte for byte; without the image,
// or with another, and images too large, not images, or in pieces are
// refused with the reason.
func TestMaskImage(t *testing.T) {
	dir := t.TempDir()
	disc := filepath.Join(dir, "disc.png")
	writeMaskPNG(t, disc, 90, 60, func(x, y int) bool { return (x-45)*(x-45)+(y-30)*(y-30)*9/4 < 40*40 })
	out := filepath.Join(dir, "maze.txt")
	stdout, _ := mustRun(t, "maze", "wilson", "--mask", disc, "--seed", "3", "-o", out)
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(first), "~#") || !strings.Contains(string(first), "S") {
		t.Fatalf("the maze is not cut to the disc:\n%s", first)
	}
	id := shapedIDLine.FindStringSubmatch(stdout)[1]
	mustRun(t, "maze", "--id", id, "--mask", disc, "-o", out)
	if again, _ := os.ReadFile(out); !bytes.Equal(again, first) {
		t.Fatalf("the maze of ID %s with its image differs", id)
	}

	other := filepath.Join(dir, "other.png")
	writeMaskPNG(t, other, 90, 60, func(x, y int) bool { return x > 3 })
	big := filepath.Join(dir, "big.png")
	if err := os.WriteFile(big, bytes.Repeat([]byte{0x89}, 1<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	// A PNG header claiming 20,000×20,000 pixels, and nothing after it.
	ihdr := append([]byte("IHDR"), 0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20, 8, 0, 0, 0, 0)
	header := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"), ihdr...)
	sum := crc32.ChecksumIEEE(ihdr)
	header = append(header, byte(sum>>24), byte(sum>>16), byte(sum>>8), byte(sum))
	huge := filepath.Join(dir, "huge.png")
	if err := os.WriteFile(huge, header, 0o644); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "photo.jpg")
	if err := os.WriteFile(fake, []byte("not a jpeg at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	pieces := filepath.Join(dir, "pieces.png")
	writeMaskPNG(t, pieces, 90, 60, func(x, y int) bool { return x < 30 || x > 60 })
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--id", id}, "give --mask FILE too"},
		{[]string{"--id", id, "--mask", other}, "is not the image maze ID"},
		{[]string{"dfs", "--mask", big}, "larger than 1 MiB"},
		{[]string{"dfs", "--mask", huge}, "is 20000×20000 pixels; the most is 2000×2000"},
		{[]string{"dfs", "--mask", fake}, "is not a PNG or JPEG image"},
		{[]string{"dfs", "--mask", pieces}, "2 separate pieces"},
		{[]string{"dfs", "--mask", disc, "--shape", "heart"}, "use one of --shape, --text and --mask"},
	} {
		args := append([]string{"maze", "--format", "text"}, tc.args...)
		code, stdout, stderr := run(t, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Fatalf("%q: exit %d, stdout %q, stderr %q: want a refusal saying %q", args, code, stdout, stderr, tc.want)
		}
	}
}

// TestShapedEveryFormat draws a maze of each grid and shape kind (polar,
// hex, a preset, a text, an image's mask on both the square and the hex
// grid) in every format: those that draw the grid make what their format
// promises (a PNG or a GIF that decodes, two PDF pages, the tiles with
// the outside shown as outside, a json graph of a spanning tree), the
// others are refused with the formats that would.
func TestShapedEveryFormat(t *testing.T) {
	t.Parallel()
	disc := filepath.Join(t.TempDir(), "disc.png")
	writeMaskPNG(t, disc, 60, 60, func(x, y int) bool { return (x-30)*(x-30)+(y-30)*(y-30) < 28*28 })
	pdfPages := regexp.MustCompile(`/Type /Page\b[^s]`)
	for _, grid := range []struct {
		name   string
		args   []string
		square bool
	}{
		{"polar", []string{"wilson", "8", "--grid", "polar"}, false},
		{"hex", []string{"backtracking", "11", "--grid", "hex", "--height", "9"}, false},
		{"heart", []string{"digging", "31", "--shape", "heart"}, true},
		{"text", []string{"wilson", "--text", "OK"}, true},
		{"mask", []string{"backtracking", "41", "--mask", disc}, true},
		{"hexmask", []string{"wilson", "21", "--grid", "hex", "--mask", disc}, false},
	} {
		for _, format := range formats {
			t.Run(grid.name+"/"+format, func(t *testing.T) {
				args := append([]string{"maze", "--seed", "4", "--solve", "--format", format}, grid.args...)
				row, _ := render.FormatByName(format) // json has none, and draws every grid
				if row.Name != "" && (row.WriteGrid == nil || row.Tiles && !grid.square) {
					code, _, stderr := run(t, args...)
					why := format + " draws tiles"
					if row.WriteGrid == nil {
						why = format + " draws whole square mazes only"
					}
					if code != exitUsage || !strings.Contains(stderr, why) || !strings.Contains(stderr, "pdf or json") {
						t.Fatalf("exit %d, %q: want a refusal naming the formats that draw it", code, stderr)
					}
					return
				}
				out, _ := mustRun(t, args...)
				switch format {
				case formatText:
					if !strings.Contains(out, "~#") || !strings.Contains(out, "S") || !strings.Contains(out, ".") {
						t.Fatalf("no outside, start or path in the text:\n%s", out)
					}
				case formatTerminal:
					if !strings.Contains(out, "\x1b[0m  ") || !strings.Contains(out, "\x1b[48;5;236m") {
						t.Fatal("no outside (reset) or walls in the terminal's picture")
					}
				case formatEmoji:
					if !strings.Contains(out, "⬛🟫") || !strings.Contains(out, "🟢") || !strings.Contains(out, "🟨") {
						t.Fatalf("no outside, start or path in the emoji:\n%s", out)
					}
				case formatPNG:
					if _, err := png.Decode(strings.NewReader(out)); err != nil {
						t.Fatal(err)
					}
				case formatGIF:
					g, err := gif.DecodeAll(strings.NewReader(out))
					if err != nil || len(g.Image) < 4 {
						t.Fatalf("%v, want a GIF of 4 frames or more", err)
					}
				case formatSVG:
					if !strings.HasPrefix(out, "<svg") || !strings.Contains(out, `id="walls"`) {
						t.Fatal("not an SVG of the walls")
					}
				case formatPDF:
					if !strings.HasPrefix(out, "%PDF-") || len(pdfPages.FindAllString(out, -1)) != 2 {
						t.Fatal("not a PDF of two pages")
					}
				case formatJSON:
					var got struct {
						Graph struct {
							Cells []struct{ ID int } `json:"cells"`
							Links [][2]int           `json:"links"`
						} `json:"graph"`
						Rows []string `json:"rows"`
					}
					if err := json.Unmarshal([]byte(out), &got); err != nil {
						t.Fatal(err)
					}
					if n := len(got.Graph.Cells); n < 50 || len(got.Graph.Links) != n-1 || (len(got.Rows) > 0) != grid.square {
						t.Fatalf("%d cells, %d links, %d rows", n, len(got.Graph.Links), len(got.Rows))
					}
				default:
					t.Fatalf("format %s is not checked here", format)
				}
			})
		}
	}
}

// TestJSONGoldens pins the json of a maze on each grid: the whole square
// grid (today's fields, then its graph), a polar, a hex and a heart (the
// graph, and for the heart its rows with '~' outside). go test ./cli
// -run TestJSONGoldens -update writes them again.
func TestJSONGoldens(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"square", "sidewinder 9 --height 7 --loops 50"},
		{"polar", "wilson 5 --grid polar"},
		{"hex", "backtracking 5 --grid hex --height 4"},
		{"heart", "digging 25 --shape heart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _ := mustRun(t, append([]string{"maze", "--seed", "11", "--format", "json"}, strings.Fields(tc.args)...)...)
			golden := filepath.Join("testdata", "json-"+tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./cli -run TestJSONGoldens -update writes it)", err)
			}
			if stdout != string(want) {
				t.Fatalf("the json differs from %s:\n%s", golden, stdout)
			}
		})
	}
}
