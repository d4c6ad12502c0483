package lang

import (
	"strings"
	"testing"
)

// TestNumbers: every language writes numbers as CLDR 48 has them (the
// figures Intl.NumberFormat gives in Node 20 with ICU 78): its group and
// decimal separators, Spanish's minimum of two grouping digits, and the
// space before % in German, French and Spanish.
func TestNumbers(t *testing.T) {
	const nbsp, narrow = "\u00a0", "\u202f"
	for _, tc := range []struct {
		code                           string
		million, thousand, tenThousand string
		negative, half, seconds, full  string
	}{
		{"en", "1,234,567", "1,234", "12,345", "-1,234", "0.5", "12.5", "100%"},
		{"ko", "1,234,567", "1,234", "12,345", "-1,234", "0.5", "12.5", "100%"},
		{"ja", "1,234,567", "1,234", "12,345", "-1,234", "0.5", "12.5", "100%"},
		{"es", "1.234.567", "1234", "12.345", "-1234", "0,5", "12,5", "100" + nbsp + "%"},
		{"pt-BR", "1.234.567", "1.234", "12.345", "-1.234", "0,5", "12,5", "100%"},
		{"de", "1.234.567", "1.234", "12.345", "-1.234", "0,5", "12,5", "100" + nbsp + "%"},
		{"fr", "1" + narrow + "234" + narrow + "567", "1" + narrow + "234", "12" + narrow + "345", "-1" + narrow + "234", "0,5", "12,5", "100" + nbsp + "%"},
	} {
		l, ok := Lookup(tc.code)
		if !ok {
			t.Fatalf("no language %s", tc.code)
		}
		for _, c := range []struct{ got, want string }{
			{l.Int(1234567), tc.million},
			{l.Int(1234), tc.thousand},
			{l.Int(12345), tc.tenThousand},
			{l.Int(-1234), tc.negative},
			{l.Int(999), "999"},
			{l.Int(0), "0"},
			{l.Decimal(0.5, -1), tc.half},
			{l.Decimal(12.5, 1), tc.seconds},
			{l.Percent(100), tc.full},
			{Number(1234).In(l), tc.thousand},
			{Percent(100).In(l), tc.full},
		} {
			if c.got != c.want {
				t.Errorf("%s: got %q, want %q", tc.code, c.got, c.want)
			}
		}
		// A count is written the same way (TestCountForm: its form).
		one := l.T("count.tiles", Args{"Count": 1234})
		if !strings.Contains(one, tc.thousand) {
			t.Errorf("%s: 1234 tiles written %q, want %q in it", tc.code, one, tc.thousand)
		}
		if got := l.T("count.tiles", Args{"Count": 1234567}); !strings.Contains(got, tc.million) {
			t.Errorf("%s: 1234567 tiles written %q, want %q in it", tc.code, got, tc.million)
		}
		if got := l.T("unit.second", Args{"Count": "12.5"}); !strings.Contains(got, tc.seconds) {
			t.Errorf("%s: 12.5 seconds written %q, want %q in it", tc.code, got, tc.seconds)
		}
	}
}

// TestCountForm: a count written with separators still selects its form
// by the number: 1.000.000 in Spanish is CLDR's many ("de"), 1.234 in
// German is other, not a decimal.
func TestCountForm(t *testing.T) {
	for _, tc := range []struct {
		code  string
		count any
		want  string
	}{
		{"es", 1_000_000, "1.000.000 de clics"},
		{"es", 1234, "1234 clics"},
		{"de", 1234, "1.234 Klicks"},
		{"de", Number(1), "1 Klick"},
		{"fr", 1, "1 clic"},
		{"pt-BR", 0, "0 clique"},
		{"en", "1.5", "1.5 clicks"},
		{"de", "1.5", "1,5 Klicks"},
	} {
		l, _ := Lookup(tc.code)
		if got := l.T("count.clicks", Args{"Count": tc.count}); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.code, tc.count, got, tc.want)
		}
	}
}
