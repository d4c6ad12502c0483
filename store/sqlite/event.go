package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/store/internal/codec"
)

// CreateEvent stores a new running event and returns its id. When the
// channel already has a running event it stores nothing and returns an
// error wrapping contest.ErrConflict. The check and the insert are one
// statement, and the unique index backs it, so two processes can't both
// start one.
func (db *DB) CreateEvent(ctx context.Context, e contest.Event) (int64, error) {
	what := fmt.Sprintf("create event in channel %s", e.ChannelID)
	if err := codec.CheckLanguage(e.Language); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	res, err := db.db.ExecContext(ctx, `
		INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, language, started_at, ends_at,
			maze_message_id, board_message_id, status, board_dirty, board_edited_at)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', 0, 0
		WHERE NOT EXISTS (SELECT 1 FROM events WHERE channel_id = ? AND status = 'running')`,
		e.GuildID, e.ChannelID, e.Name, e.MazeID.String(), e.CreatorID, e.Language, codec.Millis(e.StartedAt), codec.Millis(e.EndsAt),
		e.MazeMessageID, e.BoardMessageID, e.ChannelID)
	if isUnique(err) {
		return 0, fmt.Errorf("%s: %w", what, contest.ErrConflict)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if err := expectOne(res, what+": a running event is there"); err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return id, nil
}

// SetEventMessages records the event's maze and board messages.
func (db *DB) SetEventMessages(ctx context.Context, id int64, mazeMessageID, boardMessageID string) error {
	res, err := db.db.ExecContext(ctx, `UPDATE events SET maze_message_id = ?, board_message_id = ? WHERE id = ?`,
		mazeMessageID, boardMessageID, id)
	if err != nil {
		return fmt.Errorf("set messages of event %d: %w", id, err)
	}
	return expectOne(res, fmt.Sprintf("set messages of event %d", id))
}

// DeleteEvent removes an event whose posts failed, freeing its channel.
func (db *DB) DeleteEvent(ctx context.Context, id int64) error {
	if _, err := db.db.ExecContext(ctx, `DELETE FROM events WHERE id = ?`, id); err != nil {
		return fmt.Errorf("delete event %d: %w", id, err)
	}
	return nil
}

// Event returns the event with id, or an error wrapping contest.ErrNotFound.
func (db *DB) Event(ctx context.Context, id int64) (contest.Event, error) {
	return db.oneEvent(ctx, fmt.Sprintf("event %d", id), `WHERE id = ?`, id)
}

// RunningEvent returns the running event of a channel, or an error
// wrapping contest.ErrNotFound.
func (db *DB) RunningEvent(ctx context.Context, channelID string) (contest.Event, error) {
	return db.oneEvent(ctx, "running event in channel "+channelID, `WHERE channel_id = ? AND status = 'running'`, channelID)
}

// RunningEventOnMaze returns a running event played on maze, or an error
// wrapping contest.ErrNotFound. Should two run on one maze (the same seed
// by chance), the one ending last is returned.
func (db *DB) RunningEventOnMaze(ctx context.Context, maze mazecore.ID) (contest.Event, error) {
	return db.oneEvent(ctx, "running event on maze "+maze.String(),
		`WHERE maze_id = ? AND status = 'running' ORDER BY ends_at DESC, id DESC LIMIT 1`, maze.String())
}

// runningEventsSQL reads the running events only, through the partial
// index on their ends: ordered by id, SQLite preferred a scan of the whole
// table in rowid order, every event ever held.
const runningEventsSQL = `SELECT ` + codec.EventColumns + ` FROM events WHERE status = 'running' ORDER BY ends_at, id`

// RunningEvents lists the running events, soonest to end first: a handful
// at most, however many have ended (the index is partial).
func (db *DB) RunningEvents(ctx context.Context) ([]contest.Event, error) {
	rows, err := db.db.QueryContext(ctx, runningEventsSQL)
	return collect(rows, err, "running events", codec.EventRow.Event)
}

// EndEvent marks a running event ended at at, moving its end to at if
// that is earlier, and claims its closing (attempt 1, at at). If it is not
// running (another process or tick ended it first) nothing changes and the
// error wraps contest.ErrConflict: only the caller that gets nil closes it.
func (db *DB) EndEvent(ctx context.Context, id int64, at time.Time) error {
	res, err := db.db.ExecContext(ctx, `
		UPDATE events SET status = 'ended', ends_at = min(ends_at, ?), board_dirty = 0,
			closing_attempts = 1, closing_claimed_at = ?
		WHERE id = ? AND status = 'running'`, codec.Millis(at), codec.Millis(at), id)
	if err != nil {
		return fmt.Errorf("end event %d: %w", id, err)
	}
	return expectOne(res, fmt.Sprintf("end event %d", id))
}

// closingEventsSQL reads the ended events not closed through their
// partial index: a handful, however many events have ended.
const closingEventsSQL = `SELECT ` + codec.EventColumns + ` FROM events WHERE status = 'ended' AND closed = 0 ORDER BY id`

// ClosingEvents lists the ended events whose closing is unfinished.
func (db *DB) ClosingEvents(ctx context.Context) ([]contest.Event, error) {
	rows, err := db.db.QueryContext(ctx, closingEventsSQL)
	return collect(rows, err, "closing events", codec.EventRow.Event)
}

// ClaimClosing writes claim number attempt on an ended event's closing,
// over claim attempt−1, in one conditional update: of two processes
// claiming at once one wins, the other's error wraps contest.ErrConflict.
func (db *DB) ClaimClosing(ctx context.Context, id int64, attempt int, at time.Time) error {
	what := fmt.Sprintf("claim closing of event %d #%d", id, attempt)
	res, err := db.db.ExecContext(ctx, `
		UPDATE events SET closing_attempts = ?, closing_claimed_at = ?
		WHERE id = ? AND status = 'ended' AND closed = 0 AND closing_attempts = ?`,
		attempt, codec.Millis(at), id, attempt-1)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return expectOne(res, what)
}

// SetClosingDone adds steps to the closing steps made.
func (db *DB) SetClosingDone(ctx context.Context, id int64, steps contest.EndSteps) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE events SET closing_done = closing_done | ? WHERE id = ?`, int(steps), id); err != nil {
		return fmt.Errorf("set closing steps of event %d: %w", id, err)
	}
	return nil
}

// AddClosingRefusal counts a closing attempt the channel refused.
func (db *DB) AddClosingRefusal(ctx context.Context, id int64) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE events SET closing_refused = closing_refused + 1 WHERE id = ?`, id); err != nil {
		return fmt.Errorf("count closing refusal of event %d: %w", id, err)
	}
	return nil
}

