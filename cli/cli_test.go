package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mazebot/mazecore"
	"mazebot/render"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// run runs the command line with args and returns its exit status, stdout
// and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func mustRun(t *testing.T, args ...string) (string, string) {
	t.Helper()
	code, stdout, stderr := run(t, args...)
	if got, want := code, 0; got != want {
		t.Fatalf("%q: exit %d, want %d; stderr:\n%s", args, got, want, stderr)
	}
	return stdout, stderr
}

var idLine = regexp.MustCompile(`(?m)^maze ID: ([0-9a-z]+) \((\S+) (\d+)×(\d+)(?:, loops (\d+))?, seed (\d+)\)$`)

func TestGolden(t *testing.T) {
	stdout, stderr := mustRun(t, "maze", "sidewinder", "21", "--seed", "7", "--format", "text")
	path := filepath.Join("testdata", "maze-sidewinder-21-seed7.golden")
	if *update {
		if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cli -update to create it)", err)
	}
	if got := stdout; got != string(want) {
		t.Fatalf("stdout differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
	id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 7}
	if got, want := stderr, fmt.Sprintf("maze ID: %s (sidewinder 21×21, seed 7)\n", id); got != want {
		t.Fatalf("stderr=%q, want %q", got, want)
	}
}

func TestFlagsAnywhere(t *testing.T) {
	want, _ := mustRun(t, "maze", "sidewinder", "21", "--seed", "7", "--format", "text")
	for _, args := range [][]string{
		{"maze", "--seed", "7", "sidewinder", "21"},
		{"maze", "--seed=7", "sw", "--format=text", "21"},
		{"maze", "-seed", "7", "Sidewinder", "20"}, // rounded up
		{"maze", "--seed", "7", "--format", "text", "--", "sidewinder", "21"},
		{"maze", "sidewinder", "21", "--seed", "7", "-o", "-"},
	} {
		if got, _ := mustRun(t, args...); got != want {
			t.Fatalf("%q printed a different maze:\n%s", args, got)
		}
	}
}

func TestSizeRounding(t *testing.T) {
	stdout, stderr := mustRun(t, "maze", "backtracking", "20", "--height", "10", "--seed", "3")
	if !strings.HasPrefix(stderr, "size 20 rounded up to 21\nheight 10 rounded up to 11\n") {
		t.Fatalf("stderr=%q, want the rounding notes first", stderr)
	}
	rows := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if got, want := len(rows), 11; got != want {
		t.Fatalf("rows=%d, want %d", got, want)
	}
	if got, want := len(rows[0]), 21; got != want {
		t.Fatalf("width=%d, want %d", got, want)
	}
}

