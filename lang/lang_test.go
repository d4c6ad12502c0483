package lang

import (
	"testing"
	"time"
)

func TestFor(t *testing.T) {
	for locale, want := range map[string]*Lang{
		"ko": Korean, "en-US": English, "en-GB": English, "ko-KR": Korean, "KO": Korean,
		"": English, "xx-YY": English,
		"es-ES": For("es-ES"), "es-419": For("es-ES"), "es-MX": For("es-ES"),
	} {
		if got := For(locale); got != want {
			t.Errorf("For(%q)=%v, want %v", locale, got, want)
		}
	}
	// Interactions carry discordgo's Locale, a string type of its own.
	type discordLocale string
	if got := For(discordLocale("ko")); got != Korean {
		t.Errorf("For(discordLocale(ko))=%v", got)
	}
	if English.Code() != "en" || Korean.Code() != "ko" || len(Languages()) < 3 {
		t.Fatalf("languages %v", Languages())
	}
	// Discord's two Spanish locales are one language, and so is a
	// regional variant Discord may add, found by the code's base.
	if es := For("es-419"); es.Code() != "es" || For("es-ES") != es || For("es-MX") != es {
		t.Fatalf("Spanish: %v %v %v", For("es-419"), For("es-ES"), For("es-MX"))
	}
	// French is Discord's one "fr"; a Canadian or Swiss variant would
	// find it by the base.
	if fr := For("fr"); fr.Code() != "fr" || For("fr-CA") != fr || For("FR") != fr {
		t.Fatalf("French: %v %v %v", For("fr"), For("fr-CA"), For("FR"))
	}
}

func TestT(t *testing.T) {
	for _, tc := range []struct {
		l    *Lang
		id   string
		args Args
		want string
	}{
		{English, "cmd.maze.name", nil, "maze"},
		{Korean, "cmd.maze.name", nil, "미로"},
		{English, "count.clicks", Args{"Count": 1}, "1 click"},
		{English, "count.clicks", Args{"Count": 2}, "2 clicks"},
		{English, "count.clicks", Args{"Count": 0}, "0 clicks"},
		{English, "count.clicks", Args{"Count": int64(1)}, "1 click"},
		{English, "count.clicks", Args{"Count": uint64(1)}, "1 click"},
		{English, "count.tiles", Args{"Count": "1.5"}, "1.5 tiles"},
		{Korean, "count.clicks", Args{"Count": 1}, "클릭 1번"},
		{English, "maze.kind", Args{"Size": "11×11", "Algorithm": "recursive backtracking"}, "an 11×11 recursive backtracking maze"},
		{English, "maze.kind", Args{"Size": "21×21", "Algorithm": "sidewinder"}, "a 21×21 sidewinder maze"},
		{Korean, "maze.kind", Args{"Size": "11×11", "Algorithm": "재귀적 백트래킹"}, "11×11 재귀적 백트래킹 미로"},
		{English, "play.gave_up", Args{"Clicks": "1 click", "Tiles": "12 tiles"}, "🏳️ You gave up after 1 click and 12 tiles."},
		{Korean, "play.gave_up", Args{"Clicks": "클릭 1번", "Tiles": "12칸"}, "🏳️ 클릭 1번, 12칸 이동한 뒤 포기했습니다."},
		{Korean, "maze.rounded", Args{"Option": "크기", "Asked": 20, "Rounded": 21}, "미로의 가로세로는 홀수여야 하므로(벽이 짝수 칸에 놓입니다) 크기 20을 21로 올렸습니다."},
		{Korean, "maze.rounded", Args{"Option": "높이", "Asked": 100, "Rounded": 101}, "미로의 가로세로는 홀수여야 하므로(벽이 짝수 칸에 놓입니다) 높이 100을 101로 올렸습니다."},
		{Korean, "event.ended", Args{"Name": "주말 미로", "Channel": "1"}, "🏁 **주말 미로**가 끝났습니다. 최종 순위와 풀이를 <#1>에 한 메시지로 올렸습니다."},
		{Korean, "event.ended", Args{"Name": "가을 대회", "Channel": "1"}, "🏁 **가을 대회**가 끝났습니다. 최종 순위와 풀이를 <#1>에 한 메시지로 올렸습니다."},
		{Korean, "event.ended", Args{"Name": "여름 이벤트", "Channel": "1"}, "🏁 **여름 이벤트**가 끝났습니다. 최종 순위와 풀이를 <#1>에 한 메시지로 올렸습니다."},
		{Korean, "event.ended", Args{"Name": "새해 첫 경주", "Channel": "1"}, "🏁 **새해 첫 경주**가 끝났습니다. 최종 순위와 풀이를 <#1>에 한 메시지로 올렸습니다."},
		{Korean, "event.ended", Args{"Name": "설날 특집", "Channel": "1"}, "🏁 **설날 특집**이 끝났습니다. 최종 순위와 풀이를 <#1>에 한 메시지로 올렸습니다."},
		// What T does when it cannot: the ID, never a panic or half a text.
		{English, "no.such.message", nil, "no.such.message"},
		{English, "maze.kind", Args{"Size": "5×5"}, "maze.kind"},
		{English, "maze.kind", nil, "maze.kind"},
	} {
		if got := tc.l.T(tc.id, tc.args); got != tc.want {
			t.Errorf("%s.T(%s, %v)=%q, want %q", tc.l, tc.id, tc.args, got, tc.want)
		}
	}
	// Several Args are merged.
	if got, want := English.T("maze.kind", Args{"Size": "8×8"}, Args{"Algorithm": "digging"}), "an 8×8 digging maze"; got != want {
		t.Errorf("merged args: %q, want %q", got, want)
	}
}

