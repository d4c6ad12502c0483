package bot

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/lang"
)

// Catalog IDs of the command definitions follow the command path, so that
// nothing has to list them twice:
//
//	cmd.maze.name, cmd.maze.description              a command
//	cmd.maze.size.name, cmd.maze.size.description    its option
//	cmd.daily.setup.channel.description              a subcommand's option
//	cmd.solve-this-maze.name                         a context-menu command
//	choice.algorithm.backtracking                    a choice, by option name and value
//
// Names are lower-cased and anything but letters, digits, - and _ becomes
// "-" ("Solve this maze" → solve-this-maze). Choices are shared by every
// option of that name: /maze, /daily setup and /event start list the same
// algorithms.
//
// The choices of the language option (LanguageOption) are the exception:
// each names its language in that language ("English", "한국어"), the same
// for every reader, as language pickers do. They come from each catalog's
// language.name, so a new language needs no message in the others.

// LanguageOption is the name of the option whose choices are the
// languages (LanguageChoices).
const LanguageOption = "language"

// LanguageChoices are the choices of a language option: every language,
// by its own name, with its code as the value.
func LanguageChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, l := range lang.Languages() {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: l.Name(), Value: l.Code()})
	}
	return out
}

// discordLocales are the Discord locales a language serves.
func discordLocales(l *lang.Lang) []discordgo.Locale {
	var out []discordgo.Locale
	for _, loc := range l.Locales() {
		out = append(out, discordgo.Locale(loc))
	}
	return out
}

// CheckLocales reports every locale a language serves that Discord does
// not know: its localizations would be refused at the command sync.
func CheckLocales() error {
	var errs []error
	for _, l := range lang.Languages() {
		for _, loc := range discordLocales(l) {
			if _, ok := discordgo.Locales[loc]; !ok || loc == discordgo.Unknown {
				errs = append(errs, fmt.Errorf("language %s: %q is not a Discord locale", l.Code(), string(loc)))
			}
		}
	}
	return errors.Join(errs...)
}

// field is one localizable text of the definitions.
type field struct {
	where string // "/daily setup channel description", for errors
	id    string
	kind  textKind
	value string // the English in the definition
	// endonym is the language code of a language choice, which is not
	// localized: its text is that language's language.name.
	endonym string
	// locs returns the field's localizations, creating the map if asked.
	locs func(create bool) map[discordgo.Locale]string
	// set writes the English of a description or a choice, which the
	// definitions leave to the English catalog; nil for a name, which is
	// the code's own.
	set func(english string)
}

type textKind int

const (
	kindName        textKind = iota // a slash command's or option's name
	kindMenuName                    // a context-menu command's name
	kindDescription                 // a command's or option's description
	kindChoice                      // a choice's name
)

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

// isChatInput tells a slash command, or an Activity's Entry Point command,
// which is named and described as one.
func isChatInput(c *discordgo.ApplicationCommand) bool {
	return c.Type == 0 || c.Type == discordgo.ChatApplicationCommand || c.Type == PrimaryEntryPoint
}

// fields lists every localizable text of cmds.
func fields(cmds []*discordgo.ApplicationCommand) []field {
	var fs []field
	for _, c := range cmds {
		id := "cmd." + slug(c.Name)
		where := "/" + c.Name
		kind := kindName
		if !isChatInput(c) {
			where, kind = fmt.Sprintf("%q", c.Name), kindMenuName
		}
		fs = append(fs, field{where: where + " name", id: id + ".name", kind: kind, value: c.Name, locs: commandLocs(&c.NameLocalizations)})
		if !isChatInput(c) {
			continue // context-menu commands have no description
		}
		fs = append(fs, field{where: where + " description", id: id + ".description", kind: kindDescription, value: c.Description, locs: commandLocs(&c.DescriptionLocalizations), set: func(s string) { c.Description = s }})
		fs = optionFields(fs, where, id, c.Options)
	}
	return fs
}

