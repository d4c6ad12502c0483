package zones

import (
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func TestSearch(t *testing.T) {
	for _, tc := range []struct {
		query  string
		korean bool
		first  string
		label  string // part of the first label
	}{
		{"seoul", false, "Asia/Seoul", "UTC+09:00"},
		{"Seoul", true, "Asia/Seoul", "서울 · 대한민국 · UTC+09:00 (Asia/Seoul)"},
		{"서울", true, "Asia/Seoul", "서울"},
		{"new york", false, "America/New_York", "United States"},
		{"New_York", false, "America/New_York", ""},
		{"뉴욕", true, "America/New_York", "뉴욕"},
		{"korea", false, "Asia/Seoul", "Korea (South)"},
		{"대한민국", true, "Asia/Seoul", ""},
		{"los ang", false, "America/Los_Angeles", "UTC-08:00"},
		{"cote d'ivoire", false, "Africa/Abidjan", ""},
		{"kolkata", false, "Asia/Kolkata", "UTC+05:30"},
	} {
		got := Search(tc.query, tc.korean, now, 25)
		if len(got) == 0 || got[0].Zone != tc.first || !strings.Contains(got[0].Label, tc.label) {
			t.Errorf("Search(%q, korean %v) = %v, want %s first with %q", tc.query, tc.korean, head(got), tc.first, tc.label)
		}
	}
}

func head(ms []Match) []Match { return ms[:min(3, len(ms))] }

func TestSearchOffsets(t *testing.T) {
	for query, want := range map[string]string{"+9": "Asia/Seoul", "utc+9": "Asia/Tokyo", "GMT+05:30": "Asia/Kolkata", "-0500": "America/New_York"} {
		got := Search(query, false, now, 25)
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
	if got := Search("", true, now, 25); len(got) != 25 {
		t.Fatalf("an empty query gives %d choices, want 25 (Discord's most)", len(got))
	}
	if got := Search("a", false, now, 25); len(got) > 25 {
		t.Fatalf("%d choices, want at most 25", len(got))
	}
	if got := Search("no such place", false, now, 25); len(got) != 0 {
		t.Fatalf("nonsense matched %v", got)
	}
	for _, m := range Search("", true, now, 25) {
		if n := len([]rune(m.Label)); n < 1 || n > 100 {
			t.Fatalf("label %q has %d characters, want 1 to 100", m.Label, n)
		}
	}
}

// BenchmarkSearch is one autocompletion's work, the table read.
func BenchmarkSearch(b *testing.B) {
	all()
	for b.Loop() {
		Search("new york", true, now, 25)
	}
}
