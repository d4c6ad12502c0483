package mazecore

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Algorithm names a generation algorithm. The numbers are part of the maze ID
// format (four bits of its first byte) and must never change.
type Algorithm uint8

const (
	BinaryTree   Algorithm = 1
	Sidewinder   Algorithm = 2
	Backtracking Algorithm = 3
	Digging      Algorithm = 4
	Wilson       Algorithm = 5
)

// algorithmSpec is everything mazebot knows about one algorithm. A new
// algorithm is one entry in algorithms plus its generator (and its golden
// file); every list, name and dispatch derives from the table.
type algorithmSpec struct {
	id       Algorithm
	name     string   // the command value, also the golden file's name
	title    string   // for people
	aliases  []string // other accepted spellings, the short one first
	generate func(*generator)
	// onGrid makes the algorithm's mazes on any grid (GenerateGrid), nil
	// for one that needs rows and columns; onPolar, when onGrid is nil,
	// on a polar grid.
	onGrid, onPolar func(*gridGen)
}

// algorithms is the table, in the order lists show it.
var algorithms = [...]algorithmSpec{
	{BinaryTree, "binary-tree", "Binary tree", []string{"bt", "binary", "btree", "tree"}, (*generator).binaryTree,
		nil, (*gridGen).binaryTreePolar},
	{Sidewinder, "sidewinder", "Sidewinder", []string{"sw", "side", "winder"}, (*generator).sidewinder,
		nil, (*gridGen).sidewinderPolar},
	{Backtracking, "backtracking", "Recursive backtracking",
		[]string{"dfs", "backtrack", "backtracker", "recursive-backtracker", "recursive", "bk"}, (*generator).backtracking,
		(*gridGen).backtracking, nil},
	{Digging, "digging", "Digging", []string{"dig", "hole-digging", "hole", "dg"}, (*generator).digging,
		(*gridGen).digging, nil},
	{Wilson, "wilson", "Wilson's algorithm", []string{"wi", "wilsons", "ust", "uniform"}, (*generator).wilson,
		(*gridGen).wilson, nil},
}

// Algorithms lists every algorithm in a stable order.
var Algorithms = func() []Algorithm {
	list := make([]Algorithm, len(algorithms))
	for i, spec := range algorithms {
		list[i] = spec.id
	}
	return list
}()

// spec returns a's table entry, or nil for a number no algorithm has.
func (a Algorithm) spec() *algorithmSpec {
	for i := range algorithms {
		if algorithms[i].id == a {
			return &algorithms[i]
		}
	}
	return nil
}

// ErrUnknownAlgorithm is matched by every *AlgorithmError.
var ErrUnknownAlgorithm = errors.New("unknown algorithm")

// AlgorithmError says which name was not understood.
type AlgorithmError struct{ Name string }

func (e *AlgorithmError) Error() string {
	return fmt.Sprintf("unknown algorithm %q: choose one of %s", e.Name, strings.Join(AlgorithmNames(), ", "))
}

func (e *AlgorithmError) Is(target error) bool { return target == ErrUnknownAlgorithm }

// String returns the canonical command value, e.g. "binary-tree".
func (a Algorithm) String() string {
	if s := a.spec(); s != nil {
		return s.name
	}
	return fmt.Sprintf("algorithm(%d)", uint8(a))
}

// Title is the name for people: "Binary tree".
func (a Algorithm) Title() string {
	if s := a.spec(); s != nil {
		return s.title
	}
	return a.String()
}

// Aliases returns the other spellings ParseAlgorithm accepts for a, the
// shortest first ("bt" for binary-tree).
func (a Algorithm) Aliases() []string {
	if s := a.spec(); s != nil {
		return append([]string(nil), s.aliases...)
	}
	return nil
}

// Valid reports whether a is one of the algorithms.
func (a Algorithm) Valid() bool { return a.spec() != nil }

// AlgorithmNames returns the canonical names in order.
func AlgorithmNames() []string {
	names := make([]string, len(algorithms))
	for i, spec := range algorithms {
		names[i] = spec.name
	}
	return names
}

// algorithmKeys maps every accepted spelling (name, title and aliases, as
// algorithmKey folds them) to its algorithm; built on first use, so that
// a program that parses no name does not build it.
var algorithmKeys = sync.OnceValue(func() map[string]Algorithm {
	keys := map[string]Algorithm{}
	for _, spec := range algorithms {
		for _, name := range append([]string{spec.name, spec.title}, spec.aliases...) {
			keys[algorithmKey(name)] = spec.id
		}
	}
	return keys
})

// algorithmKey folds case, spaces, hyphens and underscores away.
func algorithmKey(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '\t':
			return -1
		}
		return r
	}, strings.ToLower(name))
}

// ParseAlgorithm accepts the canonical names, titles and aliases, ignoring
// case, spaces, hyphens and underscores ("Binary Tree", "bt", "backtrack").
func ParseAlgorithm(name string) (Algorithm, error) {
	if a, ok := algorithmKeys()[algorithmKey(name)]; ok {
		return a, nil
	}
	return 0, &AlgorithmError{Name: name}
}