func optionFields(fs []field, where, id string, opts []*discordgo.ApplicationCommandOption) []field {
	for _, o := range opts {
		where, id := where+" "+o.Name, id+"."+slug(o.Name)
		fs = append(fs,
			field{where: where + " name", id: id + ".name", kind: kindName, value: o.Name, locs: optionLocs(&o.NameLocalizations)},
			field{where: where + " description", id: id + ".description", kind: kindDescription, value: o.Description, locs: optionLocs(&o.DescriptionLocalizations), set: func(s string) { o.Description = s }})
		for _, ch := range o.Choices {
			value := fmt.Sprint(ch.Value)
			f := field{where: where + " choice " + value, id: "choice." + slug(o.Name) + "." + slug(value), kind: kindChoice, value: ch.Name, locs: optionLocs(&ch.NameLocalizations), set: func(s string) { ch.Name = s }}
			if o.Name == LanguageOption {
				f.id, f.endonym = lang.NameID, value
			}
			fs = append(fs, f)
		}
		fs = optionFields(fs, where, id, o.Options)
	}
	return fs
}

// commandLocs serves a command's localizations, which discordgo keeps
// behind a pointer.
func commandLocs(p **map[discordgo.Locale]string) func(bool) map[discordgo.Locale]string {
	return func(create bool) map[discordgo.Locale]string {
		if *p == nil {
			if !create {
				return nil
			}
			*p = &map[discordgo.Locale]string{}
		}
		return **p
	}
}

// optionLocs serves an option's or a choice's localizations.
func optionLocs(p *map[discordgo.Locale]string) func(bool) map[discordgo.Locale]string {
	return func(create bool) map[discordgo.Locale]string {
		if *p == nil && create {
			*p = map[discordgo.Locale]string{}
		}
		return *p
	}
}

// Localize fills the texts of the commands, their options and choices,
// from the catalogs: the English descriptions and choice names that a
// definition leaves empty (English is written once, in its catalog; a name
// is the code's own), and the name and description localizations of every
// other language. A message missing from a catalog is reported and its
// text left out; the rest is filled.
func Localize(cmds []*discordgo.ApplicationCommand) error {
	var errs []error
	for _, f := range fields(cmds) {
		if f.endonym != "" {
			continue // a language's own name reads the same for everyone
		}
		if f.value == "" && f.set != nil {
			if !lang.English.Has(f.id) {
				errs = append(errs, fmt.Errorf("%s: no message %s in the English catalog", f.where, f.id))
			} else {
				f.set(lang.English.T(f.id))
			}
		}
		for _, l := range lang.Languages() {
			if l == lang.English {
				continue
			}
			if !l.Has(f.id) {
				errs = append(errs, fmt.Errorf("%s: no message %s in the %s catalog", f.where, f.id, l.Code()))
				continue
			}
			text := l.T(f.id)
			m := f.locs(true)
			for _, loc := range discordLocales(l) {
				m[loc] = text
			}
		}
	}
	return errors.Join(errs...)
}

// CheckEnglish reports every text of the definitions that the English
// catalog lacks or words differently (a definition that writes its own
// English), so that the catalog stays the one place a translator reads,
// and every cmd.* or choice.* message that no definition uses any more.
// Run it on localized definitions.
func CheckEnglish(cmds []*discordgo.ApplicationCommand) error {
	var errs []error
	used := map[string]bool{}
	for _, f := range fields(cmds) {
		used[f.id] = true
		if f.endonym != "" {
			if l, ok := lang.Lookup(f.endonym); !ok {
				errs = append(errs, fmt.Errorf("%s: no language %q", f.where, f.endonym))
			} else if l.Name() != f.value {
				errs = append(errs, fmt.Errorf("%s: the %s catalog's %s is %q, the definition says %q", f.where, f.endonym, lang.NameID, l.Name(), f.value))
			}
			continue
		}
		switch {
		case !lang.English.Has(f.id):
			errs = append(errs, fmt.Errorf("%s: no message %s in the English catalog (want %q)", f.where, f.id, f.value))
		case lang.English.T(f.id) != f.value:
			errs = append(errs, fmt.Errorf("%s: the English catalog's %s is %q, the definition says %q", f.where, f.id, lang.English.T(f.id), f.value))
		}
	}
	for _, id := range lang.IDs() {
		if isPickerText(id) && !used[id] {
			errs = append(errs, fmt.Errorf("%s: no command definition uses it", id))
		}
	}
	return errors.Join(errs...)
}

