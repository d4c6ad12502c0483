package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
)

// CreateEvent stores a new running event and returns its id. When the
// channel already has a running event it stores nothing and returns an
// error wrapping contest.ErrConflict. The partial unique index decides,
// in the one statement: of two processes inserting at once, the second
// waits for the first and then inserts nothing.
func (s *Store) CreateEvent(ctx context.Context, e contest.Event) (int64, error) {
	return call(s, ctx, "CreateEvent", "create event in channel "+e.ChannelID, writes, func(q q) (id int64, err error) {
		if err := checkLanguage(e.Language); err != nil {
			return 0, err
		}
		err = q.row(`
			INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, language, started_at, ends_at,
				maze_message_id, board_message_id, status, board_dirty, board_edited_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', FALSE, 0)
			ON CONFLICT (channel_id) WHERE status = 'running' DO NOTHING
			RETURNING id`,
			e.GuildID, e.ChannelID, e.Name, e.MazeID.String(), e.CreatorID, e.Language, millis(e.StartedAt), millis(e.EndsAt),
			e.MazeMessageID, e.BoardMessageID).Scan(&id)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return 0, fmt.Errorf("a running event is there: %w", contest.ErrConflict)
		case s.dialect.IsUnique(err): // another unique index than the one ON CONFLICT names
			return 0, fmt.Errorf("%w: %w", contest.ErrConflict, err)
		}
		return id, err
	})
}

// SetEventMessages records the event's maze and board messages.
func (s *Store) SetEventMessages(ctx context.Context, id int64, mazeMessageID, boardMessageID string) error {
	return do(s, ctx, "SetEventMessages", fmt.Sprintf("set messages of event %d", id), writes, func(q q) error {
		return q.claim(`UPDATE events SET maze_message_id = ?, board_message_id = ? WHERE id = ?`, mazeMessageID, boardMessageID, id)
	})
}

// SetResultsMessage records an ended event's results post.
func (s *Store) SetResultsMessage(ctx context.Context, id int64, messageID string) error {
	return do(s, ctx, "SetResultsMessage", fmt.Sprintf("set results message of event %d", id), writes, func(q q) error {
		return q.claim(`UPDATE events SET results_message_id = ? WHERE id = ?`, messageID, id)
	})
}

// DeleteEvent removes an event whose posts failed, freeing its channel.
func (s *Store) DeleteEvent(ctx context.Context, id int64) error {
	return do(s, ctx, "DeleteEvent", fmt.Sprintf("delete event %d", id), writes, func(q q) error {
		_, err := q.exec(`DELETE FROM events WHERE id = ?`, id)
		return err
	})
}

// Event returns the event with id, or an error wrapping contest.ErrNotFound.
func (s *Store) Event(ctx context.Context, id int64) (contest.Event, error) {
	return s.oneEvent(ctx, "Event", fmt.Sprintf("event %d", id), `WHERE id = ?`, id)
}

// RunningEvent returns the running event of a channel, or an error
// wrapping contest.ErrNotFound.
func (s *Store) RunningEvent(ctx context.Context, channelID string) (contest.Event, error) {
	return s.oneEvent(ctx, "RunningEvent", "running event in channel "+channelID, `WHERE channel_id = ? AND status = 'running'`, channelID)
}

// RunningEventOnMaze returns a running event played on maze, or an error
// wrapping contest.ErrNotFound. Should two run on one maze (the same seed
// by chance), the one ending last is returned.
func (s *Store) RunningEventOnMaze(ctx context.Context, maze mazecore.ID) (contest.Event, error) {
	return s.oneEvent(ctx, "RunningEventOnMaze", "running event on maze "+maze.String(),
		`WHERE maze_id = ? AND status = 'running' ORDER BY ends_at DESC, id DESC LIMIT 1`, maze.String())
}

func (s *Store) oneEvent(ctx context.Context, op, what, where string, args ...any) (contest.Event, error) {
	return call(s, ctx, op, what, reads, func(q q) (contest.Event, error) {
		return one(q, eventRow.event, `SELECT `+eventColumns+` FROM events `+where, args...)
	})
}

// runningEventsSQL reads the running events only, through the partial
// index on their ends: ordered by id, SQLite preferred a scan of the whole
// table in rowid order, every event ever held.
const runningEventsSQL = `SELECT ` + eventColumns + ` FROM events WHERE status = 'running' ORDER BY ends_at, id`

// RunningEvents lists the running events, soonest to end first: a handful
// at most, however many have ended (the index is partial).
func (s *Store) RunningEvents(ctx context.Context) ([]contest.Event, error) {
	return call(s, ctx, "RunningEvents", "running events", reads, func(q q) ([]contest.Event, error) {
		return all(q, eventRow.event, runningEventsSQL)
	})
}

// EndEvent marks a running event ended at at, moving its end to at if
// that is earlier, and claims its closing (attempt 1, at at). If it is not
// running (another process or tick ended it first) nothing changes and the
// error wraps contest.ErrConflict: only the caller that gets nil closes it.
func (s *Store) EndEvent(ctx context.Context, id int64, at time.Time) error {
	return do(s, ctx, "EndEvent", fmt.Sprintf("end event %d", id), writes, func(q q) error {
		ms := millis(at)
		return q.claim(`
			UPDATE events SET status = 'ended', ends_at = CASE WHEN ? < ends_at THEN ? ELSE ends_at END,
				board_dirty = FALSE, closing_attempts = 1, closing_claimed_at = ?
			WHERE id = ? AND status = 'running'`, ms, ms, ms, id)
	})
}

