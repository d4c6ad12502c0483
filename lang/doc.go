// Package lang is mazebot's language layer: message catalogs, one per
// language, and the helpers that make the messages read naturally (Korean
// particles, English articles, plurals, numbers, durations and dates).
//
// Every text a member sees lives in catalog/<code>.toml, embedded in the
// binary. For maps a Discord locale to a *Lang, whose T formats a message by
// its ID with named placeholders (Args); a "Count" placeholder selects the
// CLDR plural form. Adding a language is its catalog file plus one line in
// the languages table (lang.go), which also says how the language writes
// what the code puts together (a number's separators by CLDR, how a list
// is joined); Check fails until the catalog is complete. Numbers reach a
// message written in its language: a Count always, any other as a Number
// or a Percent; IDs, sizes and years stay plain digits. Japanese particles
// and the articles of German and French need no helper: Japanese particles
// do not change with the word before them, and the German and French
// catalogs put a fixed noun ("l'algorithme", "das Labyrinth") before an
// inserted name, so its gender never matters. What is Discord's (command names and their rules, the locales
// Discord knows) is the Discord wing's: package bot localizes the command
// definitions from these catalogs.
//
// The library is github.com/nicksnyder/go-i18n/v2 rather than
// golang.org/x/text/message: it reads catalogs from files (TOML here, so
// translators edit text, not Go), ships the CLDR plural rules for every
// language, and its messages are text/template, which lets a catalog call
// the particle and article helpers on a placeholder. x/text/message keeps
// its catalogs in Go code or generated files and has no template helpers.
//
// lang imports only the i18n libraries: never discordgo, mazecore, store,
// bot or commands.
package lang
