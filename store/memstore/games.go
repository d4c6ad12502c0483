package memstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
)

// finish is a won game's run, as the rankings read it.
type finish struct {
	id         int64
	user, key  string
	elapsedMS  int64
	tiles      int
	clicks     int
	finishedMS int64
}

// checkGame refuses a game the schema's checks refuse.
func checkGame(g play.Record) error {
	switch {
	case g.UserID == "":
		return refused("a game without a member")
	case g.Pos.X <= 0 || g.Pos.Y <= 0:
		return refused("a game at %v, on the maze's outer wall", g.Pos)
	case g.Clicks < 0 || g.Tiles < 0 || g.Seq < 0:
		return refused("a game of %d clicks, %d tiles at seq %d", g.Clicks, g.Tiles, g.Seq)
	case g.Status != play.Playing && g.Status != play.Won && g.Status != play.GaveUp:
		return refused("a game %v", g.Status)
	case (g.Status == play.Playing) != (optional(g.FinishedAt).IsZero()):
		return refused("a game %v with a finish at %v", g.Status, g.FinishedAt)
	}
	return nil
}

// CreateGame stores a new game and returns its id.
func (s *Store) CreateGame(ctx context.Context, g play.Record) (int64, error) {
	if err := g.MazeID.Validate(); err != nil {
		return 0, fmt.Errorf("create game for %s: %w", g.UserID, err)
	}
	if err := checkGame(g); err != nil {
		return 0, fmt.Errorf("create game on maze %s for %s: %w", g.MazeID, g.UserID, err)
	}
	if err := s.lock(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	g.ID = s.nextID()
	g.Trail = bytes.Clone(g.Trail)
	g.StartedAt, g.UpdatedAt, g.FinishedAt = instant(g.StartedAt), instant(g.UpdatedAt), optional(g.FinishedAt)
	s.games[g.ID] = g
	return g.ID, nil
}

// PlayingGame returns the member's newest game still being played on
// maze for contest, or an error wrapping play.ErrNotFound.
func (s *Store) PlayingGame(ctx context.Context, userID string, maze mazecore.ID, contest string) (play.Record, error) {
	if err := s.lock(ctx); err != nil {
		return play.Record{}, err
	}
	defer s.mu.Unlock()
	var found *play.Record
	for id, g := range s.games {
		if g.UserID == userID && g.MazeID == maze && g.Contest == contest && g.Status == play.Playing && (found == nil || id > found.ID) {
			found = &g
		}
	}
	if found == nil {
		return play.Record{}, fmt.Errorf("game of %s on maze %s: %w", userID, maze, play.ErrNotFound)
	}
	found.Trail = bytes.Clone(found.Trail)
	return *found, nil
}

// Game returns the game with the given id, or an error wrapping
// play.ErrNotFound.
func (s *Store) Game(ctx context.Context, id int64) (play.Record, error) {
	g, err := lookup(ctx, s, s.games, id, "game %d", id)
	if err != nil {
		return play.Record{}, err
	}
	g.Trail = bytes.Clone(g.Trail) // safe unlocked: a stored trail is replaced, never written to
	return g, nil
}

// SaveGame writes g over the stored game if that is still playing at
// g.Seq−1, else changes nothing and returns an error wrapping
// play.ErrConflict. A won game's result is recorded with it, or neither.
func (s *Store) SaveGame(ctx context.Context, g play.Record) error {
	what := fmt.Sprintf("save game %d at seq %d", g.ID, g.Seq)
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	old, ok := s.games[g.ID]
	if !ok || old.Seq != g.Seq-1 || old.Status != play.Playing {
		return fmt.Errorf("%s: %w", what, play.ErrConflict)
	}
	// What a move changes; the rest is the game's from its start.
	next := old
	next.Pos, next.Clicks, next.Tiles, next.Trail, next.Seq, next.Status = g.Pos, g.Clicks, g.Tiles, bytes.Clone(g.Trail), g.Seq, g.Status
	next.UpdatedAt, next.FinishedAt = instant(g.UpdatedAt), optional(g.FinishedAt)
	if err := checkGame(next); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if g.Status == play.Won {
		r := g.Result()
		f := finish{user: r.UserID, key: r.Contest, elapsedMS: r.Elapsed.Milliseconds(), tiles: r.Tiles, clicks: r.Clicks, finishedMS: r.FinishedAt.UnixMilli()}
		if f.user == "" || r.MazeID.String() == "" || f.elapsedMS < 0 || f.tiles < 0 || f.clicks < 0 {
			return fmt.Errorf("%s: record result: %w", what, refused("a run of %d ms, %d tiles, %d clicks", f.elapsedMS, f.tiles, f.clicks))
		}
		f.id = s.nextID()
		s.finishes = append(s.finishes, f)
	}
	s.games[g.ID] = next
	return nil
}

// DeleteGamesBefore removes the games started before t, finished or not,
// and reports how many. Results are kept.
func (s *Store) DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error) {
	return deleteBefore(ctx, s, s.games, t, func(g play.Record) time.Time { return g.StartedAt })
}

