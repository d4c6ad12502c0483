package mazecore

import (
	"slices"
	"testing"
)

// TestAlgorithmTable checks what the ID format and ParseAlgorithm need of
// the table: numbers that fit the ID's four bits, and no spelling that two
// algorithms share (the map would silently keep the last one).
func TestAlgorithmTable(t *testing.T) {
	owner := map[string]Algorithm{}
	for i, spec := range algorithms {
		if spec.id < 1 || spec.id > 15 {
			t.Fatalf("%s: number %d does not fit the ID's four bits (1 to 15)", spec.name, spec.id)
		}
		if got, want := Algorithms[i], spec.id; got != want {
			t.Fatalf("Algorithms[%d]=%v, want %v", i, got, want)
		}
		if !spec.id.Valid() || spec.id.String() != spec.name || spec.id.Title() != spec.title {
			t.Fatalf("%d: Valid/String/Title = %v/%q/%q, want the table's", spec.id, spec.id.Valid(), spec.id.String(), spec.id.Title())
		}
		if spec.generate == nil {
			t.Fatalf("%s has no generator", spec.name)
		}
		for _, name := range append([]string{spec.name, spec.title}, spec.aliases...) {
			key := algorithmKey(name)
			if other, dup := owner[key]; dup && other != spec.id {
				t.Fatalf("%q names both %v and %v", name, other, spec.id)
			}
			owner[key] = spec.id
			if got, err := ParseAlgorithm(name); err != nil || got != spec.id {
				t.Fatalf("ParseAlgorithm(%q)=%v,%v, want %v", name, got, err, spec.id)
			}
		}
	}
	if got, want := AlgorithmNames(), []string{"binary-tree", "sidewinder", "backtracking", "digging", "wilson"}; !slices.Equal(got, want) {
		t.Fatalf("AlgorithmNames()=%q, want %q", got, want)
	}
	for _, a := range []Algorithm{0, 6, 15, 255} {
		if a.Valid() || a.spec() != nil || a.Aliases() != nil {
			t.Fatalf("%d is valid or has a spec", a)
		}
		if got, want := a.String(), "algorithm("; got[:len(want)] != want || a.Title() != got {
			t.Fatalf("String()=%q Title()=%q for an unknown number", got, a.Title())
		}
	}
	if got, want := BinaryTree.Aliases()[0], "bt"; got != want {
		t.Fatalf("BinaryTree.Aliases()[0]=%q, want %q", got, want)
	}
}
