// Package codec is what mazebot's store adapters share: how the domain's
// records are spelled in a table row, whatever the database. Each adapter
// writes its own SQL; the columns it reads, their order, and the decoding
// into play and contest types are here, once, so the adapters agree.
//
// A row struct (GameRow, EventRow, …) has one field per column of its
// Columns constant, in that order; Dest returns pointers to them for a
// driver's Scan, and a method turns the row into the domain's record,
// refusing what it cannot read.
//
// codec imports the domain (play, contest, mazecore) and the standard
// library only; never a database driver.
package codec

import (
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/play"
)

// Millis and Time fix the storage format of times: UTC unix milliseconds.
// Precision below a millisecond is dropped.
func Millis(t time.Time) int64 { return t.UnixMilli() }

// Time is the instant of ms, in UTC.
func Time(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// OptionalMillis stores the zero Time ("not yet", "never") as 0.
func OptionalMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return Millis(t)
}

// OptionalTime reads 0 back as the zero Time.
func OptionalTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return Time(ms)
}

// Forever is later than any finish: the end of a contest that has none.
var Forever = time.UnixMilli(1<<62 - 1)

// Blob keeps an empty byte string a value: drivers store a nil []byte as
// NULL, which the NOT NULL columns refuse.
func Blob(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// The stored spellings of the domain's states; the schemas' CHECKs list
// them.
var (
	GameStatuses  = map[play.Status]string{play.Playing: "playing", play.Won: "won", play.GaveUp: "gave_up"}
	PostStates    = map[contest.PostState]string{contest.Posting: "posting", contest.Posted: "posted", contest.Failed: "failed"}
	EventStatuses = map[contest.EventStatus]string{contest.Running: "running", contest.Ended: "ended"}
)

// Status reads a stored spelling back through one of the spelling maps.
func Status[K comparable](spellings map[K]string, s string) (K, error) {
	for k, v := range spellings {
		if v == s {
			return k, nil
		}
	}
	var zero K
	return zero, fmt.Errorf("unknown status %q", s)
}
