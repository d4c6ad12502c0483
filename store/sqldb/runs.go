package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// SaveRun keeps r when it is its member's first or fastest run in its
// contest, and drops the runs past play.RunRetention.
func (s *Store) SaveRun(ctx context.Context, r play.Run) (bool, error) {
	return call(s, ctx, "SaveRun", "save run of "+r.UserID+" in "+r.Contest, transaction, func(q q) (bool, error) {
		switch {
		case r.Contest == "" || r.UserID == "":
			return false, fmt.Errorf("run %s/%s without a contest or member", r.Contest, r.UserID)
		case len(r.Moves) > play.MaxRunBytes:
			return false, fmt.Errorf("run of %d bytes: more than %d", len(r.Moves), play.MaxRunBytes)
		case r.Ms < 0 || r.MazeID.Validate() != nil:
			return false, fmt.Errorf("run %s/%s without a maze or with a negative time", r.Contest, r.UserID)
		}
		moves := r.Moves
		if moves == nil {
			moves = []byte{} // NOT NULL
		}
		// The conflict's update applies only over a slower run: a tie
		// keeps the one before.
		n, err := q.changed(`
			INSERT INTO runs (contest, user_id, name, maze_id, ms, moves, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (contest, user_id) DO UPDATE SET name = excluded.name, maze_id = excluded.maze_id,
				ms = excluded.ms, moves = excluded.moves, finished_at = excluded.finished_at
			WHERE excluded.ms < runs.ms`,
			r.Contest, r.UserID, r.Name, r.MazeID.String(), r.Ms, moves, millis(r.FinishedAt))
		if err != nil {
			return false, err
		}
		if _, err := q.changed(deleteRunsSQL, millis(r.FinishedAt.Add(-play.RunRetention))); err != nil {
			return false, err
		}
		return n > 0, nil
	})
}

const deleteRunsSQL = `DELETE FROM runs WHERE finished_at <= ?`

// DeleteRunsBefore removes the runs finished before t (at t too, as
// SaveRun's retention does).
func (s *Store) DeleteRunsBefore(ctx context.Context, t time.Time) (int64, error) {
	return call(s, ctx, "DeleteRunsBefore", fmt.Sprintf("delete runs before %v", t), writes, func(q q) (int64, error) {
		return q.changed(deleteRunsSQL, millis(t))
	})
}

// BestRun returns the fastest run in contest, or userID's.
func (s *Store) BestRun(ctx context.Context, contest, userID string) (play.Run, bool, error) {
	type found struct {
		run play.Run
		ok  bool
	}
	f, err := call(s, ctx, "BestRun", "best run in "+contest, reads, func(q q) (found, error) {
		var r play.Run
		var maze string
		var finished int64
		err := q.row(`
			SELECT contest, user_id, name, maze_id, ms, moves, finished_at FROM runs
			WHERE contest = ? AND (? = '' OR user_id = ?)
			ORDER BY ms, finished_at LIMIT 1`, contest, userID, userID).
			Scan(&r.Contest, &r.UserID, &r.Name, &maze, &r.Ms, &r.Moves, &finished)
		if errors.Is(err, sql.ErrNoRows) {
			return found{}, nil
		}
		if err != nil {
			return found{}, err
		}
		if r.MazeID, err = mazecore.Parse(maze); err != nil {
			return found{}, fmt.Errorf("run of %s: %w", r.UserID, err)
		}
		r.FinishedAt = timeOf(finished)
		return found{r, true}, nil
	})
	return f.run, f.ok, err
}
