package mazecore

import (
	"errors"
	"fmt"
	"strings"
)

// Algorithm names a generation algorithm. The numbers are part of the maze ID
// format and must never change.
type Algorithm uint8

const (
	BinaryTree   Algorithm = 1
	Sidewinder   Algorithm = 2
	Backtracking Algorithm = 3
	Digging      Algorithm = 4
)

// Algorithms lists every algorithm in a stable order.
var Algorithms = []Algorithm{BinaryTree, Sidewinder, Backtracking, Digging}

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
	switch a {
	case BinaryTree:
		return "binary-tree"
	case Sidewinder:
		return "sidewinder"
	case Backtracking:
		return "backtracking"
	case Digging:
		return "digging"
	}
	return fmt.Sprintf("algorithm(%d)", uint8(a))
}

// Title is the name for people: "Binary tree".
func (a Algorithm) Title() string {
	switch a {
	case BinaryTree:
		return "Binary tree"
	case Sidewinder:
		return "Sidewinder"
	case Backtracking:
		return "Recursive backtracking"
	case Digging:
		return "Digging"
	}
	return a.String()
}

// Valid reports whether a is one of the four algorithms.
func (a Algorithm) Valid() bool { return a >= BinaryTree && a <= Digging }

// AlgorithmNames returns the canonical names in order.
func AlgorithmNames() []string {
	names := make([]string, len(Algorithms))
	for i, a := range Algorithms {
		names[i] = a.String()
	}
	return names
}

var algorithmAliases = map[string]Algorithm{
	"binarytree": BinaryTree, "binary": BinaryTree, "bt": BinaryTree, "btree": BinaryTree, "tree": BinaryTree,
	"sidewinder": Sidewinder, "sw": Sidewinder, "side": Sidewinder, "winder": Sidewinder,
	"backtracking": Backtracking, "backtrack": Backtracking, "backtracker": Backtracking, "recursivebacktracking": Backtracking,
	"recursivebacktracker": Backtracking, "recursive": Backtracking, "dfs": Backtracking, "bk": Backtracking,
	"digging": Digging, "dig": Digging, "holedigging": Digging, "hole": Digging, "dg": Digging,
}

// ParseAlgorithm accepts the canonical names and obvious aliases, ignoring
// case, spaces, hyphens and underscores ("Binary Tree", "bt", "backtrack").
func ParseAlgorithm(name string) (Algorithm, error) {
	key := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '\t':
			return -1
		}
		return r
	}, strings.ToLower(name))
	if a, ok := algorithmAliases[key]; ok {
		return a, nil
	}
	return 0, &AlgorithmError{Name: name}
}
