package bot

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/lang"
	"mazebot/mazecore"
)

// definitions is a copy of the command definitions in package commands
// (which imports lang, so lang cannot import it). A test there runs
// Localize, Validate and CheckEnglish over the real ones.
func definitions() []*discordgo.ApplicationCommand {
	// The algorithms, as commands lists them: from mazecore's table.
	algorithms := func() []*discordgo.ApplicationCommandOptionChoice {
		var choices []*discordgo.ApplicationCommandOptionChoice
		for _, a := range mazecore.Algorithms {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: a.Title(), Value: a.String()})
		}
		return choices
	}
	str, num, ch := discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionChannel
	sub := discordgo.ApplicationCommandOptionSubCommand
	difficulty := func(description string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: str, Name: "difficulty", Description: description, Choices: []*discordgo.ApplicationCommandOptionChoice{
			{Name: "easy", Value: "easy"}, {Name: "medium", Value: "medium"}, {Name: "hard", Value: "hard"}, {Name: "any", Value: "any"},
		}}
	}
	loops := &discordgo.ApplicationCommandOption{Type: num, Name: "loops", Description: "Share of dead ends opened into loops, 0–100 (default 0: no loops)"}
	language := func(description string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: str, Name: LanguageOption, Description: description, Choices: LanguageChoices()}
	}
	return []*discordgo.ApplicationCommand{
		{Name: "maze", Description: "Generate a fresh maze", Options: []*discordgo.ApplicationCommandOption{
			{Type: str, Name: "algorithm", Description: "How to carve it (default: backtracking)", Choices: algorithms()},
			{Type: num, Name: "size", Description: "Width in tiles, odd, 5–1001 (default 21); rings (5–100) on a circular grid, cells across on hex"},
			{Type: num, Name: "height", Description: "Height in tiles if different from size"},
			{Type: str, Name: "render", Description: "auto: emoji when small, PNG when big; gif animates the carving", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "auto", Value: "auto"}, {Name: "emoji", Value: "emoji"}, {Name: "png", Value: "png"}, {Name: "gif (animated generation)", Value: "gif"},
			}},
			{Type: num, Name: "seed", Description: "Seed for a reproducible maze (default: random)"},
			difficulty("Among mazes like it: easy, medium or hard (default any; up to 201×201)"),
			loops,
			{Type: str, Name: "theme", Description: "A picture's colours: dark (default), light, or print (black on white)", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "dark", Value: "dark"}, {Name: "light", Value: "light"}, {Name: "print (black on white)", Value: "print"},
			}},
			{Type: str, Name: "style", Description: "A picture's walls: block (as thick as corridors) or line (thin, as printed)", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "block walls", Value: "block"}, {Name: "thin lines", Value: "line"},
			}},
			{Type: str, Name: "grid", Description: "Square cells (default), circular rings or hexagons; size then counts rings or hex cells across", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "square", Value: "square"}, {Name: "circular (polar)", Value: "polar"}, {Name: "hexagonal", Value: "hex"},
			}},
			{Type: str, Name: "shape", Description: "Cut the maze to a shape (a picture, start and goal at the ends of its longest path)", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "circle", Value: "circle"}, {Name: "ring", Value: "ring"}, {Name: "heart", Value: "heart"},
				{Name: "star", Value: "star"}, {Name: "diamond", Value: "diamond"}, {Name: "triangle", Value: "triangle"}, {Name: "hexagon", Value: "hexagon"},
			}},
			{Type: str, Name: "text", Description: "Draw the maze inside up to 12 letters, digits and spaces"},
			{Type: discordgo.ApplicationCommandOptionAttachment, Name: "image", Description: "A PNG or JPEG (up to 1 MiB, 2000×2000): the maze fills its dark parts"},
		}},
		{Name: "solve", Description: "Reveal the shortest path of a maze (a spoiler)", Options: []*discordgo.ApplicationCommandOption{
			{Type: str, Name: "id", Description: "The maze ID (default: the last maze in this channel)"},
		}},
		{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand},
		{Name: "help", Description: "How to use mazebot"},
		{Name: "daily", Description: "Today's maze challenge: the same maze for everyone in this server", Options: []*discordgo.ApplicationCommandOption{
			{Type: sub, Name: "today", Description: "Show today's daily maze, with Play"},
			{Type: sub, Name: "setup", Description: "Post the daily in a channel every day (Manage Server)", Options: []*discordgo.ApplicationCommandOption{
				{Type: ch, Name: "channel", Description: "Where to post it", Required: true},
				{Type: str, Name: "time", Description: "Local time of day, 24-hour HH:MM, e.g. 09:00", Required: true},
				{Type: str, Name: "timezone", Description: "IANA time zone, e.g. Asia/Seoul, America/Los_Angeles, UTC", Required: true},
				{Type: str, Name: "algorithm", Description: "How to carve it (default: backtracking)", Choices: algorithms()},
				{Type: num, Name: "size", Description: "Width in tiles, odd, 5–41 (default 21)"},
				difficulty("Among mazes like it: easy, medium or hard (default any)"),
				loops,
				language("The language of the posts (default: the server's language)"),
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "recap", Description: "Yesterday's recap on each post: finishers, top three, streaks, solution (default on)"},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "recap-pings", Description: "Notify the members the recap names (default off: named, not pinged)"},
				{Type: discordgo.ApplicationCommandOptionRole, Name: "champion-role", Description: "The role the season's champion gets, taken from the last one (I need Manage Roles)"},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "champion-role-off", Description: "Stop handing on the champion role (whoever has it keeps it)"},
			}},
			{Type: sub, Name: "off", Description: "Stop posting the daily automatically (Manage Server)"},
			{Type: sub, Name: "remind", Description: "A DM when your streak is at risk and you haven't played today", Options: []*discordgo.ApplicationCommandOption{
				{Type: str, Name: "time", Description: "Server time, 24-hour HH:MM, e.g. 20:00; or off", Required: true},
			}},
			{Type: sub, Name: "archive", Description: "Play a past daily of this server, unranked; without a date, the list of past days", Options: []*discordgo.ApplicationCommandOption{
				{Type: str, Name: "date", Description: "The day, as YYYY-MM-DD (e.g. 2026-12-01); default: the list of past days"},
			}},
		}},
		{Name: "profile", Description: "A member's dailies, streak, season and badges in this server", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "member", Description: "Whose profile (default: yours)"},
		}},
		{Name: "leaderboard", Description: "The daily challenge leaderboard of this server", Options: []*discordgo.ApplicationCommandOption{
			{Type: str, Name: "period", Description: "Today (default), the last 7 days, all time, or this season (the month)", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "today", Value: "daily"}, {Name: "this week (last 7 days)", Value: "week"}, {Name: "all time", Value: "all"}, {Name: "this season (the month)", Value: "season"},
			}},
			{Type: str, Name: "season", Description: "A season to show, as YYYY-MM (e.g. 2026-11); default: this one"},
		}},
		{Name: "event", Description: "Community maze events (Manage Server)", Options: []*discordgo.ApplicationCommandOption{
			{Type: sub, Name: "start", Description: "Start an event: everyone plays one maze, with a live leaderboard", Options: []*discordgo.ApplicationCommandOption{
				{Type: str, Name: "algorithm", Description: "How to carve the maze", Choices: algorithms(), Required: true},
				{Type: num, Name: "size", Description: "Width and height in tiles, odd, 5–101", Required: true},
				{Type: str, Name: "duration", Description: "How long it runs: 30m, 2h, 1h30m, 1d (5 minutes to 7 days)", Required: true},
				{Type: ch, Name: "channel", Description: "Where to run it (default: here)"},
				{Type: str, Name: "name", Description: "The event's name"},
				difficulty("Among mazes like it: easy, medium or hard (default any)"),
				loops,
				language("The language of its posts (default: the server's language)"),
			}},
			{Type: sub, Name: "end", Description: "End the running event now and post the results", Options: []*discordgo.ApplicationCommandOption{
				{Type: ch, Name: "channel", Description: "The event's channel (default: here)"},
			}},
		}},
		{Name: "race", Description: "Race today's daily or a maze you pick, live, with everyone here", Type: PrimaryEntryPoint},
	}
}

