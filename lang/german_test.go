package lang

import (
	"regexp"
	"testing"
	"time"
)

func TestGerman(t *testing.T) {
	de := For("de")
	for _, tc := range []struct{ got, want string }{
		{de.Date(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), "30.11.2026"},
		{de.Date(time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)), "05.01.2026"},
		{de.RunTime(42*time.Second + 370*time.Millisecond), "0:42,3"},
		{de.Duration(36 * time.Hour), "1 Tag und 12 Stunden"},
		{de.T("count.clicks", Args{"Count": 0}), "0 Klicks"},
		{de.T("count.clicks", Args{"Count": 1}), "1 Klick"},
		{de.T("count.tiles", Args{"Count": 2}), "2 Felder"},
		{de.T("unit.day", Args{"Count": 1_000_000}), "1.000.000 Tage"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

var (
	// germanArticleBefore finds an article right before an inserted
	// name whose gender the catalog cannot know: an algorithm, a maze's
	// description, a shape, a grid, a language ("der {{.Algorithm}}").
	germanArticleBefore = regexp.MustCompile(`(?i)\b(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines)\s+„?\{\{\s*\.(?:Algorithm|Maze|Shape|Grid|Language)\b`)
	// germanDativeCount finds a count whose dative plural is another word
	// (Tagen, Feldern, Punkten, Jokern) after a preposition that takes the
	// dative, alone or first of two joined by und/oder ("nach {{.Clicks}}
	// und {{.Tiles}}" would need "Feldern").
	germanDativeCount = regexp.MustCompile(`(?i)\b(?:mit|von|nach|aus|bei|seit|zu|zum|zur|vor|gegenüber|außer)\s+(?:\{\{[^}]*\}\}\s+(?:und|oder)\s+)?\{\{\s*\.(?:Days|Streak|Best|Tiles|Points|Freezes|Duration|Lasts)\b`)
)

// germanProblem says what a German template writes that only a gender or
// case helper could get right, or "".
func germanProblem(src string) string {
	if m := germanArticleBefore.FindString(src); m != "" {
		return "an article before an inserted name: " + m
	}
	if m := germanDativeCount.FindString(src); m != "" {
		return "a count in the dative: " + m
	}
	return ""
}

// TestGermanNeedsNoHelper: German has no article or case helper, so no
// German message may put an article before an inserted name or a count
// where German would decline it.
func TestGermanNeedsNoHelper(t *testing.T) {
	for _, tc := range []struct {
		src string
		bad bool
	}{
		{"15×15-Labyrinth mit dem Algorithmus „{{.Algorithm}}“", false},
		{"Labyrinth ({{.Algorithm}}), {{.Size}} Felder", false},
		{"ein {{.Algorithm}}-Labyrinth", true},
		{"Der Algorithmus {{.Algorithm}} braucht", false},
		{"Die {{.Shape}} ist zu klein", true},
		{"🔥 Serie: {{.Days}} in Folge", false},
		{"eine Serie von {{.Days}}", true},
		{"Du hast nach {{.Clicks}} und {{.Tiles}} aufgegeben.", true},
		{"Bis dahin: {{.Clicks}}, {{.Tiles}}.", false},
		{"🗺️ Dein Spiel nach {{.Clicks}}", false},
	} {
		if got := germanProblem(tc.src); (got != "") != tc.bad {
			t.Errorf("%q: problem %q, want bad=%v", tc.src, got, tc.bad)
		}
	}
	for id, srcs := range For("de").Sources() {
		for _, src := range srcs {
			if p := germanProblem(src); p != "" {
				t.Errorf("%s: %s in %q", id, p, src)
			}
		}
	}
}
