package zones

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzSearch types anything into /daily's timezone option, as its
// completions see each keystroke: the answer is at most Discord's 25
// choices, each a zone of the table with a label Discord takes, and an
// offset is read only as it is written. A query within the bound Search
// reads gets the answer it got before the bound; the odd queries, which
// cost seconds under load before, are seeds.
func FuzzSearch(f *testing.F) {
	for _, seed := range append([]string{"seoul", "서울", "new york", "+9", "utc-5", "GMT+05:30", "-0500", "+-5", "+9:-30", "+14", "+1401", "-14:30", "", " ", "\u200bseoul", "se\u200boul", "e\u0301", "서\u200b울"}, oddQueries...) {
		f.Add(seed, uint8(0))
	}
	names := map[string]bool{}
	for _, z := range all() {
		names[z.name] = true
	}
	f.Fuzz(func(t *testing.T, query string, which uint8) {
		language := searchLanguages[int(which)%len(searchLanguages)]
		if !utf8.ValidString(query) {
			return // Discord's JSON carries only valid UTF-8
		}
		if got, want := fold(query), foldAlone(query); !slices.Equal(got, want) {
			t.Fatalf("fold(%q)=%q, want %q as with a chain of its own", query, got, want)
		}
		got := Search(query, language, now, 25)
		if utf8.RuneCountInString(strings.TrimSpace(query)) <= maxQueryRunes {
			if before := searchBefore(query, language, now, 25); !reflect.DeepEqual(got, before) {
				t.Fatalf("Search(%q)=%v, want %v as before the bound", query, got, before)
			}
		}
		if len(got) > 25 {
			t.Fatalf("Search(%q) gives %d choices, past Discord's 25", query, len(got))
		}
		for _, m := range got {
			if !names[m.Zone] {
				t.Fatalf("Search(%q) offers %q, not a zone of the table", query, m.Zone)
			}
			if n := utf8.RuneCountInString(m.Label); n == 0 || n > 100 || !utf8.ValidString(m.Label) {
				t.Fatalf("Search(%q) labels %s %q (%d characters): Discord takes 1 to 100", query, m.Zone, m.Label, n)
			}
		}
		offset, ok := parseOffset(query)
		if !ok {
			return
		}
		// What follows "utc" or "gmt" and any white space, as parseOffset
		// reads it: a newline between them is space too ("utC\n-1").
		typed := strings.TrimLeftFunc(strings.ToLower(strings.TrimSpace(query)), func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune("utcgm", r)
		})
		// The sign typed is the offset's, and a minus anywhere else
		// ("+9:-30") is no part of an offset.
		if offset < -14*3600 || offset > 14*3600 || (typed[0] == '-') != (offset < 0) && offset != 0 || strings.Contains(query, "-") && offset > 0 {
			t.Fatalf("parseOffset(%q)=%ds, not the offset typed", query, offset)
		}
		if back, ok := parseOffset(formatOffset(offset)); !ok || back != offset {
			t.Fatalf("parseOffset(%q)=%d, which reads back as %d, %v", query, offset, back, ok)
		}
	})
}
