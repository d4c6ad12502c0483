package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"mazebot/internal/testkit"
	"mazebot/mazecore"
	"mazebot/play"
)

// The format follows -o's extension; an extension that says none, and a
// --format the extension contradicts, are refused in one line.
func TestFormatFromFile(t *testing.T) {
	const hint = "(mazebot maze --help shows the usage)"
	for _, tt := range []struct {
		name string
		args []string
		msg  string // the whole first line of stderr
	}{
		{"ErrUnknownExtension", []string{"-o", "maze.jpg"},
			"mazebot: -o maze.jpg: mazebot does not write .jpg files: name the file .txt, .png, .gif, .svg, .pdf or .json, or give --format"},
		{"ErrFormatAsExtension", []string{"-o", "x.emoji"},
			"mazebot: -o x.emoji: emoji is written to a .txt file: name it x.txt and give --format emoji"},
		{"ErrNoExtension", []string{"-o", "maze"},
			"mazebot: -o maze has no extension to say the format: end the name in .txt, .png, .gif, .svg, .pdf or .json, or give --format"},
		{"ErrMismatch", []string{"--format", "gif", "-o", "x.png"},
			"mazebot: --format gif does not match -o x.png: name the file x.gif, or leave --format out"},
		{"ErrMismatchText", []string{"--format", "emoji", "-o", "out/x.json"},
			"mazebot: --format emoji does not match -o x.json: name the file x.txt, or leave --format out"},
		{"ErrMismatchCase", []string{"--format", "png", "-o", "X.SVG"},
			"mazebot: --format png does not match -o X.SVG: name the file X.png, or leave --format out"},
		{"ErrThemeForText", []string{"--theme", "dark"},
			"mazebot: --theme applies to png, svg, pdf and emoji, not text"},
		{"ErrEmojiThemeForPNG", []string{"--theme", "cave", "-o", "x.png"},
			"mazebot: --theme cave is an emoji theme; png takes dark, light or print"},
		{"ErrPictureThemeForEmoji", []string{"--theme", "print", "--format", "emoji"},
			"mazebot: --theme print is a picture's theme; emoji takes brick or cave"},
		{"ErrTheme", []string{"--theme", "sepia", "-o", "x.svg"},
			`mazebot: theme "sepia": unknown name: choose one of dark, light, print`},
		{"ErrStyle", []string{"--style", "wavy", "-o", "x.svg"},
			`mazebot: style "wavy": unknown name: choose one of block, line`},
		{"ErrStyleForGIF", []string{"--style", "line", "-o", "x.gif"},
			"mazebot: --style applies to png, svg and pdf, not gif"},
		{"ErrPaper", []string{"--paper", "a3", "-o", "x.pdf"},
			`mazebot: paper "a3": unknown name: choose one of a4, letter`},
		{"ErrPaperForSVG", []string{"--paper", "letter", "-o", "x.svg"},
			"mazebot: --paper applies to pdf, not svg"},
		{"ErrScaleForPDF", []string{"--scale", "4", "-o", "x.pdf"},
			"mazebot: --scale applies to png, gif and svg, not pdf"},
		{"ErrSVGTooLarge", []string{"--height", "2003", "--format", "svg"},
			"mazebot: svg draws mazes of at most 2001×2001 tiles, not 21×2003: use png for bigger ones"},
		{"ErrPDFTooLarge", []string{"--height", "403", "-o", "x.pdf"},
			"mazebot: pdf prints mazes of at most 401×401 tiles, not 21×403: use svg or png for bigger ones"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir) // relative -o names land here, if anything is written
			code, stdout, stderr := run(t, append([]string{"maze", "sidewinder", "21"}, tt.args...)...)
			if got, want := code, exitUsage; got != want {
				t.Fatalf("exit %d, want %d; stderr=%q", got, want, stderr)
			}
			if got, want := checkOneLine(t, stderr, hint), tt.msg; got != want {
				t.Fatalf("stderr=%q,\nwant     %q", got, want)
			}
			if stdout != "" {
				t.Fatalf("stdout=%q, want nothing", stdout)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Fatalf("%d files written, want none", len(entries))
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		dir := t.TempDir()
		for _, tt := range []struct {
			file  string
			args  []string
			magic string // how the file starts
		}{
			{"a.txt", nil, "#####"},
			{"b.txt", []string{"--format", "emoji"}, "🟫"},
			{"c.txt", []string{"--format", "terminal"}, "\x1b["},
			{"d.PNG", nil, "\x89PNG"},
			{"e.gif", nil, "GIF89a"},
			{"f.svg", nil, "<svg "},
			{"g.pdf", nil, "%PDF-"},
			{"h.json", nil, "{\n"},
			{"i.out", []string{"--format", "svg"}, "<svg "}, // an extension of one's own, with --format
		} {
			file := filepath.Join(dir, tt.file)
			args := append([]string{"maze", "sidewinder", "21", "--seed", "7", "-o", file}, tt.args...)
			if _, stderr := mustRun(t, args...); stderr != "" {
				t.Fatalf("%q: stderr=%q", args, stderr)
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte(tt.magic)) {
				t.Fatalf("%q wrote %q…, want %q…", args, b[:min(len(b), 8)], tt.magic)
			}
		}
	})
}

