package mazecore

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// TestGolden pins the maze each fixed ID names. If it fails, a change broke
// reproducibility: every ID ever posted would now name a different maze.
// Never refresh these files to make it pass.
func TestGolden(t *testing.T) {
	for _, id := range []ID{
		{Algorithm: BinaryTree, Width: 21, Height: 21, Seed: 1},
		{Algorithm: Sidewinder, Width: 21, Height: 21, Seed: 7},
		{Algorithm: Backtracking, Width: 31, Height: 15, Seed: 2026},
		{Algorithm: Digging, Width: 25, Height: 25, Seed: 1<<40 + 3},
	} {
		t.Run(id.Algorithm.String(), func(t *testing.T) {
			got := "id " + id.String() + "\n" + tileText(mustGenerate(t, id))
			path := filepath.Join("testdata", "golden", id.Algorithm.String()+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./mazecore -update once to create it)", err)
			}
			if got != string(want) {
				t.Fatalf("maze for %+v changed:\ngot\n%s\nwant\n%s", id, got, want)
			}
			parsed, err := Parse(id.String())
			if err != nil || parsed != id {
				t.Fatalf("Parse(%q)=%+v,%v, want %+v", id.String(), parsed, err, id)
			}
		})
	}
}
