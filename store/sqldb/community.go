package sqldb

import (
	"context"
	"fmt"

	"mazebot/contest"
)

// RecapSettings returns a server's recap settings, or an error wrapping
// contest.ErrNotFound when it never chose.
func (s *Store) RecapSettings(ctx context.Context, guildID string) (contest.RecapSettings, error) {
	return call(s, ctx, "RecapSettings", "recap settings of "+guildID, reads, func(q q) (contest.RecapSettings, error) {
		return one(q, recapRow.settings, `SELECT guild_id, off, pings FROM daily_recaps WHERE guild_id = ?`, guildID)
	})
}

// SaveRecapSettings creates or replaces a server's recap settings.
func (s *Store) SaveRecapSettings(ctx context.Context, r contest.RecapSettings) error {
	return do(s, ctx, "SaveRecapSettings", "save recap settings of "+r.GuildID, writes, func(q q) error {
		if r.GuildID == "" {
			return fmt.Errorf("recap settings without a server")
		}
		_, err := q.exec(`
			INSERT INTO daily_recaps (guild_id, off, pings) VALUES (?, ?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET off = excluded.off, pings = excluded.pings`,
			r.GuildID, r.Off, r.Pings)
		return err
	})
}

type recapRow struct {
	GuildID   string
	Off, Ping bool
}

func (r *recapRow) dest() []any { return []any{&r.GuildID, &r.Off, &r.Ping} }

func (r recapRow) settings() (contest.RecapSettings, error) {
	return contest.RecapSettings{GuildID: r.GuildID, Off: r.Off, Pings: r.Ping}, nil
}

// reminderColumns are the columns of a daily_reminders row, in
// reminderRow's order.
const reminderColumns = `guild_id, user_id, remind_at, language, reminded_on, dm_channel_id, closed, told`

type reminderRow struct {
	GuildID, UserID, At, Language, RemindedOn, Channel string
	Closed, Told                                       bool
}

func (r *reminderRow) dest() []any {
	return []any{&r.GuildID, &r.UserID, &r.At, &r.Language, &r.RemindedOn, &r.Channel, &r.Closed, &r.Told}
}

func (r reminderRow) reminder() (contest.Reminder, error) {
	rem := contest.Reminder{GuildID: r.GuildID, UserID: r.UserID, Language: r.Language, DMChannelID: r.Channel, Closed: r.Closed, Told: r.Told}
	var ok bool
	if rem.At, ok = contest.ParseTimeOfDay(r.At); !ok {
		return rem, fmt.Errorf("reminder time %q", r.At)
	}
	if r.RemindedOn != "" {
		var err error
		if rem.RemindedOn, err = contest.ParseDate(r.RemindedOn); err != nil {
			return rem, err
		}
	}
	return rem, nil
}

// SaveReminder opts a member in, or changes their time and language; a
// new opt-in starts over on closed DMs, keeping the day's claim and the
// DM channel.
func (s *Store) SaveReminder(ctx context.Context, r contest.Reminder) error {
	return do(s, ctx, "SaveReminder", fmt.Sprintf("save reminder %s/%s", r.GuildID, r.UserID), writes, func(q q) error {
		if r.At < 0 || r.At >= 24*60 {
			return fmt.Errorf("reminder time %d minutes after midnight", int(r.At))
		}
		if err := checkLanguage(r.Language); err != nil {
			return err
		}
		_, err := q.exec(`
			INSERT INTO daily_reminders (guild_id, user_id, remind_at, language) VALUES (?, ?, ?, ?)
			ON CONFLICT (guild_id, user_id) DO UPDATE SET remind_at = excluded.remind_at, language = excluded.language,
				closed = FALSE, told = FALSE`,
			r.GuildID, r.UserID, r.At.String(), r.Language)
		return err
	})
}

// DeleteReminder opts a member out, or wraps contest.ErrNotFound.
func (s *Store) DeleteReminder(ctx context.Context, guildID, userID string) error {
	return do(s, ctx, "DeleteReminder", fmt.Sprintf("delete reminder %s/%s", guildID, userID), writes, func(q q) error {
		n, err := q.changed(`DELETE FROM daily_reminders WHERE guild_id = ? AND user_id = ?`, guildID, userID)
		if err == nil && n == 0 {
			err = contest.ErrNotFound
		}
		return err
	})
}

// Reminder returns a member's reminder, or wraps contest.ErrNotFound.
func (s *Store) Reminder(ctx context.Context, guildID, userID string) (contest.Reminder, error) {
	return call(s, ctx, "Reminder", fmt.Sprintf("reminder %s/%s", guildID, userID), reads, func(q q) (contest.Reminder, error) {
		return one(q, reminderRow.reminder, `SELECT `+reminderColumns+` FROM daily_reminders WHERE guild_id = ? AND user_id = ?`, guildID, userID)
	})
}

// OpenReminders lists the reminders not closed and not claimed on or
// after before (” sorts before every date).
func (s *Store) OpenReminders(ctx context.Context, before contest.Date) ([]contest.Reminder, error) {
	return call(s, ctx, "OpenReminders", "open reminders", reads, func(q q) ([]contest.Reminder, error) {
		return all(q, reminderRow.reminder, `SELECT `+reminderColumns+` FROM daily_reminders
			WHERE closed = FALSE AND reminded_on < ? ORDER BY guild_id, user_id`, before.String())
	})
}

// ClaimReminder claims a member's reminder of date: once, whichever
// process asks.
func (s *Store) ClaimReminder(ctx context.Context, guildID, userID string, date contest.Date) error {
	return do(s, ctx, "ClaimReminder", fmt.Sprintf("claim reminder %s/%s/%s", guildID, userID, date), writes, func(q q) error {
		return q.claim(`UPDATE daily_reminders SET reminded_on = ? WHERE guild_id = ? AND user_id = ? AND reminded_on < ? AND closed = FALSE`,
			date.String(), guildID, userID, date.String())
	})
}

// SetReminderChannel records a member's DM channel.
func (s *Store) SetReminderChannel(ctx context.Context, guildID, userID, channelID string) error {
	return do(s, ctx, "SetReminderChannel", fmt.Sprintf("reminder channel %s/%s", guildID, userID), writes, func(q q) error {
		_, err := q.exec(`UPDATE daily_reminders SET dm_channel_id = ? WHERE guild_id = ? AND user_id = ?`, channelID, guildID, userID)
		return err
	})
}

// CloseReminder records that Discord refuses DMs to the member.
func (s *Store) CloseReminder(ctx context.Context, guildID, userID string) error {
	return do(s, ctx, "CloseReminder", fmt.Sprintf("close reminder %s/%s", guildID, userID), writes, func(q q) error {
		_, err := q.exec(`UPDATE daily_reminders SET closed = TRUE WHERE guild_id = ? AND user_id = ?`, guildID, userID)
		return err
	})
}

// ClaimClosedNotice marks a closed reminder's member told, once.
func (s *Store) ClaimClosedNotice(ctx context.Context, guildID, userID string) error {
	return do(s, ctx, "ClaimClosedNotice", fmt.Sprintf("closed notice %s/%s", guildID, userID), writes, func(q q) error {
		return q.claim(`UPDATE daily_reminders SET told = TRUE WHERE guild_id = ? AND user_id = ? AND closed = TRUE AND told = FALSE`, guildID, userID)
	})
}
