package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"mazebot/store"
)

const eventColumns = `id, guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at,
	maze_message_id, board_message_id, status, board_dirty, board_edited_at`

// eventRankingSQL is a constant so the tests can check its plan. Each
// member's best run (the first in ranking order) counts; runs finished
// after the end don't.
const eventRankingSQL = `
		SELECT user_id, elapsed_ms, tiles, clicks, finished_at FROM (
			SELECT user_id, elapsed_ms, tiles, clicks, finished_at, id,
				row_number() OVER (PARTITION BY user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes
			WHERE context = ? AND finished_at <= ?
		)
		WHERE n = 1
		ORDER BY elapsed_ms, tiles, finished_at, id`

// CreateEvent stores a new running event and returns its id. When the
// channel already has a running event it stores nothing and returns an
// error wrapping store.ErrConflict. The check and the insert are one
// statement, and the unique index backs it, so two processes can't both
// start one.
func (db *DB) CreateEvent(ctx context.Context, e store.Event) (int64, error) {
	what := fmt.Sprintf("create event in channel %s", e.ChannelID)
	res, err := db.db.ExecContext(ctx, `
		INSERT INTO events (guild_id, channel_id, name, maze_id, creator_id, started_at, ends_at,
			maze_message_id, board_message_id, status, board_dirty, board_edited_at)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', 0, 0
		WHERE NOT EXISTS (SELECT 1 FROM events WHERE channel_id = ? AND status = 'running')`,
		e.GuildID, e.ChannelID, e.Name, e.MazeID, e.CreatorID, toMillis(e.StartedAt), toMillis(e.EndsAt),
		e.MazeMessageID, e.BoardMessageID, e.ChannelID)
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed") {
			return 0, fmt.Errorf("%s: %w", what, store.ErrConflict)
		}
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	} else if n == 0 {
		return 0, fmt.Errorf("%s: a running event is there: %w", what, store.ErrConflict)
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

// Event returns the event with id, or an error wrapping store.ErrNotFound.
func (db *DB) Event(ctx context.Context, id int64) (store.Event, error) {
	return db.oneEvent(ctx, fmt.Sprintf("event %d", id), `WHERE id = ?`, id)
}

// RunningEvent returns the running event of a channel, or an error
// wrapping store.ErrNotFound.
func (db *DB) RunningEvent(ctx context.Context, channelID string) (store.Event, error) {
	return db.oneEvent(ctx, "running event in channel "+channelID, `WHERE channel_id = ? AND status = 'running'`, channelID)
}

// RunningEventOnMaze returns a running event played on mazeID, or an error
// wrapping store.ErrNotFound. Should two run on one maze (the same seed
// by chance), the one ending last is returned.
func (db *DB) RunningEventOnMaze(ctx context.Context, mazeID string) (store.Event, error) {
	return db.oneEvent(ctx, "running event on maze "+mazeID,
		`WHERE maze_id = ? AND status = 'running' ORDER BY ends_at DESC, id DESC LIMIT 1`, mazeID)
}

// DueEvents lists the running events whose end is at or before now.
func (db *DB) DueEvents(ctx context.Context, now time.Time) ([]store.Event, error) {
	return db.events(ctx, "due events", `WHERE status = 'running' AND ends_at <= ? ORDER BY ends_at, id`, toMillis(now))
}

// DirtyEvents lists the running events whose board waits for an edit.
func (db *DB) DirtyEvents(ctx context.Context) ([]store.Event, error) {
	return db.events(ctx, "dirty events", `WHERE status = 'running' AND board_dirty = 1 ORDER BY id`)
}

// EndEvent marks a running event ended at now, moving its end to now if
// that is earlier. If it is not running (another process or tick ended it
// first) nothing changes and the error wraps store.ErrConflict: only the
// caller that gets nil posts the results.
func (db *DB) EndEvent(ctx context.Context, id int64, now time.Time) error {
	res, err := db.db.ExecContext(ctx, `
		UPDATE events SET status = 'ended', ends_at = min(ends_at, ?), board_dirty = 0
		WHERE id = ? AND status = 'running'`, toMillis(now), id)
	if err != nil {
		return fmt.Errorf("end event %d: %w", id, err)
	}
	return expectOne(res, fmt.Sprintf("end event %d", id))
}

// MarkBoardDirty notes that a running event's board is out of date.
func (db *DB) MarkBoardDirty(ctx context.Context, id int64) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE events SET board_dirty = 1 WHERE id = ? AND status = 'running'`, id); err != nil {
		return fmt.Errorf("mark board of event %d dirty: %w", id, err)
	}
	return nil
}

// ClaimBoardEdit takes the right to edit a running event's dirty board at
// now, if the last edit is at least minGap old: it clears the dirty flag
// and records now as the last edit, and reports whether it did. One
// conditional update, so of two callers (hook and tick, or two
// processes) at most one gets true per minGap.
func (db *DB) ClaimBoardEdit(ctx context.Context, id int64, now time.Time, minGap time.Duration) (bool, error) {
	res, err := db.db.ExecContext(ctx, `
		UPDATE events SET board_dirty = 0, board_edited_at = ?
		WHERE id = ? AND status = 'running' AND board_dirty = 1 AND board_message_id <> ''
			AND board_edited_at <= ?`,
		toMillis(now), id, toMillis(now)-minGap.Milliseconds())
	if err != nil {
		return false, fmt.Errorf("claim board edit of event %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("claim board edit of event %d: %w", id, err)
	}
	return n == 1, nil
}

// SetBoardEdited records an edit of the board made outside a claim (the
// final one).
func (db *DB) SetBoardEdited(ctx context.Context, id int64, at time.Time) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE events SET board_edited_at = ? WHERE id = ?`, toMillis(at), id); err != nil {
		return fmt.Errorf("set board edit of event %d: %w", id, err)
	}
	return nil
}

