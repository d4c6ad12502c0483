package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
)

// CreateEvent stores a new running event and returns its id, or an error
// wrapping contest.ErrConflict when the channel has a running one.
func (s *Store) CreateEvent(ctx context.Context, e contest.Event) (int64, error) {
	what := "create event in channel " + e.ChannelID
	switch {
	case len(e.Language) > maxLanguage:
		return 0, fmt.Errorf("%s: %w", what, refused("a language code of %d bytes, at most %d", len(e.Language), maxLanguage))
	case e.ChannelID == "" || e.MazeID.String() == "":
		return 0, fmt.Errorf("%s: %w", what, refused("an event without a channel or a maze"))
	}
	if err := s.lock(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	for _, o := range s.events {
		if o.ChannelID == e.ChannelID && o.Status == contest.Running {
			return 0, fmt.Errorf("%s: a running event is there: %w", what, contest.ErrConflict)
		}
	}
	e = contest.Event{
		ID: s.nextID(), GuildID: e.GuildID, ChannelID: e.ChannelID, Name: e.Name, MazeID: e.MazeID, CreatorID: e.CreatorID,
		Language: e.Language, StartedAt: instant(e.StartedAt), EndsAt: instant(e.EndsAt),
		MazeMessageID: e.MazeMessageID, BoardMessageID: e.BoardMessageID, Status: contest.Running,
	}
	s.events[e.ID] = e
	return e.ID, nil
}

// update changes event id if ok says so; with conflict, an event that is
// gone or not ok is contest.ErrConflict, else nothing.
func (s *Store) update(ctx context.Context, what string, id int64, conflict bool, ok func(contest.Event) bool, change func(*contest.Event)) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	e, found := s.events[id]
	if !found || !ok(e) {
		if conflict {
			return fmt.Errorf("%s: %w", what, contest.ErrConflict)
		}
		return nil
	}
	change(&e)
	s.events[id] = e
	return nil
}

func always(contest.Event) bool { return true }

func running(e contest.Event) bool { return e.Status == contest.Running }

// SetEventMessages records the event's maze and board messages.
func (s *Store) SetEventMessages(ctx context.Context, id int64, mazeMessageID, boardMessageID string) error {
	return s.update(ctx, fmt.Sprintf("set messages of event %d", id), id, true, always,
		func(e *contest.Event) { e.MazeMessageID, e.BoardMessageID = mazeMessageID, boardMessageID })
}

// SetResultsMessage records an ended event's results post.
func (s *Store) SetResultsMessage(ctx context.Context, id int64, messageID string) error {
	return s.update(ctx, fmt.Sprintf("set results message of event %d", id), id, true, always,
		func(e *contest.Event) { e.ResultsMessageID = messageID })
}

// DeleteEvent removes an event, freeing its channel.
func (s *Store) DeleteEvent(ctx context.Context, id int64) error {
	return remove(ctx, s, s.events, id)
}

// Event returns the event with id, or an error wrapping contest.ErrNotFound.
func (s *Store) Event(ctx context.Context, id int64) (contest.Event, error) {
	return s.find(ctx, fmt.Sprintf("event %d", id), func(e contest.Event) bool { return e.ID == id })
}

// RunningEvent returns the running event of a channel, or an error
// wrapping contest.ErrNotFound.
func (s *Store) RunningEvent(ctx context.Context, channelID string) (contest.Event, error) {
	return s.find(ctx, "running event in channel "+channelID, func(e contest.Event) bool { return running(e) && e.ChannelID == channelID })
}

// RunningEventOnMaze returns the running event on maze ending last, or an
// error wrapping contest.ErrNotFound.
func (s *Store) RunningEventOnMaze(ctx context.Context, maze mazecore.ID) (contest.Event, error) {
	return s.find(ctx, "running event on maze "+maze.String(), func(e contest.Event) bool { return running(e) && e.MazeID == maze })
}

// find returns the event that match takes, of several the one ending
// last, or an error wrapping contest.ErrNotFound.
func (s *Store) find(ctx context.Context, what string, match func(contest.Event) bool) (contest.Event, error) {
	events, err := s.list(ctx, match, func(a, b contest.Event) int {
		return cmp.Or(b.EndsAt.Compare(a.EndsAt), cmp.Compare(b.ID, a.ID))
	})
	if err != nil {
		return contest.Event{}, err
	}
	if len(events) == 0 {
		return contest.Event{}, fmt.Errorf("%s: %w", what, contest.ErrNotFound)
	}
	return events[0], nil
}

