package lang

import (
	"fmt"
	"strings"
)

// English chooses "a" or "an" by the sound that starts the next word, not
// its letter: "an 11×11 maze", "a 21×21 maze", "an 8", "a URL", "an SVG",
// "an hour". A catalog writes {{article .Size}} for the article alone or
// {{withArticle .Size}} for "an 11×11".
//
// Numbers are read as English speaks them, in groups of three digits: "an"
// when the first group is spoken starting with "eight" (8, 80, 800, 8000)
// or is 11 or 18 ("eleven", "eighteen thousand"). Capitals are spelled
// out: A E F H I L M N O R S X start with a vowel sound ("an MRI"). Words
// take "an" before a vowel letter, except where it sounds like "you" or
// "w" (a unique, a one-off, a European), and before a silent h (an hour).

// article is the template helper {{article .Word}}.
func article(word any) string {
	s := strings.TrimLeft(fmt.Sprint(word), " \t\n*_~`|\"'“‘([")
	if s == "" {
		return "a"
	}
	if s[0] >= '0' && s[0] <= '9' {
		return numberArticle(s)
	}
	i := 0
	for i < len(s) && isLatin(rune(s[i])) {
		i++
	}
	if i == 0 {
		return "a"
	}
	w := s[:i]
	if strings.ToUpper(w) == w {
		if strings.IndexByte("AEFHILMNORSX", w[0]) >= 0 {
			return "an"
		}
		return "a"
	}
	return wordArticle(strings.ToLower(w))
}

// withArticle is the template helper {{withArticle .Word}}: "an 11×11".
func withArticle(word any) string {
	s := fmt.Sprint(word)
	return article(s) + " " + s
}

func numberArticle(s string) string {
	var digits []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits = append(digits, c)
			continue
		}
		if c == ',' {
			continue // 11,000
		}
		break
	}
	if digits[0] == '8' {
		return "an"
	}
	if first := len(digits) % 3; first == 2 {
		if g := string(digits[:2]); g == "11" || g == "18" {
			return "an"
		}
	}
	return "a"
}

// soundsConsonant are vowel-letter beginnings spoken with a consonant.
var soundsConsonant = []string{"one", "once", "eu", "ewe", "uni", "use", "usu", "uti", "ubi", "ukr", "ura", "uri", "uro", "ute"}

// soundsVowel start with a vowel sound despite a rule below: a silent h
// (an hour), or un- before a vowel-sounding stem (an unimportant).
var soundsVowel = []string{"hour", "honest", "honor", "honour", "heir", "unin", "unim"}

func wordArticle(w string) string {
	for _, p := range soundsVowel {
		if strings.HasPrefix(w, p) {
			return "an"
		}
	}
	for _, p := range soundsConsonant {
		if strings.HasPrefix(w, p) {
			return "a"
		}
	}
	if isVowel(w[0]) {
		return "an"
	}
	return "a"
}
