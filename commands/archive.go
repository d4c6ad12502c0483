package commands

import (
	"context"
	"errors"
	"slices"
	"strings"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/play"
)

// Archive is /daily archive and its buttons: a server's past dailies,
// from its first, played unranked (contest's archive).
type Archive struct {
	dailies  *contest.Dailies
	games    *contest.Games
	play     *Play // opens the games, as Play does
	pictures *pictures.Queue
}

// NewArchive serves the archive of dailies, its games played in games
// and opened as playing opens them, its mazes drawn on the queue.
func NewArchive(dailies *contest.Dailies, games *contest.Games, playing *Play, q *pictures.Queue) *Archive {
	return &Archive{dailies: dailies, games: games, play: playing, pictures: q}
}

// Commands is none: /daily archive is a subcommand of Daily's, which
// hands it to command.
func (f *Archive) Commands() []bot.Command { return nil }

func (f *Archive) Components() []bot.Component {
	return []bot.Component{{Prefix: customid.ArchivePrefix, Handle: f.handleButton}}
}

// archiveOptions are /daily archive's options as typed.
type archiveOptions struct {
	Date string `option:"date"`
}

// command answers /daily archive: the list of past days, or with a date
// that day's maze.
func (f *Archive) command(ctx context.Context, in *bot.Interaction) error {
	var o archiveOptions
	bot.Options(in, &o)
	typed := strings.TrimSpace(o.Date)
	if typed == "" {
		return f.list(ctx, in)
	}
	date, err := contest.ParseDate(typed)
	if err != nil || date.String() != typed {
		today, terr := f.dailies.Date(ctx, in.GuildID)
		if terr != nil {
			return terr
		}
		return bot.RefuseWith(err, "error.archive_bad_date", lang.Args{"Text": sanitize(o.Date), "Example": today.AddDays(-1).String()})
	}
	return f.day(ctx, in, date)
}

// handleButton answers Play on a past day and Next unsolved.
func (f *Archive) handleButton(ctx context.Context, in *bot.Interaction) error {
	text, next, ok := customid.ParseArchive(in.MessageComponentData().CustomID)
	if !ok || in.GuildID == "" {
		return errInvalidButton
	}
	var date contest.Date
	if text != "" {
		var err error
		if date, err = contest.ParseDate(text); err != nil || date.String() != text {
			return errInvalidButton
		}
	}
	if next {
		return f.next(ctx, in, date)
	}
	day, err := f.archive(ctx, in.GuildID, date)
	if err != nil {
		return err
	}
	g, resumed, err := f.games.StartArchive(ctx, day, play.Record{UserID: in.UserID(), GuildID: in.GuildID, ChannelID: in.ChannelID})
	if err != nil {
		return err
	}
	return f.play.open(ctx, in, g, resumed)
}

// archive is the server's past daily of date, or the refusal that tells
// the member which days the archive holds.
func (f *Archive) archive(ctx context.Context, guildID string, date contest.Date) (contest.Daily, error) {
	day, err := f.dailies.Archive(ctx, guildID, date)
	switch {
	case err == nil:
		return day, nil
	case errors.Is(err, contest.ErrArchiveEmpty):
		return day, bot.RefuseWith(err, "error.archive_empty")
	case errors.Is(err, contest.ErrArchiveBeforeFirst):
		first, ferr := f.dailies.FirstDaily(ctx, guildID)
		if ferr != nil {
			return day, ferr
		}
		return day, bot.RefuseWith(err, "error.archive_before_first", lang.Args{"Date": date.String(), "First": first.String()})
	case errors.Is(err, contest.ErrArchiveFuture):
		today, terr := f.dailies.Date(ctx, guildID)
		if terr != nil {
			return day, terr
		}
		if date == today {
			return day, bot.RefuseWith(err, "error.archive_today", lang.Args{"Date": date.String()})
		}
		return day, bot.RefuseWith(err, "error.archive_future", lang.Args{"Date": date.String(), "Yesterday": today.AddDays(-1).String()})
	}
	return day, err
}

// day shows a past day's maze privately, with Play.
func (f *Archive) day(ctx context.Context, in *bot.Interaction, date contest.Date) error {
	day, err := f.archive(ctx, in.GuildID, date)
	if err != nil {
		return err
	}
	solved, err := f.dailies.ArchiveSolved(ctx, in.GuildID, in.UserID())
	if err != nil {
		return err
	}
	l := in.Lang()
	reply, err := showReply(ctx, f.pictures, in, day.MazeID, renderAuto, pictures.Request{Ephemeral: true}, func() (bot.Reply, error) {
		if !day.MazeID.Plain() {
			v, err := dailyGridMaze(l, day, true, views.Setup{})
			return views.ArchiveDay(l, day, views.ArchiveHeader(l, day, v, slices.Contains(solved, date)), v), err
		}
		m, err := generate(day.MazeID)
		if err != nil {
			return bot.Reply{}, err
		}
		v := describe(m)
		header := views.ArchiveHeader(l, day, v, slices.Contains(solved, date))
		err = picture(l, &v, m, pictureOptions{header: header, extra: 1})
		return views.ArchiveDay(l, day, header, v), err
	})
	if err != nil {
		return err
	}
	return answer(ctx, in, reply)
}

// next shows the member's next unsolved past day after after (the zero
// Date: from the first), or says they solved them all.
func (f *Archive) next(ctx context.Context, in *bot.Interaction, after contest.Date) error {
	date, ok, err := f.dailies.NextUnsolved(ctx, in.GuildID, in.UserID(), after)
	if err != nil {
		return err
	}
	if !ok {
		return answer(ctx, in, bot.Reply{Content: in.Lang().T("archive.all_solved"), Ephemeral: true})
	}
	return f.day(ctx, in, date)
}

// list answers /daily archive without a date: the past days, a ✓ on
// those the member solved, and Next unsolved.
func (f *Archive) list(ctx context.Context, in *bot.Interaction) error {
	first, err := f.dailies.FirstDaily(ctx, in.GuildID)
	if errors.Is(err, contest.ErrArchiveEmpty) {
		return bot.RefuseWith(err, "error.archive_empty")
	}
	if err != nil {
		return err
	}
	today, err := f.dailies.Date(ctx, in.GuildID)
	if err != nil {
		return err
	}
	if !first.Before(today) {
		return bot.Refuse("error.archive_empty")
	}
	a := views.ArchiveList{First: first, Today: today}
	if a.Solved, err = f.dailies.ArchiveSolved(ctx, in.GuildID, in.UserID()); err != nil {
		return err
	}
	if _, a.HasNext, err = f.dailies.NextUnsolved(ctx, in.GuildID, in.UserID(), contest.Date{}); err != nil {
		return err
	}
	return answer(ctx, in, views.Archive(in.Lang(), a))
}
