package memstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"mazebot/contest"
)

// community is what the recaps and reminders keep; its maps are made on
// first use.
type community struct {
	recaps    map[string]contest.RecapSettings // by guild
	reminders map[member]contest.Reminder
}

// member is a member of a server: a reminder's key.
type member struct{ guild, user string }

func (c *community) init() {
	if c.recaps == nil {
		c.recaps, c.reminders = map[string]contest.RecapSettings{}, map[member]contest.Reminder{}
	}
}

// RecapSettings returns a server's recap settings, or ErrNotFound.
func (s *Store) RecapSettings(ctx context.Context, guildID string) (contest.RecapSettings, error) {
	if err := s.lock(ctx); err != nil {
		return contest.RecapSettings{}, err
	}
	defer s.mu.Unlock()
	s.community.init()
	r, ok := s.community.recaps[guildID]
	if !ok {
		return r, fmt.Errorf("recap settings of %s: %w", guildID, contest.ErrNotFound)
	}
	return r, nil
}

// SaveRecapSettings creates or replaces a server's recap settings.
func (s *Store) SaveRecapSettings(ctx context.Context, r contest.RecapSettings) error {
	if r.GuildID == "" {
		return refused("recap settings without a server")
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.community.init()
	s.community.recaps[r.GuildID] = r
	return nil
}

// SaveReminder opts a member in, or changes their time and language,
// starting over on closed DMs.
func (s *Store) SaveReminder(ctx context.Context, r contest.Reminder) error {
	switch {
	case r.GuildID == "" || r.UserID == "":
		return refused("a reminder without a server or a member")
	case r.At < 0 || r.At >= 24*60:
		return refused("a reminder time %d minutes after midnight", int(r.At))
	case len(r.Language) > maxLanguage:
		return refused("a language code of %d bytes, at most %d", len(r.Language), maxLanguage)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.community.init()
	k := member{r.GuildID, r.UserID}
	old := s.community.reminders[k]
	s.community.reminders[k] = contest.Reminder{GuildID: r.GuildID, UserID: r.UserID, At: r.At, Language: r.Language, RemindedOn: old.RemindedOn, DMChannelID: old.DMChannelID}
	return nil
}

// DeleteReminder opts a member out, or says ErrNotFound.
func (s *Store) DeleteReminder(ctx context.Context, guildID, userID string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.community.init()
	k := member{guildID, userID}
	if _, ok := s.community.reminders[k]; !ok {
		return fmt.Errorf("reminder %s/%s: %w", guildID, userID, contest.ErrNotFound)
	}
	delete(s.community.reminders, k)
	return nil
}

// Reminder returns a member's reminder, or ErrNotFound.
func (s *Store) Reminder(ctx context.Context, guildID, userID string) (contest.Reminder, error) {
	if err := s.lock(ctx); err != nil {
		return contest.Reminder{}, err
	}
	defer s.mu.Unlock()
	s.community.init()
	r, ok := s.community.reminders[member{guildID, userID}]
	if !ok {
		return r, fmt.Errorf("reminder %s/%s: %w", guildID, userID, contest.ErrNotFound)
	}
	return r, nil
}

// OpenReminders lists the reminders not closed and not claimed on or
// after before, by server and member.
func (s *Store) OpenReminders(ctx context.Context, before contest.Date) ([]contest.Reminder, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.community.init()
	var out []contest.Reminder
	for _, r := range s.community.reminders {
		if !r.Closed && r.RemindedOn.Before(before) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b contest.Reminder) int {
		return cmp.Or(cmp.Compare(a.GuildID, b.GuildID), cmp.Compare(a.UserID, b.UserID))
	})
	return out, nil
}

// ClaimReminder claims a member's reminder of date, once.
func (s *Store) ClaimReminder(ctx context.Context, guildID, userID string, date contest.Date) error {
	return s.changeReminder(ctx, guildID, userID, func(r *contest.Reminder) bool {
		if r.Closed || !r.RemindedOn.Before(date) {
			return false
		}
		r.RemindedOn = date
		return true
	})
}

// SetReminderChannel records a member's DM channel.
func (s *Store) SetReminderChannel(ctx context.Context, guildID, userID, channelID string) error {
	err := s.changeReminder(ctx, guildID, userID, func(r *contest.Reminder) bool { r.DMChannelID = channelID; return true })
	return ignoreConflict(err)
}

// CloseReminder records that Discord refuses DMs to the member.
func (s *Store) CloseReminder(ctx context.Context, guildID, userID string) error {
	err := s.changeReminder(ctx, guildID, userID, func(r *contest.Reminder) bool { r.Closed = true; return true })
	return ignoreConflict(err)
}

// ClaimClosedNotice marks a closed reminder's member told, once.
func (s *Store) ClaimClosedNotice(ctx context.Context, guildID, userID string) error {
	return s.changeReminder(ctx, guildID, userID, func(r *contest.Reminder) bool {
		if !r.Closed || r.Told {
			return false
		}
		r.Told = true
		return true
	})
}

// changeReminder applies change to a member's reminder: ErrConflict when
// there is none or change declines.
func (s *Store) changeReminder(ctx context.Context, guildID, userID string, change func(*contest.Reminder) bool) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.community.init()
	k := member{guildID, userID}
	r, ok := s.community.reminders[k]
	if !ok || !change(&r) {
		return fmt.Errorf("reminder %s/%s: %w", guildID, userID, contest.ErrConflict)
	}
	s.community.reminders[k] = r
	return nil
}

// ignoreConflict is nil for ErrConflict: a write to a reminder that is
// gone changes nothing, as an UPDATE of no row does.
func ignoreConflict(err error) error {
	if errors.Is(err, contest.ErrConflict) {
		return nil
	}
	return err
}
