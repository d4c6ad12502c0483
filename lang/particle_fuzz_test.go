package lang

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParticles puts a Korean particle after any word, as the catalogs do
// after an event's name a member chose: the word comes back whole with one
// of the pair's forms (or both, when its sound is unknown), and the
// Markdown and spaces around a word, skipped as the package comment says,
// do not change the form.
func FuzzParticles(f *testing.F) {
	for _, seed := range []string{"미로", "백트래킹(backtracking)", "PNG", "game", "1,000", "2.10", "(", ")", "((x)", "**", "🙂", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, word string) {
		if !utf8.ValidString(word) {
			return // Discord's JSON carries only valid UTF-8
		}
		for _, p := range particlePairs {
			name := p.consonant + "/" + p.vowel
			got, err := josa(word, name)
			if err != nil {
				t.Fatalf("josa(%q, %q): %v", word, name, err)
			}
			form, ok := strings.CutPrefix(got, word)
			if !ok || (form != p.consonant && form != p.vowel && form != p.both) {
				t.Fatalf("josa(%q, %q)=%q, want the word and a form of the pair", word, name, got)
			}
			if bold := p.choose("**" + word + "** "); bold != form {
				t.Fatalf("%q takes %q, but in bold %q", word, form, bold)
			}
		}
	})
}
