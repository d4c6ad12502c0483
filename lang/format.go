package lang

import (
	"fmt"
	"time"
)

// Clock writes a time on a board or a share line: "1:42", "1:02:03" from an
// hour on, seconds truncated. Every language writes it this way today, and
// it keeps ASCII digits; it is a method so that one that doesn't can.
func (l *Lang) Clock(d time.Duration) string {
	s := int64(max(d, 0) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// RunTime writes a run's time with tenths, "0:42.3", "1:02:03.4", so that
// runs a fraction of a second apart don't look tied; with the language's
// decimal separator ("0:42,3" in German, French, Spanish, Portuguese).
// Tenths are truncated, never rounded up to a time the member did not make.
func (l *Lang) RunTime(d time.Duration) string {
	tenths := int64(max(d, 0) / (100 * time.Millisecond))
	s, t := tenths/10, tenths%10
	sep := "."
	if l.writing.decimal != "" {
		sep = l.writing.decimal
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d%s%d", s/3600, s/60%60, s%60, sep, t)
	}
	return fmt.Sprintf("%d:%02d%s%d", s/60, s%60, sep, t)
}

// proseUnits are the units of Duration, largest first.
var proseUnits = []struct {
	id   string
	size time.Duration
}{
	{"unit.day", 24 * time.Hour},
	{"unit.hour", time.Hour},
	{"unit.minute", time.Minute},
	{"unit.second", time.Second},
}

// Duration writes a span in words: "3 minutes 12 seconds" / "3분 12초",
// "2 hours" / "2시간", "1 day 12 hours" / "1일 12시간". It names the largest
// unit and the next one if that is not zero, truncating the rest: for
// "ends in", "runs for" and "took", a reader wants the size, not the
// seconds of a day-long event.
func (l *Lang) Duration(d time.Duration) string {
	d = max(d, 0)
	i := 0
	for i < len(proseUnits)-1 && d < proseUnits[i].size {
		i++
	}
	u := proseUnits[i]
	larger := l.T(u.id, Args{countKey: int64(d / u.size)})
	if i == len(proseUnits)-1 {
		return larger
	}
	next := proseUnits[i+1]
	m := int64(d % u.size / next.size)
	if m == 0 {
		return larger
	}
	return l.T("format.duration", Args{"Larger": larger, "Smaller": l.T(next.id, Args{countKey: m})})
}

// Date writes a calendar date, in t's own location (the caller picks the
// server's time zone): "2026-11-30" in English (the same for en-US and
// en-GB readers), "2026년 11월 30일" in Korean.
func (l *Lang) Date(t time.Time) string {
	return l.T("format.date", Args{"Year": t.Year(), "Month": int(t.Month()), "Day": t.Day()})
}

// Span is a duration worded in the reader's language when it fills a
// message: "7 days", "7일".
type Span time.Duration

// In writes the span in l.
func (s Span) In(l *Lang) string { return l.Duration(time.Duration(s)) }