// TestLocalize: every command, option and choice of the definitions gets
// its Korean, and the result passes Discord's rules.
func TestLocalize(t *testing.T) {
	cmds := definitions()
	if err := Localize(cmds); err != nil {
		t.Fatalf("Localize:\n%v", err)
	}
	if err := Validate(cmds); err != nil {
		t.Fatalf("Validate:\n%v", err)
	}
	if err := CheckEnglish(cmds); err != nil {
		t.Fatalf("CheckEnglish:\n%v", err)
	}
	n := 0
	for _, f := range fields(cmds) {
		n++
		if f.endonym != "" {
			// A language is named in itself, for every reader.
			if f.locs(false) != nil {
				t.Errorf("%s: localized %v", f.where, f.locs(false))
			}
			continue
		}
		text := f.locs(false)[discordgo.Korean]
		if text == "" || !lang.HasHangul(text) && text != "PNG" {
			t.Errorf("%s (%s): Korean %q", f.where, f.id, text)
		}
		if _, ok := f.locs(false)[discordgo.EnglishUS]; ok {
			t.Errorf("%s: an English localization; the definition is the English", f.where)
		}
	}
	if n < 70 {
		t.Fatalf("only %d texts walked", n)
	}

	// What the command sync sends.
	raw, err := json.Marshal(cmds)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// Every language's localizations, in Discord's locales, sorted.
		`"name":"maze","name_localizations":{`, `"es-419":"laberinto","es-ES":"laberinto"`, `"ko":"미로"`, `"de":"labyrinth"`,
		`"description":"Generate a fresh maze","description_localizations":{`, `"ko":"새 미로를 만듭니다"`,
		`"name":"Recursive backtracking","name_localizations":{`, `"ko":"재귀적 백트래킹"`,
		`"name":"Solve this maze","name_localizations":{`, `"ko":"이 미로 풀기"`,
		// Japanese names, which Discord's picker takes in kana and kanji.
		`"ja":"迷路"`, `"ja":"再帰的バックトラッキング"`, `"ja":"この迷路を解く"`,
		`"name":"setup","name_localizations":{`, `"ko":"설정"`, `"es-ES":"configurar"`, `"de":"einrichten"`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	menu := cmds[2]
	if menu.DescriptionLocalizations != nil {
		t.Errorf("context menu got description localizations %v", *menu.DescriptionLocalizations)
	}
	// Localize twice is the same as once: the sync may run again.
	again := definitions()
	_ = Localize(again)
	_ = Localize(again)
	if b, _ := json.Marshal(again); string(b) != string(raw) {
		t.Error("Localize is not idempotent")
	}
}

