package arena

import (
	"bytes"
	"embed"
	"errors"
	"html"
	"io/fs"

	"mazebot/lang"
	"mazebot/mazecore"
)

// webFiles is the web client: its page and style as written
// (arena/web/src) and its script as built from src/main.ts into
// arena/web/dist by `npm ci && npm run build` there, committed so that the
// binary needs no npm.
//
//go:embed web/src/index.html web/src/style.css web/dist
var webFiles embed.FS

// clientFiles are the client's files as the page names them: app.js from
// dist, index.html and style.css from src.
func clientFiles() fs.FS {
	dist, _ := fs.Sub(webFiles, "web/dist")
	src, _ := fs.Sub(webFiles, "web/src")
	return layered{dist, src}
}

// layered opens a name in the first of its file systems that has it.
type layered []fs.FS

func (l layered) Open(name string) (fs.File, error) {
	for _, fsys := range l {
		f, err := fsys.Open(name)
		if !errors.Is(err, fs.ErrNotExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// withAlgorithms fills the picker of the page index with mazecore's
// algorithms, so a new one is offered without touching the page; the
// rooms' own, backtracking, is chosen to begin with.
func withAlgorithms(index []byte) []byte {
	var options bytes.Buffer
	for _, a := range mazecore.Algorithms {
		selected := ""
		if a == mazecore.Backtracking {
			selected = " selected"
		}
		name := html.EscapeString(a.String())
		options.WriteString("<option value=\"" + name + "\"" + selected + ">" + name + "</option>")
	}
	return bytes.Replace(index, []byte("%ALGORITHMS%"), options.Bytes(), 1)
}

// algorithmChoices are mazecore's algorithms as the picker offers them,
// each named in the member's language (the catalog's choice.algorithm.*,
// as /maze's options name them).
func algorithmChoices(locale string) []AlgorithmChoice {
	l := lang.For(locale)
	out := make([]AlgorithmChoice, 0, len(mazecore.Algorithms))
	for _, a := range mazecore.Algorithms {
		c := AlgorithmChoice{ID: a.String(), Name: l.T("choice.algorithm." + a.String())}
		for _, k := range mazecore.GridKinds {
			if a.Fits(k, false) {
				c.Grids = append(c.Grids, k.String())
			}
		}
		out = append(out, c)
	}
	return out
}

// gridChoices are the picker's grids, named in the member's language.
func gridChoices(locale string) []GridChoice {
	l := lang.For(locale)
	out := make([]GridChoice, 0, len(mazecore.GridKinds))
	for _, k := range mazecore.GridKinds {
		out = append(out, GridChoice{ID: k.String(), Name: l.T("choice.grid." + k.String())})
	}
	return out
}
