package zones

import (
	"slices"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func TestSearch(t *testing.T) {
	for _, tc := range []struct {
		query    string
		language string
		first    string
		label    string // part of the first label
	}{
		{"seoul", "", "Asia/Seoul", "UTC+09:00"},
		{"Seoul", "ko", "Asia/Seoul", "서울 · 대한민국 · UTC+09:00 (Asia/Seoul)"},
		{"서울", "ko", "Asia/Seoul", "서울"},
		{"new york", "", "America/New_York", "United States"},
		{"New_York", "", "America/New_York", ""},
		{"뉴욕", "ko", "America/New_York", "뉴욕"},
		{"korea", "", "Asia/Seoul", "Korea (South)"},
		{"대한민국", "ko", "Asia/Seoul", ""},
		{"los ang", "", "America/Los_Angeles", "UTC-08:00"},
		{"cote d'ivoire", "", "Africa/Abidjan", ""},
		{"kolkata", "", "Asia/Kolkata", "UTC+05:30"},
		// Each language's own names, typed and shown; English still works.
		{"東京", "ja", "Asia/Tokyo", "東京 · 日本 · UTC+09:00 (Asia/Tokyo)"},
		{"ニューヨーク", "ja", "America/New_York", "ニューヨーク · アメリカ"},
		{"tokyo", "ja", "Asia/Tokyo", "東京"},
		{"nueva york", "es", "America/New_York", "Nueva York · Estados Unidos · UTC-05:00 (America/New_York)"},
		{"Mexico", "es", "America/Mexico_City", "Ciudad de México · México"},
		{"alemania", "es", "Europe/Berlin", "Berlín · Alemania"},
		{"nova york", "pt-BR", "America/New_York", "Nova York · Estados Unidos"},
		{"sao paulo", "pt-BR", "America/Sao_Paulo", "São Paulo · Brasil · UTC-03:00"},
		{"wien", "de", "Europe/Vienna", "Wien · Österreich"},
		{"deutschland", "de", "Europe/Berlin", "Berlin · Deutschland · UTC+01:00 (Europe/Berlin)"},
		{"londres", "fr", "Europe/London", "Londres · Royaume-Uni"},
		{"allemagne", "fr", "Europe/Berlin", "Berlin · Allemagne"},
		{"canada", "fr", "America/Toronto", "Toronto · Canada · UTC-05:00"},
		// Another language's names are not this one's.
		{"wien", "fr", "", ""},
	} {
		got := Search(tc.query, tc.language, now, 25)
		if tc.first == "" {
			if len(got) != 0 {
				t.Errorf("Search(%q, %q) = %v, want nothing", tc.query, tc.language, head(got))
			}
			continue
		}
		if len(got) == 0 || got[0].Zone != tc.first || !strings.Contains(got[0].Label, tc.label) {
			t.Errorf("Search(%q, %q) = %v, want %s first with %q", tc.query, tc.language, head(got), tc.first, tc.label)
		}
	}
}

func head(ms []Match) []Match { return ms[:min(3, len(ms))] }

// searchLanguages are the languages the tests search in: English and
// every language of locals.
var searchLanguages = []string{"", "ko", "ja", "es", "pt-BR", "de", "fr"}

// TestLocalsComplete: every language names every major city (in Latin
// script, as English does where it has no name of its own) and every
// country Korean names, so that no member meets half a table.
func TestLocalsComplete(t *testing.T) {
	if len(locals) != len(searchLanguages)-1 {
		t.Fatalf("locals has %d languages, the tests search %v", len(locals), searchLanguages)
	}
	for code, names := range locals {
		for _, c := range majorCities {
			if names.cities[c.zone] == "" && !names.latin {
				t.Errorf("%s: no name for %s", code, c.zone)
			}
		}
		for cc := range koreanCountries {
			if names.countries[cc] == "" {
				t.Errorf("%s: no name for the country %s", code, cc)
			}
		}
		for zone := range names.cities {
			if !slices.ContainsFunc(majorCities, func(c struct{ zone, korean string }) bool { return c.zone == zone }) {
				t.Errorf("%s: %s is no major city", code, zone)
			}
		}
	}
}

func TestSearchOffsets(t *testing.T) {
	for query, want := range map[string]string{"+9": "Asia/Seoul", "utc+9": "Asia/Tokyo", "GMT+05:30": "Asia/Kolkata", "-0500": "America/New_York"} {
		got := Search(query, "", now, 25)
		found := false
		for _, m := range got {
			found = found || m.Zone == want
			if !strings.Contains(m.Label, "UTC") {
				t.Fatalf("label %q lacks the offset", m.Label)
			}
		}
		if !found {
			t.Errorf("Search(%q) = %v, want %s among them", query, got, want)
		}
	}
}

func TestSearchBounds(t *testing.T) {
	if got := Search("", "ko", now, 25); len(got) != 25 {
		t.Fatalf("an empty query gives %d choices, want 25 (Discord's most)", len(got))
	}
	if got := Search("a", "", now, 25); len(got) > 25 {
		t.Fatalf("%d choices, want at most 25", len(got))
	}
	if got := Search("no such place", "", now, 25); len(got) != 0 {
		t.Fatalf("nonsense matched %v", got)
	}
	for _, m := range Search("", "ko", now, 25) {
		if n := len([]rune(m.Label)); n < 1 || n > 100 {
			t.Fatalf("label %q has %d characters, want 1 to 100", m.Label, n)
		}
	}
}

// BenchmarkSearch is one autocompletion's work, the table read.
func BenchmarkSearch(b *testing.B) {
	all()
	for b.Loop() {
		Search("new york", "ko", now, 25)
	}
}
