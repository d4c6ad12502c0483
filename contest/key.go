package contest

import (
	"strconv"
	"strings"
)

// Key names a contest: the daily of a server on a date, or an event. Its
// text (String) is what games and results carry; only this package builds
// or reads it.
type Key struct {
	guildID string
	date    Date
	event   int64
}

// DailyKey is the key of a server's daily on a date.
func DailyKey(guildID string, date Date) Key { return Key{guildID: guildID, date: date} }

// EventKey is the key of an event.
func EventKey(id int64) Key { return Key{event: id} }

const (
	dailyPrefix = "daily:"
	eventPrefix = "event:"
)

// String is "daily:<guild>:<YYYY-MM-DD>" or "event:<id>", "" for the zero
// Key. Within a server, daily keys sort by date, so a range of days is a
// range of keys.
func (k Key) String() string {
	switch {
	case k.event > 0:
		return eventPrefix + strconv.FormatInt(k.event, 10)
	case k.guildID != "":
		return dailyPrefix + k.guildID + ":" + k.date.String()
	}
	return ""
}

// IsZero tells whether k names no contest.
func (k Key) IsZero() bool { return k == Key{} }

// Daily returns the server and date of a daily's key.
func (k Key) Daily() (guildID string, date Date, ok bool) {
	return k.guildID, k.date, k.guildID != ""
}

// Event returns the event of an event's key.
func (k Key) Event() (int64, bool) { return k.event, k.event > 0 }

// ParseKey reads a key's text; "" and anything malformed are the zero Key.
func ParseKey(s string) (Key, bool) {
	if rest, ok := strings.CutPrefix(s, eventPrefix); ok {
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || id <= 0 || strconv.FormatInt(id, 10) != rest {
			return Key{}, false
		}
		return EventKey(id), true
	}
	if rest, ok := strings.CutPrefix(s, dailyPrefix); ok {
		guild, date, ok := strings.Cut(rest, ":")
		if !ok || guild == "" {
			return Key{}, false
		}
		d, err := ParseDate(date)
		if err != nil || d.String() != date {
			return Key{}, false
		}
		return DailyKey(guild, d), true
	}
	return Key{}, false
}
