package cli

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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

// TestShapedJSON checks the graph of a polar maze's json: a spanning
// tree of its cells, the solution from the rim to the centre along
// passages.
func TestShapedJSON(t *testing.T) {
	stdout, _ := mustRun(t, "maze", "wilson", "10", "--grid", "polar", "--seed", "2", "--format", "json")
	var got struct {
		Grid  string `json:"grid"`
		Graph struct {
			Cells    []struct{ ID, Row, Col int } `json:"cells"`
			Links    [][2]int                     `json:"links"`
			Start    int                          `json:"start"`
			Goal     int                          `json:"goal"`
			Solution []int                        `json:"solution"`
		} `json:"graph"`
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
		{[]string{"dfs", "12", "--grid", "polar", "--format", "emoji"}, "emoji cannot draw a polar maze yet: use png, svg or json"},
		{[]string{"dfs", "41", "--shape", "ring", "--format", "pdf"}, "pdf cannot draw a maze in a shape yet: use png, svg, text or json"},
		{[]string{"dfs", "120", "--grid", "polar"}, "a polar maze takes 5 to 100 rings"},
		{[]string{"dfs", "12", "--grid", "polar", "--shape", "heart"}, "takes no --shape"},
		{[]string{"dfs", "12", "--grid", "triangle"}, "choose square, polar or hex"},
		{[]string{"dfs", "41", "--shape", "moon"}, "choose one of circle, ring, heart, star, diamond, triangle, hexagon"},
		{[]string{"dfs", "--text", "¿qué?"}, "the font has no"},
		{[]string{"dfs", "21", "--text", "HELLO"}, "needs a maze of at least 29×8 cells"},
		{[]string{"dfs", "11", "--shape", "heart"}, "a maze needs at least 50"},
		{[]string{"dfs", "4003", "--shape", "circle"}, "at most 4001×4001 tiles"},
		{[]string{"dfs", "41", "--shape", "heart", "--difficulty", "hard"}, "--difficulty rates mazes of the whole square grid only"},
		{[]string{"--id", "2840g1w4", "--grid", "hex"}, "use either --grid or --id"},
	} {
		args := append([]string{"maze", "--format", "text"}, tc.args...)
		if strings.Contains(strings.Join(tc.args, " "), "--format") {
			args = append([]string{"maze"}, tc.args...)
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
