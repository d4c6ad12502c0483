package lang

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	texttemplate "text/template"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

// languages is what mazebot speaks. English comes first: it is the fallback
// for unknown locales and missing messages, and the language of the command
// definitions. Adding a language is catalog/<code>.toml plus one line here
// naming the Discord locales it serves (Discord's codes, such as "en-US";
// the Discord wing checks that Discord knows them).
//
// The numbers' separators are CLDR 48's (the data of ICU 78, which
// Intl.NumberFormat in Node 20 reports; golang.org/x/text still carries
// CLDR 32, whose French group is U+00A0 and whose Spanish groups 1.234):
// symbols-numberSystem-latn's decimal and group, minimumGroupingDigits,
// and the space of percentFormats' "#,##0 %".
var languages = []*Lang{
	newLang("en", writing{}, "en-US", "en-GB"),
	newLang("ko", writing{}, "ko"),
	newLang("es", writing{decimal: ",", group: ".", minGrouping: 2, percent: "\u00a0%"}, "es-ES", "es-419"),
	newLang("pt-BR", writing{decimal: ",", group: "."}, "pt-BR"),
	newLang("ja", writing{list: "、"}, "ja"),
	newLang("fr", writing{decimal: ",", group: "\u202f", percent: "\u00a0%"}, "fr"),
	newLang("de", writing{decimal: ",", group: ".", percent: "\u00a0%"}, "de"),
}

// writing is how a language writes what the code puts together rather than
// a catalog: the zero value is English's (a decimal point, thousands
// grouped by commas, 100%, lists joined with ", ").
type writing struct {
	// decimal is the decimal separator of a number and of a run's tenths:
	// "0:42.3" in English, "0:42,3" in German, French, Spanish and
	// Portuguese.
	decimal string
	// group separates the thousands: "1,234" in English, "1.234" in
	// German, "1 234" (a narrow no-break space) in French.
	group string
	// minGrouping is CLDR's minimumGroupingDigits: 2 in Spanish, which
	// writes 1234 but 12.345.
	minGrouping int
	// percent follows a percentage's number: "100%" in English, "100 %"
	// (a no-break space) in German, French and Spanish.
	percent string
	// list joins the items of a List: "、" in Japanese.
	list string
}

// English and Korean are the languages the code names directly: English for
// the command line and as the fallback, Korean for tests.
var (
	English = languages[0]
	Korean  = For("ko")
)

// Lang is one language: its catalog and how it formats numbers and times.
// A *Lang is safe for concurrent use.
type Lang struct {
	code    string
	locales []string
	writing writing
	// catalog is this language's messages by ID and their localizer,
	// read on first use: a command-line maze needs no catalog, and
	// parsing them all takes milliseconds at every start.
	catalog func() langCatalog
}

type langCatalog struct {
	messages map[string]*i18n.Message
	loc      *i18n.Localizer
}

// Args are a message's named placeholders: {{.Name}} in a catalog is
// Args{"Name": …}. The placeholder "Count" also selects the plural form, so
// it must be an integer (or a decimal written as a string, "1.5"); T writes
// it with the language's separators. Other numbers are written as Go
// writes them unless they are a Number or a Percent.
type Args map[string]any

// countKey is the placeholder that selects the plural form.
const countKey = "Count"

// For returns the language for a Discord locale ("ko", "en-US"), or English
// for a locale mazebot does not speak. It takes any string type, as
// interactions carry discordgo's Locale and guilds a string.
func For[L ~string](locale L) *Lang {
	s := string(locale)
	for _, l := range languages {
		for _, loc := range l.locales {
			if strings.EqualFold(string(loc), s) {
				return l
			}
		}
	}
	// A regional variant Discord may add later ("ko-KR", "pt-PT", "es-MX")
	// still finds its language, by the base of the language's code.
	base, _, _ := strings.Cut(s, "-")
	for _, l := range languages {
		lbase, _, _ := strings.Cut(l.code, "-")
		if strings.EqualFold(lbase, base) {
			return l
		}
	}
	return English
}

// Languages lists every language, English first.
func Languages() []*Lang { return append([]*Lang(nil), languages...) }

