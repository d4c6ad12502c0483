package testkit

import "time"

// PostTime is a daily post time in America/Los_Angeles: At, local, is not
// due a minute Before and is due When (both UTC), on Date.
type PostTime struct {
	Name         string
	At           string // "HH:MM"
	Before, When time.Time
	Date         string // "YYYY-MM-DD"
}

// PostTimesAcrossDST are post times on days around 2026's changes of clocks,
// where a local time moves in UTC: the schedule's tests (contest) and the
// daily post's (commands) both meet them.
func PostTimesAcrossDST() []PostTime {
	utc := func(month time.Month, day, hour, min int) time.Time {
		return time.Date(2026, month, day, hour, min, 0, 0, time.UTC)
	}
	return []PostTime{
		{"StandardTime", "09:00", utc(3, 7, 16, 59), utc(3, 7, 17, 0), "2026-03-07"},
		{"SpringForwardDay", "09:00", utc(3, 8, 15, 59), utc(3, 8, 16, 0), "2026-03-08"},
		{"FallBackDay", "09:00", utc(11, 1, 16, 59), utc(11, 1, 17, 0), "2026-11-01"},
		// 02:30 doesn't exist on 2026-03-08: the clock jumps to 03:00.
		{"SkippedHour", "02:30", utc(3, 8, 9, 59), utc(3, 8, 10, 0), "2026-03-08"},
		// 01:30 happens twice on 2026-11-01: the first one is due.
		{"RepeatedHour", "01:30", utc(11, 1, 8, 29), utc(11, 1, 8, 30), "2026-11-01"},
	}
}
