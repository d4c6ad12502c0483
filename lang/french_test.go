package lang

import (
	"regexp"
	"testing"
	"time"
)

// TestFrench: French writes dates day first, a run's tenths after a
// comma, counts of 0 and 1 in the singular and exact millions with "de".
func TestFrench(t *testing.T) {
	fr := For("fr")
	for _, tc := range []struct{ got, want string }{
		{fr.Date(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), "30/11/2026"},
		{fr.Date(time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)), "05/01/2026"},
		{fr.RunTime(42*time.Second + 370*time.Millisecond), "0:42,3"},
		{fr.Duration(36 * time.Hour), "1 jour et 12 heures"},
		{fr.T("count.clicks", Args{"Count": 0}), "0 clic"},
		{fr.T("count.clicks", Args{"Count": 1}), "1 clic"},
		{fr.T("count.clicks", Args{"Count": 2}), "2 clics"},
		{fr.T("count.clicks", Args{"Count": 1_000_000}), "1\u202f000\u202f000 de clics"},
		{fr.T("count.finishers", Args{"Count": 1_000_000}), "1\u202f000\u202f000 d’arrivées"},
		{fr.T("count.finishers", Args{"Count": 1}), "1 arrivée"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// frenchSpacing finds a space French typography does not write: an
// ordinary or no-break space before ; : ! ? » or after «, where a narrow
// no-break space (U+202F) belongs.
var frenchSpacing = regexp.MustCompile(`[ \x{00A0}][;:!?»%]|«[ \x{00A0}]`)

// TestFrenchTypography: every French message puts a narrow no-break space
// before ; : ! ? % and inside « », so that no line breaks before a colon.
func TestFrenchTypography(t *testing.T) {
	for id, srcs := range For("fr").Sources() {
		for _, src := range srcs {
			if m := frenchSpacing.FindString(src); m != "" {
				t.Errorf("%s: %q in %q; write U+202F", id, m, src)
			}
		}
	}
}