// TestLocalizable: placeholders worded in the reader's language, nested
// messages, functions of the language and lists.
func TestLocalizable(t *testing.T) {
	size := M("format.size", Args{"Width": 11, "Height": 11})
	kind := M("maze.kind", Args{"Size": size, "Algorithm": M("algorithm.backtracking")})
	for _, tc := range []struct {
		l    *Lang
		v    Localizable
		want string
	}{
		{English, kind, "an 11×11 recursive backtracking maze"},
		{Korean, kind, "11×11 재귀적 백트래킹 미로"},
		{Korean, M("maze.rounded", Args{"Option": M("cmd.maze.size.name"), "Asked": 20}, Args{"Rounded": 21}), "미로의 가로세로는 홀수여야 하므로(벽이 짝수 칸에 놓입니다) 크기 20을 21로 올렸습니다."},
		{English, Func(func(l *Lang) string { return l.Duration(90 * time.Second) }), "1 minute 30 seconds"},
		{Korean, Func(func(l *Lang) string { return l.Duration(90 * time.Second) }), "1분 30초"},
		{English, List{M("choice.difficulty.easy"), M("choice.difficulty.hard")}, "easy, hard"},
		{Korean, List{M("choice.difficulty.easy"), M("choice.difficulty.hard")}, "쉬움, 어려움"},
	} {
		if got := tc.v.In(tc.l); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.l, got, tc.want)
		}
	}
	// The caller's Args are not changed by the wording.
	args := Args{"Size": size, "Algorithm": "digging"}
	_ = English.T("maze.kind", args)
	if _, ok := args["Size"].(Msg); !ok {
		t.Fatalf("T changed its Args: %v", args)
	}
	if !(Msg{}).IsZero() || M("x").IsZero() {
		t.Fatal("IsZero")
	}
}

func TestLanguageNames(t *testing.T) {
	if English.Name() != "English" || Korean.Name() != "한국어" {
		t.Fatalf("names %q %q", English.Name(), Korean.Name())
	}
	if l, ok := Lookup("ko"); !ok || l != Korean {
		t.Fatal("Lookup(ko)")
	}
	for _, code := range []string{"", "KO", "ko-KR", "it"} {
		if _, ok := Lookup(code); ok {
			t.Errorf("Lookup(%q) found a language; codes are exact", code)
		}
	}
	if ByCode("") != English || ByCode("xx") != English || ByCode("ko") != Korean {
		t.Fatal("ByCode")
	}
}

func TestConcurrentT(t *testing.T) {
	done := make(chan string)
	for i := range 8 {
		go func() {
			l := Languages()[i%2]
			var s string
			for n := range 50 {
				s = l.T("count.tiles", Args{"Count": n}) + l.T("format.size", Args{"Width": n, "Height": n})
			}
			done <- s
		}()
	}
	for range 8 {
		<-done
	}
}