// TestLocalizeMissing: a command the catalogs do not know is reported,
// and the rest still localized.
func TestLocalizeMissing(t *testing.T) {
	cmds := append(definitions(), &discordgo.ApplicationCommand{Name: "teleport", Description: "Go elsewhere"})
	err := Localize(cmds)
	if err == nil || !strings.Contains(err.Error(), "cmd.teleport.name") || !strings.Contains(err.Error(), "cmd.teleport.description") {
		t.Fatalf("Localize=%v, want the missing teleport IDs", err)
	}
	if (*cmds[0].NameLocalizations)[discordgo.Korean] != "미로" {
		t.Fatal("the known commands were not localized")
	}
	if err := CheckEnglish(cmds); err == nil || !strings.Contains(err.Error(), "cmd.teleport.name") {
		t.Fatalf("CheckEnglish=%v", err)
	}
}

func TestCheckEnglishFindsDrift(t *testing.T) {
	cmds := definitions()
	cmds[0].Description = "Make a maze"
	daily := cmds[4].Options[1].Options
	lang := daily[slices.IndexFunc(daily, func(o *discordgo.ApplicationCommandOption) bool { return o.Name == "language" })]
	lang.Choices = append(lang.Choices, &discordgo.ApplicationCommandOptionChoice{Name: "Klingon", Value: "tlh"})
	lang.Choices[1].Name = "Korean"
	cmds = slices.DeleteFunc(cmds, func(c *discordgo.ApplicationCommand) bool { return c.Name == "help" })
	err := CheckEnglish(cmds)
	for _, want := range []string{
		`cmd.maze.description is "Generate a fresh maze", the definition says "Make a maze"`,
		"cmd.help.name: no command definition uses it",
		`choice tlh: no language "tlh"`,
		`the ko catalog's language.name is "한국어", the definition says "Korean"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckEnglish=%v, want %q", err, want)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	ko := func(s string) *map[discordgo.Locale]string { return &map[discordgo.Locale]string{discordgo.Korean: s} }
	long := strings.Repeat("가", 33)
	for _, tc := range []struct {
		name string
		cmd  *discordgo.ApplicationCommand
		want string
	}{
		{"Uppercase", &discordgo.ApplicationCommand{Name: "Maze", Description: "d"}, "must be lowercase"},
		{"Space", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: ko("오늘의 미로")}, `"오늘의 미로" is not a valid name`},
		{"TooLong", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: ko(long)}, "is not a valid name"},
		{"Punctuation", &discordgo.ApplicationCommand{Name: "maze!", Description: "d"}, "is not a valid name"},
		{"Empty", &discordgo.ApplicationCommand{Name: "", Description: "d"}, "is not a valid name"},
		{"UppercaseGreek", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: &map[discordgo.Locale]string{discordgo.Greek: "Λαβύρινθος"}}, "must be lowercase"},
		{"NoDescription", &discordgo.ApplicationCommand{Name: "maze"}, "has 0 characters"},
		{"LongDescription", &discordgo.ApplicationCommand{Name: "maze", Description: "d", DescriptionLocalizations: ko(strings.Repeat("미", 101))}, "has 101 characters"},
		{"UnknownLocale", &discordgo.ApplicationCommand{Name: "maze", Description: "d", NameLocalizations: &map[discordgo.Locale]string{"kr": "미로"}}, `"kr" is not a Discord locale`},
		{"MenuDescription", &discordgo.ApplicationCommand{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand, Description: "d"}, "has no description"},
		{"MenuTooLong", &discordgo.ApplicationCommand{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand, NameLocalizations: ko(long)}, "not a valid context-menu name"},
		{"LongChoice", &discordgo.ApplicationCommand{Name: "maze", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "render", Description: "d", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "auto", Value: "auto", NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: strings.Repeat("자", 101)}},
			}},
		}}, "has 101 characters"},
		{"SameLocalizedName", &discordgo.ApplicationCommand{Name: "maze", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "size", Description: "d", NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: "크기"}},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "height", Description: "d", NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: "크기"}},
		}}, `two names "크기" in locale "ko"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate([]*discordgo.ApplicationCommand{tc.cmd})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate=%v, want %q", err, tc.want)
			}
		})
	}
	// Names Discord accepts.
	ok := []*discordgo.ApplicationCommand{
		{Name: "maze-2_x", Description: "d", NameLocalizations: &map[discordgo.Locale]string{discordgo.Korean: "미로2", discordgo.Hindi: "भूलभुलैया", discordgo.Thai: "เขาวงกต", discordgo.Japanese: "迷路"}},
		{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand, NameLocalizations: ko("이 미로 풀기")},
	}
	if err := Validate(ok); err != nil {
		t.Fatalf("Validate(valid)=%v", err)
	}
}

