package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

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
		return userErrorf("Leaderboards belong to a server: use /leaderboard in a server channel, not in DMs.")
	}
	day, err := f.dailies.Today(ctx, in.GuildID)
	if err != nil {
		return err
	}
	today := day.Date
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
			lines = append(lines, boardLine{s.UserID, s.Rank, fmt.Sprintf("%s · %d tiles", formatDuration(s.Elapsed, false), s.Tiles)})
		}
		title = fmt.Sprintf("🏆 Daily #%d leaderboard · %s", day.Number(), today)
		empty = "Nobody has solved today's daily yet. Be the first: /daily today, then **Play**."
	case periodWeek, periodAll:
		from := contest.FirstDate
		title = "🏆 Daily leaderboard · all time"
		if period == periodWeek {
			from = today.AddDays(-6)
			title = fmt.Sprintf("🏆 Daily leaderboard · %s to %s", from, today)
		}
		totals, err := f.dailies.Totals(ctx, in.GuildID, from, today)
		if err != nil {
			return err
		}
		for _, t := range totals {
			days := "days"
			if t.Days == 1 {
				days = "day"
			}
			lines = append(lines, boardLine{t.UserID, t.Rank, fmt.Sprintf("%d %s · %s total", t.Days, days, formatDuration(t.Elapsed, false))})
		}
		empty = "No daily results yet. Start with /daily today, then **Play**."
	default:
		return userErrorf("Unknown period `%s`: use daily, week or all.", sanitize(period))
	}

	var top []string
	for _, l := range lines[:min(len(lines), leaderboardTop)] {
		line := fmt.Sprintf("%s <@%s> · %s", rankBadge(l.rank), l.userID, l.text)
		streak, err := f.dailies.Streak(ctx, in.GuildID, l.userID, today)
		if err != nil {
			return err
		}
		if streak > 0 {
			line += fmt.Sprintf(" · 🔥%d", streak)
		}
		top = append(top, line)
	}
	description := empty
	if len(top) > 0 {
		description = strings.Join(top, "\n")
	}
	embed := &discordgo.MessageEmbed{
		Title:       title,
		Description: description,
		Color:       0xF1C40F,
		Footer:      &discordgo.MessageEmbedFooter{Text: ownRank(lines, in.UserID(), period)},
	}
	return answer(ctx, in, Reply{Embeds: []*discordgo.MessageEmbed{embed}})
}

// ownRank is the caller's line, also when outside the top.
func ownRank(lines []boardLine, userID, period string) string {
	for _, l := range lines {
		if l.userID == userID {
			return fmt.Sprintf("Your rank: #%d of %d · %s", l.rank, len(lines), l.text)
		}
	}
	if period == periodDaily {
		return "Your rank: no result yet today. Play with /daily today."
	}
	return "Your rank: no result yet in this period. Play with /daily today."
}
