package lang

import (
	"reflect"
	"strconv"
	"strings"
)

// Int writes a whole number as the language does: "1,234,567" in English,
// Korean and Japanese, "1.234.567" in German and Portuguese, "1 234 567"
// (narrow no-break spaces) in French, "1234" but "12.345" in Spanish. A
// negative number takes CLDR's minus of all seven, the hyphen-minus.
func (l *Lang) Int(n int64) string {
	return l.localize(strconv.FormatInt(n, 10))
}

// Decimal writes x with places digits after the separator (-1: as few as
// tell x exactly): "12.5" in English, "12,5" in German.
func (l *Lang) Decimal(x float64, places int) string {
	return l.localize(strconv.FormatFloat(x, 'f', places, 64))
}

// Percent writes a percentage: "100%" in English, Korean, Japanese and
// Portuguese, "100 %" (a no-break space) in German, French and Spanish.
func (l *Lang) Percent(p int) string {
	sign := "%"
	if l.writing.percent != "" {
		sign = l.writing.percent
	}
	return l.Int(int64(p)) + sign
}

// localize rewrites a number Go wrote ("-1234567.5") with the language's
// group and decimal separators.
func (l *Lang) localize(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	group, decimal, minGrouping := ",", ".", 1
	if l.writing.group != "" {
		group = l.writing.group
	}
	if l.writing.decimal != "" {
		decimal = l.writing.decimal
	}
	if l.writing.minGrouping > 0 {
		minGrouping = l.writing.minGrouping
	}
	// CLDR groups only when the digits before the first separator would be
	// at least minGrouping: Spanish keeps 4-digit numbers whole.
	if len(whole) >= 3+minGrouping {
		var b strings.Builder
		head := len(whole) % 3
		if head == 0 {
			head = 3
		}
		b.WriteString(whole[:head])
		for i := head; i < len(whole); i += 3 {
			b.WriteString(group)
			b.WriteString(whole[i : i+3])
		}
		whole = b.String()
	}
	if hasFrac {
		return sign + whole + decimal + frac
	}
	return sign + whole
}

// Number is a placeholder's whole number written as the reader's language
// writes it (Int): a count, a rank, a number of clicks or bytes. A maze's
// ID, its sizes (21×21, what size: takes), a daily's number (#334) and a
// year stay plain digits, so they are passed as plain integers.
type Number int64

// In writes n in l.
func (n Number) In(l *Lang) string { return l.Int(int64(n)) }

// Percent is a placeholder's percentage, written as l.Percent writes it.
type Percent int

// In writes p in l.
func (p Percent) In(l *Lang) string { return l.Percent(int(p)) }

// wholeNumber is n as an int64 if it is an integer of any Go type (a
// Number too).
func wholeNumber(n any) (int64, bool) {
	v := reflect.ValueOf(n)
	switch {
	case v.CanInt():
		return v.Int(), true
	case v.CanUint():
		return int64(v.Uint()), true
	}
	return 0, false
}

// countText is how a message writes its Count: a whole number or a decimal
// string ("1.5") with the language's separators; ok is false for any other
// value, which the message then prints as it is.
func (l *Lang) countText(n any) (string, bool) {
	if i, ok := wholeNumber(n); ok {
		return l.Int(i), true
	}
	switch v := n.(type) {
	case string:
		if plainDecimal(v) {
			return l.localize(v), true
		}
	case float32:
		return l.Decimal(float64(v), -1), true
	case float64:
		return l.Decimal(v, -1), true
	}
	return "", false
}

// plainDecimal tells whether s is a number as Go's 'f' format writes it:
// an optional minus, digits, and at most one point between digits.
func plainDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasFrac := strings.Cut(s, ".")
	digits := func(d string) bool {
		return d != "" && strings.Trim(d, "0123456789") == ""
	}
	return digits(whole) && (!hasFrac || digits(frac))
}