// EventRanking returns each member's best run in the event, up to its
// end, in ranking order; members with the same time and tiles share a
// rank. An empty ranking is not an error.
func (db *DB) EventRanking(ctx context.Context, e store.Event) ([]store.EventEntry, error) {
	rows, err := db.db.QueryContext(ctx, eventRankingSQL, e.Context(), toMillis(e.EndsAt))
	if err != nil {
		return nil, fmt.Errorf("ranking of event %d: %w", e.ID, err)
	}
	defer rows.Close()
	var out []store.EventEntry
	for rows.Next() {
		var (
			r             store.EventEntry
			elapsed, done int64
		)
		if err := rows.Scan(&r.UserID, &elapsed, &r.Tiles, &r.Clicks, &done); err != nil {
			return nil, fmt.Errorf("ranking of event %d: %w", e.ID, err)
		}
		r.Elapsed, r.FinishedAt = time.Duration(elapsed)*time.Millisecond, fromMillis(done)
		r.Rank = len(out) + 1
		if prev := len(out) - 1; prev >= 0 && out[prev].Elapsed == r.Elapsed && out[prev].Tiles == r.Tiles {
			r.Rank = out[prev].Rank
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ranking of event %d: %w", e.ID, err)
	}
	return out, nil
}

func (db *DB) oneEvent(ctx context.Context, what, where string, args ...any) (store.Event, error) {
	e, err := scanEvent(db.db.QueryRowContext(ctx, `SELECT `+eventColumns+` FROM events `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Event{}, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	if err != nil {
		return store.Event{}, fmt.Errorf("%s: %w", what, err)
	}
	return e, nil
}

func (db *DB) events(ctx context.Context, what, where string, args ...any) ([]store.Event, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT `+eventColumns+` FROM events `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []store.Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

func scanEvent(row interface{ Scan(...any) error }) (store.Event, error) {
	var (
		e                     store.Event
		started, ends, edited int64
		dirty                 int
	)
	if err := row.Scan(&e.ID, &e.GuildID, &e.ChannelID, &e.Name, &e.MazeID, &e.CreatorID, &started, &ends,
		&e.MazeMessageID, &e.BoardMessageID, &e.Status, &dirty, &edited); err != nil {
		return store.Event{}, err
	}
	e.StartedAt, e.EndsAt, e.BoardDirty = fromMillis(started), fromMillis(ends), dirty == 1
	if edited != 0 {
		e.BoardEditedAt = fromMillis(edited)
	}
	return e, nil
}