// SetClosed marks an ended event's closing finished.
func (db *DB) SetClosed(ctx context.Context, id int64) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE events SET closed = 1 WHERE id = ? AND status = 'ended'`, id); err != nil {
		return fmt.Errorf("close event %d: %w", id, err)
	}
	return nil
}

// MarkBoardDirty notes that a running event's board is out of date.
func (db *DB) MarkBoardDirty(ctx context.Context, id int64) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE events SET board_dirty = 1 WHERE id = ? AND status = 'running'`, id); err != nil {
		return fmt.Errorf("mark board of event %d dirty: %w", id, err)
	}
	return nil
}

// ClaimBoardEdit takes a running event's dirty board for an edit at now,
// clearing the flag, if its last edit is still prev. One conditional
// update, so of two callers (hook and tick, or two processes) one gets it;
// the other's error wraps contest.ErrConflict.
func (db *DB) ClaimBoardEdit(ctx context.Context, id int64, prev, now time.Time) error {
	what := fmt.Sprintf("claim board edit of event %d", id)
	res, err := db.db.ExecContext(ctx, `
		UPDATE events SET board_dirty = 0, board_edited_at = ?
		WHERE id = ? AND status = 'running' AND board_dirty = 1 AND board_edited_at = ?`,
		codec.Millis(now), id, codec.OptionalMillis(prev))
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return expectOne(res, what)
}

// SetBoardEdited records an edit of the board made outside a claim (the
// final one).
func (db *DB) SetBoardEdited(ctx context.Context, id int64, at time.Time) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE events SET board_edited_at = ? WHERE id = ?`, codec.Millis(at), id); err != nil {
		return fmt.Errorf("set board edit of event %d: %w", id, err)
	}
	return nil
}

func (db *DB) oneEvent(ctx context.Context, what, where string, args ...any) (contest.Event, error) {
	row := db.db.QueryRowContext(ctx, `SELECT `+codec.EventColumns+` FROM events `+where, args...)
	e, err := codec.One(row.Scan, sql.ErrNoRows, codec.EventRow.Event)
	if err != nil {
		return contest.Event{}, fmt.Errorf("%s: %w", what, err)
	}
	return e, nil
}
