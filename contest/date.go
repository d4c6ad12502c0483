package contest

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Date is a calendar date in a server's time zone. Dates are civil, so
// they are kept as UTC midnights, where every day has 24 hours.
type Date struct{ t time.Time }

const dateLayout = "2006-01-02"

// ParseDate reads "YYYY-MM-DD".
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return Date{}, fmt.Errorf("date %q: %w", s, err)
	}
	return Date{t}, nil
}

// MakeDate is the date year-month-day.
func MakeDate(year int, month time.Month, day int) Date {
	return Date{time.Date(year, month, day, 0, 0, 0, 0, time.UTC)}
}

// DateOf is the calendar date at t in loc.
func DateOf(t time.Time, loc *time.Location) Date {
	y, m, d := t.In(loc).Date()
	return MakeDate(y, m, d)
}

// Bounds that include every date a server can have.
var (
	FirstDate = MakeDate(1, 1, 1)
	LastDate  = MakeDate(9999, 12, 31)
)

func (d Date) String() string { return d.t.Format(dateLayout) }

// IsZero tells whether d is the zero Date.
func (d Date) IsZero() bool { return d.t.IsZero() }

// AddDays moves d by n calendar days.
func (d Date) AddDays(n int) Date { return Date{d.t.AddDate(0, 0, n)} }

// Before tells whether d comes before e.
func (d Date) Before(e Date) bool { return d.t.Before(e.t) }

// Noon is noon of d in loc: inside the day whatever the daylight-saving
// rules.
func (d Date) Noon(loc *time.Location) time.Time {
	return time.Date(d.t.Year(), d.t.Month(), d.t.Day(), 12, 0, 0, 0, loc)
}

// End is when d ends in loc: 23 or 25 hours after it began on a
// daylight-saving change.
func (d Date) End(loc *time.Location) time.Time {
	return time.Date(d.t.Year(), d.t.Month(), d.t.Day()+1, 0, 0, 0, 0, loc)
}

// At is the moment of the clock time c on d in loc.
func (d Date) At(c TimeOfDay, loc *time.Location) time.Time {
	return time.Date(d.t.Year(), d.t.Month(), d.t.Day(), c.Hour(), c.Minute(), 0, 0, loc)
}

// TimeOfDay is a local clock time, in minutes after midnight.
type TimeOfDay int

var timeOfDayPattern = regexp.MustCompile(`^([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

// ParseTimeOfDay reads 24-hour "HH:MM" ("9:05" too).
func ParseTimeOfDay(s string) (TimeOfDay, bool) {
	m := timeOfDayPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	// The pattern guarantees digits. (fmt.Sscan would read "09" as octal.)
	h, _ := strconv.Atoi(m[1])
	mm, _ := strconv.Atoi(m[2])
	return TimeOfDay(h*60 + mm), true
}

// ClockOf is the local clock time of t.
func ClockOf(t time.Time) TimeOfDay { return TimeOfDay(t.Hour()*60 + t.Minute()) }

func (c TimeOfDay) Hour() int   { return int(c) / 60 }
func (c TimeOfDay) Minute() int { return int(c) % 60 }

// String is "HH:MM".
func (c TimeOfDay) String() string { return fmt.Sprintf("%02d:%02d", c.Hour(), c.Minute()) }
