package views

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/contest"
	"mazebot/lang"
)

// ArchiveShown is how many past days /daily archive lists, the most
// recent: a month of lines stays well inside a message, and an older day
// is one date option away.
const ArchiveShown = 31

// ArchiveList is what /daily archive lists: a server's past days, from
// its first daily to yesterday, and which the member solved.
type ArchiveList struct {
	First, Today contest.Date
	// Solved are the past days the member solved, on the day or from
	// the archive.
	Solved []contest.Date
	// HasNext: a past day is unsolved, which Next unsolved finds.
	HasNext bool
}

// Archive is /daily archive's private list: the most recent past days,
// newest first, a ✓ on those the member solved, how to reach older ones,
// and Next unsolved.
func Archive(l *lang.Lang, a ArchiveList) bot.Reply {
	solved := make(map[contest.Date]bool, len(a.Solved))
	for _, d := range a.Solved {
		if d.Before(a.Today) && !d.Before(a.First) {
			solved[d] = true
		}
	}
	days := 0
	for d := a.First; d.Before(a.Today); d = d.AddDays(1) {
		days++
	}
	var b strings.Builder
	b.WriteString(l.T("archive.title", lang.Args{
		"Days": lang.M("unit.day", lang.Args{"Count": days}), "First": Date(l, a.First), "Solved": lang.Number(len(solved)),
	}))
	shown := 0
	for d := a.Today.AddDays(-1); !d.Before(a.First) && shown < ArchiveShown; d = d.AddDays(-1) {
		line := "archive.line_unsolved"
		if solved[d] {
			line = "archive.line_solved"
		}
		b.WriteString("\n" + l.T(line, lang.Args{"Number": contest.Number(d), "Date": Date(l, d)}))
		shown++
	}
	if older := days - shown; older > 0 {
		b.WriteString("\n" + l.T("archive.older", lang.Args{"Days": lang.M("unit.day", lang.Args{"Count": older})}))
	}
	var buttons []part
	if a.HasNext {
		buttons = archiveRow(NextUnsolvedButton(l, contest.Date{}))
	} else {
		b.WriteString("\n" + l.T("archive.all_solved"))
	}
	reply := card(nil, text(b.String()), buttons)
	reply.Ephemeral = true
	return reply
}

// ArchiveHeader is what stands above a past day's maze in the archive:
// the day, the maze's header, that it is unranked, and whether the
// member solved it.
func ArchiveHeader(l *lang.Lang, day contest.Daily, m Maze, solved bool) string {
	header := l.T("archive.header", lang.Args{"Number": day.Number(), "Date": Date(l, day.Date)}) + "\n" + Header(l, m) + "\n" + l.T("archive.unranked")
	if solved {
		header += "\n" + l.T("archive.solved_before")
	}
	return header
}

// ArchiveDay is a past day's maze below its ArchiveHeader, privately,
// with Play (an archive game), Solve (its solution is open) and Next
// unsolved.
func ArchiveDay(l *lang.Lang, day contest.Daily, header string, m Maze) bot.Reply {
	play := PlayButton(l, day.MazeID)
	play.CustomID = customid.ArchivePlay(day.Date.String())
	solve := discordgo.Button{Label: l.T("button.solve"), Style: discordgo.SecondaryButton, CustomID: customid.Solve(day.MazeID), Emoji: &discordgo.ComponentEmoji{Name: "🔎"}}
	reply := Show(header, m, archiveRow(play, solve, NextUnsolvedButton(l, day.Date)))
	reply.Ephemeral = true
	return reply
}

// NextUnsolvedButton shows the member's next unsolved past day after
// after (the zero Date: from the first).
func NextUnsolvedButton(l *lang.Lang, after contest.Date) discordgo.Button {
	text := ""
	if !after.IsZero() {
		text = after.String()
	}
	return discordgo.Button{Label: l.T("button.next_unsolved"), Style: discordgo.SecondaryButton, CustomID: customid.ArchiveNext(text), Emoji: &discordgo.ComponentEmoji{Name: "⏭️"}}
}

func archiveRow(buttons ...discordgo.MessageComponent) []part {
	return []part{discordgo.ActionsRow{Components: buttons}}
}

// ArchiveAwardLines say what an archive win earned: that the day is
// solved, unranked, and which day is next.
func ArchiveAwardLines(l *lang.Lang, a *contest.ArchiveAward) []string {
	lines := []string{l.T("archive.award", lang.Args{"Number": a.Number, "Date": Date(l, a.Date)})}
	if !a.Next.IsZero() {
		lines = append(lines, l.T("archive.award_next", lang.Args{"Number": contest.Number(a.Next), "Date": Date(l, a.Next)}))
	}
	return lines
}

// archiveGame is the date of an archive game's day; ok false for any
// other game.
func archiveGame(contestKey string) (contest.Date, bool) {
	key, ok := contest.ParseKey(contestKey)
	if !ok {
		return contest.Date{}, false
	}
	_, date, ok := key.Archive()
	return date, ok
}
