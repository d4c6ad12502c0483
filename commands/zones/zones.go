package zones

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

//go:embed zones.tsv
var table string

// zone is one zone of the table, with what a member may type for it.
type zone struct {
	name    string // IANA: Asia/Seoul
	country string // Korea (South)
	code    string // KR
	city    string // Seoul
	words   []string
	rank    int // its place among majorCities, or len(majorCities)
	loc     *time.Location
	// folded (see fold) once: city, country, IANA name.
	fCity, fCountry, fName string
	// local are its names in the languages of locals that name its city
	// or its country.
	local map[string]*localZone
}

// localZone is a zone's names in one language, as typed and as shown.
type localZone struct {
	city, country   string // "" where the language has no name of its own
	words           []string
	fCity, fCountry string // folded once
}

// all is the table, read once when first searched: the command line never
// pays for it.
var all = sync.OnceValue(func() []zone {
	major := map[string]int{}
	for i, c := range majorCities {
		major[c.zone] = i
	}
	var out []zone
	for _, line := range strings.Split(table, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		loc, err := time.LoadLocation(f[0])
		if err != nil {
			continue // a zone this Go release does not know
		}
		z := zone{name: f[0], code: f[1], country: f[2], loc: loc}
		z.city = strings.ReplaceAll(f[0][strings.LastIndex(f[0], "/")+1:], "_", " ")
		z.words = fold(f[0] + " " + f[2] + " " + f[1])
		z.rank = len(majorCities)
		if i, ok := major[z.name]; ok {
			z.rank = i
		}
		join := func(s string) string { return strings.Join(fold(s), " ") }
		z.fCity, z.fCountry, z.fName = join(z.city), join(z.country), join(z.name)
		for code, names := range locals {
			city, country := names.cities[z.name], names.countries[z.code]
			if city == "" && country == "" {
				continue
			}
			if z.local == nil {
				z.local = map[string]*localZone{}
			}
			z.local[code] = &localZone{city: city, country: country, words: fold(city + " " + country), fCity: join(city), fCountry: join(country)}
		}
		out = append(out, z)
	}
	return out
})

// Match is a zone that matches a search, with the words to show for it.
type Match struct {
	Zone  string // the IANA name, the option's value
	Label string // at most 100 characters
}

// maxQueryRunes is how much of a query Search reads: the picker's option
// takes 64 characters, so whatever a member can type is read whole, while
// 6,000 characters of accents or zero-width spaces in a forged value cost
// no more than 256.
const maxQueryRunes = 256

// Search finds the zones a member means by query: a city ("seoul", "new
// york"), a country ("korea"), an offset ("+9", "utc-5", "gmt+5:30") or
// part of an IANA name, in English or in the language whose code (package
// lang's: "ko", "ja", "pt-BR") is language too ("서울", "東京", "Nueva
// York", "Allemagne"); the best max first. Labels say the zone's city,
// country and offset now, in that language where it names them. It reads
// the query's first maxQueryRunes characters, spaces around it aside.
func Search(query, language string, now time.Time, max int) []Match {
	query = bounded(query)
	words := fold(query)
	q := strings.Join(words, " ")
	// Split once for all the zones, each word once: a word typed twice
	// asks nothing more of a zone.
	qs := distinct(words)
	offset, isOffset := parseOffset(query)
	var found []scored
	zs := all()
	for i := range zs {
		z := &zs[i]
		s := score(z, q, qs, language)
		if isOffset {
			if _, off := now.In(z.loc).Zone(); off == offset {
				s = max1(s, 40)
			}
		}
		if s > 0 {
			found = append(found, scored{z, s})
		}
	}
	return best(found, language, now, max)
}

// scored is a zone that matched, with how well.
type scored struct {
	z     *zone
	score int
}

// best is the max best of found, labelled.
func best(found []scored, language string, now time.Time, max int) []Match {
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.score != b.score {
			return a.score > b.score
		}
		// The cities people live in first, as far as the table knows.
		if a.z.rank != b.z.rank {
			return a.z.rank < b.z.rank
		}
		return a.z.name < b.z.name
	})
	out := make([]Match, 0, min(max, len(found)))
	for _, f := range found[:min(max, len(found))] {
		out = append(out, Match{Zone: f.z.name, Label: label(f.z, language, now)})
	}
	return out
}

// bounded is s without the spaces around it, cut after maxQueryRunes
// characters: what Search reads of a query.
func bounded(s string) string {
	s = strings.TrimSpace(s)
	n := 0
	for i := range s {
		if n == maxQueryRunes {
			return s[:i]
		}
		n++
	}
	return s
}