func TestJSON(t *testing.T) {
	for _, a := range mazecore.Algorithms {
		t.Run(a.String(), func(t *testing.T) {
			stdout, stderr := mustRun(t, "maze", a.String(), "15", "--height", "9", "--seed", "42", "--format", "json")
			var got struct {
				ID        string    `json:"id"`
				Algorithm string    `json:"algorithm"`
				Width     int       `json:"width"`
				Height    int       `json:"height"`
				Seed      uint64    `json:"seed"`
				Loops     int       `json:"loops"`
				Measures  measures  `json:"measures"`
				Rows      []string  `json:"rows"`
				Solution  [][2]int  `json:"solution"`
				Graph     jsonGraph `json:"graph"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("decode: %v\n%s", err, stdout)
			}
			id, err := mazecore.Parse(got.ID)
			if err != nil {
				t.Fatal(err)
			}
			if want := (mazecore.ID{Algorithm: a, Width: 15, Height: 9, Seed: 42}); id != want {
				t.Fatalf("id=%+v, want %+v", id, want)
			}
			if got.Algorithm != a.String() || got.Width != 15 || got.Height != 9 || got.Seed != 42 || got.Loops != 0 {
				t.Fatalf("header=%+v", got)
			}
			if !strings.Contains(stderr, "maze ID: "+got.ID) {
				t.Fatalf("stderr=%q, want the ID", stderr)
			}
			m, err := mazecore.Generate(id)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(got.Rows), m.Height(); got != want {
				t.Fatalf("rows=%d, want %d", got, want)
			}
			for y, row := range got.Rows {
				if got, want := len(row), m.Width(); got != want {
					t.Fatalf("row %d is %d long, want %d", y, got, want)
				}
				for x := range row {
					if got, want := row[x] == '#', m.Wall(x, y); got != want {
						t.Fatalf("tile (%d,%d) wall=%v, want %v", x, y, got, want)
					}
				}
			}
			if want := newMeasures(mazecore.Measure(m)); got.Measures != want {
				t.Fatalf("measures=%+v, want %+v", got.Measures, want)
			}
			if r := got.Measures.Rating; r < 1 || r > 5 || got.Measures.Solution == 0 || got.Measures.Cells != 7*4 {
				t.Fatalf("measures=%+v: rating out of 1..5 or empty", got.Measures)
			}
			// The graph is the rows' cells and passages: a cell's tile is
			// (2·col+1, 2·row+1), a link's the floor between two.
			g := got.Graph
			if len(g.Cells) != 7*4 || len(g.Links) != len(g.Cells)-1 || g.Start != 0 || g.Goal != len(g.Cells)-1 {
				t.Fatalf("graph: %d cells, %d links, start %d, goal %d", len(g.Cells), len(g.Links), g.Start, g.Goal)
			}
			for i, c := range g.Cells {
				if c.ID != i || c.Row != i/7 || c.Col != i%7 {
					t.Fatalf("cell %d is %+v", i, c)
				}
			}
			for _, l := range g.Links {
				a, b := g.Cells[l[0]], g.Cells[l[1]]
				if got.Rows[a.Row+b.Row+1][a.Col+b.Col+1] != ' ' || (a.Row-b.Row)*(a.Row-b.Row)+(a.Col-b.Col)*(a.Col-b.Col) != 1 {
					t.Fatalf("link %v crosses no floor between neighbours", l)
				}
			}
			path := mazecore.Solve(m)
			var cells []int
			for _, p := range path {
				if p.X%2 == 1 && p.Y%2 == 1 {
					cells = append(cells, p.Y/2*7+p.X/2)
				}
			}
			if fmt.Sprint(cells) != fmt.Sprint(g.Solution) {
				t.Fatalf("graph solution %v, want %v", g.Solution, cells)
			}
			if got, want := len(got.Solution), len(path); got != want {
				t.Fatalf("solution has %d tiles, want %d", got, want)
			}
			for i, p := range path {
				if got, want := got.Solution[i], [2]int{p.X, p.Y}; got != want {
					t.Fatalf("solution[%d]=%v, want %v", i, got, want)
				}
			}
		})
	}
}

func TestBadArguments(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		msg  string // in the first line
	}{
		{"ErrNoCommand", []string{}, "missing command"},
		{"ErrUnknownCommand", []string{"mase"}, `unknown command "mase"`},
		{"ErrMissingArgs", []string{"maze"}, "missing ALGORITHM and SIZE"},
		{"ErrMissingSize", []string{"maze", "sidewinder"}, "missing SIZE"},
		{"ErrUnknownAlgorithm", []string{"maze", "kruskal", "21"}, `unknown algorithm "kruskal"`},
		{"ErrSizeNotANumber", []string{"maze", "sidewinder", "big"}, `size "big" is not a number`},
		{"ErrSizeTooSmall", []string{"maze", "sidewinder", "3"}, "size 3 is out of range: use an odd size from 5 to 20001"},
		{"ErrEvenSizeTooLarge", []string{"maze", "sidewinder", "20002"}, "size 20002 is out of range"},
		{"ErrSizeTooLarge", []string{"maze", "sidewinder", "20003"}, "size 20003 is out of range"},
		{"ErrNegativeSize", []string{"maze", "sidewinder", "-21"}, "size -21 is out of range: use an odd size from 5 to 20001"},
		{"ErrHeight", []string{"maze", "sidewinder", "21", "--height", "0"}, "height 0 is out of range"},
		{"ErrSeed", []string{"maze", "sidewinder", "21", "--seed", "-1"}, `seed "-1" is not a whole number`},
		{"ErrMalformedID", []string{"maze", "--id", "not-an-id"}, "malformed maze ID"},
		{"ErrChecksum", []string{"maze", "--id", "2840g1w4"}, "malformed maze ID"},
		{"ErrIDTooLarge", []string{"maze", "--id", mazecore.ID{Algorithm: mazecore.Digging, Width: 30001, Height: 5}.String()}, "at most 20001×20001"},
		{"ErrIDAndSeed", []string{"maze", "--id", "2840g1w3", "--seed", "7"}, "either --seed or --id"},
		{"ErrIDAndHeight", []string{"maze", "--id", "2840g1w3", "--height", "7"}, "either --height or --id"},
		{"ErrIDAndLoops", []string{"maze", "--id", "2840g1w3", "--loops", "7"}, "either --loops or --id"},
		{"ErrIDAndDifficulty", []string{"maze", "--id", "2840g1w3", "--difficulty", "hard"}, "either --difficulty or --id"},
		{"ErrLoopsTooMany", []string{"maze", "sw", "21", "--loops", "101"}, `loops "101" is not a whole number from 0 to 100`},
		{"ErrLoopsNegative", []string{"maze", "sw", "21", "--loops=-1"}, `loops "-1" is not a whole number from 0 to 100`},
		{"ErrLoopsNotANumber", []string{"maze", "sw", "21", "--loops", "some"}, `loops "some" is not a whole number`},
		{"ErrDifficulty", []string{"maze", "sw", "21", "--difficulty", "nightmare"}, `unknown difficulty "nightmare": choose one of easy, medium, hard, any`},
		{"ErrDifficultyTooLarge", []string{"maze", "sw", "1003", "--difficulty", "easy"}, "at most 1001×1001 tiles, not 1003×1003"},
		{"ErrDifficultyTooTall", []string{"maze", "sw", "21", "--height", "1003", "--difficulty", "hard"}, "at most 1001×1001 tiles, not 21×1003"},
		{"ErrIDOtherAlgorithm", []string{"maze", "digging", "--id", "2840g1w3"}, "is a sidewinder maze, not digging"},
		{"ErrIDOtherSize", []string{"maze", "sw", "31", "--id", "2840g1w3"}, "is 21 tiles wide, not 31"},
		{"ErrUnknownFormat", []string{"maze", "sidewinder", "21", "--format", "bmp"}, `unknown format "bmp"`},
		{"ErrUnknownFlag", []string{"maze", "sidewinder", "21", "--colour"}, "unknown flag --colour"},
		{"ErrFlagNeedsValue", []string{"maze", "sidewinder", "21", "--seed"}, "flag --seed needs a value"},
		{"ErrFlagTwice", []string{"maze", "sidewinder", "21", "--seed", "1", "--seed", "2"}, "flag --seed is given twice"},
		{"ErrSolveValue", []string{"maze", "sidewinder", "21", "--solve=maybe"}, "flag --solve takes no value"},
		{"ErrExtraArgument", []string{"maze", "sidewinder", "21", "31"}, `unexpected argument "31"`},
		{"ErrGIFTooLarge", []string{"maze", "sidewinder", "103", "--format", "gif"}, "gif animates mazes of at most 101×101"},
		{"ErrScaleFormat", []string{"maze", "sidewinder", "21", "--scale", "4"}, "--scale applies to png, gif and svg, not text"},
		{"ErrScale", []string{"maze", "sidewinder", "21", "--format", "png", "--scale", "0"}, `scale "0"`},
		{"ErrPNGTooLarge", []string{"maze", "sidewinder", "2001", "--format", "png", "--scale", "64"}, "too large"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.args...)
			if got, want := code, 2; got != want {
				t.Fatalf("exit %d, want %d; stderr:\n%s", got, want, stderr)
			}
			first := checkOneLine(t, stderr, hintFor(tt.args))
			if !strings.Contains(first, tt.msg) {
				t.Fatalf("stderr=%q, want \"mazebot: …%s…\"", first, tt.msg)
			}
			if stdout != "" {
				t.Fatalf("stdout=%q, want nothing", stdout)
			}
		})
	}
}

// hintFor is the hint line a usage error of args ends with.
func hintFor(args []string) string {
	if len(args) > 0 && args[0] == "maze" {
		return "(mazebot maze --help shows the usage)"
	}
	return "(mazebot help shows the usage)"
}

// checkOneLine checks that stderr is one line of error, "mazebot: …",
// and the hint, not the usage, and returns the error line.
func checkOneLine(t *testing.T, stderr, hint string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "mazebot: ") || lines[1] != hint || !strings.HasSuffix(stderr, "\n") {
		t.Fatalf("stderr=%q, want one line \"mazebot: …\" and %q", stderr, hint)
	}
	return lines[0]
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"maze", "-h"}, {"maze", "sidewinder", "21", "--help"}} {
		stdout, stderr := mustRun(t, args...)
		if !strings.HasPrefix(stdout, "usage: mazebot maze") || stderr != "" {
			t.Fatalf("%q: stdout=%q stderr=%q", args, stdout, stderr)
		}
	}
	// The algorithm list comes from mazecore's table.
	if want := "ALGORITHM  " + orList(mazecore.AlgorithmNames()) + "\n"; !strings.Contains(usage(), want) {
		t.Fatalf("usage lacks %q:\n%s", want, usage())
	}
	for _, a := range mazecore.Algorithms {
		if !strings.Contains(usage(), a.String()) || !strings.Contains(usage(), a.Aliases()[0]+",") {
			t.Fatalf("usage lacks %v or its alias %q", a, a.Aliases()[0])
		}
	}
}

func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		file string
	}{
		{"PNG", []string{"--format", "png", "--solve"}, "maze.png"},
		{"PNGFromExtension", nil, "auto.png"},
		{"GIF", []string{"--scale", "3"}, "maze.gif"},
		{"Text", nil, "maze.txt"},
		{"JSON", []string{"--format", "json"}, "maze.out"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, tt.file)
			args := append([]string{"maze", "backtracking", "31", "--seed", "5", "-o", file}, tt.args...)
			stdout, stderr := mustRun(t, args...)
			if stderr != "" {
				t.Fatalf("stderr=%q, want nothing", stderr)
			}
			if !idLine.MatchString(stdout) || !strings.Contains(stdout, "wrote "+file) {
				t.Fatalf("stdout=%q, want the maze ID and the file", stdout)
			}
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			fi, _ := f.Stat()
			if got, want := fi.Mode().Perm(), os.FileMode(0o644); got != want {
				t.Fatalf("mode=%v, want %v", got, want)
			}
			m, err := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Backtracking, Width: 31, Height: 31, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			switch filepath.Ext(file) {
			case ".png":
				img, err := png.Decode(f)
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				w, h := render.PNGSize(m, 0)
				if got, want := img.Bounds().Dx()*img.Bounds().Dy(), w*h; got != want {
					t.Fatalf("png is %v, want %d×%d", img.Bounds(), w, h)
				}
			case ".gif":
				var want bytes.Buffer
				if err := render.GIF(&want, m.ID(), render.GIFOptions{Scale: 3}); err != nil {
					t.Fatal(err)
				}
				if got, _ := os.ReadFile(file); !bytes.Equal(got, want.Bytes()) {
					t.Fatalf("gif is %d bytes, want render.GIF's %d at scale 3", len(got), want.Len())
				}
			case ".txt":
				var buf bytes.Buffer
				if err := render.Text(&buf, m, render.Overlay{}); err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(file)
				if got, want := string(b), buf.String(); got != want {
					t.Fatalf("file=\n%s\nwant\n%s", got, want)
				}
			}
		})
	}
	// Nothing but the finished files: no temporary files left behind.
	entries, _ := os.ReadDir(dir)
	if got, want := len(entries), 5; got != want {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("%d files in the directory, want %d: %v", got, want, names)
	}
}

func TestOutputFileErrors(t *testing.T) {
	dir := t.TempDir()
	t.Run("ErrTooLargeLeavesNothing", func(t *testing.T) {
		file := filepath.Join(dir, "big.png")
		if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, _ := run(t, "maze", "sw", "2001", "--scale", "64", "-o", file)
		if got, want := code, 2; got != want {
			t.Fatalf("exit %d, want %d", got, want)
		}
		if b, _ := os.ReadFile(file); string(b) != "old" {
			t.Fatalf("the old file was replaced by %d bytes", len(b))
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("%d files left, want 1 (no temporary file)", len(entries))
		}
	})
	t.Run("ErrInterrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		file := filepath.Join(dir, "cancelled.txt")
		var stdout, stderr bytes.Buffer
		if got, want := Run(ctx, []string{"maze", "sw", "21", "-o", file}, &stdout, &stderr), 130; got != want {
			t.Fatalf("exit %d, want %d", got, want)
		}
		if _, err := os.Stat(file); !os.IsNotExist(err) {
			t.Fatalf("stat %s: %v, want no file", file, err)
		}
	})
}

// failWriter is a stdout that cannot be written, like a closed pipe.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("broken pipe") }

func TestStdoutError(t *testing.T) {
	var stderr bytes.Buffer
	if got, want := Run(context.Background(), []string{"maze", "sw", "21"}, failWriter{}, &stderr), 1; got != want {
		t.Fatalf("exit %d, want %d", got, want)
	}
	if got, want := stderr.String(), "mazebot: write stdout: broken pipe\n"; got != want {
		t.Fatalf("stderr=%q, want %q", got, want)
	}
}

func TestIDReproduces(t *testing.T) {
	for _, a := range mazecore.AlgorithmNames() {
		t.Run(a, func(t *testing.T) {
			// No seed: a random one, printed in the ID.
			first, stderr := mustRun(t, "maze", a, "25", "--height", "15", "--solve")
			match := idLine.FindStringSubmatch(stderr)
			if match == nil {
				t.Fatalf("no maze ID in stderr %q", stderr)
			}
			again, stderr2 := mustRun(t, "maze", "--id", match[1], "--solve")
			if again != first {
				t.Fatalf("--id %s made another maze:\n%s\nwant\n%s", match[1], again, first)
			}
			if stderr2 != stderr {
				t.Fatalf("stderr=%q, want %q", stderr2, stderr)
			}
			// The same with ALGORITHM and SIZE repeated, and with the seed.
			if again, _ := mustRun(t, "maze", a, "25", "--id", strings.ToUpper(match[1]), "--solve"); again != first {
				t.Fatal("--id with ALGORITHM and SIZE made another maze")
			}
			if again, _ := mustRun(t, "maze", a, "25", "--height", "15", "--seed", match[6], "--solve"); again != first {
				t.Fatal("--seed made another maze")
			}
		})
	}
}

func TestFormats(t *testing.T) {
	t.Run("Emoji", func(t *testing.T) {
		stdout, _ := mustRun(t, "maze", "sw", "21", "--seed", "7", "--format", "emoji", "--solve")
		rows := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if got, want := len(rows), 21; got != want {
			t.Fatalf("rows=%d, want %d", got, want)
		}
		if !strings.Contains(stdout, render.DefaultTheme.Path) {
			t.Fatal("--solve did not draw the path")
		}
	})
	t.Run("Terminal", func(t *testing.T) {
		stdout, _ := mustRun(t, "maze", "sw", "21", "--seed", "7", "--format", "terminal")
		if got, want := strings.Count(stdout, "\x1b[0m\n"), 21; got != want {
			t.Fatalf("%d reset line ends, want %d", got, want)
		}
	})
	t.Run("PNGToStdout", func(t *testing.T) {
		stdout, _ := mustRun(t, "maze", "sw", "21", "--seed", "7", "--format", "png")
		if _, err := png.Decode(strings.NewReader(stdout)); err != nil {
			t.Fatalf("decode: %v", err)
		}
	})
	t.Run("TextSolve", func(t *testing.T) {
		stdout, _ := mustRun(t, "maze", "sw", "21", "--seed", "7", "--solve")
		if !strings.Contains(stdout, ".") || !strings.Contains(stdout, "S") || !strings.Contains(stdout, "G") {
			t.Fatalf("no solution in\n%s", stdout)
		}
	})
}

// deadEnds counts the cells of a text maze with one open side.
func deadEnds(text string) int {
	rows := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	n := 0
	for y := 1; y < len(rows); y += 2 {
		for x := 1; x < len(rows[y]); x += 2 {
			open := 0
			for _, p := range [][2]int{{x, y - 1}, {x + 1, y}, {x, y + 1}, {x - 1, y}} {
				if rows[p[1]][p[0]] != '#' {
					open++
				}
			}
			if open == 1 {
				n++
			}
		}
	}
	return n
}

func TestLoops(t *testing.T) {
	perfect, _ := mustRun(t, "maze", "sw", "21", "--seed", "7")
	if again, stderr := mustRun(t, "maze", "sw", "21", "--seed", "7", "--loops", "0"); again != perfect || strings.Contains(stderr, "loops") {
		t.Fatalf("--loops 0 made another maze or told of loops (stderr %q)", stderr)
	}
	before := deadEnds(perfect)
	for _, loops := range []int{30, 100} {
		stdout, stderr := mustRun(t, "maze", "sw", "21", "--seed", "7", "--loops", fmt.Sprint(loops))
		match := idLine.FindStringSubmatch(stderr)
		if match == nil || match[5] != fmt.Sprint(loops) || match[6] != "7" {
			t.Fatalf("stderr=%q, want the maze ID with loops %d and seed 7", stderr, loops)
		}
		id, err := mazecore.Parse(match[1])
		if err != nil || id.Loops != loops {
			t.Fatalf("Parse(%q)=%+v,%v, want loops %d", match[1], id, err, loops)
		}
		if got, want := before-deadEnds(stdout), (before*loops+50)/100; got != want {
			t.Fatalf("--loops %d removed %d of %d dead ends, want %d", loops, got, before, want)
		}
		// The maze ID alone makes it again.
		if again, _ := mustRun(t, "maze", "--id", match[1]); again != stdout {
			t.Fatalf("--id %s made another maze", match[1])
		}
		gif, _ := mustRun(t, "maze", "--id", match[1], "--format", "gif")
		if len(gif) == 0 {
			t.Fatal("no gif for a maze with loops")
		}
	}
}

func TestDifficulty(t *testing.T) {
	base := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 31, Height: 31, Seed: 5, Loops: 20}
	scores := map[string]float64{}
	for _, level := range []string{"easy", "medium", "hard"} {
		stdout, stderr := mustRun(t, "maze", "backtracking", "31", "--seed", "5", "--loops", "20", "--difficulty", level, "--format", "json")
		l, _ := mazecore.ParseLevel(level)
		want, err := mazecore.Choose(base, l)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			ID       string   `json:"id"`
			Seed     uint64   `json:"seed"`
			Measures measures `json:"measures"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		if got.ID != want.String() || got.Seed != want.Seed || !strings.Contains(stderr, "maze ID: "+want.String()) {
			t.Fatalf("--difficulty %s: id %s seed %d (stderr %q), want %s seed %d", level, got.ID, got.Seed, stderr, want, want.Seed)
		}
		scores[level] = got.Measures.Score
		// The ID makes the chosen maze again, without --difficulty.
		text, _ := mustRun(t, "maze", "--id", got.ID)
		if again, _ := mustRun(t, "maze", "backtracking", "31", "--seed", fmt.Sprint(got.Seed), "--loops", "20"); again != text {
			t.Fatalf("--difficulty %s: the chosen seed makes another maze than the ID", level)
		}
	}
	if !(scores["easy"] <= scores["medium"] && scores["medium"] <= scores["hard"]) {
		t.Fatalf("scores %v, want easy ≤ medium ≤ hard", scores)
	}
	chosen, _ := mustRun(t, "maze", "sw", "21", "--seed", "7", "--difficulty", "any")
	if plain, _ := mustRun(t, "maze", "sw", "21", "--seed", "7"); chosen != plain {
		t.Fatal("--difficulty any made another maze than no --difficulty")
	}
}

// TestDifficultyOnShapes: --difficulty chooses on any grid as it does on
// the square one, by mazecore.ChooseGrid, and says the chosen ID.
func TestDifficultyOnShapes(t *testing.T) {
	heart, _ := mazecore.ParseShape("heart")
	for _, tc := range []struct {
		args []string
		base mazecore.ID
	}{
		{[]string{"backtracking", "12", "--grid", "polar", "--seed", "8"}, mazecore.ID{Algorithm: mazecore.Backtracking, GridKind: mazecore.Polar, Width: 12, Height: 12, Seed: 8}},
		{[]string{"wilson", "41", "--shape", "heart", "--seed", "9"}, mazecore.ID{Algorithm: mazecore.Wilson, Width: 41, Height: 41, Seed: 9, Shape: heart}},
	} {
		want, err := mazecore.ChooseGrid(tc.base, mazecore.Hard, nil)
		if err != nil || want == tc.base {
			t.Fatalf("ChooseGrid(%v): %v, %v: want another seed", tc.base, want, err)
		}
		// With -o, the file is the output and what it is goes to stdout.
		stdout, _ := mustRun(t, append(append([]string{"maze"}, tc.args...), "--difficulty", "hard", "-o", filepath.Join(t.TempDir(), "maze.png"))...)
		if !strings.Contains(stdout, "maze ID: "+want.String()) {
			t.Fatalf("%v --difficulty hard: stdout %q, want the chosen ID %s", tc.args, stdout, want)
		}
	}
}
