package contest

import (
	"strconv"
	"strings"
)

// Key names a contest: the daily of a server on a date, or an event; or
// a game of the archive, a past daily played unranked, which no ranking
// reads. Its text (String) is what games and results carry; only this
// package builds or reads it.
type Key struct {
	guildID string
	date    Date
	event   int64
	archive bool
}

// DailyKey is the key of a server's daily on a date.
func DailyKey(guildID string, date Date) Key { return Key{guildID: guildID, date: date} }

// ArchiveKey is the key of a server's past daily of a date played from
// the archive. Its text starts apart from every daily key, so no range of
// daily keys (a board, a streak, a season) ever holds it.
func ArchiveKey(guildID string, date Date) Key {
	return Key{guildID: guildID, date: date, archive: true}
}

// EventKey is the key of an event.
func EventKey(id int64) Key { return Key{event: id} }

const (
	dailyPrefix   = "daily:"
	eventPrefix   = "event:"
	archivePrefix = "archive:"
)

// String is "daily:<guild>:<YYYY-MM-DD>", "archive:<guild>:<YYYY-MM-DD>"
// or "event:<id>", "" for the zero Key. Within a server, daily keys sort by date, so a range of days is a
// range of keys.
func (k Key) String() string {
	switch {
	case k.event > 0:
		return eventPrefix + strconv.FormatInt(k.event, 10)
	case k.archive:
		return archivePrefix + k.guildID + ":" + k.date.String()
	case k.guildID != "":
		return dailyPrefix + k.guildID + ":" + k.date.String()
	}
	return ""
}

// IsZero tells whether k names no contest.
func (k Key) IsZero() bool { return k == Key{} }

// Daily returns the server and date of a daily's key.
func (k Key) Daily() (guildID string, date Date, ok bool) {
	return k.guildID, k.date, k.guildID != "" && !k.archive
}

// Archive returns the server and date of an archive game's key.
func (k Key) Archive() (guildID string, date Date, ok bool) {
	return k.guildID, k.date, k.archive
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
	for prefix, make := range map[string]func(string, Date) Key{dailyPrefix: DailyKey, archivePrefix: ArchiveKey} {
		rest, ok := strings.CutPrefix(s, prefix)
		if !ok {
			continue
		}
		guild, date, ok := strings.Cut(rest, ":")
		if !ok || guild == "" {
			return Key{}, false
		}
		d, err := ParseDate(date)
		if err != nil || d.String() != date {
			return Key{}, false
		}
		return make(guild, d), true
	}
	return Key{}, false
}