// TestHelpNamesCommands: /help speaks of the commands by the names the
// member's picker shows.
func TestHelpNamesCommands(t *testing.T) {
	cmds := definitions()
	if err := Localize(cmds); err != nil {
		t.Fatal(err)
	}
	args := lang.Args{"Algorithms": "x", "Renders": "x", "MinSize": 5, "MaxSize": 1001, "AutoEmojiWidth": 25, "EmojiMax": 43, "Candidates": 32, "DifficultyMax": 201, "Languages": "x"}
	for _, l := range lang.Languages() {
		help := l.T("help.body", args)
		if help == "help.body" || strings.Contains(help, "{{") {
			t.Fatalf("%s help: %q", l, help)
		}
		for _, c := range cmds {
			name := c.Name
			if c.NameLocalizations != nil && (*c.NameLocalizations)[discordLocales(l)[0]] != "" {
				name = (*c.NameLocalizations)[discordLocales(l)[0]]
			}
			if isChatInput(c) && c.Name != "help" {
				name = "/" + name
			}
			if c.Name != "help" && !strings.Contains(help, name) {
				t.Errorf("%s help does not mention %s", l, name)
			}
		}
	}
}

// TestCheckMentions: the catalogs name commands as each language's picker
// does, and a wrong name is found.
func TestCheckMentions(t *testing.T) {
	cmds := definitions()
	if err := Localize(cmds); err != nil {
		t.Fatal(err)
	}
	if err := CheckMentions(cmds); err != nil {
		t.Fatalf("CheckMentions:\n%v", err)
	}
	// Renamed in Korean: every Korean /미로 is now wrong, the English
	// /maze still right.
	(*cmds[0].NameLocalizations)[discordgo.Korean] = "미궁"
	err := CheckMentions(cmds)
	if err == nil || !strings.Contains(err.Error(), "[ko]: /미로: no such name") || strings.Contains(err.Error(), "[en]") {
		t.Fatalf("CheckMentions=%v, want the Korean /미로 reported", err)
	}
	// A particle after a name must be the one the name takes.
	for word, want := range map[string]string{"미로로": "", "미로에서": "", "순위표를": "", "미로으로": "미로 takes 로, not 으로", "도움말를": "도움말 takes 을, not 를", "미로들": "no such name"} {
		_, err := withParticle(word, map[string]bool{"미로": true, "순위표": true, "도움말": true})
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("withParticle(%q)=%v, want %q", word, err, want)
		}
	}
	for _, text := range []string{"Asia/Seoul", "HH:MM", "24/7"} {
		if mention().MatchString(text) {
			t.Errorf("%q read as a command", text)
		}
	}
	if m := mention().FindStringSubmatch("use **/daily today** now"); m == nil || m[1] != "daily" || m[2] != "today" {
		t.Errorf("mention=%q", m)
	}
}

// TestLocales: every locale a language serves is one Discord knows.
func TestLocales(t *testing.T) {
	if err := CheckLocales(); err != nil {
		t.Fatal(err)
	}
}

func TestLanguageChoices(t *testing.T) {
	choices := LanguageChoices()
	if len(choices) != len(lang.Languages()) || choices[0].Value != "en" || choices[1].Name != "한국어" {
		t.Fatalf("LanguageChoices=%+v", choices)
	}
}
