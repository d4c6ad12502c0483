package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/mazecore"
)

// TestE2ELanguages runs every command and button flow through the fake
// Discord as a member (and a server) speaking each language mazebot
// speaks, and reads every text the bot sent (fake.Sent: replies, updates,
// followups, channel posts and their edits; content, embeds and button
// labels). No Korean text may hold an English sentence, no English text
// any Hangul; no Japanese text a word of Latin letters but the names of
// japaneseAllowed; a text in a Latin-script language (Spanish, Portuguese,
// German, French) none of the English words of englishWords; and no text
// another language's script or marker words (otherLanguage).
//
// An English sentence, here, is two or more words of ASCII letters in a
// row, separated by single spaces ("Give up", "no finishers yet"), once
// the allowed words are taken out; and a Korean text with letters must have
// Hangul, so that a lone English word (a button "Map") is found too. What
// may stay is listed in koreanAllowed below. Japanese is held to more: any
// word of two or more Latin letters is English left in (a single letter
// is a unit as typed, "30m"), and a Japanese text with letters must have
// kana or kanji.
func TestE2ELanguages(t *testing.T) {
	t.Parallel()
	var locales []string
	for _, l := range allLanguages() {
		locales = append(locales, l.locale)
	}
	for _, locale := range locales {
		t.Run(locale, func(t *testing.T) {
			t.Parallel()
			texts := runAllFlows(t, locale)
			if len(texts) < 60 {
				t.Fatalf("only %d texts collected", len(texts))
			}
			var bad []string
			for _, text := range texts {
				if problem := languageProblem(locale, text); problem != "" {
					bad = append(bad, problem+":\n    "+strings.ReplaceAll(text, "\n", "\n    "))
				}
			}
			if len(bad) > 0 {
				t.Fatalf("%d of %d texts in %s are not:\n  %s", len(bad), len(texts), locale, strings.Join(bad, "\n  "))
			}
		})
	}
}

// langEventName is the one name a member gives in the flows: a
// user-supplied name may be in any language.
const langEventName = "Night Race"

// englishName is the English language's own name, as the lists of
// languages show it.
var englishName = englishLanguageName()

// languageNamesAll are every language's name for itself, which any text
// listing the languages holds.
var languageNamesAll = func() []string {
	var out []string
	for _, l := range allLanguages() {
		out = append(out, l.name)
	}
	return out
}()

// englishWords are English words that the Latin-script languages do not
// share (checked: none is a Spanish, Portuguese, German or French word),
// matched whole and in any case.
var englishWords = regexp.MustCompile(`(?i)\b(?:the|and|your|you|with|maze|mazes|click|clicks|tile|tiles|press|please|today|solved|leaderboard|play|map|share|give|solve|print|race)\b`)

// markers are words only one of the languages writes (in any case, whole),
// so that a text of one found in another is caught: Spanish text in a
// German reply, say. Shared words (tu, les, los, está, con, da) are left
// out: each is a word of two of them, and so are French's labyrinthe and
// ton (German's plural Labyrinthe and its Ton).
var markers = map[string]*regexp.Regexp{
	"es":    regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:laberinto|laberintos|del|las|pulsa|jugar)(?:$|[^\p{L}])`),
	"pt-BR": regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:labirinto|labirintos|você|não|jogar|jogo)(?:$|[^\p{L}])`),
	"de":    regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:und|nicht|ist|dein|deine|deinen|mit|spielen)(?:$|[^\p{L}])`),
	"fr":    regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:avec|pour|une|votre|jouer|résoudre|être)(?:$|[^\p{L}])`),
}

// scripts finds the scripts of the languages that have their own: Hangul
// for Korean, kana for Japanese (and Han, which Korean does not write).
func foreignScript(code, text string) string {
	for _, r := range text {
		switch {
		case code != "ko" && unicode.Is(unicode.Hangul, r):
			return "Hangul"
		case code != "ja" && (unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han)):
			return "Japanese script"
		}
	}
	return ""
}

