package commands

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
)

// Periods of /leaderboard.
const (
	periodDaily  = "daily"
	periodWeek   = "week"
	periodAll    = "all"
	periodSeason = "season"
)

func leaderboardCommand(f *Daily) bot.Command {
	return bot.Command{
		Definition: serverOnly(&discordgo.ApplicationCommand{
			Name: "leaderboard",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "period", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Value: periodDaily}, {Value: periodWeek}, {Value: periodAll}, {Value: periodSeason},
				}},
				stringOption("season", 7, false),
			},
		}),
		Handle: f.handleLeaderboard,
		Use:    []bot.Middleware{bot.GuildOnly("error.leaderboard_dm")},
	}
}

// leaderboardOptions are /leaderboard's options as typed.
type leaderboardOptions struct {
	Period string `option:"period"`
	Season string `option:"season"`
}

func (f *Daily) handleLeaderboard(ctx context.Context, in *bot.Interaction) error {
	today, err := f.dailies.Date(ctx, in.GuildID)
	if err != nil {
		return err
	}
	l := in.Lang()
	o := leaderboardOptions{Period: periodDaily}
	bot.Options(in, &o)
	if o.Season != "" {
		o.Period = periodSeason // a season named is a season's board
	}
	var (
		lines        []views.BoardLine
		title, empty string
	)
	switch o.Period {
	case periodDaily:
		standings, err := f.dailies.Day(ctx, in.GuildID, today)
		if err != nil {
			return err
		}
		lines = views.DayLines(l, standings)
		title = l.T("board.title_day", lang.Args{"Number": contest.Number(today), "Date": views.Date(l, today)})
		empty = l.T("board.empty_day")
	case periodWeek, periodAll:
		from := contest.FirstDate
		title = l.T("board.title_all")
		if o.Period == periodWeek {
			from = today.AddDays(-6)
			title = l.T("board.title_week", lang.Args{"From": views.Date(l, from), "To": views.Date(l, today)})
		}
		totals, err := f.dailies.Totals(ctx, in.GuildID, from, today)
		if err != nil {
			return err
		}
		lines = views.TotalLines(l, totals)
		empty = l.T("board.empty")
	case periodSeason:
		season := contest.SeasonOf(today)
		if o.Season != "" {
			var err error
			if season, err = contest.ParseSeason(strings.TrimSpace(o.Season)); err != nil || today.Before(season.First()) {
				return bot.RefuseWith(err, "error.bad_season", lang.Args{"Text": sanitize(o.Season), "Now": contest.SeasonOf(today).String()})
			}
		}
		standings, err := f.dailies.Season(ctx, in.GuildID, season, today)
		if err != nil {
			return err
		}
		lines = views.SeasonLines(l, standings)
		title = l.T("board.title_season", lang.Args{"Season": season.String()})
		empty = l.T("board.empty_season")
	default:
		return bot.Refuse("error.unknown_period", lang.Args{"Name": sanitize(o.Period)})
	}
	for i := range lines[:min(len(lines), views.LeaderboardTop)] {
		if lines[i].Streak, err = f.dailies.Streak(ctx, in.GuildID, lines[i].UserID, today); err != nil {
			return err
		}
	}
	return answer(ctx, in, views.Leaderboard(l, title, empty, lines, in.UserID(), o.Period == periodDaily))
}