// chatName is Discord's rule for slash command and option names, with
// Go's names for the scripts Devanagari and Thai (whose marks are not
// letters). Discord also allows an apostrophe now; we don't need one.
var chatName = lazyRegexp(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// checkText applies Discord's rules for a kind of text.
func checkText(kind textKind, s string) error {
	n := utf8.RuneCountInString(s)
	switch kind {
	case kindName:
		if !chatName().MatchString(s) {
			return fmt.Errorf("%q is not a valid name: 1–32 letters, digits, - or _", s)
		}
		for _, r := range s {
			if unicode.ToLower(r) != r {
				return fmt.Errorf("%q is not a valid name: letters that have a lowercase must be lowercase", s)
			}
		}
	case kindMenuName:
		if n < 1 || n > 32 || strings.TrimSpace(s) != s {
			return fmt.Errorf("%q is not a valid context-menu name: 1–32 characters, no leading or trailing space", s)
		}
	case kindDescription, kindChoice:
		if n < 1 || n > 100 {
			return fmt.Errorf("%q has %d characters, not 1–100", s, n)
		}
	}
	return nil
}

// Validate checks the definitions against Discord's rules, so that a bad
// translation fails a test rather than the command sync: names and their
// localizations (lowercase, 1–32, Discord's character set; context-menu
// names may have capitals and spaces), descriptions and choice names (1–100
// characters; context-menu commands have none), known locales, at most 25
// options and choices, and names unique among siblings in every locale.
func Validate(cmds []*discordgo.ApplicationCommand) error {
	var errs []error
	for _, f := range fields(cmds) {
		if err := checkText(f.kind, f.value); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.where, err))
		}
		for loc, text := range f.locs(false) {
			if _, ok := discordgo.Locales[loc]; !ok || loc == discordgo.Unknown {
				errs = append(errs, fmt.Errorf("%s: %q is not a Discord locale", f.where, string(loc)))
			}
			if err := checkText(f.kind, text); err != nil {
				errs = append(errs, fmt.Errorf("%s [%s]: %w", f.where, string(loc), err))
			}
		}
	}
	byType := map[discordgo.ApplicationCommandType][]named{}
	for _, c := range cmds {
		where := "/" + c.Name
		if !isChatInput(c) {
			where = fmt.Sprintf("%q", c.Name)
			if c.Description != "" || (c.DescriptionLocalizations != nil && len(*c.DescriptionLocalizations) > 0) {
				errs = append(errs, fmt.Errorf("%s: a context-menu command has no description", where))
			}
			if len(c.Options) > 0 {
				errs = append(errs, fmt.Errorf("%s: a context-menu command has no options", where))
			}
		}
		var locs map[discordgo.Locale]string
		if c.NameLocalizations != nil {
			locs = *c.NameLocalizations
		}
		t := c.Type
		if t == 0 {
			t = discordgo.ChatApplicationCommand
		}
		byType[t] = append(byType[t], named{c.Name, locs})
		errs = append(errs, validateOptions(where, c.Options)...)
	}
	for _, group := range byType {
		errs = append(errs, uniqueNames("commands", group)...)
	}
	return errors.Join(errs...)
}

func validateOptions(where string, opts []*discordgo.ApplicationCommandOption) []error {
	var errs []error
	if len(opts) > 25 {
		errs = append(errs, fmt.Errorf("%s: %d options, at most 25", where, len(opts)))
	}
	var names []named
	for _, o := range opts {
		names = append(names, named{o.Name, o.NameLocalizations})
		if len(o.Choices) > 25 {
			errs = append(errs, fmt.Errorf("%s %s: %d choices, at most 25", where, o.Name, len(o.Choices)))
		}
		errs = append(errs, validateOptions(where+" "+o.Name, o.Options)...)
	}
	return append(errs, uniqueNames(where, names)...)
}

