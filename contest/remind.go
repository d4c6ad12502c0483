package contest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Reminders by DM, opt-in: at a time of day the member picks (the
// server's zone), a member who holds a streak of MinRemindStreak days or
// more and has not finished the day's daily gets one DM with the day's
// Play button. The store's claim (ClaimReminder) makes it once a day
// however many processes tick: a reminder is claimed just before it is
// sent, so a process that dies between the two loses that day's reminder
// rather than ever sending two. A member whose DMs Discord refuses is
// never tried again until they opt in anew, and is told once.

// MinRemindStreak is the shortest streak worth a reminder.
const MinRemindStreak = 2

// ErrDMClosed: Discord refuses DMs to the member (403, code 50007).
var ErrDMClosed = errors.New("the member's DMs are closed to the bot")

// RateLimitedError: Discord answered 429; nothing should be sent again
// before After has passed.
type RateLimitedError struct{ After time.Duration }

func (e *RateLimitedError) Error() string { return fmt.Sprintf("rate limited for %s", e.After) }

// Reminder is a member's opt-in to streak reminders in a server.
type Reminder struct {
	GuildID, UserID string
	At              TimeOfDay // in the server's zone
	// Language is the code of the language the member opted in with: the
	// DM's.
	Language string
	// RemindedOn is the last date a reminder was claimed (zero for none).
	RemindedOn Date
	// DMChannelID is the member's DM channel once known ("" before).
	DMChannelID string
	// Closed: Discord refused a DM; Told: the member heard of it.
	Closed, Told bool
}

// ReminderStore keeps the reminders.
type ReminderStore interface {
	// SaveReminder opts a member in at r.At in r.Language, or changes the
	// time; Closed and Told start over (the member may have opened their
	// DMs), RemindedOn and DMChannelID are kept.
	SaveReminder(ctx context.Context, r Reminder) error
	// DeleteReminder opts a member out: ErrNotFound when they were not in.
	DeleteReminder(ctx context.Context, guildID, userID string) error
	// Reminder returns a member's reminder, or ErrNotFound.
	Reminder(ctx context.Context, guildID, userID string) (Reminder, error)
	// OpenReminders lists the reminders not Closed whose RemindedOn is
	// before date (or none).
	OpenReminders(ctx context.Context, before Date) ([]Reminder, error)
	// ClaimReminder sets a reminder's RemindedOn to date if it was before
	// it and the reminder is not Closed; else ErrConflict (another process
	// claimed it, or it is gone or closed).
	ClaimReminder(ctx context.Context, guildID, userID string, date Date) error
	// SetReminderChannel records a member's DM channel.
	SetReminderChannel(ctx context.Context, guildID, userID, channelID string) error
	// CloseReminder records that Discord refuses DMs to the member.
	CloseReminder(ctx context.Context, guildID, userID string) error
	// ClaimClosedNotice sets Told on a Closed reminder not Told yet; else
	// ErrConflict: of racing callers one is told.
	ClaimClosedNotice(ctx context.Context, guildID, userID string) error
}

// DMSender sends reminders. Package commands implements it on Discord.
type DMSender interface {
	// Remind DMs the member the day's daily with its Play button and
	// their streak, in channelID ("" to open the DM channel first),
	// with nonce. It returns the channel it used; errors wrap ErrDMClosed
	// or are a *RateLimitedError where Discord said so.
	Remind(ctx context.Context, r Reminder, day Daily, streak int, channelID, nonce string) (usedChannel string, err error)
}

// The pace of reminders: a few at a time, at most remindRate a second
// from each process (two requests each when the DM channel is new), well
// inside Discord's 50 requests a second with the daily posts.
const (
	remindWorkers = 4
	remindRate    = 10
	// remindRetries bounds the tries of one reminder Discord rate limits.
	remindRetries = 3
	// claimedSendTimeout bounds the sending of a claimed reminder, past
	// the end of the tick that claimed it.
	claimedSendTimeout = 30 * time.Second
)

// Reminders sends the streak reminders.
type Reminders struct {
	dailies *Dailies
	store   ReminderStore
	dm      DMSender
	now     func() time.Time
	log     *slog.Logger

	mu      sync.Mutex
	resume  time.Time // no request before it: a 429's Retry-After
	sending bool      // a Tick is sending: the next one leaves it be
}

// NewReminders reminds the members kept in s of the dailies' streaks
// through dm, on the clock now.
func NewReminders(dailies *Dailies, s ReminderStore, dm DMSender, now func() time.Time, log *slog.Logger) *Reminders {
	return &Reminders{dailies: dailies, store: s, dm: dm, now: now, log: log}
}

// Set opts a member in at a time of the server's day, in language.
func (r *Reminders) Set(ctx context.Context, guildID, userID string, at TimeOfDay, language string) error {
	return r.store.SaveReminder(ctx, Reminder{GuildID: guildID, UserID: userID, At: at, Language: language})
}

// Off opts a member out; ErrNotFound when they were not in.
func (r *Reminders) Off(ctx context.Context, guildID, userID string) error {
	return r.store.DeleteReminder(ctx, guildID, userID)
}

// ClosedNotice tells whether the member must now hear, once, that their
// reminder could not be sent because their DMs are closed: true once.
func (r *Reminders) ClosedNotice(ctx context.Context, guildID, userID string) (bool, error) {
	rem, err := r.store.Reminder(ctx, guildID, userID)
	if errors.Is(err, ErrNotFound) || (err == nil && (!rem.Closed || rem.Told)) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch err := r.store.ClaimClosedNotice(ctx, guildID, userID); {
	case errors.Is(err, ErrConflict):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// due is a reminder whose time has come, with its server's day.
type due struct {
	rem  Reminder
	date Date
}

// dueAt lists the reminders whose time has come at now and that were not
// claimed on their server's date yet.
func (r *Reminders) dueAt(ctx context.Context, now time.Time) ([]due, error) {
	// No server's date is past tomorrow in UTC.
	open, err := r.store.OpenReminders(ctx, DateOf(now, time.UTC).AddDays(2))
	if err != nil {
		return nil, err
	}
	settings := map[string]DailySettings{}
	var out []due
	for _, rem := range open {
		s, ok := settings[rem.GuildID]
		if !ok {
			if s, err = r.dailies.Settings(ctx, rem.GuildID); err != nil {
				return nil, err
			}
			settings[rem.GuildID] = s
		}
		date, zone := s.DayAt(now)
		if !rem.RemindedOn.Before(date) || ClockOf(now.In(zone)) < rem.At || DateOf(now, zone) != date {
			continue
		}
		out = append(out, due{rem, date})
	}
	return out, nil
}

// Tick sends the reminders that are due, a few at a time at Discord's
// pace, until they are done or ctx ends; those left are sent by the next
// Tick (of this process or another). The bot runs each ticker on its own
// schedule, so a backlog here holds up no other scheduled work; a Tick
// that finds the previous one still sending leaves it to finish.
func (r *Reminders) Tick(ctx context.Context) error {
	r.mu.Lock()
	if r.sending {
		r.mu.Unlock()
		return nil
	}
	r.sending = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.sending = false
		r.mu.Unlock()
	}()
	now := r.now()
	list, err := r.dueAt(ctx, now)
	if err != nil || len(list) == 0 {
		return err
	}
	errs := paced(ctx, len(list), remindWorkers, remindRate, func(i int) error { return r.remind(ctx, list[i]) })
	return leftForNextTick(r.log, "reminders", errs)
}

// postingPoll is how often a reminder waiting for the daily posts looks
// again.
const postingPoll = 100 * time.Millisecond

// wait holds a send until a Retry-After that Discord gave is over, and
// while this process makes daily posts: at their 40 a second, the
// reminders' requests would take the two past Discord's 50.
func (r *Reminders) wait(ctx context.Context) error {
	for {
		r.mu.Lock()
		d := time.Until(r.resume)
		r.mu.Unlock()
		if d <= 0 {
			if r.dailies.posting.Load() == 0 {
				return nil
			}
			d = postingPoll
		}
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// remind claims one due reminder and, when the member still has a streak
// at risk, sends it.
func (r *Reminders) remind(ctx context.Context, d due) error {
	rem := d.rem
	if err := r.wait(ctx); err != nil {
		return unclaimed(ctx, err)
	}
	if err := r.store.ClaimReminder(ctx, rem.GuildID, rem.UserID, d.date); errors.Is(err, ErrConflict) {
		return nil
	} else if err != nil {
		return unclaimed(ctx, err)
	}
	// Claimed, the day's reminder is this call's alone: the tick's end
	// must not cut it off between the claim and the send, which would
	// lose it for the day.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimedSendTimeout)
	defer cancel()
	dates, err := r.dailies.store.SolvedDates(ctx, rem.GuildID, rem.UserID, d.date)
	if err != nil {
		return err
	}
	if len(dates) > 0 && dates[0] == d.date {
		return nil // finished today: nothing at risk
	}
	streak, err := r.dailies.Streak(ctx, rem.GuildID, rem.UserID, d.date)
	if err != nil || streak < MinRemindStreak {
		return err
	}
	day, err := r.dailies.Show(ctx, rem.GuildID)
	if err != nil {
		return err
	}
	if day.Date != d.date {
		return nil // the day turned meanwhile
	}
	key := nonce("remind|" + rem.GuildID + "|" + rem.UserID + "|" + d.date.String())
	channel := rem.DMChannelID
	for try := 1; ; try++ {
		used, err := r.dm.Remind(ctx, rem, day, streak, channel, key)
		if used != "" && used != channel {
			channel = used
			if serr := r.store.SetReminderChannel(ctx, rem.GuildID, rem.UserID, used); serr != nil {
				r.log.Warn("could not record a DM channel", "guild", rem.GuildID, "user", rem.UserID, "err", serr)
			}
		}
		var limited *RateLimitedError
		switch {
		case err == nil:
			r.log.Debug("reminder sent", "guild", rem.GuildID, "user", rem.UserID, "date", d.date.String(), "streak", streak)
			return nil
		case errors.Is(err, ErrDMClosed):
			r.log.Info("the member's DMs are closed: no more reminders", "guild", rem.GuildID, "user", rem.UserID)
			return r.store.CloseReminder(ctx, rem.GuildID, rem.UserID)
		case errors.As(err, &limited) && try < remindRetries:
			r.mu.Lock()
			if until := time.Now().Add(limited.After); until.After(r.resume) {
				r.resume = until
			}
			r.mu.Unlock()
			if err := r.wait(ctx); err != nil {
				return err
			}
		default:
			return fmt.Errorf("remind %s in %s: %w", rem.UserID, rem.GuildID, err)
		}
	}
}
