package lang

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Korean particles change with the sound that ends the word before them:
// 미로를 but 백트래킹을. A catalog writes {{josa .Name "을/를"}} (the word
// and its particle) or {{particle .Name "을/를"}} (the particle alone, for
// "**{{.Name}}**{{particle .Name "을/를"}}"); either form of a pair names it.
//
// How the final sound is found, from the end of the word:
//   - Markdown and quotes (* _ ~ ` | " ' ” ’ 」 』) and spaces are skipped:
//     "**미로**" ends in 로.
//   - A parenthesis is skipped with its content, as Korean attaches the
//     particle to the word before it: "백트래킹(backtracking)" ends in 킹.
//   - A Hangul syllable: its final consonant (받침), from U+AC00 arithmetic.
//   - Digits: how the number is read. The last digit (0 영, 1 일, 2 이, 3 삼,
//     4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구), unless the number ends in zeros:
//     10 십, 100 백, 1000 천, 10⁴–10⁷ 만, 10⁸–10¹¹ 억, 10¹²–10¹⁵ 조.
//     Digits after a decimal point are read one by one (2.10 ends in 영).
//   - Latin letters in capitals are read letter by letter (PNG 피엔지, URL
//     유알엘): L 엘, M 엠, N 엔, R 알 end in a consonant, every other letter
//     in a vowel. Other words are read as English: a final l ("google"),
//     m, n, ng ("game", "line", "backtracking"), or b, c, k, ck, p, t after a
//     single vowel ("bot", "map", "click") end in a consonant; anything else
//     ("server", "code", "desk") in a vowel. This is a heuristic: it is right
//     for the words mazebot shows, not for all of English.
//   - Anything else (emoji, other scripts, symbols) is unknown, and the
//     particle is written with both forms, "을(를)", the usual last resort.
//
// 으로/로 also takes 로 after ㄹ: 서울로, 길로, but 집으로.

// coda is the sound that ends a word, as a particle sees it.
type coda int

const (
	codaUnknown   coda = iota
	codaVowel          // no final consonant: 가, 를, 는, 와, 로
	codaConsonant      // a final consonant other than ㄹ: 이, 을, 은, 과, 으로
	codaRieul          // a final ㄹ: like a consonant, but 로
)

// particlePair is a particle's two forms.
type particlePair struct {
	consonant string // after a final consonant
	vowel     string // after a vowel
	rieulLike bool   // ㄹ takes the vowel form (으로/로)
	both      string // when the sound is unknown
}

var particlePairs = []particlePair{
	{consonant: "이", vowel: "가", both: "이(가)"},
	{consonant: "을", vowel: "를", both: "을(를)"},
	{consonant: "은", vowel: "는", both: "은(는)"},
	{consonant: "과", vowel: "와", both: "과(와)"},
	{consonant: "으로", vowel: "로", rieulLike: true, both: "(으)로"},
}

// lookupParticle finds the pair a catalog names: "을/를", "를/을", "을" or "를".
func lookupParticle(name string) (particlePair, bool) {
	forms := strings.Split(name, "/")
	if len(forms) > 2 {
		return particlePair{}, false
	}
	for _, p := range particlePairs {
		ok := true
		for _, f := range forms {
			if f != p.consonant && f != p.vowel {
				ok = false
			}
		}
		if ok {
			return p, true
		}
	}
	return particlePair{}, false
}

// choose picks the form for a word.
func (p particlePair) choose(word string) string {
	switch finalSound(word) {
	case codaVowel:
		return p.vowel
	case codaConsonant:
		return p.consonant
	case codaRieul:
		if p.rieulLike {
			return p.vowel
		}
		return p.consonant
	}
	return p.both
}

// ParticleAfter tells whether particle is a Korean particle, and if it is,
// whether it is the form it takes after word ("미로" takes 를, "/순위표"
// 에서): want is that form. Checks of how messages name commands use it.
func ParticleAfter(word, particle string) (isParticle bool, want string) {
	if slices.Contains(invariantParticles, particle) {
		return true, particle
	}
	if p, ok := lookupParticle(particle); ok {
		return true, p.choose(word)
	}
	return false, ""
}

// invariantParticles follow any word the same way.
var invariantParticles = []string{"에서", "에게", "에", "의", "도", "만", "까지", "부터"}

// particleOnly is the template helper {{particle .Word "을/를"}}.
func particleOnly(word any, name string) (string, error) {
	p, ok := lookupParticle(name)
	if !ok {
		return "", fmt.Errorf("unknown particle %q", name)
	}
	return p.choose(fmt.Sprint(word)), nil
}

// josa is the template helper {{josa .Word "을/를"}}: the word and its
// particle.
func josa(word any, name string) (string, error) {
	s := fmt.Sprint(word)
	p, err := particleOnly(s, name)
	if err != nil {
		return "", err
	}
	return s + p, nil
}

// transparent characters are skipped at the end of a word.
const transparent = " \t\n*_~`|\"'”’」』"

// closing brackets and their openers, skipped with their content.
var brackets = map[rune]rune{')': '(', '）': '（', ']': '['}