var (
	// Markup and values that are no words: Discord mentions and
	// timestamps, URLs, one-word code spans (maze IDs, echoed input such
	// as `hello-world`), IANA time zone names, the command line's command.
	neutralMarkup = regexp.MustCompile("<(?:t:\\d+(?::[tTdDfFR])?|#\\d+|@!?\\d+|#[\\w-]+|@[\\w-]+)>|https?://\\S+|`[^`\\s]+`|\\b[A-Z][a-z]+/[A-Za-z_]+\\b|`mazebot maze --id \\S+ --solve`")
	// koreanAllowed are the words of Latin letters a Korean text may
	// hold: the bot's and Discord's names, file formats, abbreviations
	// Korean writes in Latin letters, the time format, the English
	// language's own name (how the language choice names it), and the
	// name a member gave an event.
	koreanAllowed = []string{"mazebot", "Discord", "PNG", "GIF", "ID", "DM", "IANA", "UTC", "HH:MM", englishName, langEventName}
	// japaneseAllowed are the words of Latin letters a Japanese text may
	// hold: Korean's, and the formats Japanese writes in Latin letters
	// too (JPEG, PDF, MiB, A4), the date formats typed (YYYY-MM-DD) and
	// the keys the Arena names (WASD, Enter).
	japaneseAllowed = append(slices.Clone(koreanAllowed), "YYYY-MM-DD", "YYYY-MM", "JPEG", "PDF", "MiB", "WASD", "Enter")
	// latinWord is a word of two or more Latin letters touching no digit.
	latinWord = regexp.MustCompile(`(?:^|[^A-Za-z0-9])([A-Za-z][A-Za-z'’-]*[A-Za-z])(?:$|[^A-Za-z0-9])`)
	// cliSpan is the command line's command in a code span, which stays
	// English in every language.
	cliSpan = regexp.MustCompile("`mazebot maze [^`]*`")
	// koreanWithoutHangul are Korean texts that are names alone.
	koreanWithoutHangul = []string{"mazebot"}
	englishRun          = regexp.MustCompile(`[A-Za-z][A-Za-z'’-]*(?: [A-Za-z][A-Za-z'’-]*)+`)
	messageID           = regexp.MustCompile(`\b[a-z]+(?:\.[a-z0-9_-]+)+\b`)
)

// languageProblem says what is wrong with a text sent in locale, or "".
func languageProblem(locale, text string) string {
	ids := messageIDs()
	for _, m := range messageID.FindAllString(text, -1) {
		if slices.Contains(ids, m) {
			return "a message ID left unworded (" + m + ")"
		}
	}
	code := languageCode(locale)
	stripped := neutralMarkup.ReplaceAllString(text, " ")
	for _, name := range append([]string{langEventName}, languageNamesAll...) {
		stripped = strings.ReplaceAll(stripped, name, " ")
	}
	if script := foreignScript(code, stripped); script != "" {
		return script + " in " + code
	}
	for other, re := range markers {
		if other != code && code != "en" {
			if m := re.FindString(stripped); m != "" {
				return "a word of " + other + " (" + strings.TrimSpace(m) + ")"
			}
		}
	}
	switch code {
	case "en":
		return ""
	case "ko":
		for _, allowed := range koreanAllowed {
			stripped = strings.ReplaceAll(stripped, allowed, " ")
		}
		if run := englishRun.FindString(stripped); run != "" {
			return "an English sentence (" + run + ")"
		}
		if !slices.Contains(koreanWithoutHangul, text) && strings.ContainsFunc(stripped, unicode.IsLetter) && !hasHangul(stripped) {
			return "no Korean at all"
		}
		return ""
	case "ja":
		stripped = cliSpan.ReplaceAllString(stripped, " ")
		for _, allowed := range japaneseAllowed {
			stripped = strings.ReplaceAll(stripped, allowed, " ")
		}
		if m := latinWord.FindStringSubmatch(stripped); m != nil {
			return "a word of Latin letters (" + m[1] + ")"
		}
		if !slices.Contains(koreanWithoutHangul, text) && strings.ContainsFunc(stripped, unicode.IsLetter) && !hasJapanese(stripped) {
			return "no Japanese at all"
		}
		return ""
	}
	// Code spans are commands as typed (`mazebot maze …`), not prose.
	stripped = codeSpan.ReplaceAllString(stripped, " ")
	if m := englishWords.FindString(stripped); m != "" {
		return "an English word (" + m + ")"
	}
	return ""
}