// An -o that cannot be written is reported in the user's path, with what
// to do, before the maze is made; no temporary file name reaches the
// message and none is left behind.
func TestOutputDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope")
	for _, tt := range []struct {
		name, out, msg string
	}{
		{"ErrNoDirectory", filepath.Join(missing, "x.png"),
			fmt.Sprintf("cannot write %s/x.png: there is no directory %s: create it (mkdir -p %s) or choose another -o", missing, missing, missing)},
		{"ErrNotADirectory", filepath.Join(file, "x.png"),
			fmt.Sprintf("cannot write %s/x.png: %s is not a directory: choose another -o", file, file)},
		{"ErrIsADirectory", readOnly + ".txt", ""}, // made a directory below
		{"ErrReadOnly", filepath.Join(readOnly, "x.png"),
			fmt.Sprintf("cannot write %s/x.png: no permission to write in %s: choose another -o, or make the directory writable", readOnly, readOnly)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "ErrIsADirectory" {
				if err := os.Mkdir(tt.out, 0o755); err != nil {
					t.Fatal(err)
				}
				tt.msg = fmt.Sprintf("cannot write %s: it is a directory: name a file in it, such as %s/maze.txt", tt.out, tt.out)
			}
			if tt.name == "ErrReadOnly" && os.Geteuid() == 0 {
				// root writes anywhere: fileError's case is checked in
				// TestFileError instead.
				t.Log("as root a read-only directory is writable")
				return
			}
			before := listTree(t, dir)
			code, stdout, stderr := run(t, "maze", "sidewinder", "21", "-o", tt.out)
			if got, want := code, exitFailure; got != want {
				t.Fatalf("exit %d, want %d; stderr=%q", got, want, stderr)
			}
			if got, want := stderr, "mazebot: "+tt.msg+"\n"; got != want {
				t.Fatalf("stderr=%q,\nwant   %q", got, want)
			}
			if strings.Contains(stderr, ".tmp-") || stdout != "" {
				t.Fatalf("stderr=%q stdout=%q: a temporary name, or output", stderr, stdout)
			}
			if after := listTree(t, dir); after != before {
				t.Fatalf("files before:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// listTree lists the files under dir, one a line.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		fmt.Fprintln(&b, path)
		return nil
	})
	return b.String()
}

// fileError says every failure in the path the user gave, with a fix,
// whatever file the operation named.
func TestFileError(t *testing.T) {
	const path = "/out/maze.png"
	tmp := "/out/.maze.png.tmp-764175538"
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: tmp, Err: syscall.ENOENT}, "cannot write /out/maze.png: there is no directory /out: create it (mkdir -p /out) or choose another -o"},
		{&fs.PathError{Op: "open", Path: tmp, Err: syscall.EACCES}, "cannot write /out/maze.png: no permission to write in /out: choose another -o, or make the directory writable"},
		{&fs.PathError{Op: "open", Path: tmp, Err: syscall.EROFS}, "cannot write /out/maze.png: /out is on a read-only file system: choose another -o"},
		{&fs.PathError{Op: "write", Path: tmp, Err: syscall.ENOSPC}, "cannot write /out/maze.png: no space left on the device of /out: free some, or choose another -o"},
		{&os.LinkError{Op: "rename", Old: tmp, New: path, Err: syscall.EISDIR}, "cannot write /out/maze.png: a directory of that name is in the way: choose another -o"},
		{&fs.PathError{Op: "write", Path: tmp, Err: syscall.EIO}, "cannot write /out/maze.png: input/output error"},
	} {
		if got := fileError(path, tt.err).Error(); got != tt.want {
			t.Errorf("fileError(%v)=%q, want %q", tt.err, got, tt.want)
		}
	}
	// A write that fails midway reports the user's path, and commit is
	// never reached: nothing is left.
	dir := t.TempDir()
	out, err := createOutput(filepath.Join(dir, "m.txt"), ".txt")
	if err != nil {
		t.Fatal(err)
	}
	out.tmp.Close() // every write now fails with the temporary file's name
	err = out.write(t.Context(), func(w io.Writer) error {
		_, err := w.Write(make([]byte, 1<<17)) // past the buffer
		return err
	})
	if err == nil || strings.Contains(err.Error(), ".tmp-") || !strings.Contains(err.Error(), filepath.Join(dir, "m.txt")) {
		t.Fatalf("err=%v, want one in the user's path", err)
	}
	out.abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("%d files left, want none", len(entries))
	}
}

