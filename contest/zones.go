package contest

import "time"

// Zones is a server's time zone and, after a change, the zone it replaced.
// A change never cuts short the day running when it is made (members are
// playing it, and its solution is held until its midnight): the old zone
// keeps that day, and the new one takes over at its end (From), with the
// next date. When the new zone is behind, that first day starts before its
// date's own midnight and runs long; when it is ahead, short. No date is
// played twice.
type Zones struct {
	Zone *time.Location
	Prev *time.Location // nil: no change, or one made before any day ran
	From time.Time      // when Zone took over from Prev
}

// lastPrev is Prev's last date.
func (z Zones) lastPrev() Date { return DateOf(z.From.Add(-time.Nanosecond), z.Prev) }

// firstNew is Zone's first date: the day after Prev's last, or later when
// Zone is so far ahead that it has passed that date at From.
func (z Zones) firstNew() Date {
	first := z.lastPrev().AddDays(1)
	if at := DateOf(z.From, z.Zone); first.Before(at) {
		first = at
	}
	return first
}

// DayAt is the daily's date at t, and the zone that date runs in.
func (z Zones) DayAt(t time.Time) (Date, *time.Location) {
	if z.Prev == nil {
		return DateOf(t, z.Zone), z.Zone
	}
	if t.Before(z.From) {
		return DateOf(t, z.Prev), z.Prev
	}
	date := DateOf(t, z.Zone)
	if first := z.firstNew(); date.Before(first) {
		date = first
	}
	return date, z.Zone
}

// ZoneOf is the zone a date runs in.
func (z Zones) ZoneOf(date Date) *time.Location {
	if z.Prev != nil && !z.lastPrev().Before(date) {
		return z.Prev
	}
	return z.Zone
}

// next is the date after date, skipping those no zone runs.
func (z Zones) next(date Date) Date {
	next := date.AddDays(1)
	if z.Prev != nil && z.ZoneOf(next) == z.Zone {
		if first := z.firstNew(); next.Before(first) {
			next = first
		}
	}
	return next
}

// Change is the zones after a manager picks zone at now. live tells
// whether the day running then may be played (its maze was shown or
// posted): it keeps its zone until its end. A day nobody has seen takes
// the new zone at once, from its start; neither way does a date that ran
// come back.
func (z Zones) Change(zone *time.Location, now time.Time, live bool) Zones {
	date, running := z.DayAt(now)
	if zone.String() == running.String() {
		if z.Prev != nil && now.Before(z.From) {
			return Zones{Zone: zone} // back to the running day's zone: no change waits
		}
		return z
	}
	from := date.End(running)
	if !live {
		from = minTime(now, date.AddDays(-1).End(running))
	}
	return Zones{Zone: zone, Prev: running, From: from}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