// hasJapanese reports whether s has kana or kanji.
func hasJapanese(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) })
}

// codeSpan is Markdown code: `…`.
var codeSpan = regexp.MustCompile("`[^`]*`")

// TestLanguageProblem: the e2e test's rules on hand-made texts.
func TestLanguageProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		locale, text string
		bad          bool
	}{
		{"ko", "🧩 **사이드와인더** · 21×21 · 기준 클릭 9번 · ID `4840g08yam`", false},
		{"ko", "풀이는 <t:1796050800:R>(Asia/Seoul 기준 자정)에 공개됩니다. <#1300000000000000777>", false},
		{"ko", "**Night Race**가 끝났습니다. 게시 언어: English", false},
		{"ko", "미로 ID가 아닙니다: `hello-world`. mazebot이 올린 PNG", false},
		{"ko", "mazebot", false},
		{"ko", "🏁 Solved in 9 clicks", true},
		{"ko", "포기 · Give up", true},
		{"ko", "Map", true},
		{"ko", "error.internal", true},
		{"en-US", "🏁 Solved in 9 clicks · ID `4840g08yam`", false},
		{"en-US", "Replies in your language (English, 한국어)", false},
		{"en-US", "🏁 **미로 이벤트** ended", true},
		{"en-US", "maze.kind", true},
		{"es-ES", "🏁 Resuelto en 9 clics · ID `4840g08yam` · idiomas: English, 한국어, Español", false},
		{"es-ES", "🏁 Resuelto en 9 clicks", true},
		{"es-ES", "Pulsa **Play** en el laberinto", true},
		{"es-ES", "Press **Jugar**", true},
		{"es-ES", "El laberinto de tu servidor, with amigos", true},
		{"es-ES", "Le labyrinthe est prêt pour toi", true},
		{"es-ES", "미로", true},
		{"es-ES", "`mazebot maze --id 1 -o maze.png`", false},
		{"ja", "🧩 **サイドワインダー** · 21×21 · パー9 · ID `4840g08yam`", false},
		{"ja", "解答は<t:1796050800:R>（Asia/Tokyo の深夜0時過ぎ）に公開されます。<#1300000000000000777>", false},
		{"ja", "**Night Race**が終了しました。投稿の言語：English、日本語", false},
		{"ja", "PNG か JPEG を添付してください。mazebot のコマンドライン：`mazebot maze --id 1 -o maze.png`", false},
		{"ja", "30m、2h、1h30m、1d のように分（m）、時間（h）、日（d）で", false},
		{"ja", "mazebot", false},
		{"ja", "🏁 Solved in 9 clicks", true},
		{"ja", "ギブアップ · Map", true},
		{"ja", "Map", true},
		{"ja", "迷路 · render:png", true},
		{"ja", "미로", true},
		{"ja", "El laberinto", true},
		{"ko", "迷路", true},
		{"es-ES", "迷路", true},
		{"fr", "🏁 Résolu en 9 clics · ID `4840g08yam` · langues\u202f: English, 한국어, Français", false},
		{"fr", "Ta série\u202f: 3 jours. Joue avec /défi jour, puis **Jouer**.", false},
		{"fr", "🏁 Résolu en 9 clicks", true},
		{"fr", "Appuie sur **Play** sous le labyrinthe", true},
		{"fr", "Tu as abandonné, you know", true},
		{"fr", "El laberinto de tu servidor", true},
		{"fr", "Das Labyrinth ist fertig", true},
		{"fr", "미로", true},
		{"fr", "迷路", true},
		{"de", "Diese Nachricht ist keins meiner Labyrinthe: kein Ton, nur Bilder", false},
		{"de", "🏁 Gelöst mit 9 Klicks · Effizienz 80 %", false},
		{"de", "Drück **Play** unter dem Labyrinth", true},
		{"de", "Dein Labyrinth, with Freunden", true},
		{"de", "Pulsa **Spielen**", true},
		{"de", "Le labyrinthe est prêt pour toi", true},
	} {
		if got := languageProblem(tc.locale, tc.text); (got != "") != tc.bad {
			t.Errorf("%s %q: problem %q, want bad=%v", tc.locale, tc.text, got, tc.bad)
		}
	}
}