// closingEventsSQL reads the ended events not closed through their
// partial index: a handful, however many events have ended. SQLite uses
// the index only for the very words of its WHERE (migration 0015), so
// they are spelled alike.
const closingEventsSQL = `SELECT ` + eventColumns + ` FROM events WHERE status = 'ended' AND closed = FALSE ORDER BY id`

// ClosingEvents lists the ended events whose closing is unfinished.
func (s *Store) ClosingEvents(ctx context.Context) ([]contest.Event, error) {
	return call(s, ctx, "ClosingEvents", "closing events", reads, func(q q) ([]contest.Event, error) {
		return all(q, eventRow.event, closingEventsSQL)
	})
}

// endedEventsSQL reads a server's ended events through their partial
// index (migration 0019), spelled as its WHERE for SQLite.
const endedEventsSQL = `SELECT ` + eventColumns + ` FROM events WHERE guild_id = ? AND status = 'ended' ORDER BY id`

// EndedEvents lists a server's ended events, oldest first: whose boards
// a profile's events won are counted from.
func (s *Store) EndedEvents(ctx context.Context, guildID string) ([]contest.Event, error) {
	return call(s, ctx, "EndedEvents", "ended events of "+guildID, reads, func(q q) ([]contest.Event, error) {
		return all(q, eventRow.event, endedEventsSQL, guildID)
	})
}

// ClaimClosing writes claim number attempt on an ended event's closing,
// over claim attempt−1, in one conditional update: of two processes
// claiming at once one wins, the other's error wraps contest.ErrConflict.
func (s *Store) ClaimClosing(ctx context.Context, id int64, attempt int, at time.Time) error {
	return do(s, ctx, "ClaimClosing", fmt.Sprintf("claim closing of event %d #%d", id, attempt), writes, func(q q) error {
		return q.claim(`
			UPDATE events SET closing_attempts = ?, closing_claimed_at = ?
			WHERE id = ? AND status = 'ended' AND closed = FALSE AND closing_attempts = ?`,
			attempt, millis(at), id, attempt-1)
	})
}

// SetClosingDone adds steps to the closing steps made.
func (s *Store) SetClosingDone(ctx context.Context, id int64, steps contest.EndSteps) error {
	return s.setEvent(ctx, "SetClosingDone", fmt.Sprintf("set closing steps of event %d", id),
		`UPDATE events SET closing_done = closing_done | ? WHERE id = ?`, int(steps), id)
}

// AddClosingRefusal counts a closing attempt the channel refused.
func (s *Store) AddClosingRefusal(ctx context.Context, id int64) error {
	return s.setEvent(ctx, "AddClosingRefusal", fmt.Sprintf("count closing refusal of event %d", id),
		`UPDATE events SET closing_refused = closing_refused + 1 WHERE id = ?`, id)
}

// SetClosed marks an ended event's closing finished.
func (s *Store) SetClosed(ctx context.Context, id int64) error {
	return s.setEvent(ctx, "SetClosed", fmt.Sprintf("close event %d", id),
		`UPDATE events SET closed = TRUE WHERE id = ? AND status = 'ended'`, id)
}

// MarkBoardDirty notes that a running event's board is out of date.
func (s *Store) MarkBoardDirty(ctx context.Context, id int64) error {
	return s.setEvent(ctx, "MarkBoardDirty", fmt.Sprintf("mark board of event %d dirty", id),
		`UPDATE events SET board_dirty = TRUE WHERE id = ? AND status = 'running'`, id)
}

// ClaimBoardEdit takes a running event's dirty board for an edit at now,
// clearing the flag, if its last edit is still prev. One conditional
// update, so of two callers (hook and tick, or two processes) one gets it;
// the other's error wraps contest.ErrConflict.
func (s *Store) ClaimBoardEdit(ctx context.Context, id int64, prev, now time.Time) error {
	return do(s, ctx, "ClaimBoardEdit", fmt.Sprintf("claim board edit of event %d", id), writes, func(q q) error {
		return q.claim(`
			UPDATE events SET board_dirty = FALSE, board_edited_at = ?
			WHERE id = ? AND status = 'running' AND board_dirty = TRUE AND board_edited_at = ?`,
			millis(now), id, optionalMillis(prev))
	})
}

// SetBoardEdited records an edit of the board made outside a claim (the
// final one).
func (s *Store) SetBoardEdited(ctx context.Context, id int64, at time.Time) error {
	return s.setEvent(ctx, "SetBoardEdited", fmt.Sprintf("set board edit of event %d", id),
		`UPDATE events SET board_edited_at = ? WHERE id = ?`, millis(at), id)
}

// setEvent runs an update of an event that may match nothing: the event
// gone, or in another state.
func (s *Store) setEvent(ctx context.Context, op, what, update string, args ...any) error {
	return do(s, ctx, op, what, writes, func(q q) error {
		_, err := q.exec(update, args...)
		return err
	})
}
