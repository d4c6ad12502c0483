package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportsPointInward holds the layering the packages' doc comments
// promise: the domain (mazecore, play, contest) depends on no Discord, no
// database, no adapter; the languages on no Discord; the Discord wing
// (bot, commands) reaches storage only through the domain's interfaces,
// and its connection side (bot) knows no feature; only app, the wiring,
// imports every part.
func TestImportsPointInward(t *testing.T) {
	adapters := []string{"discordgo", "database/sql", "mazebot/store", "mazebot/commands", "mazebot/render", "mazebot/bot", "mazebot/app", "pgx", "modernc.org/sqlite"}
	storage := []string{"database/sql", "mazebot/store", "pgx", "modernc.org/sqlite"}
	for pkg, forbidden := range map[string][]string{
		"./mazecore":                 adapters,
		"./play":                     adapters,
		"./contest":                  adapters,
		"./lang":                     append(adapters, "mazebot/mazecore"),
		"./bot":                      append(storage, "mazebot/commands", "mazebot/render", "mazebot/app", "mazebot/contest", "mazebot/play"),
		"./commands/...":             append(storage, "mazebot/app", "prometheus"),
		"./commands/views":           append(storage, "mazebot/app", "mazebot/commands/pictures"),
		"./render":                   {"discordgo", "database/sql", "mazebot/store", "mazebot/commands", "mazebot/bot", "mazebot/play", "mazebot/contest"},
		"./store/...":                {"discordgo", "mazebot/commands", "mazebot/bot", "mazebot/render", "mazebot/app"},
		"./internal/fakediscord/...": {"mazebot/"},
		"./arena":                    {"discordgo", "mazebot/store", "modernc.org/sqlite", "pgx", "database/sql", "mazebot/commands", "mazebot/bot", "mazebot/render", "mazebot/app"},
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		self := "mazebot/" + strings.TrimSuffix(strings.TrimPrefix(pkg, "./"), "/...")
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, self) {
				continue // the package itself, and its own
			}
			for _, f := range forbidden {
				if strings.Contains(dep, f) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}

// TestOnlyAppWiresTheWing: of the packages, only app (and main, through
// it) imports the Discord wing; the tests' fake responder (bot/bottest)
// is imported by tests only.
func TestOnlyAppWiresTheWing(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		if slices.Contains(fields[1:], "mazebot/bot/bottest") {
			t.Errorf("%s imports mazebot/bot/bottest, which is for tests only", pkg)
		}
		if pkg == "mazebot/app" || strings.HasPrefix(pkg, "mazebot/bot") || strings.HasPrefix(pkg, "mazebot/commands") {
			continue
		}
		for _, imp := range fields[1:] {
			if imp == "mazebot/bot" || imp == "mazebot/commands" {
				t.Errorf("%s imports %s: only app wires the Discord wing", pkg, imp)
			}
		}
	}
}
