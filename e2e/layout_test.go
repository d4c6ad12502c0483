package e2e

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestInsidesOnlyInInternal holds what doc.go promises: of the bot's
// insides besides app, only internal_test.go imports commands (and its
// languages) and store, so that a change of their names is adapted there.
func TestInsidesOnlyInInternal(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if name == "internal_test.go" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, inside := range []string{"mazebot/commands", "mazebot/store", "mazebot/bot", "mazebot/lang"} {
				if path == inside || strings.HasPrefix(path, inside+"/") {
					t.Errorf("%s imports %s: only internal_test.go may", name, path)
				}
			}
		}
	}
}
