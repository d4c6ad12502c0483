package main

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImportsPointInward holds the layering the packages' doc comments
// promise: the domain (mazecore, play, contest) depends on no Discord, no
// database, no adapter; the languages on no Discord; the Discord wing
// (bot, commands) reaches storage only through the domain's interfaces,
// its interaction handling (bot) and its connection (bot/discord) know no
// feature, and the features (commands) know no connection; only app, the
// wiring, imports every part.
func TestImportsPointInward(t *testing.T) {
	adapters := []string{"discordgo", "database/sql", "mazebot/store", "mazebot/commands", "mazebot/render", "mazebot/bot", "mazebot/app", "pgx", "modernc.org/sqlite"}
	storage := []string{"database/sql", "mazebot/store", "pgx", "modernc.org/sqlite"}
	for pkg, forbidden := range map[string][]string{
		"./mazecore":                 adapters,
		"./play":                     adapters,
		"./contest":                  adapters,
		"./lang":                     append(adapters, "mazebot/mazecore"),
		"./bot":                      append(storage, "mazebot/commands", "mazebot/render", "mazebot/app", "mazebot/contest", "mazebot/play"),
		"./bot/discord":              append(storage, "mazebot/commands", "mazebot/render", "mazebot/app", "mazebot/contest", "mazebot/play"),
		"./commands/...":             append(storage, "mazebot/app", "prometheus", "mazebot/bot/discord"),
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
		if slices.Contains(fields[1:], "mazebot/bot/discord") && pkg != "mazebot/app" {
			t.Errorf("%s imports mazebot/bot/discord: only app connects to Discord", pkg)
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

// TestBinaryLinksNoTestHelper: the bot's binary (the main package, either
// build) links none of the packages written for tests: the fake
// responder and the definitions' checks (bot/bottest), the store's contract
// and in-memory store (store/storetest), the fake Discord, the test kit,
// the PostgreSQL schemas of tests.
func TestBinaryLinksNoTestHelper(t *testing.T) {
	helpers := []string{"mazebot/bot/bottest", "mazebot/store/storetest", "mazebot/internal/fakediscord", "mazebot/internal/testkit", "mazebot/internal/pgtest"}
	for _, tags := range []string{"", "mazeonly"} {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, ".").Output()
		if err != nil {
			t.Fatalf("go list -deps -tags %q .: %v", tags, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "mazebot/lang") && tags == "" {
			t.Fatalf("go list -deps . lists no mazebot/lang: %v", deps)
		}
		for _, dep := range deps {
			for _, h := range helpers {
				if dep == h || strings.HasPrefix(dep, h+"/") {
					t.Errorf("the binary (tags %q) links %s, a package for tests", tags, dep)
				}
			}
		}
	}
}

// discordRoom is the Discord wing's room: its packages, each above the
// ones it imports, and in each package its files from the bottom up. A
// file may use only what files below it in its list declare (and other
// packages); a new file needs its place here. The package docs
// (bot/doc.go, bot/discord/doc.go) say what each file is for.
var discordRoom = []struct {
	pkg   string   // import path
	files []string // bottom first
}{
	{"mazebot/bot", []string{
		"reply.go", "components.go", "handler.go", "localize.go",
		"attachments.go", "options.go", "router.go", "middleware.go",
	}},
	{"mazebot/bot/bottest", []string{"recorder.go", "guard.go", "definitions.go"}},
	{"mazebot/bot/discord", []string{
		"globallimit.go", "transport.go", "listener.go", "message.go", "rest.go", "responder.go", "poster.go", "roles.go",
		"decode.go", "sharding.go", "identify.go", "shards.go", "commandguilds.go", "sync.go",
		"bot.go", "dispatch.go", "schedule.go", "lifecycle.go", "http.go",
	}},
}

// TestDiscordRoomLayers proves the Discord room's arrows point one way.
// Packages: each imports only packages listed before it (go list's
// Imports). Files: how a file depends on another is counted from the
// type checker's record of every identifier (go/types Info.Uses, selectors
// included): a use in file A of a name declared in file B of the same
// package (a type, function, variable, constant, field or method) is one
// reference from A to B; every reference must run down the list. With -v
// it prints each package's imports and each file's references.
//
//	go test -run TestDiscordRoomLayers -v .
func TestDiscordRoomLayers(t *testing.T) {
	var paths []string
	for _, p := range discordRoom {
		paths = append(paths, p.pkg)
	}
	// Export data for the importer: go list compiles (or finds cached)
	// everything the room imports.
	out, err := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .Imports \" \"}}"}, paths...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type listed struct {
		export, dir string
		files       []string
		imports     []string
	}
	pkgs := map[string]listed{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		pkgs[f[0]] = listed{export: f[1], dir: f[2], files: strings.Fields(f[3]), imports: strings.Fields(f[4])}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := pkgs[path]
		if !ok || p.export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(p.export)
	})
	total, against := 0, 0
	for i, room := range discordRoom {
		p := pkgs[room.pkg]
		var ours []string
		for _, dep := range p.imports {
			if strings.HasPrefix(dep, "mazebot/") {
				ours = append(ours, dep)
			}
		}
		t.Logf("package %s imports %s", room.pkg, strings.Join(ours, ", "))
		for _, dep := range ours {
			below := slices.ContainsFunc(discordRoom[:i], func(r struct {
				pkg   string
				files []string
			}) bool {
				return r.pkg == dep
			})
			if strings.HasPrefix(dep, "mazebot/bot") && !below {
				t.Errorf("%s imports %s, which is not below it in the room", room.pkg, dep)
			}
		}
		rank := map[string]int{}
		for r, name := range room.files {
			rank[name] = r
		}
		if got, want := slices.Sorted(slices.Values(p.files)), slices.Sorted(slices.Values(append([]string{"doc.go"}, room.files...))); !slices.Equal(got, want) {
			t.Errorf("%s: files %v, but the layering lists %v (and doc.go): place each file in discordRoom", room.pkg, got, want)
			continue
		}
		var files []*ast.File
		for _, name := range p.files {
			f, err := parser.ParseFile(fset, filepath.Join(p.dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(room.pkg, fset, files, info); err != nil {
			t.Fatalf("type-check %s: %v", room.pkg, err)
		}
		// refs[from][to] = the names from uses of to's declarations.
		refs := map[string]map[string]map[string]bool{}
		for id, obj := range info.Uses {
			if obj.Pkg() == nil || obj.Pkg().Path() != room.pkg || !obj.Pos().IsValid() {
				continue
			}
			from := filepath.Base(fset.Position(id.Pos()).Filename)
			to := filepath.Base(fset.Position(obj.Pos()).Filename)
			if from == to {
				continue
			}
			if refs[from] == nil {
				refs[from] = map[string]map[string]bool{}
			}
			if refs[from][to] == nil {
				refs[from][to] = map[string]bool{}
			}
			refs[from][to][obj.Name()] = true
		}
		for _, from := range room.files {
			for _, to := range slices.Sorted(maps.Keys(refs[from])) {
				names := slices.Sorted(maps.Keys(refs[from][to]))
				total += len(names)
				dir := "down"
				if rank[to] > rank[from] {
					dir = "UP"
					against += len(names)
					t.Errorf("%s: %s uses %s, above it: %s", room.pkg, from, to, strings.Join(names, ", "))
				}
				t.Logf("  %-18s -> %-18s %-4s %d: %s", from, to, dir, len(names), strings.Join(names, ", "))
			}
		}
	}
	t.Logf("%d references between files (distinct names per pair of files), %d of them upward", total, against)
}
