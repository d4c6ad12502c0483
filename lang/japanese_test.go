package lang

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestJapanese: how Japanese writes what the code puts together: dates
// with 年月日, durations and counts without spaces, a decimal point, lists
// joined with 、 and one plural form.
func TestJapanese(t *testing.T) {
	ja := For("ja")
	if ja.Code() != "ja" {
		t.Fatalf("For(ja)=%v", ja)
	}
	list := List{Func(func(*Lang) string { return "二分木" }), Func(func(*Lang) string { return "サイドワインダー" })}
	for _, tc := range []struct{ got, want string }{
		{ja.Date(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), "2026年11月30日"},
		{ja.Date(time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)), "2026年1月5日"},
		{ja.RunTime(42*time.Second + 370*time.Millisecond), "0:42.3"},
		{ja.Duration(36 * time.Hour), "1日12時間"},
		{ja.Duration(192 * time.Second), "3分12秒"},
		{ja.T("count.clicks", Args{"Count": 1}), "1クリック"},
		{ja.T("count.tiles", Args{"Count": 1_000_000}), "1,000,000マス"},
		{list.In(ja), "二分木、サイドワインダー"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if got := pluralForms("ja"); !slices.Equal(got, []string{"other"}) {
		t.Errorf("Japanese plural forms %v, want other alone", got)
	}
}

var (
	// notJapaneseProse is what a Japanese message holds that is no prose:
	// placeholders, code spans, Discord's mentions and timestamps.
	notJapaneseProse = regexp.MustCompile("\\{\\{[^}]*\\}\\}|`[^`]*`|<[^>]*>")
	// halfWidthProse finds Latin punctuation in Japanese prose: a
	// parenthesis, or a colon that ends a word of kana or kanji (the colon
	// of an option as typed, 時刻:オフ, or of a time, 09:00, has no space
	// after it and stays).
	halfWidthProse = regexp.MustCompile(`[()]|[\p{Hiragana}\p{Katakana}\p{Han}ー）」]:(?:\s|$)`)
)

// japaneseProblem says what a Japanese template writes with Latin
// punctuation where Japanese writes its own, or "".
func japaneseProblem(src string) string {
	prose := notJapaneseProse.ReplaceAllString(src, " ")
	if m := halfWidthProse.FindString(prose); m != "" {
		return "Latin punctuation in prose: " + strings.TrimSpace(m)
	}
	return ""
}

// TestJapaneseTypography: the Japanese catalog writes its parentheses
// and colons full-width （：）, as Japanese prose does; a command's or an
// option's Latin colon stays.
func TestJapaneseTypography(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"迷路の ID（既定：最後の迷路）", false},
		{"「/デイリー リマインド 時刻:オフ」で止めます。09:00 に", false},
		{"`表示形式:PNG` を使ってください (画像)", true},
		{"アルゴリズム: {{.Choices}}", true},
		{"<t:{{.Ends}}:R>に終了", false},
	} {
		if got := japaneseProblem(tc.src) != ""; got != tc.want {
			t.Errorf("japaneseProblem(%q)=%v, want %v", tc.src, got, tc.want)
		}
	}
	for id, sources := range For("ja").Sources() {
		for _, src := range sources {
			if problem := japaneseProblem(src); problem != "" {
				t.Errorf("%s: %s", id, problem)
			}
		}
	}
}