// langRun is one locale's pass through the flows.
type langRun struct {
	t      *testing.T
	fake   *discord
	locale string
	clock  interface {
		Set(time.Time)
		Advance(time.Duration)
		Now() time.Time
	}
	app *testApp
}

func (r *langRun) slashSpec(spec member.SlashSpec) *member.Interaction {
	r.t.Helper()
	spec.Locale, spec.GuildLocale = r.locale, r.locale
	ix, err := r.fake.SlashCommand(testContext(r.t), spec)
	if err != nil {
		r.t.Fatalf("/%s: %v", spec.Name, err)
	}
	return ix
}

// slash runs a command as a member and returns its final message.
func (r *langRun) slash(name string, opts ...member.Option) *fakediscord.Message {
	r.t.Helper()
	return final(r.t, r.slashSpec(member.SlashSpec{Name: name, Options: opts}))
}

// sub runs /name subcommand as a member with perms.
func (r *langRun) sub(name, subcommand, perms string, opts ...member.Option) *fakediscord.Message {
	r.t.Helper()
	return final(r.t, r.slashSpec(member.SlashSpec{Name: name, Permissions: perms, Options: []member.Option{
		sub(subcommand, opts...),
	}}))
}

// click presses a button on msg as the default member, or as user.
func (r *langRun) click(msg *fakediscord.Message, customID string, user ...string) *member.Interaction {
	r.t.Helper()
	spec := member.ButtonSpec{CustomID: customID, Message: msg, Locale: r.locale}
	if len(user) > 0 {
		spec.UserID = user[0]
	}
	ix, err := r.fake.ClickButton(testContext(r.t), spec)
	if err != nil {
		r.t.Fatal(err)
	}
	return ix
}

func (r *langRun) menu(target *fakediscord.Message) *fakediscord.Message {
	r.t.Helper()
	ix, err := r.fake.MessageCommand(testContext(r.t), member.MessageCommandSpec{Name: "Solve this maze", Target: target, Locale: r.locale})
	if err != nil {
		r.t.Fatal(err)
	}
	return final(r.t, ix)
}

// refused checks that msg is a private warning.
func (r *langRun) refused(what string, msg *fakediscord.Message) {
	r.t.Helper()
	if !msg.Ephemeral() || !strings.HasPrefix(msg.Text(), "⚠️") {
		r.t.Fatalf("%s answered %q (ephemeral %v), want a private refusal", what, msg.Text(), msg.Ephemeral())
	}
}