func finalSound(word string) coda {
	rs := []rune(word)
	for len(rs) > 0 {
		r := rs[len(rs)-1]
		if strings.ContainsRune(transparent, r) {
			rs = rs[:len(rs)-1]
			continue
		}
		if open, ok := brackets[r]; ok {
			i := lastIndex(rs[:len(rs)-1], open)
			if i < 0 {
				return codaUnknown
			}
			if strings.TrimFunc(string(rs[:i]), func(r rune) bool { return strings.ContainsRune(transparent, r) }) == "" {
				// Nothing before the parenthesis: its content is the word.
				rs = rs[i+1 : len(rs)-1]
			} else {
				rs = rs[:i]
			}
			continue
		}
		break
	}
	if len(rs) == 0 {
		return codaUnknown
	}
	r := rs[len(rs)-1]
	switch {
	case r >= 0xAC00 && r <= 0xD7A3:
		return syllableCoda(r)
	case r >= 0x3131 && r <= 0x314E: // a consonant letter, ㄱ–ㅎ
		if r == 'ㄹ' {
			return codaRieul
		}
		return codaConsonant
	case r >= 0x314F && r <= 0x3163: // a vowel letter, ㅏ–ㅣ
		return codaVowel
	case r >= '0' && r <= '9':
		return numberCoda(rs)
	case isLatin(r):
		i := len(rs)
		for i > 0 && isLatin(rs[i-1]) {
			i--
		}
		return latinCoda(string(rs[i:]))
	}
	return codaUnknown
}

func lastIndex(rs []rune, r rune) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i] == r {
			return i
		}
	}
	return -1
}

func syllableCoda(r rune) coda {
	switch (r - 0xAC00) % 28 {
	case 0:
		return codaVowel
	case 8: // ㄹ
		return codaRieul
	}
	return codaConsonant
}

// digitCodas is how each digit ends when read: 영 일 이 삼 사 오 육 칠 팔 구.
var digitCodas = [10]coda{
	codaConsonant, codaRieul, codaVowel, codaConsonant, codaVowel,
	codaVowel, codaConsonant, codaRieul, codaRieul, codaVowel,
}

// zeroCodas is how a number ending in n zeros ends: 십 백 천, then 만, 억
// and 조 for four zeros each.
var zeroCodas = []coda{
	1: codaConsonant, 2: codaConsonant, 3: codaConsonant, // 십 백 천
	4: codaConsonant, 5: codaConsonant, 6: codaConsonant, 7: codaConsonant, // 만
	8: codaConsonant, 9: codaConsonant, 10: codaConsonant, 11: codaConsonant, // 억
	12: codaVowel, 13: codaVowel, 14: codaVowel, 15: codaVowel, // 조
}

// numberCoda reads the number that ends rs.
func numberCoda(rs []rune) coda {
	var digits []rune
	i := len(rs) - 1
	for ; i >= 0; i-- {
		r := rs[i]
		if r >= '0' && r <= '9' {
			digits = append(digits, r) // reversed
			continue
		}
		if r == ',' && i > 0 && rs[i-1] >= '0' && rs[i-1] <= '9' {
			continue // a thousands separator: 1,000
		}
		break
	}
	last := int(digits[0] - '0')
	if i >= 0 && rs[i] == '.' {
		return digitCodas[last] // after a decimal point: read digit by digit
	}
	zeros := 0
	for zeros < len(digits) && digits[zeros] == '0' {
		zeros++
	}
	if zeros == 0 || zeros == len(digits) {
		return digitCodas[last] // 7 칠, 0 영
	}
	if zeros < len(zeroCodas) {
		return zeroCodas[zeros]
	}
	return codaUnknown
}

func isLatin(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }

// latinCoda reads a run of Latin letters: capitals letter by letter, other
// words as English (see the package comment above).
func latinCoda(word string) coda {
	if strings.ToUpper(word) == word {
		switch word[len(word)-1] {
		case 'L', 'R':
			return codaRieul
		case 'M', 'N':
			return codaConsonant
		}
		return codaVowel
	}
	w := strings.ToLower(word)
	// A silent e after a consonant: "game", "line", "table".
	if len(w) > 2 && w[len(w)-1] == 'e' && !isVowel(w[len(w)-2]) {
		switch w[len(w)-2] {
		case 'l':
			return codaRieul
		case 'm', 'n':
			return codaConsonant
		}
		return codaVowel // "code", "maze": 코드, 메이즈
	}
	switch {
	case strings.HasSuffix(w, "l"):
		return codaRieul
	case strings.HasSuffix(w, "m"), strings.HasSuffix(w, "n"), strings.HasSuffix(w, "ng"):
		return codaConsonant
	}
	stem := strings.TrimSuffix(w, "ck")
	if stem == w {
		if !strings.ContainsRune("bckpt", rune(w[len(w)-1])) {
			return codaVowel
		}
		stem = w[:len(w)-1]
	}
	// A stop after one short vowel closes the syllable (봇, 맵, 클릭); after
	// a consonant or a long vowel it gets its own syllable (데스크, 보트).
	n := len(stem)
	if n >= 1 && isVowel(stem[n-1]) && (n == 1 || !isVowel(stem[n-2])) {
		return codaConsonant
	}
	return codaVowel
}

func isVowel(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }
