package contest

import "time"

// Schedule is when a server's daily is posted: every day at a local clock
// time, starting from when it was set up.
type Schedule struct {
	At    TimeOfDay
	Zones Zones
	// Since is when the schedule was set: a setup made after the day's
	// post time starts with tomorrow's post.
	Since time.Time
}

// Due tells which date's post is due at now, if any. It reads the local
// wall clock, so on a spring-forward day a post time in the skipped hour
// is due at 03:00, and on a fall-back day the first pass through the time
// posts (the day's post record keeps the second from posting). The long
// first day after a change to a zone behind posts on its own date; the
// short one after a change to a zone ahead posts when it starts if its
// post time came before.
func (s Schedule) Due(now time.Time) (Date, bool) {
	date, zone := s.Zones.DayAt(now)
	local := now.In(zone)
	if DateOf(local, zone) != date || ClockOf(local) < s.At {
		return date, false
	}
	if set, _ := s.Zones.DayAt(s.Since); set == date && ClockOf(s.Since.In(zone)) > s.At {
		return date, false
	}
	return date, true
}

// Next is when the next post will be made, seen at now: today at the post
// time while that is still ahead and today's post is not made, else the
// next day's.
func (s Schedule) Next(now time.Time, postedToday bool) time.Time {
	day, zone := s.Zones.DayAt(now)
	local := now.In(zone)
	if postedToday || (DateOf(local, zone) == day && ClockOf(local) > s.At) {
		day = s.Zones.next(day)
	}
	at := day.At(s.At, s.Zones.ZoneOf(day))
	if s.Zones.Prev != nil && at.Before(s.Zones.From) {
		at = s.Zones.From // the first day in a zone ahead starts after its post time
	}
	return at
}
