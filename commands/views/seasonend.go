package views

import (
	"fmt"
	"strings"

	"mazebot/contest"
	"mazebot/lang"
)

// SeasonResultsText is an ended season's results card in l: the podium
// with points, the longest streak of the season and the most improved,
// members named as mentions (which ping only when the server turned
// recap pings on).
func SeasonResultsText(l *lang.Lang, r *contest.SeasonResults) string {
	var b strings.Builder
	b.WriteString(l.T("season_end.title", lang.Args{"Season": r.Season.String()}))
	for _, s := range r.Podium {
		fmt.Fprintf(&b, "\n%s <@%s> · %s", RankBadge(s.Rank), s.UserID, lang.M("count.points", lang.Args{"Count": s.Points}).In(l))
	}
	if r.Streak.UserID != "" {
		b.WriteString("\n" + l.T("season_end.streak", lang.Args{"User": r.Streak.UserID, "Days": lang.M("unit.day", lang.Args{"Count": r.Streak.Days})}))
	}
	if r.Improved.UserID != "" {
		b.WriteString("\n" + l.T("season_end.improved", lang.Args{"User": r.Improved.UserID, "From": lang.Number(r.Improved.From), "To": lang.Number(r.Improved.To)}))
	}
	if c := r.Champion(); c != "" {
		b.WriteString("\n" + l.T("season_end.champion", lang.Args{"User": c}))
	}
	return b.String()
}
