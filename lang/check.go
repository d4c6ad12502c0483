package lang

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	texttemplate "text/template"
	"text/template/parse"
	"unicode"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

// IDs lists every message ID of every catalog, sorted.
func IDs() []string { return idsOf(catalogs()) }

func idsOf(cats map[string]map[string]*i18n.Message) []string {
	ids := map[string]bool{}
	for _, msgs := range cats {
		for id := range msgs {
			ids[id] = true
		}
	}
	return slices.Sorted(maps.Keys(ids))
}

// HasHangul reports whether s contains Korean script: English output must
// not, and Korean output must, beyond names and IDs.
func HasHangul(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

// Check verifies the catalogs against each other, so that a language is
// never half translated. It reports:
//   - a catalog without a line in the languages table, or the reverse, and
//     a locale served by two languages (or a language serving none);
//   - a message ID missing from a catalog that another catalog has;
//   - a template that does not parse, or calls josa/particle with a particle
//     it does not know, or a helper with the wrong arguments;
//   - placeholders that differ between languages: the set of fields a
//     message uses ({{.Name}}, also inside helper calls such as
//     {{josa .Name "을/를"}}) must be the same in every language, while the
//     helpers themselves are each language's grammar and may differ;
//   - a plural message (one that has a form other than "other" in some
//     language, or uses {{.Count}}) that lacks a form the language's CLDR
//     rules require, or has a form they never select;
//   - a command text (cmd.*, choice.*) with placeholders, which Discord
//     could not fill, or that breaks Discord's rules in some language: a
//     slash command's or option's name (cmd.*.name whose English is one)
//     must be 1–32 lowercase letters, digits, - or _ (Discord's
//     ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$), a context-menu
//     name 1–32 characters without spaces around, a description or a
//     choice 1–100 characters.
//
// Every registered language is checked alike: a language is registered
// complete or not at all.
func Check() error { return check(catalogs(), languages) }

// check is Check over given catalogs and languages, so tests can feed it
// broken ones.
func check(catalogs map[string]map[string]*i18n.Message, languages []*Lang) error {
	var errs []error
	report := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	codes := slices.Sorted(maps.Keys(catalogs))
	registered := map[string]bool{}
	served := map[string]string{}
	for _, l := range languages {
		registered[l.code] = true
		if catalogs[l.code] == nil {
			report("language %s has no catalog/%s.toml", l.code, l.code)
		}
		if len(l.locales) == 0 {
			report("language %s serves no locale", l.code)
		}
		for _, loc := range l.locales {
			if other, ok := served[loc]; ok {
				report("locale %s is served by both %s and %s", loc, other, l.code)
			}
			served[loc] = l.code
		}
	}
	for _, code := range codes {
		if !registered[code] {
			report("catalog/%s.toml has no line in the languages table", code)
		}
	}

	required := map[string][]string{}
	for _, code := range codes {
		required[code] = pluralForms(code)
	}

	for _, id := range idsOf(catalogs) {
		fieldsOf := map[string][]string{} // by language
		plural := false
		for _, code := range codes {
			m, ok := catalogs[code][id]
			if !ok {
				report("%s: missing in catalog/%s.toml", id, code)
				continue
			}
			if m.LeftDelim != "" || m.RightDelim != "" {
				report("%s [%s]: custom delimiters are not supported", id, code)
			}
			set := map[string]bool{}
			for form, src := range forms(m) {
				if form != "other" {
					plural = true
				}
				fs, err := templateFields(src)
				if err != nil {
					report("%s [%s] %s: %v", id, code, form, err)
				}
				for _, f := range fs {
					set[f] = true
				}
			}
			if set[countKey] {
				plural = true
			}
			fieldsOf[code] = slices.Sorted(maps.Keys(set))
			if (strings.HasPrefix(id, "cmd.") || strings.HasPrefix(id, "choice.")) && strings.Contains(m.Other, "{{") {
				report("%s [%s]: a command text cannot have placeholders", id, code)
			} else if err := checkCommandText(id, m.Other, catalogs[languages[0].code][id]); err != nil {
				report("%s [%s]: %v", id, code, err)
			}
		}
		ref := ""
		for _, code := range append([]string{languages[0].code}, codes...) {
			if _, ok := fieldsOf[code]; ok {
				ref = code
				break
			}
		}
		for _, code := range codes {
			got, ok := fieldsOf[code]
			if ok && !slices.Equal(got, fieldsOf[ref]) {
				report("%s: placeholders %v in %s but %v in %s", id, got, code, fieldsOf[ref], ref)
			}
		}
		for _, code := range codes {
			m, ok := catalogs[code][id]
			if !ok {
				continue
			}
			have := slices.Sorted(maps.Keys(forms(m)))
			want := []string{"other"}
			if plural {
				want = required[code]
			}
			for _, f := range want {
				if !slices.Contains(have, f) {
					report("%s [%s]: plural form %q is missing (%s needs %v)", id, code, f, code, want)
				}
			}
			for _, f := range have {
				if !slices.Contains(want, f) {
					report("%s [%s]: form %q is never used (%s uses %v)", id, code, f, code, want)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// forms maps a message's non-empty plural forms to their templates.
func forms(m *i18n.Message) map[string]string {
	all := map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other}
	for f, src := range all {
		if src == "" {
			delete(all, f)
		}
	}
	return all
}

// templateFields parses a message as T will and lists the top-level fields
// it uses, checking the helper calls on the way.
func templateFields(src string) ([]string, error) {
	t, err := texttemplate.New("").Funcs(funcs).Option("missingkey=error").Parse(src)
	if err != nil {
		return nil, err
	}
	if t.Tree == nil {
		return nil, nil
	}
	var (
		fields []string
		errs   []error
	)
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c)
				}
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n != nil {
				for _, c := range n.Cmds {
					walk(c)
				}
			}
		case *parse.CommandNode:
			if err := checkHelperCall(n); err != nil {
				errs = append(errs, err)
			}
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		case *parse.ChainNode:
			walk(n.Node)
		case *parse.FieldNode:
			fields = append(fields, n.Ident[0])
		}
	}
	walk(t.Tree.Root)
	return fields, errors.Join(errs...)
}

// checkHelperCall checks the arguments of our helpers, which text/template
// would only check when a message is sent.
func checkHelperCall(n *parse.CommandNode) error {
	id, ok := n.Args[0].(*parse.IdentifierNode)
	if !ok {
		return nil
	}
	switch id.Ident {
	case "josa", "particle":
		if len(n.Args) != 3 {
			return fmt.Errorf(`write {{%s .Word "을/를"}}, not %s`, id.Ident, n)
		}
		s, ok := n.Args[2].(*parse.StringNode)
		if !ok {
			return fmt.Errorf("%s: the particle must be a quoted string", n)
		}
		if _, ok := lookupParticle(s.Text); !ok {
			return fmt.Errorf("%s: unknown particle %q", n, s.Text)
		}
	case "article", "withArticle":
		if len(n.Args) != 2 {
			return fmt.Errorf("write {{%s .Word}}, not %s", id.Ident, n)
		}
	}
	return nil
}

// pluralProbes are counts that, between them, meet every plural form of
// every CLDR rule set: integers up to 1000, large round numbers (French
// "many" is a million), and decimals, whose forms differ in several
// languages (Russian "other", English "1.0 minutes").
var pluralProbes = func() []any {
	var ps []any
	for i := range 1001 {
		ps = append(ps, i)
	}
	for _, n := range []int{10_000, 100_000, 1_000_000, 10_000_000} {
		ps = append(ps, n)
	}
	for i := range 300 {
		ps = append(ps, fmt.Sprintf("%d.%d", i/10, i%10))
	}
	return append(ps, "0.00", "0.01", "1.00", "1.50", "2.25", "1000000.0")
}()

// pluralForms asks go-i18n which plural forms its CLDR rules select for a
// language, by offering a message with every form and counting which ones
// come back. The rules themselves are internal to go-i18n.
func pluralForms(code string) []string {
	b := i18n.NewBundle(language.English)
	tag := language.Make(code)
	probe := &i18n.Message{ID: "probe", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
	if err := b.AddMessages(tag, probe); err != nil {
		return []string{"other"}
	}
	loc := i18n.NewLocalizer(b, code)
	seen := map[string]bool{}
	for _, n := range pluralProbes {
		form, err := loc.Localize(&i18n.LocalizeConfig{MessageID: "probe", PluralCount: n, TemplateParser: template.IdentityParser{}})
		if err == nil {
			seen[form] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// chatName is Discord's rule for slash command and option names, with Go's
// names for the scripts Devanagari and Thai (whose marks are not letters).
var chatName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// checkCommandText applies Discord's rules to a command text (cmd.*,
// choice.*, language.name); english is the message in the first language,
// whose name tells a slash command's name from a context menu's.
func checkCommandText(id, text string, english *i18n.Message) error {
	n := utf8.RuneCountInString(text)
	switch {
	case strings.HasPrefix(id, "cmd.") && strings.HasSuffix(id, ".name"):
		if english != nil && !chatName.MatchString(english.Other) {
			// A context-menu command: "Solve this maze".
			if n < 1 || n > 32 || strings.TrimSpace(text) != text {
				return fmt.Errorf("%q is not a valid context-menu name: 1–32 characters, no spaces around", text)
			}
			return nil
		}
		if !chatName.MatchString(text) {
			return fmt.Errorf("%q is not a valid command or option name: 1–32 letters, digits, - or _", text)
		}
		if strings.ToLower(text) != text {
			return fmt.Errorf("%q is not a valid command or option name: letters must be lowercase", text)
		}
	case strings.HasPrefix(id, "cmd."), strings.HasPrefix(id, "choice."), id == NameID:
		if n < 1 || n > 100 {
			return fmt.Errorf("%q has %d characters, not 1–100", text, n)
		}
	}
	return nil
}
