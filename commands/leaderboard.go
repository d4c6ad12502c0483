package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/contest"
)

// Periods of /leaderboard.
const (
	periodDaily = "daily"
	periodWeek  = "week"
	periodAll   = "all"
)

// leaderboardTop is how many members a board lists.
const leaderboardTop = 10

func leaderboardCommand(f *Daily) Command {
	return Command{
		Definition: &discordgo.ApplicationCommand{
			Name:        "leaderboard",
			Description: "The daily challenge leaderboard of this server",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "period", Description: "Today (default), the last 7 days, or all time", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "today", Value: periodDaily}, {Name: "this week (last 7 days)", Value: periodWeek}, {Name: "all time", Value: periodAll},
				}},
			},
		},
		Handle: f.handleLeaderboard,
	}
}

// boardLine is one member's line of a leaderboard.
type boardLine struct {
	userID string
	rank   int
	text   string
}

func rankBadge(rank int) string {
	switch rank {
	case 1:
		return "🥇"
	case 2:
		return "🥈"
	case 3:
		return "🥉"
	}
	return fmt.Sprintf("`#%d`", rank)
}

func (f *Daily) handleLeaderboard(ctx context.Context, in *Interaction) error {
	if in.GuildID == "" {
		return refuse("error.leaderboard_dm")
	}
	today, err := f.dailies.Date(ctx, in.GuildID)
	if err != nil {
		return err
	}
	l := in.Lang()
	period := commandOptions(in).string("period", periodDaily)
	var (
		lines []boardLine
		title string
		empty string
	)
	switch period {
	case periodDaily:
		standings, err := f.dailies.Day(ctx, in.GuildID, today)
		if err != nil {
			return err
		}
		for _, s := range standings {
			lines = append(lines, boardLine{s.UserID, s.Rank, l.T("board.day_line", lang.Args{"Time": l.Clock(s.Elapsed), "Tiles": lang.M("count.tiles", lang.Args{"Count": s.Tiles})})})
		}
		title = l.T("board.title_day", lang.Args{"Number": contest.Number(today), "Date": dateOf(l, today)})
		empty = l.T("board.empty_day")
	case periodWeek, periodAll:
		from := contest.FirstDate
		title = l.T("board.title_all")
		if period == periodWeek {
			from = today.AddDays(-6)
			title = l.T("board.title_week", lang.Args{"From": dateOf(l, from), "To": dateOf(l, today)})
		}
		totals, err := f.dailies.Totals(ctx, in.GuildID, from, today)
		if err != nil {
			return err
		}
		for _, t := range totals {
			lines = append(lines, boardLine{t.UserID, t.Rank, l.T("board.total_line", lang.Args{"Days": lang.M("unit.day", lang.Args{"Count": t.Days}), "Time": l.Clock(t.Elapsed)})})
		}
		empty = l.T("board.empty")
	default:
		return refuse("error.unknown_period", lang.Args{"Name": sanitize(period)})
	}

	var top []string
	for _, line := range lines[:min(len(lines), leaderboardTop)] {
		text := fmt.Sprintf("%s <@%s> · %s", rankBadge(line.rank), line.userID, line.text)
		streak, err := f.dailies.Streak(ctx, in.GuildID, line.userID, today)
		if err != nil {
			return err
		}
		if streak > 0 {
			text += fmt.Sprintf(" · 🔥%d", streak)
		}
		top = append(top, text)
	}
	description := empty
	if len(top) > 0 {
		description = strings.Join(top, "\n")
	}
	embed := &discordgo.MessageEmbed{
		Title:       title,
		Description: description,
		Color:       0xF1C40F,
		Footer:      &discordgo.MessageEmbedFooter{Text: ownRank(l, lines, in.UserID(), period)},
	}
	return answer(ctx, in, Reply{Embeds: []*discordgo.MessageEmbed{embed}})
}

// ownRank is the caller's line, also when outside the top.
func ownRank(l *lang.Lang, lines []boardLine, userID, period string) string {
	for _, line := range lines {
		if line.userID == userID {
			return l.T("board.own_rank", lang.Args{"Rank": line.rank, "Of": len(lines), "Line": line.text})
		}
	}
	if period == periodDaily {
		return l.T("board.own_none_today")
	}
	return l.T("board.own_none")
}