type named struct {
	name string
	locs map[discordgo.Locale]string
}

// uniqueNames reports siblings that a member of some locale would see under
// the same name.
func uniqueNames(where string, group []named) []error {
	locales := map[discordgo.Locale]bool{"": true} // "" stands for the default names
	for _, n := range group {
		for loc := range n.locs {
			locales[loc] = true
		}
	}
	var errs []error
	for loc := range locales {
		seen := map[string]bool{}
		for _, n := range group {
			shown := n.name
			if text, ok := n.locs[loc]; ok && loc != "" {
				shown = text
			}
			if seen[shown] {
				errs = append(errs, fmt.Errorf("%s: two names %q in locale %q", where, shown, string(loc)))
			}
			seen[shown] = true
		}
	}
	return errs
}

// mention is a slash command named in a message: "/maze", "/daily today",
// "/데일리 오늘". A slash after a letter or digit is no command (Asia/Seoul).
var mention = lazyRegexp(`(?:^|[^\p{L}\p{N}/])/([\p{L}\p{N}_-]+)(?: ([\p{L}\p{N}_-]+))?`)

// pickerName is how l's picker shows a command or an option: named as l
// localizes it, else by its own name (English's).
func pickerName(l *lang.Lang) func(name string, locs map[discordgo.Locale]string) string {
	return func(name string, locs map[discordgo.Locale]string) string {
		if text := locs[discordLocales(l)[0]]; text != "" && l != lang.English {
			return text
		}
		return name
	}
}

