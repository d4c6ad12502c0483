package bottest

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

	"mazebot/bot"
	"mazebot/lang"
)

// The checks of the command definitions against Discord's rules and the
// catalogs: the tests of the features (commands) and of the whole bot
// (e2e) run them over the real definitions, so that a bad translation
// fails a test rather than the command sync. Only tests run them; the
// binary does not carry them.

// CheckDefinitions runs every check over cmds, localized as the router
// localizes them: Validate, CheckEnglish, CheckMentions and
// CheckOptionMentions.
func CheckDefinitions(cmds []*discordgo.ApplicationCommand) error {
	var errs []error
	for _, check := range []struct {
		name string
		run  func([]*discordgo.ApplicationCommand) error
	}{{"Validate", Validate}, {"CheckEnglish", CheckEnglish}, {"CheckMentions", CheckMentions}, {"CheckOptionMentions", CheckOptionMentions}} {
		if err := check.run(cmds); err != nil {
			errs = append(errs, fmt.Errorf("%s:\n%w", check.name, err))
		}
	}
	return errors.Join(errs...)
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

// CheckEnglish reports every text of the definitions that the English
// catalog lacks or words differently (a definition that writes its own
// English), so that the catalog stays the one place a translator reads,
// and every cmd.* or choice.* message that no definition uses any more.
// Run it on localized definitions.
func CheckEnglish(cmds []*discordgo.ApplicationCommand) error {
	var errs []error
	used := map[string]bool{}
	for _, f := range bot.DefinitionTexts(cmds) {
		used[f.ID] = true
		if f.Endonym != "" {
			if l, ok := lang.Lookup(f.Endonym); !ok {
				errs = append(errs, fmt.Errorf("%s: no language %q", f.Where, f.Endonym))
			} else if l.Name() != f.Value {
				errs = append(errs, fmt.Errorf("%s: the %s catalog's %s is %q, the definition says %q", f.Where, f.Endonym, lang.NameID, l.Name(), f.Value))
			}
			continue
		}
		switch {
		case !lang.English.Has(f.ID):
			errs = append(errs, fmt.Errorf("%s: no message %s in the English catalog (want %q)", f.Where, f.ID, f.Value))
		case lang.English.T(f.ID) != f.Value:
			errs = append(errs, fmt.Errorf("%s: the English catalog's %s is %q, the definition says %q", f.Where, f.ID, lang.English.T(f.ID), f.Value))
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
func checkText(kind bot.TextKind, s string) error {
	n := utf8.RuneCountInString(s)
	switch kind {
	case bot.KindName:
		if !chatName().MatchString(s) {
			return fmt.Errorf("%q is not a valid name: 1–32 letters, digits, - or _", s)
		}
		for _, r := range s {
			if unicode.ToLower(r) != r {
				return fmt.Errorf("%q is not a valid name: letters that have a lowercase must be lowercase", s)
			}
		}
	case bot.KindMenuName:
		if n < 1 || n > 32 || strings.TrimSpace(s) != s {
			return fmt.Errorf("%q is not a valid context-menu name: 1–32 characters, no leading or trailing space", s)
		}
	case bot.KindDescription, bot.KindChoice:
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
	for _, f := range bot.DefinitionTexts(cmds) {
		if err := checkText(f.Kind, f.Value); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.Where, err))
		}
		for loc, text := range f.Localizations() {
			if _, ok := discordgo.Locales[loc]; !ok || loc == discordgo.Unknown {
				errs = append(errs, fmt.Errorf("%s: %q is not a Discord locale", f.Where, string(loc)))
			}
			if err := checkText(f.Kind, text); err != nil {
				errs = append(errs, fmt.Errorf("%s [%s]: %w", f.Where, string(loc), err))
			}
		}
	}
	byType := map[discordgo.ApplicationCommandType][]named{}
	for _, c := range cmds {
		where := "/" + c.Name
		if !bot.IsChatInput(c) {
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
			if !bot.IsChatInput(c) {
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
			if bot.IsChatInput(c) {
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
// take a millisecond and a megabyte to compile, which a test that runs no
// check should not pay.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
