// Package zones finds IANA time zones by what members type: a city, a
// country, an offset or part of a zone's name, in English or Korean, for
// the autocompletion of /daily setup's timezone. Its table (zones.tsv)
// comes from the tz database (gen.go writes it); Korean city and country
// names cover the zones most members live in.
//
// It imports golang.org/x/text and the standard library only.
package zones
