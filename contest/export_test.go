package contest

import (
	"context"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// Hooks for the external tests (those on a store, storetest.Memory, whose
// package imports this one): the steps they drive one at a time, and the helpers they
// share with the internal tests.

// HoldPosting marks the dailies as posting, as a Tick with posts to make
// does, until the returned function is called.
func (d *Dailies) HoldPosting() (release func()) {
	d.posting.Add(1)
	return func() { d.posting.Add(-1) }
}

// SetClaimedTimeout bounds a claimed post or crowning by d until the
// returned function restores the bound.
func SetClaimedTimeout(d time.Duration) (restore func()) {
	old := claimedTimeout
	claimedTimeout = d
	return func() { claimedTimeout = old }
}

// Fix fixes the day's maze, as a claim does first.
func (d *Dailies) Fix(ctx context.Context, s DailySettings, date Date) (mazecore.ID, error) {
	return d.fix(ctx, s, date)
}

// Award is what an event's run earns, as Contests.Finish asks.
func (ev *Events) Award(ctx context.Context, id int64, r play.Result) (*EventAward, error) {
	return ev.award(ctx, id, r)
}

// PostKey names one of the event's posts.
func (e Event) PostKey(what string) string { return e.postKey(what) }

var (
	Nonce        = nonce
	DailyPostKey = dailyPostKey
	StartGrace   = startGrace

	DailiesKey  = testKey
	UTC         = utc
	MustLoad    = mustLoad
	MustDate    = mustDate
	MustMazeFor = mazeFor
	DefaultMaze = defaultMaze
)
