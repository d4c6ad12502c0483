package views

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/contest"
	"mazebot/lang"
)

// RecapMilestonesShown is how many members a recap's milestone line
// names; the rest are counted.
const RecapMilestonesShown = 10

// maxPinged is how many members a message may name in allowed_mentions.
const maxPinged = 100

// Recap is yesterday's recap as the new day's post shows it: the recap,
// yesterday's par, and its solution as a spoilered picture (nil when
// nobody finished: that day is told in one line).
type Recap struct {
	*contest.Recap
	Par      int
	Solution *bot.File
}

// RecapText is the recap's text in l: how many finished, the top three
// with time and clicks against par, the streak milestones; or the one
// line of a day nobody finished. Members are named as mentions, and
// never by the maze's ID, which would make "Solve this maze" find
// yesterday's maze in today's post.
func RecapText(l *lang.Lang, r Recap) string {
	args := lang.Args{"Number": contest.Number(r.Date), "Date": Date(l, r.Date), "Finishers": finishers(r.Finished)}
	if r.Finished == 0 {
		return l.T("recap.nobody", args)
	}
	var b strings.Builder
	b.WriteString(l.T("recap.title", args))
	for _, s := range r.Top {
		fmt.Fprintf(&b, "\n%s <@%s> · %s", RankBadge(s.Rank), s.UserID, l.T("recap.line", lang.Args{
			"Time": l.RunTime(s.Elapsed), "OverPar": OverPar(s.Clicks, r.Par),
		}))
	}
	if len(r.Milestones) > 0 {
		var names []string
		for _, m := range r.Milestones[:min(len(r.Milestones), RecapMilestonesShown)] {
			names = append(names, l.T("recap.milestone", lang.Args{"User": m.UserID, "Days": lang.M("unit.day", lang.Args{"Count": m.Days})}))
		}
		line := strings.Join(names, " · ")
		if more := len(r.Milestones) - RecapMilestonesShown; more > 0 {
			line += " · " + l.T("recap.more", lang.Args{"Count": more})
		}
		b.WriteString("\n" + line)
	}
	if r.Solution != nil {
		b.WriteString("\n" + l.T("recap.solution"))
	}
	return b.String()
}

// DailyPost is the automatic daily post in l: the day's maze (Daily) and,
// below it in containers of their own, yesterday's recap when there is
// one and, on a season's first day, the ended season's results. Its
// members are notified only when the server turned pings on.
func DailyPost(l *lang.Lang, day contest.Daily, m Maze, r *Recap) bot.Reply {
	reply := Daily(l, day, m)
	var pinged []string
	if r != nil && r.Recap != nil {
		recap := card(filesOf(r.Solution), text(RecapText(l, *r)), picture(r.Solution, true))
		reply.Components = append(reply.Components, recap.Components...)
		reply.Files = append(reply.Files, recap.Files...)
		if r.Pings {
			pinged = r.Named()
		}
	}
	if s := day.Season; s != nil {
		// The season's results card, once, on the new season's first post.
		reply.Components = append(reply.Components, card(nil, text(SeasonResultsText(l, s))).Components...)
		if s.Pings {
			for _, id := range s.Named() {
				if !slices.Contains(pinged, id) {
					pinged = append(pinged, id)
				}
			}
		}
	}
	if len(pinged) > 0 {
		reply.Pings = pinged[:min(len(pinged), maxPinged)]
	}
	return reply
}

// Reminder is the DM that reminds a member of their streak at risk: the
// day's daily with its Play button, which counts for the server's daily
// from the DM.
func Reminder(l *lang.Lang, day contest.Daily, streak int) bot.Reply {
	content := l.T("remind.dm", lang.Args{
		"Streak": lang.M("unit.day", lang.Args{"Count": streak}), "Number": day.Number(),
		"Ends": day.Ends().Unix(),
	})
	play := PlayButton(l, day.MazeID)
	play.CustomID = customid.PlayFor(day.MazeID, day.GuildID)
	return bot.Reply{Content: content, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{play}}}}
}

// RecapSetup says what /daily setup made of the recap options.
func RecapSetup(l *lang.Lang, r contest.RecapSettings) string {
	switch {
	case r.Off:
		return l.T("recap.setup_off")
	case r.Pings:
		return l.T("recap.setup_pings")
	}
	return l.T("recap.setup_on")
}
