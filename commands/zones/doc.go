// Package zones finds IANA time zones by what members type: a city, a
// country, an offset or part of a zone's name, in English or in the
// member's language, for the autocompletion of /daily setup's timezone.
// Its table (zones.tsv) comes from the tz database (gen.go writes it);
// local.go names the major cities and their countries in each language
// mazebot speaks (korean.go lists those cities, most lived in first, with
// their Korean names).
//
// It imports golang.org/x/text and the standard library only: a language
// is package lang's code ("ja", "pt-BR"), not a *lang.Lang.
package zones
