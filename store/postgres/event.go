package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store/internal/codec"
)

// CreateEvent stores a new running event and returns its id. When the
// channel already has a running event it stores nothing and returns an
// error wrapping contest.ErrConflict. The partial unique index decides:
// of two processes inserting at once, the second waits for the first and
// then inserts nothing.
func (db *DB) CreateEvent(ctx context.Context, e contest.Event) (int64, error) {
	what := fmt.Sprintf("create event in channel %s", e.ChannelID)
	if err := codec.CheckLanguage(e.Language); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	var id int64
	err := db.pool.QueryRow(ctx, `
		INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, language, started_at, ends_at,
			maze_message_id, board_message_id, status, board_dirty, board_edited_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'running', false, 0)
		ON CONFLICT (channel_id) WHERE status = 'running' DO NOTHING
		RETURNING id`,
		e.GuildID, e.ChannelID, e.Name, e.MazeID.String(), e.CreatorID, e.Language, codec.Millis(e.StartedAt), codec.Millis(e.EndsAt),
		e.MazeMessageID, e.BoardMessageID).Scan(&id)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, fmt.Errorf("%s: a running event is there: %w", what, play.ErrConflict)
	case isUnique(err): // another unique index than the one ON CONFLICT names
		return 0, fmt.Errorf("%s: %w", what, contest.ErrConflict)
	case err != nil:
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return id, nil
}

// SetEventMessages records the event's maze and board messages.
func (db *DB) SetEventMessages(ctx context.Context, id int64, mazeMessageID, boardMessageID string) error {
	tag, err := db.pool.Exec(ctx, `UPDATE events SET maze_message_id = $1, board_message_id = $2 WHERE id = $3`,
		mazeMessageID, boardMessageID, id)
	return expectOne(tag, err, fmt.Sprintf("set messages of event %d", id))
}

// DeleteEvent removes an event whose posts failed, freeing its channel.
func (db *DB) DeleteEvent(ctx context.Context, id int64) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM events WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete event %d: %w", id, err)
	}
	return nil
}

// Event returns the event with id, or an error wrapping contest.ErrNotFound.
func (db *DB) Event(ctx context.Context, id int64) (contest.Event, error) {
	return db.oneEvent(ctx, fmt.Sprintf("event %d", id), `WHERE id = $1`, id)
}

// RunningEvent returns the running event of a channel, or an error
// wrapping contest.ErrNotFound.
func (db *DB) RunningEvent(ctx context.Context, channelID string) (contest.Event, error) {
	return db.oneEvent(ctx, "running event in channel "+channelID, `WHERE channel_id = $1 AND status = 'running'`, channelID)
}

// RunningEventOnMaze returns a running event played on maze, or an error
// wrapping contest.ErrNotFound. Should two run on one maze, the one ending
// last is returned.
func (db *DB) RunningEventOnMaze(ctx context.Context, maze mazecore.ID) (contest.Event, error) {
	return db.oneEvent(ctx, "running event on maze "+maze.String(),
		`WHERE maze_id = $1 AND status = 'running' ORDER BY ends_at DESC, id DESC LIMIT 1`, maze.String())
}

// RunningEvents lists the running events, soonest to end first: a handful
// at most, however many have ended (the index is partial).
func (db *DB) RunningEvents(ctx context.Context) ([]contest.Event, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+codec.EventColumns+` FROM events WHERE status = 'running' ORDER BY ends_at, id`)
	return collect(rows, "running events", codec.EventRow.Event)
}

// EndEvent marks a running event ended at at, moving its end to at if
// that is earlier, and claims its closing (attempt 1, at at). If it is not
// running (another process or tick ended it first) nothing changes and the
// error wraps contest.ErrConflict: only the caller that gets nil closes it.
func (db *DB) EndEvent(ctx context.Context, id int64, at time.Time) error {
	tag, err := db.pool.Exec(ctx, `
		UPDATE events SET status = 'ended', ends_at = LEAST(ends_at, $1), board_dirty = false,
			closing_attempts = 1, closing_claimed_at = $1
		WHERE id = $2 AND status = 'running'`, codec.Millis(at), id)
	return expectOne(tag, err, fmt.Sprintf("end event %d", id))
}

