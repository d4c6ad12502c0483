package commands

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
)

// codeCannotDM is Discord's answer (with 403) to a DM the member does not
// take: "Cannot send messages to this user".
const codeCannotDM = 50007

// remindOptions are /daily remind's options as typed.
type remindOptions struct {
	Time string `option:"time"`
}

// remind answers /daily remind: time:HH:MM opts the member in to a DM at
// that time of the server's day when their streak is at risk, time:off
// opts them out.
func (f *Daily) remind(ctx context.Context, in *bot.Interaction) error {
	var o remindOptions
	bot.Options(in, &o)
	l := in.Lang()
	typed := strings.TrimSpace(o.Time)
	if isOff(typed) {
		err := f.reminders.Off(ctx, in.GuildID, in.UserID())
		if errors.Is(err, contest.ErrNotFound) {
			return answer(ctx, in, bot.Reply{Content: l.T("remind.off_none"), Ephemeral: true})
		}
		if err != nil {
			return err
		}
		return answer(ctx, in, bot.Reply{Content: l.T("remind.off_done"), Ephemeral: true})
	}
	at, ok := contest.ParseTimeOfDay(typed)
	if !ok {
		return bot.Refuse("error.bad_remind_time", lang.Args{"Text": sanitize(o.Time)})
	}
	settings, err := f.dailies.Settings(ctx, in.GuildID)
	if err != nil {
		return err
	}
	if err := f.reminders.Set(ctx, in.GuildID, in.UserID(), at, l.Code()); err != nil {
		return err
	}
	zone := settings.Zone.String()
	return answer(ctx, in, bot.Reply{Content: l.T("remind.done", lang.Args{
		"At": at.String(), "Zone": zone, "Min": lang.Number(contest.MinRemindStreak),
	}), Ephemeral: true})
}

// isOff tells whether the time typed turns reminders off: "off" in any
// case, or the word in a language mazebot speaks.
func isOff(typed string) bool {
	if strings.EqualFold(typed, "off") {
		return true
	}
	for _, l := range lang.Languages() {
		if typed == l.T("remind.off_word") {
			return true
		}
	}
	return false
}

// ClosedDMNotice tells a member, once and privately, after the first
// command or button of theirs that went well in the server, that their
// streak reminder could not be sent because their DMs are closed. It
// answers nothing else and holds up nothing: the member's own reply is
// sent first.
func ClosedDMNotice(reminders *contest.Reminders, log *slog.Logger) bot.Middleware {
	return noticeAfter(log, "closed-DM notice", func(ctx context.Context, in *bot.Interaction) (string, error) {
		if reminders == nil {
			return "", nil
		}
		tell, err := reminders.ClosedNotice(ctx, in.GuildID, in.UserID())
		if !tell || err != nil {
			return "", err
		}
		return in.Lang().T("remind.dm_closed"), nil
	})
}

// noticeAfter follows the reply to a member's command or button that
// went well in a server with the private message notice makes for them
// ("" for none). A failure to make or send it is logged, never shown: the
// member's own reply went out first.
func noticeAfter(log *slog.Logger, what string, notice func(ctx context.Context, in *bot.Interaction) (string, error)) bot.Middleware {
	return func(next bot.Handler) bot.Handler {
		return func(ctx context.Context, in *bot.Interaction) error {
			err := next(ctx, in)
			if err != nil || in.GuildID == "" ||
				(in.Type != discordgo.InteractionApplicationCommand && in.Type != discordgo.InteractionMessageComponent) {
				return err
			}
			msg, nerr := notice(ctx, in)
			if nerr != nil {
				log.Warn("could not make a "+what, "guild", in.GuildID, "user", in.UserID(), "err", nerr)
				return nil
			}
			if msg != "" {
				if ferr := in.Respond.Followup(ctx, bot.Reply{Content: msg, Ephemeral: true}); ferr != nil {
					log.Warn("could not send a "+what, "guild", in.GuildID, "user", in.UserID(), "err", ferr)
				}
			}
			return nil
		}
	}
}

var _ contest.DMSender = (*Announcer)(nil)

// Remind sends a member's streak reminder by DM, in the language they
// opted in with, opening the DM channel first when it is not known.
func (a *Announcer) Remind(ctx context.Context, r contest.Reminder, day contest.Daily, streak int, channelID, nonce string) (string, error) {
	if channelID == "" {
		ch, err := a.poster.DMChannel(ctx, r.UserID)
		if err != nil {
			return "", dmError(err)
		}
		channelID = ch
	}
	_, err := a.poster.Post(ctx, channelID, nonce, views.Reminder(lang.ByCode(r.Language), day, streak))
	return channelID, dmError(err)
}

// dmError tells contest what Discord said: a 429's wait, or DMs refused.
func dmError(err error) error {
	var limited *discordgo.RateLimitError
	if errors.As(err, &limited) && limited.TooManyRequests != nil {
		return errors.Join(&contest.RateLimitedError{After: limited.RetryAfter}, err)
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == codeCannotDM {
		return errors.Join(contest.ErrDMClosed, err)
	}
	return err
}
