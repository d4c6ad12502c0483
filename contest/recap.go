package contest

import (
	"context"
	"errors"
	"fmt"

	"mazebot/mazecore"
)

// StreakMilestones are the streak lengths a morning recap celebrates.
var StreakMilestones = []int{7, 30, 100, 365}

// RecapTop is how many of yesterday's best a recap names.
const RecapTop = 3

// RecapSettings is how a server's daily post carries yesterday's recap:
// on unless Off, and naming members without notifying them unless Pings.
// The zero value is what a server that never chose has.
type RecapSettings struct {
	GuildID string
	Off     bool
	Pings   bool
}

// Recap is yesterday's daily as the next day's post tells it.
type Recap struct {
	Date   Date        // the day recapped
	MazeID mazecore.ID // its maze, whose solution is open now
	// Finished counts the members who finished it; Top is the first
	// RecapTop of its ranking.
	Finished int
	Top      []Standing
	// Milestones are the finishers whose streak reached one of
	// StreakMilestones that day, in the ranking's order.
	Milestones []Milestone
	// Pings: the post may notify the members it names.
	Pings bool
}

// Milestone is a member's streak reaching one of StreakMilestones.
type Milestone struct {
	UserID string
	Days   int
}

// Named lists the members a recap names, each once: who may be pinged.
func (r *Recap) Named() []string {
	var ids []string
	seen := map[string]bool{}
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, s := range r.Top {
		add(s.UserID)
	}
	for _, m := range r.Milestones {
		add(m.UserID)
	}
	return ids
}

// RecapSettings returns a server's recap settings: the defaults (on, no
// pings) when it never chose.
func (d *Dailies) RecapSettings(ctx context.Context, guildID string) (RecapSettings, error) {
	r, err := d.store.RecapSettings(ctx, guildID)
	if errors.Is(err, ErrNotFound) {
		return RecapSettings{GuildID: guildID}, nil
	}
	return r, err
}

// SaveRecapSettings keeps a server's recap settings.
func (d *Dailies) SaveRecapSettings(ctx context.Context, r RecapSettings) error {
	return d.store.SaveRecapSettings(ctx, r)
}

// recap is the recap the post of a server's date carries: its previous
// date's, unless the server turned recaps off or had no daily that day
// (none was shown or posted, so none was played): nil then. It is read
// when the post is made, so the post, made exactly once, carries it
// exactly once.
func (d *Dailies) recap(ctx context.Context, guildID string, date Date) (*Recap, error) {
	settings, err := d.RecapSettings(ctx, guildID)
	if err != nil || settings.Off {
		return nil, err
	}
	yesterday := date.AddDays(-1)
	maze, err := d.store.DailyMaze(ctx, guildID, yesterday)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	standings, err := d.Day(ctx, guildID, yesterday)
	if err != nil {
		return nil, err
	}
	r := &Recap{Date: yesterday, MazeID: maze, Finished: len(standings), Top: standings[:min(RecapTop, len(standings))], Pings: settings.Pings}
	for _, s := range standings {
		// The domain's streak, whatever it forgives: as of the day
		// recapped, which every member here finished.
		streak, err := d.Streak(ctx, guildID, s.UserID, yesterday)
		if err != nil {
			return nil, fmt.Errorf("streak of %s: %w", s.UserID, err)
		}
		for _, m := range StreakMilestones {
			if streak == m {
				r.Milestones = append(r.Milestones, Milestone{UserID: s.UserID, Days: m})
			}
		}
	}
	return r, nil
}
