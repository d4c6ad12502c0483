package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/bot/bottest"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/render"
)

// localized makes ix come from a member whose Discord speaks locale, in a
// server whose language is guildLocale ("" for none given).
func localized(ix *discordgo.Interaction, locale, guildLocale string) *discordgo.Interaction {
	ix.Locale = discordgo.Locale(locale)
	if guildLocale != "" {
		gl := discordgo.Locale(guildLocale)
		ix.GuildLocale = &gl
	}
	return ix
}

// TestDefinitionsLocalized: the router's real definitions match the English
// catalog word for word, every command, option and choice has its Korean
// name and description within Discord's rules, and the catalogs name the
// commands, and show options as typed, as each language's picker shows
// them.
func TestDefinitionsLocalized(t *testing.T) {
	defs := newEnv(t, envOptions{}).router.Definitions()
	if err := bottest.CheckDefinitions(defs); err != nil {
		t.Fatal(err)
	}
	korean := func(what string, locs map[discordgo.Locale]string) {
		t.Helper()
		if text := locs[discordgo.Korean]; text == "" || !lang.HasHangul(text) && text != "PNG" {
			t.Errorf("%s: Korean %q", what, text)
		}
	}
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			p := path + " " + o.Name
			korean(p+" name", o.NameLocalizations)
			korean(p+" description", o.DescriptionLocalizations)
			for _, c := range o.Choices {
				if o.Name == bot.LanguageOption {
					continue // each language by its own name, for everyone
				}
				korean(fmt.Sprintf("%s choice %v", p, c.Value), c.NameLocalizations)
			}
			walk(p, o.Options)
		}
	}
	for _, def := range defs {
		korean(def.Name+" name", *def.NameLocalizations)
		if def.Type == discordgo.MessageApplicationCommand {
			continue
		}
		korean("/"+def.Name+" description", *def.DescriptionLocalizations)
		walk("/"+def.Name, def.Options)
	}
	// What the command sync sends.
	raw, err := json.Marshal(defs)
	if err != nil {
		t.Fatal(err)
	}
	// Every language's locales carry its name: Korean's and both of
	// Spanish's (es-ES, es-419) alike.
	var choices []string
	for _, l := range lang.Languages() {
		choices = append(choices, fmt.Sprintf(`{"name":%q,"value":%q}`, l.Name(), l.Code()))
	}
	for _, want := range []string{
		`"name":"difficulty","name_localizations":{`,
		`"ko":"난이도"`, `"es-419":"dificultad","es-ES":"dificultad"`,
		`"name":"loops","name_localizations":{`, `"ko":"고리"`, `"es-ES":"bucles"`,
		`"name":"language","name_localizations":{`, `"ko":"언어"`, `"es-ES":"idioma"`,
		`"name":"hard","name_localizations":{`, `"ko":"어려움"`, `"es-ES":"difícil"`,
		`"name":"any","name_localizations":{`, `"ko":"상관없음"`, `"es-ES":"cualquiera"`,
		`"ja":"難易度"`, `"ja":"ループ"`, `"ja":"言語"`, `"ja":"難しい"`, `"ja":"指定なし"`,
		strings.Join(choices, ","),
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the definitions' JSON lacks %s", want)
		}
	}
}

// TestDefinitionTexts: every text of the real definitions is walked
// (each command, option and choice), a language choice is named in itself
// for every reader, no text has an English localization (the definition is
// the English), and the message command has no description to localize.
func TestDefinitionTexts(t *testing.T) {
	defs := newEnv(t, envOptions{}).router.Definitions()
	texts := bot.DefinitionTexts(defs)
	if len(texts) < 70 {
		t.Fatalf("only %d texts walked", len(texts))
	}
	endonyms := 0
	for _, f := range texts {
		if f.Endonym != "" {
			endonyms++
			if f.Localizations() != nil {
				t.Errorf("%s: localized %v", f.Where, f.Localizations())
			}
			continue
		}
		if _, ok := f.Localizations()[discordgo.EnglishUS]; ok {
			t.Errorf("%s: an English localization; the definition is the English", f.Where)
		}
	}
	if endonyms == 0 {
		t.Error("no language choice walked")
	}
	for _, d := range defs {
		if d.Type == discordgo.MessageApplicationCommand && d.DescriptionLocalizations != nil {
			t.Errorf("%q got description localizations %v", d.Name, *d.DescriptionLocalizations)
		}
	}
	raw, err := json.Marshal(defs)
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
	// Localized again (the router localizes what it is given): the same.
	_ = bot.Localize(defs)
	if again, _ := json.Marshal(defs); string(again) != string(raw) {
		t.Error("Localize is not idempotent")
	}
}

