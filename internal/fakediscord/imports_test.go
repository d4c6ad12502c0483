package fakediscord_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportsNoMazebot holds what doc.go promises: the fake imports no
// mazebot package (it fakes Discord, not the bot), and member no other
// than the fake.
func TestImportsNoMazebot(t *testing.T) {
	t.Parallel()
	for pkg, allowed := range map[string][]string{
		"mazebot/internal/fakediscord":        {"mazebot/internal/fakediscord"},
		"mazebot/internal/fakediscord/member": {"mazebot/internal/fakediscord", "mazebot/internal/fakediscord/member"},
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if (dep == "mazebot" || strings.HasPrefix(dep, "mazebot/")) && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s", pkg, dep)
			}
		}
	}
}
