package views

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/contest"
	"mazebot/lang"
)

// LeaderboardTop is how many members a leaderboard lists.
const LeaderboardTop = 10

// BoardLine is one member's line of a leaderboard.
type BoardLine struct {
	UserID string
	Rank   int
	Text   string
	Streak int // filled in by the caller for the lines shown
}

// DayLines are the lines of a day's standings.
func DayLines(l *lang.Lang, standings []contest.Standing) []BoardLine {
	var lines []BoardLine
	for _, s := range standings {
		lines = append(lines, BoardLine{UserID: s.UserID, Rank: s.Rank, Text: l.T("board.day_line", lang.Args{"Time": l.Clock(s.Elapsed), "Tiles": lang.M("count.tiles", lang.Args{"Count": s.Tiles})})})
	}
	return lines
}

// TotalLines are the lines of totals over days.
func TotalLines(l *lang.Lang, totals []contest.TotalStanding) []BoardLine {
	var lines []BoardLine
	for _, t := range totals {
		lines = append(lines, BoardLine{UserID: t.UserID, Rank: t.Rank, Text: l.T("board.total_line", lang.Args{"Days": lang.M("unit.day", lang.Args{"Count": t.Days}), "Time": l.Clock(t.Elapsed)})})
	}
	return lines
}

// SeasonLines are the lines of a season's standings: points, days and
// total time.
func SeasonLines(l *lang.Lang, standings []contest.SeasonStanding) []BoardLine {
	var lines []BoardLine
	for _, s := range standings {
		lines = append(lines, BoardLine{UserID: s.UserID, Rank: s.Rank, Text: l.T("board.season_line", lang.Args{
			"Points": lang.M("count.points", lang.Args{"Count": s.Points}),
			"Days":   lang.M("unit.day", lang.Args{"Count": s.Days}),
			"Time":   l.Clock(s.Elapsed),
		})})
	}
	return lines
}

// Leaderboard is /leaderboard's answer: title, the top lines (with their
// streaks), or empty when there are none, and the asker's own rank,
// also when outside the top. day tells a day's board from totals.
func Leaderboard(l *lang.Lang, title, empty string, lines []BoardLine, userID string, day bool) bot.Reply {
	var top []string
	for _, line := range lines[:min(len(lines), LeaderboardTop)] {
		text := fmt.Sprintf("%s <@%s> · %s", RankBadge(line.Rank), line.UserID, line.Text)
		if line.Streak > 0 {
			text += " · 🔥" + l.Int(int64(line.Streak))
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
		Footer:      &discordgo.MessageEmbedFooter{Text: ownRank(l, lines, userID, day)},
	}
	return bot.Reply{Embeds: []*discordgo.MessageEmbed{embed}}
}

// ownRank is the asker's line, also when outside the top.
func ownRank(l *lang.Lang, lines []BoardLine, userID string, day bool) string {
	for _, line := range lines {
		if line.UserID == userID {
			return l.T("board.own_rank", lang.Args{"Rank": lang.Number(line.Rank), "Of": lang.Number(len(lines)), "Line": line.Text})
		}
	}
	if day {
		return l.T("board.own_none_today")
	}
	return l.T("board.own_none")
}
