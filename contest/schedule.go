package contest

import "time"

// Schedule is when a server's daily is posted: every day at a local clock
// time, starting from when it was set up.
type Schedule struct {
	At   TimeOfDay
	Zone *time.Location
	// Since is when the schedule was set: a setup made after the day's
	// post time starts with tomorrow's post.
	Since time.Time
}

// Due tells which local date's post is due at now, if any. It reads the
// local wall clock, so on a spring-forward day a post time in the skipped
// hour is due at 03:00, and on a fall-back day the first pass through the
// time posts (the day's post record keeps the second from posting).
func (s Schedule) Due(now time.Time) (Date, bool) {
	local := now.In(s.Zone)
	date := DateOf(local, s.Zone)
	if ClockOf(local) < s.At {
		return date, false
	}
	if set := s.Since.In(s.Zone); DateOf(set, s.Zone) == date && ClockOf(set) > s.At {
		return date, false
	}
	return date, true
}

// Next is when the next post will be made, seen at now: today at the post
// time while that is still ahead and today's post is not made, else
// tomorrow at the post time.
func (s Schedule) Next(now time.Time, postedToday bool) time.Time {
	local := now.In(s.Zone)
	day := DateOf(local, s.Zone)
	if postedToday || ClockOf(local) > s.At {
		day = day.AddDays(1)
	}
	return day.At(s.At, s.Zone)
}
