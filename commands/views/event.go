package views

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
)

// BoardTop is how many members an event's board lists.
const BoardTop = 10

// EventMaze is the event's maze: as /maze shows it, with Play (and Race)
// only while it runs (no Solve), and all of them once it has ended. It is in the event's
// language, as every post of it.
func EventMaze(e contest.Event, m Maze) bot.Reply {
	l := lang.ByCode(e.Language)
	at := OnEventEnded
	if e.Status != contest.Ended {
		at = OnEventRunning
	}
	return Show(EventMazeHeader(l, e, m), m, Row(l, m, at))
}

// EventMazeHeader is what stands above an event's maze: the event, and
// the maze's own header.
func EventMazeHeader(l *lang.Lang, e contest.Event, m Maze) string {
	args := lang.Args{"Name": e.Name, "Ends": e.EndsAt.Unix()}
	header := l.T("event.maze_running", args)
	if e.Status == contest.Ended {
		header = l.T("event.maze_ended", args)
	}
	return header + "\n" + Header(l, m)
}

// finishers counts the members on a board.
func finishers(n int) lang.Msg { return lang.M("count.finishers", lang.Args{"Count": n}) }

// Board is the live board; once e has ended, a pointer to its results
// post (results, its link; "" when unknown), which holds the ranking: it
// is not shown twice.
func Board(e contest.Event, standings []contest.Standing, results string) bot.Reply {
	l := lang.ByCode(e.Language)
	args := lang.Args{"Name": e.Name, "Ends": e.EndsAt.Unix(), "Finishers": finishers(len(standings)), "Link": results}
	var b strings.Builder
	switch {
	case e.Status == contest.Ended && results != "":
		return card(nil, text(l.T("event.board_final", args)))
	case e.Status == contest.Ended:
		return card(nil, text(l.T("event.board_final_here", args)))
	case len(standings) == 0:
		b.WriteString(l.T("event.board_empty", args))
	default:
		b.WriteString(l.T("event.board_live", args))
	}
	writeStandings(l, &b, standings)
	return card(nil, text(b.String()))
}

// ResultsText is the top of an ended event's results post: the final
// ranking, and the numbers of the day against the maze's par and
// shortest walk (shortest tiles, play.ShortestTiles).
func ResultsText(l *lang.Lang, e contest.Event, standings []contest.Standing, par, shortest int) string {
	if len(standings) == 0 {
		return l.T("event.results_none", lang.Args{"Name": e.Name})
	}
	var b strings.Builder
	b.WriteString(l.T("event.results", lang.Args{"Name": e.Name, "Finishers": finishers(len(standings))}))
	writeStandings(l, &b, standings)
	best, clicks, tiles := standings[0].Elapsed, standings[0].Clicks, standings[0].Tiles
	for _, s := range standings {
		best, clicks, tiles = min(best, s.Elapsed), min(clicks, s.Clicks), min(tiles, s.Tiles)
	}
	b.WriteString("\n" + l.T("event.stats", lang.Args{
		"Best": l.RunTime(best), "Clicks": lang.Number(clicks), "Par": lang.Number(par),
		"Tiles": lang.M("count.tiles", lang.Args{"Count": tiles}), "Path": lang.M("count.tiles", lang.Args{"Count": shortest}),
	}))
	return b.String()
}

// Results is the one post that closes an event: its ranking and numbers
// (top, ResultsText), then the solution of its maze under header, its
// emoji grid spoilered or its picture, and Play for whoever wants to try
// it now.
func Results(l *lang.Lang, top, header string, m Maze) bot.Reply {
	grid := ""
	if m.Grid != "" {
		grid = "||" + m.Grid + "||"
	}
	play := []part{discordgo.ActionsRow{Components: []part{PlayButton(l, m.ID)}}}
	return card(filesOf(m.File), text(top), separator(), text(header), text(grid), picture(m.File, true), play)
}

// writeStandings lists the top of a ranking, one member a line.
func writeStandings(l *lang.Lang, b *strings.Builder, standings []contest.Standing) {
	for i, r := range standings {
		if i == BoardTop {
			b.WriteString("\n" + l.T("event.more", lang.Args{"Count": len(standings) - BoardTop}))
			break
		}
		fmt.Fprintf(b, "\n%s <@%s> · %s", RankBadge(r.Rank), r.UserID, l.T("event.line", lang.Args{
			"Time":   l.RunTime(r.Elapsed),
			"Tiles":  lang.M("count.tiles", lang.Args{"Count": r.Tiles}),
			"Clicks": lang.M("count.clicks", lang.Args{"Count": r.Clicks}),
		}))
	}
}

// EventAwardLines tell a member where a won event game put them.
func EventAwardLines(l *lang.Lang, a *contest.EventAward) []string {
	if a.Late {
		return []string{l.T("event.award_late", lang.Args{"Name": a.Event.Name})}
	}
	if a.Standing.UserID == "" {
		return nil
	}
	return []string{l.T("event.award", lang.Args{"Rank": lang.Number(a.Standing.Rank), "Of": lang.Number(a.Of), "Name": a.Event.Name, "Ends": a.Event.EndsAt.Unix()})}
}

// EventStarted confirms /event start, privately; level is the difficulty
// asked for, which the maze ID does not keep.
func EventStarted(l *lang.Lang, e contest.Event, level mazecore.Level) string {
	return l.T("event.started", lang.Args{
		"Name": e.Name, "Channel": e.ChannelID, "Ends": e.EndsAt.Unix(),
		"Maze":     lang.M("maze.kind", lang.Args{"Size": sizeOrShape(e.MazeID), "Algorithm": AlgorithmName(e.MazeID.Algorithm)}),
		"Shape":    eventShape(level, e.MazeID.Loops),
		"Language": lang.ByCode(e.Language).Name(),
	})
}

// sizeOrShape is a square maze's size, or what grid and shape another
// maze has.
func sizeOrShape(id mazecore.ID) lang.Localizable {
	if id.Plain() {
		return Size(id)
	}
	return ShapeWords(id)
}

// eventShape says what a difficulty and loops add to an event's maze:
// " (hard, loops 30%)", or nothing.
func eventShape(level mazecore.Level, loops int) lang.Localizable {
	var parts lang.List
	if level != mazecore.AnyLevel {
		parts = append(parts, lang.M("choice.difficulty."+level.String()))
	}
	if loops > 0 {
		parts = append(parts, lang.M("maze.loops", lang.Args{"Loops": lang.Percent(loops)}))
	}
	if len(parts) == 0 {
		return lang.Func(func(*lang.Lang) string { return "" })
	}
	return lang.M("format.aside", lang.Args{"Text": parts})
}

// RankBadge is a rank's medal, or its number.
func RankBadge(rank int) string {
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