// better orders runs best first: fastest, then fewest tiles, then
// earliest, then the first recorded.
func better(a, b finish) int {
	return cmp.Or(cmp.Compare(a.elapsedMS, b.elapsedMS), cmp.Compare(a.tiles, b.tiles),
		cmp.Compare(a.finishedMS, b.finishedMS), cmp.Compare(a.id, b.id))
}

// best is each member's best run of the contests match takes, one per
// member and contest, best first.
func (s *Store) best(match func(finish) bool) []finish {
	type entry struct{ user, key string }
	bests := map[entry]finish{}
	for _, f := range s.finishes {
		e := entry{f.user, f.key}
		if b, ok := bests[e]; match(f) && (!ok || better(f, b) < 0) {
			bests[e] = f
		}
	}
	out := make([]finish, 0, len(bests))
	for _, f := range bests {
		out = append(out, f)
	}
	slices.SortFunc(out, better)
	return out
}

func (f finish) run() contest.Run {
	return contest.Run{UserID: f.user, Elapsed: time.Duration(f.elapsedMS) * time.Millisecond, Tiles: f.tiles, Clicks: f.clicks, FinishedAt: time.UnixMilli(f.finishedMS).UTC()}
}

func (s *Store) bestRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var runs []contest.Run
	for _, f := range s.best(func(f finish) bool { return f.key == key.String() && f.finishedMS <= until.UnixMilli() }) {
		runs = append(runs, f.run())
	}
	return runs, nil
}

// forever is later than any finish.
var forever = time.UnixMilli(1<<62 - 1)

// DayRuns returns each member's best run on a server's daily of one
// local date, best first.
func (s *Store) DayRuns(ctx context.Context, guildID string, date contest.Date) ([]contest.Run, error) {
	return s.bestRuns(ctx, contest.DailyKey(guildID, date), forever)
}

// EventRuns returns each member's best run in an event up to until.
func (s *Store) EventRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	return s.bestRuns(ctx, key, until)
}

// daily tells whether a run's contest is among a server's dailies from
// from to to: their keys sort by date, byte by byte, as in the databases.
func daily(guildID string, from, to contest.Date) func(finish) bool {
	lo, hi := contest.DailyKey(guildID, from).String(), contest.DailyKey(guildID, to).String()
	return func(f finish) bool { return lo <= f.key && f.key <= hi }
}

// Totals sums each member's best daily runs of a server over the local
// dates from..to, ranked: most days, least time, fewest tiles, earliest
// last finish.
func (s *Store) Totals(ctx context.Context, guildID string, from, to contest.Date) ([]contest.Total, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	type sum struct {
		contest.Total
		last int64
	}
	sums := map[string]*sum{}
	for _, f := range s.best(daily(guildID, from, to)) {
		t, ok := sums[f.user]
		if !ok {
			t = &sum{Total: contest.Total{UserID: f.user}}
			sums[f.user] = t
		}
		t.Days++
		t.Elapsed += time.Duration(f.elapsedMS) * time.Millisecond
		t.Tiles += f.tiles
		t.last = max(t.last, f.finishedMS)
	}
	ranked := make([]*sum, 0, len(sums))
	for _, t := range sums {
		ranked = append(ranked, t)
	}
	slices.SortFunc(ranked, func(a, b *sum) int {
		return cmp.Or(cmp.Compare(b.Days, a.Days), cmp.Compare(a.Elapsed, b.Elapsed), cmp.Compare(a.Tiles, b.Tiles),
			cmp.Compare(a.last, b.last), cmp.Compare(a.UserID, b.UserID))
	})
	var out []contest.Total
	for _, t := range ranked {
		out = append(out, t.Total)
	}
	return out, nil
}

// SolvedDates lists the local dates, newest first and none after upTo, on
// which a member finished the server's daily.
func (s *Store) SolvedDates(ctx context.Context, guildID, userID string, upTo contest.Date) ([]contest.Date, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	in := daily(guildID, contest.FirstDate, upTo)
	var keys []string
	for _, f := range s.finishes {
		if f.user == userID && in(f) {
			keys = append(keys, f.key)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var dates []contest.Date
	for _, k := range slices.Backward(keys) {
		key, ok := contest.ParseKey(k)
		_, date, isDaily := key.Daily()
		if !ok || !isDaily {
			return nil, fmt.Errorf("daily dates of %s in %s: contest %q is not a daily", userID, guildID, k)
		}
		dates = append(dates, date)
	}
	return dates, nil
}

// ArchiveDates lists the dates, newest first, of a server's past dailies
// a member finished from the archive.
func (s *Store) ArchiveDates(ctx context.Context, guildID, userID string) ([]contest.Date, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var dates []contest.Date
	for _, f := range s.finishes {
		key, _ := contest.ParseKey(f.key)
		if g, date, ok := key.Archive(); ok && g == guildID && f.user == userID {
			dates = append(dates, date)
		}
	}
	slices.SortFunc(dates, func(a, b contest.Date) int { return cmp.Compare(b.String(), a.String()) })
	return slices.Compact(dates), nil
}