// JSON carries what a game needs: start, goal, par and the rating, and
// rows with S and G as the text has them.
func TestJSONGame(t *testing.T) {
	for _, tt := range []struct {
		name string
		size int
	}{{"Playable", 21}, {"TooBigToPlay", play.MaxSide + 2}} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, _ := mustRun(t, "maze", "backtracking", fmt.Sprint(tt.size), "--seed", "3", "--format", "json")
			var got struct {
				Start    [2]int   `json:"start"`
				Goal     [2]int   `json:"goal"`
				Par      *int     `json:"par"`
				Rating   int      `json:"rating"`
				Measures measures `json:"measures"`
				Rows     []string `json:"rows"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("decode: %v", err)
			}
			m, err := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Backtracking, Width: tt.size, Height: tt.size, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			s, g := m.Start(), m.Goal()
			if got.Start != [2]int{s.X, s.Y} || got.Goal != [2]int{g.X, g.Y} {
				t.Fatalf("start %v goal %v, want %v %v", got.Start, got.Goal, s, g)
			}
			if got.Rating != got.Measures.Rating || got.Rating < 1 {
				t.Fatalf("rating=%d, measures' %d", got.Rating, got.Measures.Rating)
			}
			switch {
			case tt.size <= play.MaxSide && (got.Par == nil || *got.Par != play.Par(m)):
				t.Fatalf("par=%v, want %d", got.Par, play.Par(m))
			case tt.size > play.MaxSide && got.Par != nil:
				t.Fatalf("par=%d, want null: Play does not take %d×%d", *got.Par, tt.size, tt.size)
			}
			text, _ := mustRun(t, "maze", "backtracking", fmt.Sprint(tt.size), "--seed", "3", "--format", "text")
			if got, want := strings.Join(got.Rows, "\n")+"\n", text; got != want {
				t.Fatalf("rows differ from the text:\n%s\nwant\n%s", got, want)
			}
			if got.Rows[s.Y][s.X] != 'S' || got.Rows[g.Y][g.X] != 'G' {
				t.Fatal("rows lack S or G")
			}
		})
	}
}

// mazebot maze backtracking 41 --format svg is an SVG of that maze: its
// walls one rectangle a run of wall tiles, the solution a group of its
// own, hidden unless --solve, one line through the path's ends and turns.
func TestSVGOutput(t *testing.T) {
	for _, tt := range []struct {
		name   string
		args   []string
		hidden bool
	}{{"Hidden", nil, true}, {"Solve", []string{"--solve"}, false}} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr := mustRun(t, append([]string{"maze", "backtracking", "41", "--format", "svg"}, tt.args...)...)
			match := idLine.FindStringSubmatch(stderr)
			if match == nil {
				t.Fatalf("no maze ID in %q", stderr)
			}
			id, err := mazecore.Parse(match[1])
			if err != nil {
				t.Fatal(err)
			}
			m, err := mazecore.Generate(id)
			if err != nil {
				t.Fatal(err)
			}
			doc := decodeSVG(t, stdout)
			if doc.root != "svg" {
				t.Fatalf("root %q, want svg", doc.root)
			}
			runs := 0
			for y := range m.Height() {
				for x := range m.Width() {
					if m.Wall(x, y) && (x == 0 || !m.Wall(x-1, y)) {
						runs++
					}
				}
			}
			if got, want := strings.Count(doc.walls, "M"), runs; got != want {
				t.Fatalf("walls: %d rectangles, want %d (one a run of wall tiles)", got, want)
			}
			if got, want := len(doc.solution), 1; got != want {
				t.Fatalf("%d paths in g#solution, want %d", got, want)
			}
			path := mazecore.Solve(m)
			turns := 0
			for i := 1; i+1 < len(path); i++ {
				if (path[i-1].X == path[i].X) != (path[i].X == path[i+1].X) {
					turns++
				}
			}
			if got, want := len(regexp.MustCompile(`[ML]`).FindAllString(doc.solution[0], -1)), turns+2; got != want {
				t.Fatalf("the solution has %d points, want %d: its ends and %d turns", got, want, turns)
			}
			if got, want := doc.solutionDisplay == "none", tt.hidden; got != want {
				t.Fatalf("solution hidden=%v, want %v", got, want)
			}
			if !strings.Contains(doc.title, id.String()) {
				t.Fatalf("title %q lacks the maze ID", doc.title)
			}
		})
	}
}

// svgOut is what TestSVGOutput reads of an SVG.
type svgOut struct {
	root, title, walls string
	solution           []string
	solutionDisplay    string
}

func decodeSVG(t *testing.T, text string) svgOut {
	t.Helper()
	var doc svgOut
	dec := xml.NewDecoder(strings.NewReader(text))
	var stack []string
	inSolution := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				doc.root = el.Name.Local
				if el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root in namespace %q", el.Name.Space)
				}
			}
			stack = append(stack, el.Name.Local)
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch {
			case attr["id"] == "walls":
				doc.walls = attr["d"]
			case attr["id"] == "solution" && el.Name.Local == "g":
				inSolution, doc.solutionDisplay = true, attr["display"]
			case inSolution && el.Name.Local == "path":
				doc.solution = append(doc.solution, attr["d"])
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if el.Name.Local == "g" {
				inSolution = false
			}
		case xml.CharData:
			if len(stack) == 2 && stack[1] == "title" {
				doc.title += string(el)
			}
		}
	}
	return doc
}

// --format pdf is two pages, the maze and its solution, each naming the
// maze ID where pdftotext (poppler-utils) reads it.
func TestPDFOutput(t *testing.T) {
	testkit.SkipShort(t, "runs pdftotext")
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext is missing but CI is set: .ci/run installs poppler-utils; the PDF test must run in CI")
		}
		t.Skip("pdftotext is missing: apt-get install poppler-utils (Debian) to read the PDF's text")
	}
	for _, paper := range []string{"a4", "letter"} {
		t.Run(paper, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "maze.pdf")
			stdout, _ := mustRun(t, "maze", "backtracking", "41", "--paper", paper, "-o", file)
			match := idLine.FindStringSubmatch(stdout)
			if match == nil {
				t.Fatalf("no maze ID in %q", stdout)
			}
			out, err := exec.Command(pdftotext, "-layout", file, "-").CombinedOutput()
			if err != nil {
				t.Fatalf("pdftotext: %v\n%s", err, out)
			}
			// pdftotext ends each page with a form feed.
			pages := strings.Split(strings.TrimSuffix(string(out), "\f"), "\f")
			if got, want := len(pages), 2; got != want {
				t.Fatalf("%d pages, want %d:\n%s", got, want, out)
			}
			for i, page := range pages {
				if !strings.Contains(page, "Maze ID "+match[1]) || !strings.Contains(page, fmt.Sprintf("page %d of 2", i+1)) {
					t.Fatalf("page %d lacks the maze ID %s or its number:\n%s", i+1, match[1], page)
				}
			}
			if !strings.Contains(pages[1], "solution") {
				t.Fatalf("page 2 does not say it is the solution:\n%s", pages[1])
			}
		})
	}
}

// TestOutputNotAFile: -o naming a named pipe (or a device, such as
// /dev/null) writes into it, where a temporary file renamed over it
// would replace the pipe with a file; -o naming a symbolic link writes
// the file it points to, and the link stays.
func TestOutputNotAFile(t *testing.T) {
	want, _ := mustRun(t, "maze", "sidewinder", "21", "--seed", "7")

	dir := t.TempDir()
	pipe := filepath.Join(dir, "maze.txt")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	read := make(chan string, 1)
	go func() {
		b, err := os.ReadFile(pipe) // blocks until the command opens it
		if err != nil {
			b = []byte(err.Error())
		}
		read <- string(b)
	}()
	mustRun(t, "maze", "sidewinder", "21", "--seed", "7", "-o", pipe)
	if fi, err := os.Lstat(pipe); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("after -o into a named pipe, it is %v (%v)", fi.Mode(), err)
	}
	if got := <-read; got != want {
		t.Fatalf("the pipe read %q, want the maze", got)
	}
	if after := listTree(t, dir); after != dir+"\n"+pipe+"\n" {
		t.Fatalf("files left beside the pipe:\n%s", after)
	}

	real := filepath.Join(dir, "mazes", "real.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.Mkdir(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "maze", "sidewinder", "21", "--seed", "7", "-o", link)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("after -o through a link, the link is %v (%v)", fi.Mode(), err)
	}
	if got, err := os.ReadFile(real); err != nil || string(got) != want {
		t.Fatalf("the link's file holds %q (%v), want the maze", got, err)
	}
}
