package render

import (
	"fmt"
	"image/color"
	"testing"
	"unicode/utf8"
)

// twemoji is what Discord draws an emoji as (Twemoji): its main fill
// colour, from the emoji's SVG in the Twemoji sources (the iconify
// twemoji set), and its shape.
var twemoji = map[string]struct {
	fill  color.RGBA
	shape string
}{
	"⬛": {rgb(0x31373d), "square"},
	"⬜": {rgb(0xe6e7e8), "square"},
	"🟥": {rgb(0xdd2e44), "square"},
	"🟧": {rgb(0xf4900c), "square"},
	"🟨": {rgb(0xfdcb58), "square"},
	"🟩": {rgb(0x78b159), "square"},
	"🟦": {rgb(0x55acee), "square"},
	"🟪": {rgb(0xaa8ed6), "square"},
	"🟫": {rgb(0xc1694f), "square"},
	"🟢": {rgb(0x78b159), "circle"},
	"🏁": {rgb(0x31373d), "flag"}, // black and white checks on a grey pole
	"🐭": {rgb(0x99aab5), "face"},
}

// Discord's message backgrounds.
var discordBackgrounds = []namedColour{{"dark #313338", rgb(0x313338)}, {"light #FFFFFF", rgb(0xffffff)}}

// TestEmojiThemes holds every emoji theme readable on Discord's dark and
// light backgrounds, from the Twemoji colours: walls apart from the
// corridors and from each background by 3:1, so neither the maze nor its
// border melts into the page; the path and the trail apart from the walls,
// the floor and each other by CIEDE2000 20 for every common colour
// vision; the start, goal and player each a shape of its own, no square;
// the start apart from the floor. go test -v prints the figures.
func TestEmojiThemes(t *testing.T) {
	seen := map[string]bool{}
	for _, et := range EmojiThemes {
		t.Run(et.Name, func(t *testing.T) {
			if seen[et.Name] {
				t.Fatalf("theme %q twice", et.Name)
			}
			seen[et.Name] = true
			th := et.Theme
			fill := map[string]color.RGBA{}
			shape := map[string]string{}
			for k, e := range th.byKind() {
				tw, ok := twemoji[e]
				if !ok {
					t.Fatalf("kind %d: %q has no Twemoji colour here", k, e)
				}
				if n := utf8.RuneCountInString(e); n != 1 {
					t.Fatalf("kind %d: %q is %d code points", k, e, n)
				}
				fill[e], shape[e] = tw.fill, tw.shape
			}
			need := func(what string, got, want float64) {
				t.Helper()
				t.Logf("%-30s %6.2f", what, got)
				if got < want {
					t.Errorf("%s: %.2f, want ≥ %v", what, got, want)
				}
			}
			need(fmt.Sprintf("walls %s / floor %s contrast", th.Wall, th.Floor), contrast(fill[th.Wall], fill[th.Floor]), minContrast)
			for _, bg := range discordBackgrounds {
				need(fmt.Sprintf("walls %s on %s contrast", th.Wall, bg.name), contrast(fill[th.Wall], bg.c), minContrast)
				t.Logf("%-30s %6.2f (corridors may be the page, as on paper)", fmt.Sprintf("floor %s on %s contrast", th.Floor, bg.name), contrast(fill[th.Floor], bg.c))
			}
			for _, pair := range [][2]string{{th.Path, th.Wall}, {th.Path, th.Floor}, {th.Trail, th.Wall}, {th.Trail, th.Floor}, {th.Path, th.Trail}, {th.Start, th.Floor}} {
				d, who := worstDeltaE(fill[pair[0]], fill[pair[1]])
				need(fmt.Sprintf("%s / %s worst ΔE2000 (%s)", pair[0], pair[1], who), d, minDeltaE)
			}
			for _, e := range []string{th.Start, th.Goal, th.Player} {
				if shape[e] == "square" {
					t.Errorf("%s is a square: start, goal and player must be told by shape", e)
				}
			}
			if shape[th.Start] == shape[th.Goal] || shape[th.Start] == shape[th.Player] || shape[th.Goal] == shape[th.Player] {
				t.Errorf("start %s, goal %s and player %s are not three shapes", th.Start, th.Goal, th.Player)
			}
		})
	}
	if got, err := ParseEmojiTheme("CAVE"); err != nil || got != EmojiThemes[1].Theme {
		t.Fatalf("ParseEmojiTheme(CAVE)=%v,%v", got, err)
	}
	if got, err := ParseEmojiTheme(""); err != nil || got != DefaultTheme {
		t.Fatalf(`ParseEmojiTheme("")=%v,%v, want DefaultTheme`, got, err)
	}
	if _, err := ParseEmojiTheme("classic"); err == nil {
		t.Fatal("ParseEmojiTheme(classic) took a theme that is not offered")
	}
	if EmojiThemes[0].Theme != DefaultTheme {
		t.Fatal("the first emoji theme is not DefaultTheme")
	}
}