// distinct is words without repeats, in their order.
func distinct(words []string) []string {
	seen := make(map[string]bool, len(words))
	out := make([]string, 0, len(words))
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func max1(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// score rates how well z matches the folded query q, whose words are qs,
// in English or language: its city exactly, then the start of its city,
// its country, then every word of q starting a word of the zone, then q
// anywhere in its name. An empty query matches the major cities, the most
// lived in.
func score(z *zone, q string, qs []string, language string) int {
	if q == "" {
		if z.rank < len(majorCities) {
			return 1
		}
		return 0
	}
	lz := z.local[language]
	if lz == nil {
		lz = &noLocal
	}
	city, lcity := z.fCity, lz.fCity
	switch {
	case q == city, lcity != "" && q == lcity:
		return 100
	case strings.HasPrefix(city, q), lcity != "" && strings.HasPrefix(lcity, q):
		return 90
	}
	country, lcountry := z.fCountry, lz.fCountry
	switch {
	case q == country, q == strings.ToLower(z.code), lcountry != "" && q == lcountry:
		return 70
	case strings.HasPrefix(country, q), lcountry != "" && strings.HasPrefix(lcountry, q):
		return 60
	}
	if allPrefixes(qs, z.words, lz.words) {
		return 50
	}
	if strings.Contains(z.fName, q) {
		return 20
	}
	return 0
}

// noLocal stands for a language with no names for a zone.
var noLocal localZone

// allPrefixes tells whether each of qs starts a word of words or more.
func allPrefixes(qs, words, more []string) bool {
	starts := func(q string, ws []string) bool {
		for _, w := range ws {
			if strings.HasPrefix(w, q) {
				return true
			}
		}
		return false
	}
	for _, q := range qs {
		if !starts(q, words) && !starts(q, more) {
			return false
		}
	}
	return len(qs) > 0
}

// label is how the picker shows z: its IANA name, country and offset; in
// a language that names its city, that city first (a Latin-script
// language names a major city as English does when it has no name of its
// own), and its country in that language when it has one.
func label(z *zone, language string, now time.Time) string {
	_, off := now.In(z.loc).Zone()
	utc := formatOffset(off)
	country, city := z.country, ""
	if lz := z.local[language]; lz != nil {
		if lz.country != "" {
			country = lz.country
		}
		city = lz.city
	}
	if city == "" && locals[language].latin && z.rank < len(majorCities) {
		city = z.city
	}
	var s string
	if city != "" {
		s = fmt.Sprintf("%s · %s · %s (%s)", city, country, utc, z.name)
	} else {
		s = fmt.Sprintf("%s · %s · %s", z.name, country, utc)
	}
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100])
	}
	return s
}

// formatOffset writes an offset east of UTC as "UTC+09:00".
func formatOffset(seconds int) string {
	sign := '+'
	if seconds < 0 {
		sign, seconds = '-', -seconds
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, seconds/3600, seconds%3600/60)
}

// parseOffset reads "+9", "-5", "utc+9", "GMT-03:30", "+0530" as seconds
// east of UTC.
func parseOffset(s string) (int, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"utc", "gmt"} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	hh, mm := s[1:], "0"
	if h, m, ok := strings.Cut(hh, ":"); ok {
		hh, mm = h, m
	} else if len(hh) == 4 {
		hh, mm = hh[:2], hh[2:]
	}
	// Digits only: Atoi alone would take "+-5" as UTC-05:00.
	if !twoDigitsAtMost(hh) || !twoDigitsAtMost(mm) {
		return 0, false
	}
	h, _ := strconv.Atoi(hh)
	m, _ := strconv.Atoi(mm)
	// No zone is more than 14 hours from UTC: "+1401" is no offset.
	if m >= 60 || h*60+m > 14*60 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}

func twoDigitsAtMost(s string) bool {
	if len(s) == 0 || len(s) > 2 {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// stripMarks takes the accents off letters: "Côte" is typed "cote". It
// keeps no state, so completions may call it at once: a transform.Chain,
// which keeps its buffers between calls, shared by all of them mixed up
// their texts under a flood, panicking or looping (issue 36).
func stripMarks(s string) string {
	bare := strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s))
	return norm.NFC.String(bare)
}

// fold makes the words of s comparable: lower case, no accents, and
// anything but letters and digits a space.
func fold(s string) []string {
	s = stripMarks(s)
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
