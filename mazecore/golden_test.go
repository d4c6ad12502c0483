package mazecore

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "create missing golden files in testdata/ (existing ones are never rewritten)")

// TestGolden pins the maze each fixed ID names. If it fails, a change broke
// reproducibility: every ID ever posted would now name a different maze.
// checkFrozen never rewrites these files, even under -update.
func TestGolden(t *testing.T) {
	ids := map[Algorithm]ID{
		BinaryTree:   {Algorithm: BinaryTree, Width: 21, Height: 21, Seed: 1},
		Sidewinder:   {Algorithm: Sidewinder, Width: 21, Height: 21, Seed: 7},
		Backtracking: {Algorithm: Backtracking, Width: 31, Height: 15, Seed: 2026},
		Digging:      {Algorithm: Digging, Width: 25, Height: 25, Seed: 1<<40 + 3},
	}
	for _, algo := range Algorithms {
		id, ok := ids[algo]
		if !ok { // a new algorithm: -update creates its file
			id = ID{Algorithm: algo, Width: 21, Height: 21, Seed: 1}
		}
		t.Run(id.Algorithm.String(), func(t *testing.T) {
			checkPinned(t, id, idVersion1, filepath.Join("testdata", "golden", id.Algorithm.String()+".txt"))
		})
	}
}

// TestGoldenV2 pins mazes with loops, spelled as version 2 IDs, for every
// algorithm: braiding must stay the same forever too.
func TestGoldenV2(t *testing.T) {
	for _, algo := range Algorithms {
		for _, id := range []ID{
			{Algorithm: algo, Width: 21, Height: 21, Seed: 1, Loops: 25},
			{Algorithm: algo, Width: 31, Height: 15, Seed: 2026, Loops: 60},
			{Algorithm: algo, Width: 25, Height: 25, Seed: 1<<40 + 3, Loops: 100},
		} {
			t.Run(fmt.Sprintf("%s/loops%d", algo, id.Loops), func(t *testing.T) {
				checkPinned(t, id, idVersion2, filepath.Join("testdata", "golden", "v2", fmt.Sprintf("%s-loops%d.txt", algo, id.Loops)))
			})
		}
	}
}

// checkPinned checks that id is spelled in format version, names the
// maze frozen in the golden file, and parses back from its spelling.
func checkPinned(t *testing.T, id ID, version byte, golden string) {
	t.Helper()
	text := id.String()
	if got := idVersion(t, text); got != version {
		t.Fatalf("%+v is spelled in version %d, want %d", id, got, version)
	}
	checkFrozen(t, golden, "id "+text+"\n"+tileText(mustGenerate(t, id)))
	parsed, err := Parse(text)
	if err != nil || parsed != id {
		t.Fatalf("Parse(%q)=%+v,%v, want %+v", text, parsed, err, id)
	}
}

// idVersion returns the format version an ID is spelled in.
func idVersion(t *testing.T, text string) byte {
	t.Helper()
	raw, err := decodeBase32(text)
	if err != nil || len(raw) == 0 {
		t.Fatalf("decode %q: %v", text, err)
	}
	return raw[0] >> 4
}

// checkFrozen compares got with a golden file that may be created (with
// -update) but never rewritten: a maze an ID has named must stay that maze.
func checkFrozen(t *testing.T, path, got string) {
	t.Helper()
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) && *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v (go test ./mazecore -update creates a missing golden file)", err)
	}
	if got != string(want) {
		t.Fatalf("%s changed: every maze ID it covers would name another maze; never rewrite it\ngot\n%s\nwant\n%s", path, got, want)
	}
}
