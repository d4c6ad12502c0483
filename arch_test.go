package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsPointInward holds the layering the packages' doc comments
// promise: the domain (mazecore, play, contest) depends on no Discord, no
// database, no adapter; the Discord adapter reaches storage only through
// the domain's interfaces.
func TestImportsPointInward(t *testing.T) {
	domain := []string{"discordgo", "database/sql", "mazebot/store", "mazebot/commands", "mazebot/render", "mazebot/bot", "pgx", "modernc.org/sqlite"}
	for pkg, forbidden := range map[string][]string{
		"./mazecore": domain,
		"./play":     domain,
		"./contest":  domain,
		"./commands": {"database/sql", "mazebot/store", "mazebot/bot", "pgx", "modernc.org/sqlite"},
		"./render":   {"discordgo", "database/sql", "mazebot/store", "mazebot/commands", "mazebot/play", "mazebot/contest"},
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range forbidden {
				if strings.Contains(dep, f) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