// Lookup finds a language by its code ("en", "ko"): the codes stored for
// a server's posts and offered by the language option.
func Lookup(code string) (*Lang, bool) {
	for _, l := range languages {
		if l.code == code {
			return l, true
		}
	}
	return nil, false
}

// ByCode is the language of a stored code, English for "" (a server that
// never chose one) and for a code this build no longer speaks.
func ByCode(code string) *Lang {
	if l, ok := Lookup(code); ok {
		return l
	}
	return English
}

// Name is the language's own name for itself, "English", "한국어": how a
// language picker lists it, whatever the reader's language.
func (l *Lang) Name() string { return l.T(NameID) }

// NameID is the message that names each language in itself.
const NameID = "language.name"

// Code is the language's tag, which names its catalog: "en", "ko".
func (l *Lang) Code() string { return l.code }

// Locales are the Discord locales the language serves, its main one first.
func (l *Lang) Locales() []string { return append([]string(nil), l.locales...) }

func (l *Lang) String() string { return l.code }

// T formats the message id with its placeholders. It never fails: a message
// missing from this language falls back to English, and a message that
// cannot be formatted at all (unknown ID, missing placeholder) comes out as
// its ID, which tests and Check catch.
func (l *Lang) T(id string, args ...Args) string {
	var data Args
	switch len(args) {
	case 0:
	case 1:
		data = args[0]
	default:
		data = Args{}
		for _, a := range args {
			for k, v := range a {
				data[k] = v
			}
		}
	}
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateParser: parser}
	if n, ok := data[countKey]; ok {
		// The form is chosen by the count itself; the message shows it
		// as the language writes numbers ("1.234 Klicks").
		cfg.PluralCount = pluralCount(n)
		if text, ok := l.countText(n); ok {
			data = maps.Clone(data)
			data[countKey] = text
		}
	}
	data = l.resolve(data)
	if data != nil {
		cfg.TemplateData = map[string]any(data)
	}
	text, tag, err := l.catalog().loc.LocalizeWithTag(cfg)
	if err != nil {
		var notFound *i18n.MessageNotFoundErr
		// Only a fallback to English is a usable result; any other error
		// may have left half a message.
		if !(errors.As(err, &notFound) && tag == language.English && text != "") {
			return id
		}
	}
	return text
}

// Localizable is a placeholder value worded in the reader's language: T
// words it in its own language before it fills the message, so a message
// can be built before anyone knows who will read it (an error, a notice)
// and nested in another (an algorithm's name inside a sentence).
type Localizable interface {
	In(l *Lang) string
}

// Msg is a message by ID with its placeholders, worded when it is read.
type Msg struct {
	ID   string
	Args Args
}

// M is the message id with its placeholders (several Args are merged).
func M(id string, args ...Args) Msg {
	m := Msg{ID: id}
	switch len(args) {
	case 0:
	case 1:
		m.Args = args[0]
	default:
		m.Args = Args{}
		for _, a := range args {
			for k, v := range a {
				m.Args[k] = v
			}
		}
	}
	return m
}

// In words the message in l.
func (m Msg) In(l *Lang) string { return l.T(m.ID, m.Args) }

// IsZero tells whether m names no message.
func (m Msg) IsZero() bool { return m.ID == "" }

// Func is a placeholder value that depends on the language but is no
// message of its own: Func(func(l *Lang) string { return l.Duration(d) }).
type Func func(l *Lang) string

// In calls f with l.
func (f Func) In(l *Lang) string { return f(l) }

// List is a list of values, worded one by one and joined as the language
// joins them: "Binary tree, Sidewinder" / "이진 트리, 사이드와인더" /
// "二分木、サイドワインダー".
type List []Localizable

// In words each item in l.
func (ls List) In(l *Lang) string {
	parts := make([]string, len(ls))
	for i, v := range ls {
		parts[i] = v.In(l)
	}
	return strings.Join(parts, l.listSeparator())
}

func (l *Lang) listSeparator() string {
	if l.writing.list != "" {
		return l.writing.list
	}
	return ", "
}

