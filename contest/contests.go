package contest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// Contests are the dailies and events together, as play and /solve meet
// them: which contest a new game counts for, what a win earns, and whether
// a maze's solution is held back.
type Contests struct {
	Dailies *Dailies
	Events  *Events
}

// For is the contest a new game on maze, in a server's channel, counts
// for: the channel's running event on that maze, else the server's daily
// if the maze is today's, else none (the zero Key).
func (c Contests) For(ctx context.Context, guildID, channelID string, maze mazecore.ID) (Key, error) {
	if k, err := c.Events.contestFor(ctx, channelID, maze); err != nil || !k.IsZero() {
		return k, err
	}
	return c.Dailies.contestFor(ctx, guildID, maze)
}

// Award is what a won game earns in its contest: one of the two, or
// neither for a game outside any contest.
type Award struct {
	Daily   *DailyAward
	Event   *EventAward
	Archive *ArchiveAward
}

// Finish records what a stored win r earns in its contest.
func (c Contests) Finish(ctx context.Context, r play.Result) (Award, error) {
	key, ok := ParseKey(r.Contest)
	if !ok {
		return Award{}, nil
	}
	if id, ok := key.Event(); ok {
		a, err := c.Events.award(ctx, id, r)
		return Award{Event: a}, err
	}
	if guildID, date, ok := key.Archive(); ok {
		a, err := c.Dailies.archiveAward(ctx, guildID, date, r.UserID)
		return Award{Archive: a}, err
	}
	guildID, date, _ := key.Daily()
	a, err := c.Dailies.award(ctx, guildID, date, r)
	return Award{Daily: a}, err
}

// Hold says why a maze's solution is held back, and until when. The zero
// Hold holds nothing.
type Hold struct {
	// Daily is set when the maze is a server's running daily; the
	// solution opens when its day ends there.
	Daily *Daily
	// Event is set when the maze is a running event's; the solution is
	// posted when it ends. Closing: its time is up, the results are on
	// their way.
	Event   *Event
	Closing bool
}

// Held tells whether the solution is held.
func (h Hold) Held() bool { return h.Daily != nil || h.Event != nil }

// Until is when the solution opens.
func (h Hold) Until() time.Time {
	switch {
	case h.Daily != nil:
		return h.Daily.SolutionsOpen()
	case h.Event != nil:
		return h.Event.EndsAt
	}
	return time.Time{}
}

// Held is the embargo, the one question /solve, the Solve button, the
// context menu and Give up all ask: is this maze's solution held, and
// until when? A maze is held while it is a running daily (asked in its
// server, or anywhere it was posted) or a running event's.
func (c Contests) Held(ctx context.Context, maze mazecore.ID, guildID string) (Hold, error) {
	now := c.Dailies.now()
	day, err := c.Dailies.held(ctx, maze, guildID, now)
	if err != nil || day != nil {
		return Hold{Daily: day}, err
	}
	e, err := c.Events.store.RunningEventOnMaze(ctx, maze)
	if errors.Is(err, ErrNotFound) {
		return Hold{}, nil
	}
	if err != nil {
		return Hold{}, fmt.Errorf("running event on maze %s: %w", maze, err)
	}
	return Hold{Event: &e, Closing: !now.Before(e.EndsAt)}, nil
}