// list returns the events match takes, in order.
func (s *Store) list(ctx context.Context, match func(contest.Event) bool, order func(a, b contest.Event) int) ([]contest.Event, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []contest.Event
	for _, e := range s.events {
		if match(e) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, order)
	return out, nil
}

// RunningEvents lists the running events, soonest to end first.
func (s *Store) RunningEvents(ctx context.Context) ([]contest.Event, error) {
	return s.list(ctx, running, func(a, b contest.Event) int { return cmp.Or(a.EndsAt.Compare(b.EndsAt), cmp.Compare(a.ID, b.ID)) })
}

// EndEvent marks a running event ended at at, moving its end to at if
// that is earlier, and claims its closing (attempt 1, at at); an event not
// running is contest.ErrConflict.
func (s *Store) EndEvent(ctx context.Context, id int64, at time.Time) error {
	return s.update(ctx, fmt.Sprintf("end event %d", id), id, true, running, func(e *contest.Event) {
		at := instant(at)
		e.Status, e.BoardDirty = contest.Ended, false
		if at.Before(e.EndsAt) {
			e.EndsAt = at
		}
		e.Closing.Attempts, e.Closing.ClaimedAt = 1, optional(at)
	})
}

// ClosingEvents lists the ended events whose closing is unfinished.
func (s *Store) ClosingEvents(ctx context.Context) ([]contest.Event, error) {
	return s.list(ctx, func(e contest.Event) bool { return e.Status == contest.Ended && !e.Closing.Closed },
		func(a, b contest.Event) int { return cmp.Compare(a.ID, b.ID) })
}

// ClaimClosing writes claim number attempt on an ended event's closing,
// over claim attempt−1; anything else is contest.ErrConflict.
func (s *Store) ClaimClosing(ctx context.Context, id int64, attempt int, at time.Time) error {
	return s.update(ctx, fmt.Sprintf("claim closing of event %d #%d", id, attempt), id, true,
		func(e contest.Event) bool {
			return e.Status == contest.Ended && !e.Closing.Closed && e.Closing.Attempts == attempt-1
		},
		func(e *contest.Event) { e.Closing.Attempts, e.Closing.ClaimedAt = attempt, optional(at) })
}

// SetClosingDone adds steps to the closing steps made.
func (s *Store) SetClosingDone(ctx context.Context, id int64, steps contest.EndSteps) error {
	return s.update(ctx, "", id, false, always, func(e *contest.Event) { e.Closing.Done |= steps })
}

// AddClosingRefusal counts a closing attempt the channel refused.
func (s *Store) AddClosingRefusal(ctx context.Context, id int64) error {
	return s.update(ctx, "", id, false, always, func(e *contest.Event) { e.Closing.Refused++ })
}

// SetClosed marks an ended event's closing finished.
func (s *Store) SetClosed(ctx context.Context, id int64) error {
	return s.update(ctx, "", id, false, func(e contest.Event) bool { return e.Status == contest.Ended },
		func(e *contest.Event) { e.Closing.Closed = true })
}

// MarkBoardDirty notes that a running event's board is out of date.
func (s *Store) MarkBoardDirty(ctx context.Context, id int64) error {
	return s.update(ctx, "", id, false, running, func(e *contest.Event) { e.BoardDirty = true })
}

// ClaimBoardEdit takes a running event's dirty board for an edit at now,
// clearing the flag, if its last edit is still prev; else
// contest.ErrConflict.
func (s *Store) ClaimBoardEdit(ctx context.Context, id int64, prev, now time.Time) error {
	return s.update(ctx, fmt.Sprintf("claim board edit of event %d", id), id, true,
		func(e contest.Event) bool { return running(e) && e.BoardDirty && e.BoardEditedAt.Equal(optional(prev)) },
		func(e *contest.Event) { e.BoardDirty, e.BoardEditedAt = false, optional(now) })
}

// SetBoardEdited records an edit of the board made outside a claim.
func (s *Store) SetBoardEdited(ctx context.Context, id int64, at time.Time) error {
	return s.update(ctx, "", id, false, always, func(e *contest.Event) { e.BoardEditedAt = optional(at) })
}