// resolve words the Localizable values of data in l, on a copy.
func (l *Lang) resolve(data Args) Args {
	var out Args
	for k, v := range data {
		if lv, ok := v.(Localizable); ok {
			if out == nil {
				out = make(Args, len(data))
				for k2, v2 := range data {
					out[k2] = v2
				}
			}
			out[k] = lv.In(l)
		}
	}
	if out == nil {
		return data
	}
	return out
}

// pluralCount converts a count to what go-i18n accepts: integers and
// decimal strings.
func pluralCount(n any) any {
	switch v := n.(type) {
	case Number:
		return int64(v)
	case uint:
		return strconv.FormatUint(uint64(v), 10)
	case uint8:
		return int(v)
	case uint16:
		return int(v)
	case uint32:
		return int64(v)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return n
}

// funcs are the helpers a catalog may call. They depend on their arguments
// only, never on the language, so one parsed template serves every caller.
var funcs = texttemplate.FuncMap{
	"josa":        josa,
	"particle":    particleOnly,
	"article":     article,
	"withArticle": withArticle,
}

// cachingParser is go-i18n's text/template parser with our helpers. go-i18n
// reparses a template on every call when helpers are given, as they could
// differ between calls; ours never do, so it may keep the parsed template.
type cachingParser struct{ template.TextParser }

func (*cachingParser) Cacheable() bool { return true }

// parser also makes a missing placeholder an error rather than "<no value>"
// in a member's message.
var parser = &cachingParser{template.TextParser{Funcs: funcs, Option: "missingkey=error"}}

//go:embed catalog/*.toml
var catalogFS embed.FS

// loaded holds every embedded catalog by language code, including any
// that has no line in languages yet (Check reports it), and their bundle;
// parsed on first use.
var loaded = sync.OnceValues(loadCatalogs)

// catalogs is every embedded catalog by language code.
func catalogs() map[string]map[string]*i18n.Message {
	all, _ := loaded()
	return all
}

func loadCatalogs() (map[string]map[string]*i18n.Message, *i18n.Bundle) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	files, err := fs.Glob(catalogFS, "catalog/*.toml")
	if err != nil {
		panic(err)
	}
	all := map[string]map[string]*i18n.Message{}
	for _, name := range files {
		// The catalogs are compiled in: a broken one is a build error, and
		// every test of this package fails on it.
		f, err := b.LoadMessageFileFS(catalogFS, name)
		if err != nil {
			panic(fmt.Sprintf("lang: catalog %s: %v", name, err))
		}
		code := strings.TrimSuffix(path.Base(name), ".toml")
		msgs := map[string]*i18n.Message{}
		for _, m := range f.Messages {
			msgs[m.ID] = m
		}
		all[code] = msgs
	}
	return all, b
}

func newLang(code string, w writing, locales ...string) *Lang {
	return &Lang{code: code, locales: locales, writing: w, catalog: sync.OnceValue(func() langCatalog {
		all, bundle := loaded()
		return langCatalog{messages: all[code], loc: i18n.NewLocalizer(bundle, code)}
	})}
}

// Has reports whether the language's own catalog has the message (T
// falls back to English for one it lacks).
func (l *Lang) Has(id string) bool {
	_, ok := l.catalog().messages[id]
	return ok
}

// Forms is a message's templates in the language's own catalog by CLDR
// plural category ("one", "few", "many", "other"…): one entry, "other",
// for a message without a count; nil if the catalog lacks it. For a
// client that fills a message itself and picks the form by the count
// (Intl.PluralRules), as the Arena's page does.
func (l *Lang) Forms(id string) map[string]string {
	m := l.catalog().messages[id]
	if m == nil {
		return nil
	}
	return forms(m)
}

// Sources lists the templates of every message of the language's own
// catalog, by ID, each plural form apart: for checks of what the messages
// say (the commands they name, say).
func (l *Lang) Sources() map[string][]string {
	messages := l.catalog().messages
	out := make(map[string][]string, len(messages))
	for id, m := range messages {
		for _, form := range slices.Sorted(maps.Keys(forms(m))) {
			out[id] = append(out[id], forms(m)[form])
		}
	}
	return out
}
