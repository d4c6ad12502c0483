package contest

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"mazebot/mazecore"
	"mazebot/play"
)

// The archive: every past daily of a server, from its first, played
// unranked. An archive game carries an ArchiveKey, which no board, streak
// or season reads, so it never changes a ranking; its finish is kept only
// to mark the day solved (✓).

// Refusals of the archive.
var (
	// ErrArchiveFuture: the date is today or later; today's daily is
	// played ranked, and the days to come are secret.
	ErrArchiveFuture = errors.New("the archive holds past days only")
	// ErrArchiveBeforeFirst: the date comes before the server's first
	// daily (FirstDaily tells which).
	ErrArchiveBeforeFirst = errors.New("the date is before the server's first daily")
	// ErrArchiveEmpty: the server has had no daily yet.
	ErrArchiveEmpty = errors.New("the server has no past daily")
)

// ArchiveAward is what a won archive game earns: word that it was solved,
// and nothing ranked.
type ArchiveAward struct {
	Number int
	Date   Date
	// Next is the member's next unsolved archive day after this one
	// (zero Date when none): what Next unsolved offers.
	Next Date
}

// FirstDaily is the date of a server's first daily (the first whose maze
// was shown or posted), or ErrArchiveEmpty.
func (d *Dailies) FirstDaily(ctx context.Context, guildID string) (Date, error) {
	first, err := d.store.FirstDaily(ctx, guildID)
	if errors.Is(err, ErrNotFound) {
		return Date{}, ErrArchiveEmpty
	}
	return first, err
}

// Archive is a server's past daily of a date, to play unranked: a day
// from the server's first daily to yesterday. A day in between that had
// no daily (nobody asked for it and none was posted) gets its maze now,
// by the settings' MazeFor, as any day would have: its date is over, so
// its maze is no secret.
func (d *Dailies) Archive(ctx context.Context, guildID string, date Date) (Daily, error) {
	s, err := d.Settings(ctx, guildID)
	if err != nil {
		return Daily{}, err
	}
	today, _ := s.DayAt(d.now())
	if !date.Before(today) {
		return Daily{}, fmt.Errorf("archive %s of %s: %w", date, guildID, ErrArchiveFuture)
	}
	first, err := d.FirstDaily(ctx, guildID)
	if err != nil {
		return Daily{}, err
	}
	if date.Before(first) {
		return Daily{}, fmt.Errorf("archive %s of %s (first %s): %w", date, guildID, first, ErrArchiveBeforeFirst)
	}
	day := Daily{GuildID: guildID, Date: date, Zone: s.Zones().ZoneOf(date), Language: s.Language}
	fixed, err := d.store.DailyMaze(ctx, guildID, date)
	switch {
	case err == nil:
		day.MazeID = fixed
	case errors.Is(err, ErrNotFound):
		if day.MazeID, err = MazeFor(d.key, s, date); err != nil {
			return Daily{}, err
		}
	default:
		return Daily{}, err
	}
	return day, nil
}

// ArchiveSolved lists the past days of a server a member solved, newest
// first: on the day, or later from the archive.
func (d *Dailies) ArchiveSolved(ctx context.Context, guildID, userID string) ([]Date, error) {
	today, err := d.Date(ctx, guildID)
	if err != nil {
		return nil, err
	}
	ranked, err := d.store.SolvedDates(ctx, guildID, userID, today.AddDays(-1))
	if err != nil {
		return nil, err
	}
	unranked, err := d.store.ArchiveDates(ctx, guildID, userID)
	if err != nil {
		return nil, err
	}
	all := append(ranked, unranked...)
	slices.SortFunc(all, func(a, b Date) int { return b.t.Compare(a.t) })
	return slices.Compact(all), nil
}

// NextUnsolved is the first archive day after after (or, when none, the
// first from the server's first daily) that the member has not solved;
// ok false when they solved every past day.
func (d *Dailies) NextUnsolved(ctx context.Context, guildID, userID string, after Date) (Date, bool, error) {
	first, err := d.FirstDaily(ctx, guildID)
	if errors.Is(err, ErrArchiveEmpty) {
		return Date{}, false, nil
	}
	if err != nil {
		return Date{}, false, err
	}
	today, err := d.Date(ctx, guildID)
	if err != nil {
		return Date{}, false, err
	}
	solved, err := d.ArchiveSolved(ctx, guildID, userID)
	if err != nil {
		return Date{}, false, err
	}
	done := make(map[Date]bool, len(solved))
	for _, s := range solved {
		done[s] = true
	}
	start := after.AddDays(1)
	if start.Before(first) {
		start = first
	}
	for _, from := range []Date{start, first} {
		for day := from; day.Before(today); day = day.AddDays(1) {
			if !done[day] {
				return day, true, nil
			}
		}
	}
	return Date{}, false, nil
}

// StartArchive goes on with the member's archive game of a server's past
// day (Archive), or starts one: unranked, whatever its maze.
func (g *Games) StartArchive(ctx context.Context, day Daily, who play.Record) (game *play.Game, resumed bool, err error) {
	who.Contest = ArchiveKey(day.GuildID, day.Date).String()
	if !day.MazeID.Plain() { // a daily on another grid or in a shape
		m, err := mazecore.GenerateGrid(day.MazeID)
		if err != nil {
			return nil, false, fmt.Errorf("archive %s of %s: %w", day.Date, day.GuildID, err)
		}
		return g.play.ResumeOnGrid(ctx, m, who)
	}
	m, err := mazecore.Generate(day.MazeID)
	if err != nil {
		return nil, false, fmt.Errorf("archive %s of %s: %w", day.Date, day.GuildID, err)
	}
	return g.play.Resume(ctx, m, who)
}

// archiveAward is what a won archive game earns.
func (d *Dailies) archiveAward(ctx context.Context, guildID string, date Date, userID string) (*ArchiveAward, error) {
	a := &ArchiveAward{Number: Number(date), Date: date}
	next, ok, err := d.NextUnsolved(ctx, guildID, userID, date)
	if ok {
		a.Next = next
	}
	return a, err
}
