package lang

import "testing"

// TestArticle: "a" or "an" by the sound, numbers as spoken.
func TestArticle(t *testing.T) {
	for _, tc := range []struct{ word, want string }{
		{"1", "a"}, {"8", "an"}, {"11", "an"}, {"18", "an"}, {"80", "an"}, {"88", "an"},
		{"800", "an"}, {"8000", "an"}, {"11000", "an"}, {"18,000", "an"}, {"11,000", "an"},
		{"21", "a"}, {"5", "a"}, {"101", "a"}, {"110", "a"}, {"180", "a"}, {"1100", "a"},
		{"111", "a"}, {"1001", "a"}, {"8.5", "an"},
		{"11×11", "an"}, {"21×21", "a"}, {"8×8", "an"}, {"81×81", "an"}, {"41×41", "a"},
		{"**11×11**", "an"},
		{"maze", "a"}, {"algorithm", "an"}, {"emoji grid", "an"}, {"Sidewinder", "a"},
		{"recursive backtracking", "a"}, {"binary tree", "a"}, {"digging", "a"},
		{"event", "an"}, {"hour", "an"}, {"honest try", "an"}, {"heir", "an"},
		{"unique maze", "a"}, {"user", "a"}, {"one-off", "a"}, {"European", "a"},
		{"uninteresting", "an"}, {"ultimate", "an"}, {"umbrella", "an"},
		{"URL", "a"}, {"PNG", "a"}, {"GIF", "a"}, {"SVG", "an"}, {"HTML", "an"}, {"MRI", "an"},
		{"ID", "an"}, {"X", "an"}, {"B", "a"},
		{"", "a"}, {"🔥", "a"},
	} {
		if got := article(tc.word); got != tc.want {
			t.Errorf("article(%q)=%q, want %q", tc.word, got, tc.want)
		}
	}
	if got := withArticle("11×11"); got != "an 11×11" {
		t.Fatalf("withArticle=%q", got)
	}
}
