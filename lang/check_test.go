package lang

import (
	"strings"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// TestCatalogs is the completeness check: every catalog has every message,
// with the same placeholders and the plural forms its language needs.
func TestCatalogs(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("catalogs:\n%v", err)
	}
	if n := len(IDs()); n < 90 {
		t.Fatalf("IDs()=%d messages, want the whole catalog", n)
	}
}

// TestCheckFinds feeds Check broken catalogs: each must be reported.
func TestCheckFinds(t *testing.T) {
	en := func(id, other string) *i18n.Message { return &i18n.Message{ID: id, Other: other} }
	langs := []*Lang{{code: "en", locales: []string{"en-US"}}, {code: "ko", locales: []string{"ko"}}}
	for _, tc := range []struct {
		name string
		en   []*i18n.Message
		ko   []*i18n.Message
		want string
	}{
		{"MissingID", []*i18n.Message{en("a", "A"), en("b", "B")}, []*i18n.Message{en("a", "가")}, "b: missing in catalog/ko.toml"},
		{"MissingInEnglish", []*i18n.Message{en("a", "A")}, []*i18n.Message{en("a", "가"), en("b", "나")}, "b: missing in catalog/en.toml"},
		{"PlaceholderRenamed", []*i18n.Message{en("a", "{{.Name}} won")}, []*i18n.Message{en("a", "{{.Who}} 승리")}, "placeholders [Who] in ko but [Name] in en"},
		{"PlaceholderDropped", []*i18n.Message{en("a", "{{.Name}} won in {{.Time}}")}, []*i18n.Message{en("a", "{{.Name}} 승리")}, "placeholders [Name] in ko but [Name Time] in en"},
		{"PlaceholderInHelper", []*i18n.Message{en("a", "{{.Name}} won")}, []*i18n.Message{en("a", `{{josa .Who "이/가"}} 이겼습니다`)}, "placeholders [Who] in ko"},
		{"PluralOneMissing", []*i18n.Message{en("a", "{{.Count}} clicks")}, []*i18n.Message{en("a", "{{.Count}}번")}, `a [en]: plural form "one" is missing`},
		{"PluralFormUnused", []*i18n.Message{{ID: "a", One: "{{.Count}} click", Other: "{{.Count}} clicks"}}, []*i18n.Message{{ID: "a", One: "{{.Count}}번", Other: "{{.Count}}번"}}, `a [ko]: form "one" is never used`},
		{"UnknownParticle", []*i18n.Message{en("a", "{{.X}}")}, []*i18n.Message{en("a", `{{josa .X "에서"}}`)}, `unknown particle "에서"`},
		{"PipedParticle", []*i18n.Message{en("a", "{{.X}}")}, []*i18n.Message{en("a", `{{.X | josa "을"}}`)}, `write {{josa .Word "을/를"}}`},
		{"UnknownHelper", []*i18n.Message{en("a", "{{shout .X}}")}, []*i18n.Message{en("a", "{{.X}}")}, `function "shout" not defined`},
		{"CommandPlaceholder", []*i18n.Message{en("cmd.x.name", "{{.X}}")}, []*i18n.Message{en("cmd.x.name", "{{.X}}")}, "a command text cannot have placeholders"},
		{"CommandNameCapital", []*i18n.Message{en("cmd.x.name", "maze")}, []*i18n.Message{en("cmd.x.name", "Labyrinth")}, `cmd.x.name [ko]: "Labyrinth" is not a valid command or option name: letters must be lowercase`},
		{"CommandNameSpace", []*i18n.Message{en("cmd.x.y.name", "size")}, []*i18n.Message{en("cmd.x.y.name", "taille max")}, `"taille max" is not a valid command or option name`},
		{"CommandNameLong", []*i18n.Message{en("cmd.x.name", "maze")}, []*i18n.Message{en("cmd.x.name", strings.Repeat("x", 33))}, "is not a valid command or option name"},
		{"MenuNameSpaces", []*i18n.Message{en("cmd.x.name", "Solve this maze")}, []*i18n.Message{en("cmd.x.name", " 미로 풀기")}, "is not a valid context-menu name"},
		{"DescriptionLong", []*i18n.Message{en("cmd.x.description", "A")}, []*i18n.Message{en("cmd.x.description", strings.Repeat("가", 101))}, "has 101 characters, not 1–100"},
		{"ChoiceLong", []*i18n.Message{en("choice.x.y", "A")}, []*i18n.Message{en("choice.x.y", strings.Repeat("가", 101))}, "has 101 characters, not 1–100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cats := map[string]map[string]*i18n.Message{"en": {}, "ko": {}}
			for _, m := range tc.en {
				cats["en"][m.ID] = m
			}
			for _, m := range tc.ko {
				cats["ko"][m.ID] = m
			}
			err := check(cats, langs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("check=%v, want an error with %q", err, tc.want)
			}
		})
	}
	t.Run("CommandTextsValid", func(t *testing.T) {
		cats := map[string]map[string]*i18n.Message{
			"en": {"cmd.a.name": en("cmd.a.name", "maze"), "cmd.b.name": en("cmd.b.name", "Solve this maze"), "choice.a.b": en("choice.a.b", "Binary tree")},
			"ko": {"cmd.a.name": en("cmd.a.name", "미로_만들기"), "cmd.b.name": en("cmd.b.name", "이 미로 풀기"), "choice.a.b": en("choice.a.b", "이진 트리")},
		}
		if err := check(cats, langs); err != nil {
			t.Fatalf("check=%v, want valid names (a context-menu name may have spaces)", err)
		}
	})
	t.Run("Registry", func(t *testing.T) {
		cats := map[string]map[string]*i18n.Message{"en": {}, "ko": {}, "ja": {}}
		err := check(cats, append(langs, &Lang{code: "fr", locales: []string{"fr", "ko"}}))
		for _, want := range []string{"catalog/ja.toml has no line", "language fr has no catalog/fr.toml", "locale ko is served by both ko and fr"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("check=%v, want %q", err, want)
			}
		}
	})
}

// TestPluralForms: go-i18n's CLDR rules as Check sees them.
func TestPluralForms(t *testing.T) {
	for code, want := range map[string]string{"en": "one other", "ko": "other", "ru": "few many one other", "ar": "few many one other two zero"} {
		if got := strings.Join(pluralForms(code), " "); got != want {
			t.Errorf("pluralForms(%s)=%q, want %q", code, got, want)
		}
	}
}

// TestLanguagesStayApart: no Hangul in English, some in every Korean text
// but those that are names or formats, so a later end-to-end test can tell
// the languages apart by HasHangul.
func TestLanguagesStayApart(t *testing.T) {
	// Formats and lines of placeholders alone read the same in both.
	sameInBoth := map[string]bool{
		"help.title": true, "format.date": true, "format.duration": true, "format.size": true, "format.aside": true,
		"choice.render.png": true, "board.day_line": true, "event.line": true,
	}
	for _, id := range IDs() {
		en, ko := English.catalog().messages[id], Korean.catalog().messages[id]
		for form, src := range forms(en) {
			if HasHangul(src) {
				t.Errorf("en %s %s has Hangul: %q", id, form, src)
			}
		}
		if sameInBoth[id] {
			continue
		}
		for form, src := range forms(ko) {
			if !HasHangul(src) {
				t.Errorf("ko %s %s has no Hangul: %q", id, form, src)
			}
		}
	}
	if HasHangul("an 11×11 maze · 1:42") || !HasHangul("미로") || !HasHangul("ㄹ") {
		t.Fatal("HasHangul")
	}
}
