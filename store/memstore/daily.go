package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
)

// SaveDailySettings creates or replaces a server's daily challenge
// settings, refusing those the databases refuse.
func (s *Store) SaveDailySettings(ctx context.Context, ds contest.DailySettings) error {
	if err := checkDailySettings(ds); err != nil {
		return fmt.Errorf("save daily settings of %s: %w", ds.GuildID, err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	ds.UpdatedAt = instant(ds.UpdatedAt)
	if ds.PrevZone == nil {
		ds.ZoneFrom = time.Time{} // the databases keep no time for no change
	} else {
		ds.ZoneFrom = instant(ds.ZoneFrom)
	}
	s.dailies[ds.GuildID] = ds
	return nil
}

// checkDailySettings refuses settings that could not be read back, and
// those the schema's checks refuse.
func checkDailySettings(ds contest.DailySettings) error {
	switch {
	case ds.GuildID == "" || ds.ChannelID == "":
		return refused("daily settings without a server or a channel")
	case ds.PostAt < 0 || ds.PostAt >= 24*60:
		return refused("a post time %d minutes after midnight", int(ds.PostAt))
	case len(ds.Language) > maxLanguage:
		return refused("a language code of %d bytes, at most %d", len(ds.Language), maxLanguage)
	}
	if _, err := time.LoadLocation(ds.Zone.String()); err != nil {
		return refused("zone %q: %v", ds.Zone, err)
	}
	if ds.PrevZone != nil {
		if _, err := time.LoadLocation(ds.PrevZone.String()); err != nil {
			return refused("previous zone %q: %v", ds.PrevZone, err)
		}
	}
	if _, err := mazecore.ParseLevel(ds.Difficulty.String()); err != nil {
		return refused("difficulty: %v", err)
	}
	return (mazecore.ID{Algorithm: ds.Algorithm, Width: ds.Size, Height: ds.Size, Loops: ds.Loops}).Validate()
}

// maxLanguage is the longest language code the databases take.
const maxLanguage = 16

// DailySettings returns a server's settings, or an error wrapping
// contest.ErrNotFound.
func (s *Store) DailySettings(ctx context.Context, guildID string) (contest.DailySettings, error) {
	return lookup(ctx, s, s.dailies, guildID, "daily settings of %s", guildID)
}

// EnabledDailies lists the servers whose daily is posted automatically,
// by server.
func (s *Store) EnabledDailies(ctx context.Context) ([]contest.DailySettings, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []contest.DailySettings
	for _, ds := range s.dailies {
		if ds.Enabled {
			out = append(out, ds)
		}
	}
	slices.SortFunc(out, func(a, b contest.DailySettings) int { return strings.Compare(a.GuildID, b.GuildID) })
	return out, nil
}

// ClaimDailyPost writes p as claim number p.Attempts: the day's first
// claim if there is none, else over claim p.Attempts−1 of a day not yet
// posted, keeping the day's maze; anything else is contest.ErrConflict.
func (s *Store) ClaimDailyPost(ctx context.Context, p contest.DailyPost) error {
	what := fmt.Sprintf("claim daily post %s/%s #%d", p.GuildID, p.Date, p.Attempts)
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	k := day{p.GuildID, p.Date.String()}
	old, ok := s.posts[k]
	switch {
	case p.Attempts == 1 && !ok:
		p.MessageID, p.Refused = "", 0
	case p.Attempts != 1 && ok && old.Attempts == p.Attempts-1 && old.State != contest.Posted:
		p.MazeID, p.MessageID, p.Refused = old.MazeID, old.MessageID, old.Refused
	default:
		return fmt.Errorf("%s: %w", what, contest.ErrConflict)
	}
	p.State, p.ClaimedAt = contest.Posting, instant(p.ClaimedAt)
	s.posts[k] = p
	return nil
}

// setPost changes a server day's post if ok says so, else is
// contest.ErrConflict.
func (s *Store) setPost(ctx context.Context, what string, k day, ok func(contest.DailyPost) bool, change func(*contest.DailyPost)) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	p, found := s.posts[k]
	if !found || !ok(p) {
		return fmt.Errorf("%s: %w", what, contest.ErrConflict)
	}
	change(&p)
	s.posts[k] = p
	return nil
}

// SetDailyPosted records the message of a claimed day not yet posted.
func (s *Store) SetDailyPosted(ctx context.Context, guildID string, date contest.Date, messageID string) error {
	return s.setPost(ctx, fmt.Sprintf("mark daily post %s/%s posted", guildID, date), day{guildID, date.String()},
		func(p contest.DailyPost) bool { return p.State != contest.Posted },
		func(p *contest.DailyPost) { p.State, p.MessageID = contest.Posted, messageID })
}

// SetDailyFailed releases claim number attempt of a day whose post
// failed, counting it as refused if it was.
func (s *Store) SetDailyFailed(ctx context.Context, guildID string, date contest.Date, attempt int, refused bool) error {
	return s.setPost(ctx, fmt.Sprintf("mark daily post %s/%s #%d failed", guildID, date, attempt), day{guildID, date.String()},
		func(p contest.DailyPost) bool { return p.State == contest.Posting && p.Attempts == attempt },
		func(p *contest.DailyPost) {
			p.State = contest.Failed
			if refused {
				p.Refused++
			}
		})
}

// DailyPost returns the post of a server's day, or an error wrapping
// contest.ErrNotFound.
func (s *Store) DailyPost(ctx context.Context, guildID string, date contest.Date) (contest.DailyPost, error) {
	return lookup(ctx, s, s.posts, day{guildID, date.String()}, "daily post %s/%s", guildID, date)
}

// DailyMaze returns the maze fixed for a server's date, or an error
// wrapping contest.ErrNotFound.
func (s *Store) DailyMaze(ctx context.Context, guildID string, date contest.Date) (mazecore.ID, error) {
	m, err := lookup(ctx, s, s.mazes, day{guildID, date.String()}, "daily maze %s/%s", guildID, date)
	return m.MazeID, err
}

// FixDailyMaze records m as its server's daily of its date unless one is
// recorded, and returns the recorded maze.
func (s *Store) FixDailyMaze(ctx context.Context, m contest.DailyMaze) (mazecore.ID, error) {
	if m.GuildID == "" || m.MazeID.String() == "" {
		return mazecore.ID{}, fmt.Errorf("fix daily maze %s/%s: %w", m.GuildID, m.Date, refused("a day's maze without a server or a maze"))
	}
	if err := s.lock(ctx); err != nil {
		return mazecore.ID{}, err
	}
	defer s.mu.Unlock()
	k := day{m.GuildID, m.Date.String()}
	if old, ok := s.mazes[k]; ok {
		return old.MazeID, nil
	}
	s.mazes[k] = m
	return m.MazeID, nil
}

// DailiesOnMaze lists every server day whose fixed daily is maze, by
// server and date.
func (s *Store) DailiesOnMaze(ctx context.Context, maze mazecore.ID) ([]contest.DailyMaze, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []contest.DailyMaze
	for _, m := range s.mazes {
		if m.MazeID == maze {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b contest.DailyMaze) int {
		return cmp.Or(strings.Compare(a.GuildID, b.GuildID), strings.Compare(a.Date.String(), b.Date.String()))
	})
	return out, nil
}

// FirstDaily returns the earliest date whose daily maze is fixed in a
// server, or an error wrapping contest.ErrNotFound.
func (s *Store) FirstDaily(ctx context.Context, guildID string) (contest.Date, error) {
	if err := s.lock(ctx); err != nil {
		return contest.Date{}, err
	}
	defer s.mu.Unlock()
	var first contest.Date
	for _, m := range s.mazes {
		if m.GuildID == guildID && (first.IsZero() || m.Date.Before(first)) {
			first = m.Date
		}
	}
	if first.IsZero() {
		return contest.Date{}, fmt.Errorf("first daily of %s: %w", guildID, contest.ErrNotFound)
	}
	return first, nil
}