// ClosingEvents lists the ended events whose closing is unfinished,
// through their partial index: a handful, however many have ended.
func (db *DB) ClosingEvents(ctx context.Context) ([]contest.Event, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+codec.EventColumns+` FROM events WHERE status = 'ended' AND NOT closed ORDER BY id`)
	return collect(rows, "closing events", codec.EventRow.Event)
}

// ClaimClosing writes claim number attempt on an ended event's closing,
// over claim attempt−1, in one conditional update: of two processes
// claiming at once one wins, the other's error wraps contest.ErrConflict.
func (db *DB) ClaimClosing(ctx context.Context, id int64, attempt int, at time.Time) error {
	tag, err := db.pool.Exec(ctx, `
		UPDATE events SET closing_attempts = $1, closing_claimed_at = $2
		WHERE id = $3 AND status = 'ended' AND NOT closed AND closing_attempts = $4`,
		attempt, codec.Millis(at), id, attempt-1)
	return expectOne(tag, err, fmt.Sprintf("claim closing of event %d #%d", id, attempt))
}

// SetClosingDone adds steps to the closing steps made.
func (db *DB) SetClosingDone(ctx context.Context, id int64, steps contest.EndSteps) error {
	if _, err := db.pool.Exec(ctx, `UPDATE events SET closing_done = closing_done | $1 WHERE id = $2`, int(steps), id); err != nil {
		return fmt.Errorf("set closing steps of event %d: %w", id, err)
	}
	return nil
}

// AddClosingRefusal counts a closing attempt the channel refused.
func (db *DB) AddClosingRefusal(ctx context.Context, id int64) error {
	if _, err := db.pool.Exec(ctx, `UPDATE events SET closing_refused = closing_refused + 1 WHERE id = $1`, id); err != nil {
		return fmt.Errorf("count closing refusal of event %d: %w", id, err)
	}
	return nil
}

// SetClosed marks an ended event's closing finished.
func (db *DB) SetClosed(ctx context.Context, id int64) error {
	if _, err := db.pool.Exec(ctx, `UPDATE events SET closed = true WHERE id = $1 AND status = 'ended'`, id); err != nil {
		return fmt.Errorf("close event %d: %w", id, err)
	}
	return nil
}

// MarkBoardDirty notes that a running event's board is out of date.
func (db *DB) MarkBoardDirty(ctx context.Context, id int64) error {
	if _, err := db.pool.Exec(ctx, `UPDATE events SET board_dirty = true WHERE id = $1 AND status = 'running'`, id); err != nil {
		return fmt.Errorf("mark board of event %d dirty: %w", id, err)
	}
	return nil
}

// ClaimBoardEdit takes a running event's dirty board for an edit at now,
// clearing the flag, if its last edit is still prev. One conditional
// update: of two callers one gets it; the other's error wraps
// contest.ErrConflict.
func (db *DB) ClaimBoardEdit(ctx context.Context, id int64, prev, now time.Time) error {
	tag, err := db.pool.Exec(ctx, `
		UPDATE events SET board_dirty = false, board_edited_at = $1
		WHERE id = $2 AND status = 'running' AND board_dirty AND board_edited_at = $3`,
		codec.Millis(now), id, codec.OptionalMillis(prev))
	return expectOne(tag, err, fmt.Sprintf("claim board edit of event %d", id))
}

// SetBoardEdited records an edit of the board made outside a claim (the
// final one).
func (db *DB) SetBoardEdited(ctx context.Context, id int64, at time.Time) error {
	if _, err := db.pool.Exec(ctx, `UPDATE events SET board_edited_at = $1 WHERE id = $2`, codec.Millis(at), id); err != nil {
		return fmt.Errorf("set board edit of event %d: %w", id, err)
	}
	return nil
}

func (db *DB) oneEvent(ctx context.Context, what, where string, args ...any) (contest.Event, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+codec.EventColumns+` FROM events `+where, args...)
	e, err := codec.One(row.Scan, pgx.ErrNoRows, codec.EventRow.Event)
	if err != nil {
		return contest.Event{}, fmt.Errorf("%s: %w", what, err)
	}
	return e, nil
}