// definition is the real definition of the command name in defs.
func definition(t *testing.T, defs []*discordgo.ApplicationCommand, name string) *discordgo.ApplicationCommand {
	t.Helper()
	for _, d := range defs {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no command %s", name)
	return nil
}

// TestCheckEnglishFindsDrift: a definition that words its English itself,
// a command the catalog has texts for but no definition uses, a language
// no catalog has and a language choice not named in itself are each
// reported.
func TestCheckEnglishFindsDrift(t *testing.T) {
	defs := newEnv(t, envOptions{}).router.Definitions()
	definition(t, defs, "maze").Description = "Make a maze"
	var language *discordgo.ApplicationCommandOption
	for _, sub := range definition(t, defs, "daily").Options {
		for _, o := range sub.Options {
			if o.Name == bot.LanguageOption {
				language = o
			}
		}
	}
	if language == nil {
		t.Fatal("no /daily subcommand has a language option")
	}
	language.Choices = append(language.Choices, &discordgo.ApplicationCommandOptionChoice{Name: "Klingon", Value: "tlh"})
	language.Choices[1].Name = "Korean"
	defs = slices.DeleteFunc(defs, func(c *discordgo.ApplicationCommand) bool { return c.Name == "help" })
	err := bottest.CheckEnglish(defs)
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

// TestCheckMentionsFindsRename: renamed in Korean, every Korean /미로 in
// the catalogs is wrong and reported, the English /maze still right.
func TestCheckMentionsFindsRename(t *testing.T) {
	defs := newEnv(t, envOptions{}).router.Definitions()
	(*definition(t, defs, "maze").NameLocalizations)[discordgo.Korean] = "미궁"
	err := bottest.CheckMentions(defs)
	if err == nil || !strings.Contains(err.Error(), "[ko]: /미로: no such name") || strings.Contains(err.Error(), "[en]") {
		t.Fatalf("CheckMentions=%v, want the Korean /미로 reported", err)
	}
}

// TestHelpNamesCommands: /help speaks of the commands by the names the
// member's picker shows.
func TestHelpNamesCommands(t *testing.T) {
	defs := newEnv(t, envOptions{}).router.Definitions()
	args := lang.Args{"Algorithms": "x", "Renders": "x", "MinSize": 5, "MaxSize": 1001, "AutoEmojiWidth": 25, "EmojiMax": 43, "Candidates": 32, "DifficultyMax": 201, "Languages": "x"}
	for _, l := range lang.Languages() {
		help := l.T("help.body", args)
		if help == "help.body" || strings.Contains(help, "{{") {
			t.Fatalf("%s help: %q", l, help)
		}
		locale := discordgo.Locale(l.Locales()[0])
		for _, c := range defs {
			if c.Name == "help" {
				continue
			}
			name := c.Name
			if c.NameLocalizations != nil && (*c.NameLocalizations)[locale] != "" {
				name = (*c.NameLocalizations)[locale]
			}
			if bot.IsChatInput(c) {
				name = "/" + name
			}
			if !strings.Contains(help, name) {
				t.Errorf("%s help does not mention %s", l, name)
			}
		}
	}
}

func TestHelpSpeaksTheMembersLanguage(t *testing.T) {
	e := newEnv(t, envOptions{})
	for locale, want := range map[string]string{
		"ko":    "새 미로를 만듭니다",
		"en-US": "a fresh maze",
		"en-GB": "a fresh maze",
		"fr":    "un nouveau labyrinthe",
		"zh-CN": "a fresh maze", // a language mazebot does not speak: English
	} {
		rec := e.send(t, localized(slash(t, "help", nil), locale, ""))
		if len(rec.Replies) != 1 || !rec.Replies[0].V2 {
			t.Fatalf("%s: replies=%+v, want one card", locale, rec.Replies)
		}
		desc := rec.Replies[0].Text()
		if !strings.Contains(desc, want) || strings.Contains(desc, "help.body") {
			t.Fatalf("%s: help %q, want %q", locale, desc, want)
		}
		if n := utf8.RuneCountInString(desc); n > views.MaxText {
			t.Fatalf("%s: help is %d characters, above a card's %d", locale, n, views.MaxText)
		}
		// The languages are listed by their own names, 한국어 in every help.
		if korean := locale == "ko"; korean != lang.HasHangul(strings.ReplaceAll(desc, lang.Korean.Name(), "")) {
			t.Fatalf("%s: help %q", locale, desc)
		}
	}
	// Every language's help, the longest of the bot's replies, fits a card.
	for _, l := range lang.Languages() {
		rec := e.send(t, localized(slash(t, "help", nil), l.Locales()[0], ""))
		if len(rec.Replies) != 1 || !rec.Replies[0].V2 {
			t.Fatalf("%s: replies=%+v, want one card", l, rec.Replies)
		}
		desc := rec.Replies[0].Text()
		if n := utf8.RuneCountInString(desc); n > views.MaxText || strings.Contains(desc, "help.body") {
			t.Errorf("%s: help is %d characters (a card holds %d): %q", l, n, views.MaxText, desc)
		} else {
			t.Logf("%s: help is %d characters of a card's %d", l, n, views.MaxText)
		}
	}
}

// discordMaxContent is Discord's limit on a message's content, in code
// points: a refusal is content ("⚠️ " and the message).
const discordMaxContent = 2000

// TestRefusalsFitDiscord: every refusal (error.*, held.*) of every
// language, its placeholders filled with 100 characters each (more than
// any echo, list or name the code puts in one) and the size.why sentence
// error.size_range ends with, fits a message's content.
func TestRefusalsFitDiscord(t *testing.T) {
	field := regexp.MustCompile(`\.([A-Z][A-Za-z]*)`)
	long := strings.Repeat("迷", 100)
	for _, l := range lang.Languages() {
		longest, longestID := 0, ""
		for id, sources := range l.Sources() {
			if !strings.HasPrefix(id, "error.") && !strings.HasPrefix(id, "held.") {
				continue
			}
			args := lang.Args{}
			for _, src := range sources {
				for _, m := range field.FindAllStringSubmatch(src, -1) {
					args[m[1]] = long
				}
			}
			if _, ok := args["Why"]; ok {
				args["Why"] = lang.M("size.why.maze")
			}
			if _, ok := args["Count"]; ok {
				args["Count"] = 1_000_000
			}
			text := "⚠️ " + l.T(id, args)
			if strings.Contains(text, id) {
				t.Errorf("%s: %s did not format: %q", l, id, text)
			}
			if n := utf8.RuneCountInString(text); n > longest {
				longest, longestID = n, id
			}
		}
		if longest > discordMaxContent {
			t.Errorf("%s: %s is %d characters, above Discord's %d", l, longestID, longest, discordMaxContent)
		}
		t.Logf("%s: the longest refusal, %s, is %d characters of %d", l, longestID, longest, discordMaxContent)
	}
}

// TestHelpListsEveryRenderFormat: the help and the refusal of an unknown
// render name every render /maze offers, auto and each format of render's
// table that is offered in Discord, by its choice's name in the member's
// language: a format added to the table is in both with no edit to them.
func TestHelpListsEveryRenderFormat(t *testing.T) {
	e := newEnv(t, envOptions{})
	modes := []string{"auto"}
	for _, f := range render.Formats {
		if f.Chat {
			modes = append(modes, f.Name)
		}
	}
	for _, locale := range []string{"en-US", "ko"} {
		help := e.send(t, localized(slash(t, "help", nil), locale, "")).Replies[0].Text()
		refusal := checkRefusal(t, e.send(t, localized(slash(t, "maze", map[string]any{"render": "bmp"}), locale, "")))
		l := lang.For(locale)
		for _, m := range modes {
			label := l.T("choice.render." + m)
			if label == "choice.render."+m {
				t.Fatalf("%s: no choice name for render %s in the catalog", locale, m)
			}
			if !strings.Contains(help, label) {
				t.Errorf("%s: the help does not name render %s (%q)", locale, m, label)
			}
			if !strings.Contains(refusal, label) || !strings.Contains(refusal, "bmp") {
				t.Errorf("%s: refusal %q does not name render %s (%q)", locale, refusal, m, label)
			}
		}
	}
}

// TestLookRefusalsNameTheChoices: an unknown theme or style is refused with
// the choices as the member's picker names them, in every language (not
// the English values: "dark, light, print" in a Japanese refusal).
func TestLookRefusalsNameTheChoices(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, l := range lang.Languages() {
		for option, values := range map[string][]string{"theme": render.PaletteNames(), "style": render.StyleNames()} {
			refusal := checkRefusal(t, e.send(t, localized(slash(t, "maze", map[string]any{"render": "png", option: "sepia"}), l.Locales()[0], "")))
			want := make([]string, len(values))
			for i, v := range values {
				want[i] = l.T("choice." + option + "." + v)
			}
			if !strings.Contains(refusal, "sepia") || !containsAll(refusal, want) {
				t.Errorf("%s: %s refusal %q, want %v", l, option, refusal, want)
			}
		}
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestRepliesInMembersLanguage: replies, refusals, notices, buttons and
// game messages are in the language of the member who asked, whatever the
// server speaks; a language mazebot doesn't speak gets English.
func TestRepliesInMembersLanguage(t *testing.T) {
	e := newEnv(t, envOptions{})
	maze := localized(slash(t, "maze", map[string]any{"algorithm": "sidewinder", "size": 20, "seed": 1}), "ko", "en-US")
	rec := e.send(t, maze)
	if len(rec.Replies) != 1 || len(rec.Followups) != 1 {
		t.Fatalf("replies=%+v follows=%+v", rec.Replies, rec.Followups)
	}
	header, _, _ := strings.Cut(rec.Replies[0].Text(), "\n")
	if !strings.HasPrefix(header, "🧩 **사이드와인더** · 21×21 · ") || !strings.Contains(header, " · 기준 클릭 ") {
		t.Fatalf("Korean header %q", header)
	}
	if got := rec.Followups[0].Text(); got != "ℹ️ 미로의 가로세로는 홀수여야 하므로(벽이 짝수 칸에 놓입니다) 크기 20을 21로 올렸습니다." {
		t.Fatalf("Korean notice %q", got)
	}
	var labels []string
	for _, b := range buttons(rec.Replies[0]) {
		labels = append(labels, b.Label)
	}
	if !strings.HasPrefix(strings.Join(labels, ","), "플레이,풀이 보기,경주,인쇄") {
		t.Fatalf("button labels %v", labels)
	}
	id := idInReply(t, rec.Replies[0])

	// The same maze's Play pressed by an English and a Korean member.
	for locale, want := range map[string]string{"en-US": "clicks 0 · tiles 0", "ko": "클릭 0번 · 0칸 이동", "zh-CN": "clicks 0 · tiles 0"} {
		rec := e.send(t, localized(buttonIx(t, "ch1", customid.PlayPrefix+":"+id.String(), "u-"+locale), locale, ""))
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), want) {
			t.Fatalf("%s: game %+v, want %q", locale, rec.Replies, want)
		}
		giveUp := button(t, rec.Replies[0], customid.GiveUp)
		wantLabel := map[bool]string{true: "포기", false: "Give up"}[locale == "ko"]
		if giveUp.Label != wantLabel {
			t.Fatalf("%s: give up labelled %q", locale, giveUp.Label)
		}
		done := onlyUpdate(t, e.send(t, localized(buttonIx(t, "ch1", giveUp.CustomID, "u-"+locale), locale, "")))
		wantDone := map[bool]string{true: "🏳️ 클릭 0번, 0칸 이동한 뒤 포기했습니다.", false: "🏳️ You gave up after 0 clicks and 0 tiles."}[locale == "ko"]
		if !strings.Contains(done.Text(), wantDone) {
			t.Fatalf("%s: gave up %q, want %q", locale, done.Text(), wantDone)
		}
	}

	// Refusals, the router's own included.
	for _, tc := range []struct {
		ix   *discordgo.Interaction
		want string
	}{
		{slash(t, "solve", map[string]any{"id": "hello"}), "⚠️ 미로 ID가 아닙니다: `hello`."},
		{slash(t, "maze", map[string]any{"size": 3}), "⚠️ 크기는 5부터 1001까지의 홀수(타일 수)여야 합니다. 입력한 값은 3입니다."},
		{slash(t, "maze", map[string]any{"height": 3}), "⚠️ 높이는 5부터"},
		{slash(t, "gone", nil), "⚠️ 더 이상 없는 명령어입니다."},
		{buttonIx(t, "ch1", "zzz:1", "u1"), "⚠️ 더 이상 작동하지 않는 버튼입니다."},
		{buttonIx(t, "ch1", "mv:1:0:n:aaaaaaaaaa", "u1"), "⚠️ 사용할 수 없는 버튼입니다."},
	} {
		rec := e.send(t, localized(tc.ix, "ko", ""))
		if len(rec.Replies) != 1 || !strings.HasPrefix(rec.Replies[0].Text(), tc.want) || !rec.Replies[0].Ephemeral {
			t.Errorf("replies=%+v, want an ephemeral %q", rec.Replies, tc.want)
		}
	}
}

// TestPostsInServersLanguage: /daily setup records the server's language
// (guild_locale) unless the language option names one; a later setup
// keeps it; the scheduled post and an event's posts are in it, whoever
// asked.
func TestPostsInServersLanguage(t *testing.T) {
	setup := func(e *env, locale, guildLocale string, opts map[string]any) bot.Reply {
		t.Helper()
		all := map[string]any{"channel": "daily-ch", "time": "09:00", "timezone": "Asia/Seoul"}
		for k, v := range opts {
			all[k] = v
		}
		rec := e.send(t, localized(dailySlash(t, permsManager, "setup", all), locale, guildLocale))
		if len(rec.Replies) != 1 || strings.HasPrefix(rec.Replies[0].Text(), "⚠️") {
			t.Fatalf("setup answered %+v", rec.Replies)
		}
		return rec.Replies[0]
	}
	language := func(e *env) string {
		t.Helper()
		s, err := e.db.DailySettings(context.Background(), "g1")
		if err != nil {
			t.Fatal(err)
		}
		return s.Language
	}

	t.Run("OKDailyFromGuildLocale", func(t *testing.T) {
		e := newEnv(t, envOptions{now: utc(2026, 11, 29, 23, 0)})
		// An English-speaking manager of a Korean server: the confirmation
		// in English, the posts in Korean.
		done := setup(e, "en-US", "ko", nil)
		if !strings.Contains(done.Text(), "in 한국어.") || !strings.HasPrefix(done.Text(), "✅ The daily challenge") {
			t.Fatalf("confirmation %q", done.Text())
		}
		if got := language(e); got != "ko" {
			t.Fatalf("language=%q, want ko", got)
		}
		e.clock.Set(utc(2026, 11, 30, 0, 0))
		e.tick(t)
		posts := e.poster.in("daily-ch")
		if len(posts) != 1 || !strings.HasPrefix(posts[0].reply.Text(), "📅 **데일리 챌린지 #334** · 2026년 11월 30일 · ") {
			t.Fatalf("daily post %+v, want it in Korean", posts)
		}
		if b := buttons(posts[0].reply); len(b) != 3 || b[0].Label != "플레이" {
			t.Fatalf("daily post buttons %+v", b)
		}
		// /daily today is a reply: the member's language.
		rec := e.send(t, localized(dailySlash(t, permsMember, "today", nil), "en-GB", "ko"))
		if len(rec.Replies) != 1 || !strings.HasPrefix(rec.Replies[0].Text(), "📅 **Daily challenge #334** · 2026-11-30 · ") {
			t.Fatalf("/daily today %+v, want it in English", rec.Replies)
		}
	})
	t.Run("OKDailyOptionWinsAndStays", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		done := setup(e, "ko", "ko", map[string]any{"language": "en"})
		if !strings.Contains(done.Text(), "게시 언어: English") {
			t.Fatalf("confirmation %q", done.Text())
		}
		if got := language(e); got != "en" {
			t.Fatalf("language=%q, want en", got)
		}
		setup(e, "ko", "ko", map[string]any{"time": "10:00"})
		if got := language(e); got != "en" {
			t.Fatalf("language after a setup without the option=%q, want en kept", got)
		}
		rec := e.send(t, localized(dailySlash(t, permsManager, "setup", map[string]any{"channel": "c", "time": "09:00", "timezone": "UTC", "language": "tlh"}), "ko", ""))
		var names []string
		for _, l := range lang.Languages() {
			names = append(names, l.Name())
		}
		if msg := checkRefusal(t, rec); !strings.Contains(msg, "알 수 없는 언어입니다: `tlh`. 다음 중에서 고르십시오: "+strings.Join(names, ", ")+".") {
			t.Fatalf("refusal %q", msg)
		}
	})
	t.Run("OKEventPosts", func(t *testing.T) {
		for _, tc := range []struct {
			name, guild string
			opts        map[string]any
			board       string
			solution    string
		}{
			{"GuildKorean", "ko", nil, "📊 **실시간 순위표** — 아직 완주자 없음", "✅ **재귀적 백트래킹** 15×15 미로의 풀이"},
			{"OptionEnglish", "ko", map[string]any{"language": "en"}, "📊 **Live leaderboard** — no finishers yet", "✅ Solution of **Recursive backtracking** 15×15"},
			{"NoGuildLocale", "", nil, "📊 **Live leaderboard** — no finishers yet", "✅ Solution of **Recursive backtracking** 15×15"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := newEnv(t, eventEnv())
				all := map[string]any{"algorithm": "backtracking", "size": eventSide, "duration": "30m"}
				for k, v := range tc.opts {
					all[k] = v
				}
				rec := e.send(t, localized(eventCommandIx(t, "start", all, eventManager, eventManagePerms), "en-US", tc.guild))
				if len(rec.Replies) != 1 || !strings.HasPrefix(rec.Replies[0].Text(), "🏆 Event started:") {
					t.Fatalf("/event start answered %+v, want the manager's English", rec.Replies)
				}
				ev, err := e.db.RunningEvent(context.Background(), eventCh)
				if err != nil {
					t.Fatal(err)
				}
				if board := e.board(ev).current().Text(); !strings.HasPrefix(board, tc.board) {
					t.Fatalf("board %q, want %q", board, tc.board)
				}
				e.clock.Advance(31 * time.Minute)
				e.tick(t)
				found := false
				for _, p := range e.poster.in(eventCh) {
					found = found || strings.Contains(p.reply.Text(), "\n"+tc.solution)
				}
				if !found {
					t.Fatalf("no solution post %q among %+v", tc.solution, e.poster.in(eventCh))
				}
				// /solve now: the member's language, from the same cache.
				rec = e.send(t, localized(slash(t, "solve", map[string]any{"id": ev.MazeID.String()}), "ko", "en-US"))
				if len(rec.Replies) != 1 || !strings.HasPrefix(rec.Replies[0].Text(), "✅ **재귀적 백트래킹** 15×15 미로의 풀이") {
					t.Fatalf("/solve in Korean answered %+v", rec.Replies)
				}
			})
		}
	})
}

// TestPictureCacheByLanguage: a cached picture reply is kept per language,
// as it holds words.
func TestPictureCacheByLanguage(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 61, Height: 41, Seed: 5}
	for _, tc := range []struct{ locale, want string }{
		{"en-US", "✅ Solution of **Recursive backtracking** 61×41"},
		{"ko", "✅ **재귀적 백트래킹** 61×41 미로의 풀이"},
		{"en-US", "✅ Solution of **Recursive backtracking** 61×41"},
	} {
		rec := e.send(t, localized(slash(t, "solve", map[string]any{"id": id.String()}), tc.locale, ""))
		if len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 || !strings.HasPrefix(rec.Replies[0].Text(), tc.want) {
			t.Fatalf("%s: %+v, want %q with the PNG", tc.locale, rec.Replies, tc.want)
		}
	}
}
