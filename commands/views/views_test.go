package views

import (
	"strings"
	"testing"
	"time"
	"unicode"

	"mazebot/lang"
	"mazebot/mazecore"
)

func TestShareLine(t *testing.T) {
	for _, tc := range []struct {
		name       string
		share      Share
		line, text string
	}{
		{"OKOverPar", Share{Number: 334, Rating: 3, Elapsed: 102*time.Second + 400*time.Millisecond, Clicks: 11, Par: 9, Streak: 4},
			"mazebot daily #334 · ★★★ · 1:42 · par +2 · 🔥4",
			"mazebot daily 334, difficulty 3 of 5, time 1 minute 42 seconds, 2 clicks over par, streak 4 days"},
		{"OKUnderPar", Share{Number: 12, Rating: 1, Elapsed: 61 * time.Second, Clicks: 8, Par: 9, Streak: 1},
			"mazebot daily #12 · ★ · 1:01 · par −1 · 🔥1",
			"mazebot daily 12, difficulty 1 of 5, time 1 minute 1 second, 1 click under par, streak 1 day"},
		{"OKAtParNoStreak", Share{Number: 5, Rating: 5, Elapsed: 45 * time.Second, Clicks: 9, Par: 9},
			"mazebot daily #5 · ★★★★★ · 0:45 · par ±0",
			"mazebot daily 5, difficulty 5 of 5, time 45 seconds, at par"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.share.Line(lang.English); got != tc.line {
				t.Fatalf("line=%q, want %q", got, tc.line)
			}
			text := tc.share.Text(lang.English)
			if text != tc.text {
				t.Fatalf("text=%q, want %q", text, tc.text)
			}
			// Words alone: nothing a screen reader spells out as a symbol.
			for _, r := range text {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" ,", r) {
					t.Fatalf("text %q has %q, want words, digits, spaces and commas only", text, r)
				}
			}
		})
	}
}

func TestCompass(t *testing.T) {
	p := mazecore.Point{X: 5, Y: 5}
	for q, want := range map[mazecore.Point]string{
		{X: 9, Y: 9}: "↘", {X: 1, Y: 1}: "↖", {X: 5, Y: 1}: "↑", {X: 9, Y: 5}: "→", {X: 1, Y: 9}: "↙", {X: 5, Y: 5}: "here",
	} {
		if got := compass(lang.English, p, q); got != want {
			t.Errorf("compass(%v, %v)=%q, want %q", p, q, got, want)
		}
	}
	if got := compass(lang.Korean, p, p); got != "바로 여기" {
		t.Errorf("Korean compass at the goal=%q", got)
	}
}

// TestStreakLine: the streak shows its freezes (🧊) in both languages,
// and nothing shows without a streak.
func TestStreakLine(t *testing.T) {
	for _, tc := range []struct {
		name          string
		days, freezes int
		l             *lang.Lang
		want          string
	}{
		{"NoStreak", 0, 1, lang.English, ""},
		{"NoFreeze", 3, 0, lang.English, "🔥 Your streak: 3 days."},
		{"OneFreeze", 8, 1, lang.English, "🔥 Your streak: 8 days · 🧊 1 freeze held: a day you miss spends one, and the streak survives it."},
		{"TwoFreezesKorean", 14, 2, lang.Korean, "🔥 연속 기록: 14일 · 🧊 보호권 2개: 하루를 놓치면 하나를 써서 연속 기록을 지킵니다."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StreakLine(tc.l, tc.days, tc.freezes); got != tc.want {
				t.Fatalf("StreakLine(%d, %d)=%q, want %q", tc.days, tc.freezes, got, tc.want)
			}
		})
	}
}
