package lang

import (
	"strings"
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d      time.Duration
		en, ko string
	}{
		{0, "0 seconds", "0초"},
		{-time.Minute, "0 seconds", "0초"},
		{time.Second, "1 second", "1초"},
		{999 * time.Millisecond, "0 seconds", "0초"},
		{42 * time.Second, "42 seconds", "42초"},
		{time.Minute, "1 minute", "1분"},
		{2 * time.Minute, "2 minutes", "2분"},
		{61 * time.Second, "1 minute 1 second", "1분 1초"},
		{3*time.Minute + 12*time.Second, "3 minutes 12 seconds", "3분 12초"},
		{time.Hour, "1 hour", "1시간"},
		{2 * time.Hour, "2 hours", "2시간"},
		{90 * time.Minute, "1 hour 30 minutes", "1시간 30분"},
		{time.Hour + 2*time.Minute + 3*time.Second, "1 hour 2 minutes", "1시간 2분"},
		{24 * time.Hour, "1 day", "1일"},
		{36 * time.Hour, "1 day 12 hours", "1일 12시간"},
		{7 * 24 * time.Hour, "7 days", "7일"},
		{25*time.Hour + 30*time.Minute, "1 day 1 hour", "1일 1시간"},
	} {
		if got := English.Duration(tc.d); got != tc.en {
			t.Errorf("English.Duration(%v)=%q, want %q", tc.d, got, tc.en)
		}
		if got := Korean.Duration(tc.d); got != tc.ko {
			t.Errorf("Korean.Duration(%v)=%q, want %q", tc.d, got, tc.ko)
		}
	}
}

func TestClockAndRunTime(t *testing.T) {
	for _, tc := range []struct {
		d          time.Duration
		clock, run string
	}{
		{0, "0:00", "0:00.0"},
		{-time.Second, "0:00", "0:00.0"},
		{42*time.Second + 399*time.Millisecond, "0:42", "0:42.3"},
		{102 * time.Second, "1:42", "1:42.0"},
		{59*time.Minute + 59*time.Second + 999*time.Millisecond, "59:59", "59:59.9"},
		{time.Hour + 2*time.Minute + 3*time.Second + 450*time.Millisecond, "1:02:03", "1:02:03.4"},
		{26 * time.Hour, "26:00:00", "26:00:00.0"},
	} {
		for _, l := range Languages() {
			if got := l.Clock(tc.d); got != tc.clock {
				t.Errorf("%s.Clock(%v)=%q, want %q", l, tc.d, got, tc.clock)
			}
			run := tc.run
			if l.writing.decimal == "," {
				run = strings.Replace(run, ".", ",", 1)
			}
			if got := l.RunTime(tc.d); got != run {
				t.Errorf("%s.RunTime(%v)=%q, want %q", l, tc.d, got, run)
			}
		}
	}
}

func TestDate(t *testing.T) {
	seoul := time.FixedZone("KST", 9*3600)
	for _, tc := range []struct {
		t      time.Time
		en, ko string
	}{
		{time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), "2026-11-30", "2026년 11월 30일"},
		{time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC), "2026-01-05", "2026년 1월 5일"},
		// The date in t's own zone: 20:00 UTC is the next morning in Seoul.
		{time.Date(2026, 12, 31, 20, 0, 0, 0, time.UTC).In(seoul), "2027-01-01", "2027년 1월 1일"},
	} {
		if got := English.Date(tc.t); got != tc.en {
			t.Errorf("English.Date(%v)=%q, want %q", tc.t, got, tc.en)
		}
		if got := Korean.Date(tc.t); got != tc.ko {
			t.Errorf("Korean.Date(%v)=%q, want %q", tc.t, got, tc.ko)
		}
	}
}

// TestWriting: what the code writes itself follows the language: a run's
// decimal separator, how a list is joined.
func TestWriting(t *testing.T) {
	comma := &Lang{code: "de", writing: writing{decimal: ","}}
	if got := comma.RunTime(62*time.Second + 340*time.Millisecond); got != "1:02,3" {
		t.Errorf("RunTime with a decimal comma=%q", got)
	}
	if got := comma.RunTime(3723*time.Second + 400*time.Millisecond); got != "1:02:03,4" {
		t.Errorf("RunTime with a decimal comma=%q", got)
	}
	if got := English.RunTime(62*time.Second + 340*time.Millisecond); got != "1:02.3" {
		t.Errorf("English RunTime=%q", got)
	}
	ideographic := &Lang{code: "ja", writing: writing{list: "、"}}
	list := List{Func(func(*Lang) string { return "A" }), Func(func(*Lang) string { return "B" })}
	if got := list.In(ideographic); got != "A、B" {
		t.Errorf("a Japanese list=%q", got)
	}
	if got := list.In(English); got != "A, B" {
		t.Errorf("an English list=%q", got)
	}
}