// CheckMentions reports every slash command a message names that the
// reader's picker would not show under that name: each language's
// messages must name the commands and subcommands of cmds as that
// language localizes them ("/데일리 오늘" in Korean, never "/daily
// today"). cmd.* and choice.* texts are left out: they are the picker.
func CheckMentions(cmds []*discordgo.ApplicationCommand) error {
	var errs []error
	for _, l := range lang.Languages() {
		local := pickerName(l)
		subs := map[string]map[string]bool{} // command → its subcommands, as l names them
		foreign := map[string]bool{}         // subcommand names of other languages
		for _, c := range cmds {
			if !isChatInput(c) {
				continue
			}
			var locs map[discordgo.Locale]string
			if c.NameLocalizations != nil {
				locs = *c.NameLocalizations
			}
			name := local(c.Name, locs)
			subs[name] = map[string]bool{}
			for _, o := range c.Options {
				if o.Type != discordgo.ApplicationCommandOptionSubCommand {
					continue
				}
				subs[name][local(o.Name, o.NameLocalizations)] = true
				foreign[o.Name] = true
				for _, text := range o.NameLocalizations {
					foreign[text] = true
				}
			}
		}
		for id, src := range messageSources(l) {
			for _, m := range mention().FindAllStringSubmatch(src, -1) {
				name, err := withParticle(m[1], subs)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s [%s]: /%s: %w", id, l.Code(), m[1], err))
					continue
				}
				if m[2] == "" || !foreign[m[2]] {
					continue
				}
				if _, err := withParticle(m[2], subs[name]); err != nil {
					errs = append(errs, fmt.Errorf("%s [%s]: /%s %s: %w", id, l.Code(), m[1], m[2], err))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// withParticle finds the name a word of a message starts with, among
// names: the word itself, or a name and a Korean particle after it ("/순위표
// 에서" written together), which must then be the form the name takes.
func withParticle[V any](word string, names map[string]V) (string, error) {
	if _, ok := names[word]; ok {
		return word, nil
	}
	for name := range names {
		rest, ok := strings.CutPrefix(word, name)
		if !ok {
			continue
		}
		if isParticle, want := lang.ParticleAfter(name, rest); isParticle {
			if want != rest {
				return "", fmt.Errorf("%s takes %s, not %s", name, want, rest)
			}
			return name, nil
		}
	}
	return "", errors.New("no such name in this language")
}

// optionMention is an option as a member types it: "render:png",
// "표시방식:PNG", "id:<maze ID>", "difficulty:easy|medium|hard",
// "loops:0–100".
var optionMention = lazyRegexp("(?:^|[^\\p{L}\\p{N}_-])([\\p{L}\\p{N}_-]+):(<[^>]*>|[^\\s`.,;)”\"]+)")

// numberValue is a number option's value as a message shows it: a number
// or a range.
var numberValue = lazyRegexp(`^\d+(?:[–-]\d+)?$`)

// CheckOptionMentions reports every option a message shows as typed
// (name:value) that the reader's picker would not take: each language's
// messages must give the option's name in that language ("표시방식:PNG",
// never "render:png" in Korean), and as its value one of its choices as
// that language names them, a <placeholder>, or a number or range for a
// number option. A name:value whose name is no option's in any language
// ("HH:MM", "1:42") is not an option. cmd.* and choice.* texts are left
// out: they are the picker.
func CheckOptionMentions(cmds []*discordgo.ApplicationCommand) error {
	var errs []error
	for _, l := range lang.Languages() {
		local := pickerName(l)
		named := map[string][]*discordgo.ApplicationCommandOption{} // l's name → the options so named
		anyLanguage := map[string]bool{}
		var walk func(opts []*discordgo.ApplicationCommandOption)
		walk = func(opts []*discordgo.ApplicationCommandOption) {
			for _, o := range opts {
				if o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
					walk(o.Options)
					continue
				}
				named[local(o.Name, o.NameLocalizations)] = append(named[local(o.Name, o.NameLocalizations)], o)
				anyLanguage[o.Name] = true
				for _, text := range o.NameLocalizations {
					anyLanguage[text] = true
				}
			}
		}
		for _, c := range cmds {
			if isChatInput(c) {
				walk(c.Options)
			}
		}
		takes := func(o *discordgo.ApplicationCommandOption, value string) bool {
			if strings.HasPrefix(value, "<") {
				return true
			}
			if len(o.Choices) == 0 {
				number := o.Type == discordgo.ApplicationCommandOptionInteger || o.Type == discordgo.ApplicationCommandOptionNumber
				return !number || numberValue().MatchString(value)
			}
			for alt := range strings.SplitSeq(value, "|") {
				if !slices.ContainsFunc(o.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool {
					return strings.EqualFold(alt, local(c.Name, c.NameLocalizations)) || strings.EqualFold(alt, fmt.Sprint(c.Value))
				}) {
					return false
				}
			}
			return true
		}
		for id, src := range messageSources(l) {
			for _, m := range optionMention().FindAllStringSubmatch(src, -1) {
				name, value := m[1], m[2]
				if !anyLanguage[name] || strings.Contains(value, "{{") {
					continue
				}
				opts := named[name]
				if len(opts) == 0 {
					errs = append(errs, fmt.Errorf("%s [%s]: %s:%s: %q is not an option's name in this language", id, l.Code(), name, value, name))
					continue
				}
				if !slices.ContainsFunc(opts, func(o *discordgo.ApplicationCommandOption) bool { return takes(o, value) }) {
					errs = append(errs, fmt.Errorf("%s [%s]: %s:%s: the picker offers no %q for %s", id, l.Code(), name, value, value, name))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// messageSources yields l's message templates with their IDs, in ID
// order, each plural form apart. The cmd.* and choice.* texts are left
// out: they are the picker, what the messages are checked against.
func messageSources(l *lang.Lang) iter.Seq2[string, string] {
	return func(yield func(id, src string) bool) {
		sources := l.Sources()
		for _, id := range slices.Sorted(maps.Keys(sources)) {
			if isPickerText(id) {
				continue
			}
			for _, src := range sources[id] {
				if !yield(id, src) {
					return
				}
			}
		}
	}
}

// isPickerText says whether a catalog ID is a command definition's text
// (cmd.*, choice.*), which Discord's picker shows, rather than a message.
func isPickerText(id string) bool {
	return strings.HasPrefix(id, "cmd.") || strings.HasPrefix(id, "choice.")
}

// lazyRegexp compiles expr on first use: Unicode classes such as \p{L}
// take a millisecond and a megabyte to compile, which a command-line maze,
// linked with this package, should not pay at start.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