// runAllFlows runs every flow as a member speaking locale, in a server
// speaking it, and returns every text the bot sent.
func runAllFlows(t *testing.T, locale string) []string {
	fake := newDiscord(t)
	r := &langRun{t: t, fake: fake, locale: locale}
	r.clock = fake.useClock(time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)) // 08:00 in Seoul
	r.app = fake.startApp(t)
	ctx := testContext(t)
	opts := func(kv ...any) []member.Option {
		var out []member.Option
		for i := 0; i < len(kv); i += 2 {
			out = append(out, opt(kv[i].(string), kv[i+1]))
		}
		return out
	}

	// The help, the longest reply, must not be refused by Discord (the
	// apology that would come instead speaks the language too).
	helpIx := r.slashSpec(member.SlashSpec{Name: "help"})
	if help := final(t, helpIx); strings.HasPrefix(help.Text(), "⚠️") || !strings.Contains(help.Text(), "mazebot") {
		t.Fatalf("/help answered %q (rejections %v)", help.Text(), helpIx.Rejections())
	}

	// Mazes: emoji, PNG, GIF, a rounded size; their solutions four ways.
	mazeMsg := r.slash("maze", opts("algorithm", "sidewinder", "size", 21, "seed", 7)...)
	mazeID := mazeIDIn(t, mazeMsg.Text())
	if png := r.slash("maze", opts("algorithm", "backtracking", "size", 61, "render", "png")...); len(png.Attachments) != 1 {
		t.Fatalf("PNG maze %+v", png)
	}
	if gif := r.slash("maze", opts("size", 11, "render", "gif")...); len(gif.Attachments) != 1 {
		t.Fatalf("GIF maze %+v", gif)
	}
	rounded := r.slashSpec(member.SlashSpec{Name: "maze", Options: opts("size", 20)})
	if _, err := rounded.WaitFollowup(ctx, 0); err != nil {
		t.Fatalf("no rounding notice: %v", err)
	}
	r.slash("solve")
	r.slash("solve", opts("id", mazeID.String())...)
	final(t, r.click(mazeMsg, "solve:"+mazeID.String()))
	r.menu(mazeMsg)

	// Refusals.
	r.refused("size 3", final(t, r.slashSpec(member.SlashSpec{Name: "maze", Options: opts("size", 3), SkipValidation: true})))
	r.refused("algorithm prim", final(t, r.slashSpec(member.SlashSpec{Name: "maze", Options: opts("algorithm", "prim"), SkipValidation: true})))
	r.refused("a malformed ID", r.slash("solve", opts("id", "hello-world")...))
	r.refused("an empty channel", final(t, r.slashSpec(member.SlashSpec{Name: "solve", ChannelID: "1300000000000000999"})))
	chat := fake.PostChannelMessage(fakediscord.DefaultChannelID, fakediscord.Message{Content: "just chatting", AuthorID: fakediscord.DefaultUserID})
	r.refused("the menu on a chat message", r.menu(chat))
	forged := &fakediscord.Message{ID: "1500000000000000001", ChannelID: fakediscord.DefaultChannelID, GuildID: fakediscord.DefaultGuildID,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{CustomID: "mv:1:0:n:aaaaaaaaaa", Label: "forged", Style: discordgo.PrimaryButton},
			discordgo.Button{CustomID: "old:1", Label: "old", Style: discordgo.PrimaryButton},
		}}}}
	r.refused("a forged button", final(t, r.click(forged, "mv:1:0:n:aaaaaaaaaa")))
	r.refused("a button of no command", final(t, r.click(forged, "old:1")))
	r.refused("/event start by a member", r.sub("event", "start", fakediscord.DefaultPermissions, opts("algorithm", "digging", "size", 15, "duration", "30m")...))
	r.refused("/daily off before setup", r.sub("daily", "off", e2eManagePerms))

	// Play: a win, a give-up after a move, and a windowed game with its
	// Map, given up too (the whole maze follows as a PNG).
	m, err := mazecore.Generate(mazeID)
	if err != nil {
		t.Fatal(err)
	}
	p := fake.startGameIn(t, mazeMsg, m, fakediscord.DefaultUserID, locale)
	p.walk()
	quitter := fake.startGameIn(t, mazeMsg, m, "1400000000000000002", locale)
	quitter.click(quitter.next())
	giveUp(t, r, quitter)
	bigMsg := r.slash("maze", opts("algorithm", "backtracking", "size", 41, "seed", 3)...)
	big, err := mazecore.Generate(mazeIDIn(t, bigMsg.Text()))
	if err != nil {
		t.Fatal(err)
	}
	windowed := fake.startGameIn(t, bigMsg, big, "1400000000000000003", locale)
	windowed.click(windowed.next())
	mapMsg := final(t, r.click(windowed.msg, actionButton(t, windowed.msg, "m").CustomID, windowed.userID))
	if len(mapMsg.Attachments) != 1 || !mapMsg.Ephemeral() {
		t.Fatalf("Map answered %+v, want a private PNG", mapMsg)
	}
	giveUp(t, r, windowed)

	// The daily: set up (language chosen), today's maze, the scheduled
	// post, a win with its share lines, the embargo, the leaderboards,
	// off.
	const dailyCh = "1300000000000000777"
	r.sub("daily", "setup", e2eManagePerms, opts("channel", dailyCh, "time", "09:00", "timezone", "Asia/Seoul", "language", languageCode(locale))...)
	r.sub("daily", "today", "")
	r.clock.Set(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) // 09:00 in Seoul
	if err := r.app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	post, err := fake.WaitChannelMessage(ctx, dailyCh, func(*fakediscord.Message) bool { return true })
	if err != nil {
		t.Fatalf("no daily post: %v", err)
	}
	dailyID := mazeIDIn(t, post.Text())
	daily, err := mazecore.Generate(dailyID)
	if err != nil {
		t.Fatal(err)
	}
	fake.startGameIn(t, post, daily, fakediscord.DefaultUserID, locale).walk()
	r.refused("/solve on the running daily", r.slash("solve", opts("id", dailyID.String())...))
	for _, period := range []string{"daily", "week", "all"} {
		if board := r.slash("leaderboard", opts("period", period)...); len(board.Embeds) != 1 {
			t.Fatalf("/leaderboard %s: %+v", period, board)
		}
	}
	// The archive before a day is past, a malformed date; a profile.
	r.refused("/daily archive on the first day", r.sub("daily", "archive", ""))
	r.refused("/daily archive date:tomorrow", r.sub("daily", "archive", "", opts("date", "tomorrow")...))
	r.slash("profile")
	// The next day: the list, yesterday's card played to the goal, the
	// date of today refused.
	r.clock.Set(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err := r.app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	r.sub("daily", "archive", "")
	card := r.sub("daily", "archive", "", opts("date", "2026-11-30")...)
	fake.playArchiveIn(t, card, "2026-11-30", fakediscord.DefaultUserID, locale)
	r.refused("/daily archive date:today", r.sub("daily", "archive", "", opts("date", "2026-12-01")...))
	r.sub("daily", "off", e2eManagePerms)

	// An event: started in the server's language (no option), played,
	// its board edited, ended by command: results, solution, final board
	// and the maze's Solve button back.
	started := r.sub("event", "start", e2eManagePerms, opts("algorithm", "backtracking", "size", 15, "duration", "30m", "name", langEventName)...)
	if !started.Ephemeral() || strings.HasPrefix(started.Text(), "⚠️") {
		t.Fatalf("/event start answered %q", started.Text())
	}
	eventMsg, err := fake.WaitChannelMessage(ctx, fakediscord.DefaultChannelID, func(m *fakediscord.Message) bool {
		return !m.Ephemeral() && strings.Contains(m.Text(), "**"+langEventName+"**") && len(m.Buttons()) == 1
	})
	if err != nil {
		t.Fatalf("no event maze: %v", err)
	}
	ev, err := mazecore.Generate(mazeIDIn(t, eventMsg.Text()))
	if err != nil {
		t.Fatal(err)
	}
	fake.startGameIn(t, eventMsg, ev, fakediscord.DefaultUserID, locale).walk()
	r.clock.Advance(contest.BoardEditInterval)
	if err := r.app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	r.sub("event", "end", e2eManagePerms)
	fake.waitEdits(t, eventMsg.ID, 1) // the maze's Solve button, the last closing step

	var texts []string
	for _, msg := range fake.Sent() {
		texts = append(texts, msg.Texts()...)
	}
	return texts
}

// actionButton finds a game message's button of a move action ("m", "g").
func actionButton(t *testing.T, msg *fakediscord.Message, action string) fakediscord.Button {
	t.Helper()
	for _, b := range msg.Buttons() {
		if parts := strings.Split(b.CustomID, ":"); len(parts) == 5 && parts[3] == action {
			return b
		}
	}
	t.Fatalf("no %q button in %+v", action, msg.Buttons())
	return fakediscord.Button{}
}

// giveUp presses Give up on a game message and waits for the result (and,
// for a windowed game, the whole maze that follows).
func giveUp(t *testing.T, r *langRun, p *player) {
	t.Helper()
	msg := p.msg
	ix := r.click(msg, actionButton(t, msg, "g").CustomID, p.userID)
	done := final(t, ix)
	if !strings.Contains(done.Text(), "🏳️") {
		t.Fatalf("give up left %q", done.Text())
	}
	checkNextGame(t, done, p.maze.ID(), false)
	if strings.Contains(msg.Text(), "📍") {
		if _, err := ix.WaitFollowup(testContext(t), 0); err != nil {
			t.Fatalf("no whole maze after giving up a windowed game: %v", err)
		}
	}
}
