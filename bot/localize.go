package bot

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

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

// DefinitionText is one localizable text of the definitions: a name, a
// description or a choice's name. The checks of the definitions (package
// bot/bottest, for tests only) read them too.
type DefinitionText struct {
	Where string // "/daily setup channel description", for errors
	ID    string // its catalog message
	Kind  TextKind
	Value string // the English in the definition
	// Endonym is the language code of a language choice, which is not
	// localized: its text is that language's language.name.
	Endonym string
	// locs returns the text's localizations, creating the map if asked.
	locs func(create bool) map[discordgo.Locale]string
	// set writes the English of a description or a choice, which the
	// definitions leave to the English catalog; nil for a name, which is
	// the code's own.
	set func(english string)
}

// Localizations are the text's localizations, by Discord locale; nil
// when it has none.
func (t DefinitionText) Localizations() map[discordgo.Locale]string { return t.locs(false) }

// TextKind says which of Discord's rules a DefinitionText follows.
type TextKind int

// The kinds of text.
const (
	KindName        TextKind = iota // a slash command's or option's name
	KindMenuName                    // a context-menu command's name
	KindDescription                 // a command's or option's description
	KindChoice                      // a choice's name
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

// IsChatInput tells a slash command, or an Activity's Entry Point command,
// which is named and described as one.
func IsChatInput(c *discordgo.ApplicationCommand) bool {
	return c.Type == 0 || c.Type == discordgo.ChatApplicationCommand || c.Type == PrimaryEntryPoint
}

// DefinitionTexts lists every localizable text of cmds.
func DefinitionTexts(cmds []*discordgo.ApplicationCommand) []DefinitionText {
	var fs []DefinitionText
	for _, c := range cmds {
		id := "cmd." + slug(c.Name)
		where := "/" + c.Name
		kind := KindName
		if !IsChatInput(c) {
			where, kind = fmt.Sprintf("%q", c.Name), KindMenuName
		}
		fs = append(fs, DefinitionText{Where: where + " name", ID: id + ".name", Kind: kind, Value: c.Name, locs: commandLocs(&c.NameLocalizations)})
		if !IsChatInput(c) {
			continue // context-menu commands have no description
		}
		fs = append(fs, DefinitionText{Where: where + " description", ID: id + ".description", Kind: KindDescription, Value: c.Description, locs: commandLocs(&c.DescriptionLocalizations), set: func(s string) { c.Description = s }})
		fs = optionTexts(fs, where, id, c.Options)
	}
	return fs
}

func optionTexts(fs []DefinitionText, where, id string, opts []*discordgo.ApplicationCommandOption) []DefinitionText {
	for _, o := range opts {
		where, id := where+" "+o.Name, id+"."+slug(o.Name)
		fs = append(fs,
			DefinitionText{Where: where + " name", ID: id + ".name", Kind: KindName, Value: o.Name, locs: optionLocs(&o.NameLocalizations)},
			DefinitionText{Where: where + " description", ID: id + ".description", Kind: KindDescription, Value: o.Description, locs: optionLocs(&o.DescriptionLocalizations), set: func(s string) { o.Description = s }})
		for _, ch := range o.Choices {
			value := fmt.Sprint(ch.Value)
			f := DefinitionText{Where: where + " choice " + value, ID: "choice." + slug(o.Name) + "." + slug(value), Kind: KindChoice, Value: ch.Name, locs: optionLocs(&ch.NameLocalizations), set: func(s string) { ch.Name = s }}
			if o.Name == LanguageOption {
				f.ID, f.Endonym = lang.NameID, value
			}
			fs = append(fs, f)
		}
		fs = optionTexts(fs, where, id, o.Options)
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
	for _, f := range DefinitionTexts(cmds) {
		if f.Endonym != "" {
			continue // a language's own name reads the same for everyone
		}
		if f.Value == "" && f.set != nil {
			if !lang.English.Has(f.ID) {
				errs = append(errs, fmt.Errorf("%s: no message %s in the English catalog", f.Where, f.ID))
			} else {
				f.set(lang.English.T(f.ID))
			}
		}
		for _, l := range lang.Languages() {
			if l == lang.English {
				continue
			}
			if !l.Has(f.ID) {
				errs = append(errs, fmt.Errorf("%s: no message %s in the %s catalog", f.Where, f.ID, l.Code()))
				continue
			}
			text := l.T(f.ID)
			m := f.locs(true)
			for _, loc := range discordLocales(l) {
				m[loc] = text
			}
		}
	}
	return errors.Join(errs...)
}
