package views

import (
	"strings"

	"mazebot/bot"
	"mazebot/contest"
	"mazebot/lang"
)

// Profile is /profile's card: the member's dailies solved, their streak
// with its freezes (🧊), this season's place and their badges.
func Profile(l *lang.Lang, p contest.Profile) bot.Reply {
	args := lang.Args{
		"User":    p.UserID,
		"Solved":  lang.Number(p.Solved),
		"Archive": lang.Number(p.ArchiveSolved),
		"Days":    lang.M("unit.day", lang.Args{"Count": p.Streak.Days}),
		"Best":    lang.M("unit.day", lang.Args{"Count": p.Streak.Best}),
		"Freezes": lang.M("count.freezes", lang.Args{"Count": p.Streak.Freezes}),
		"Season":  p.Season.String(),
		"Rank":    lang.Number(p.SeasonRank),
		"Of":      lang.Number(p.SeasonOf),
		"Points":  lang.M("count.points", lang.Args{"Count": p.SeasonPoints}),
	}
	lines := []string{l.T("profile.title", args)}
	solved := "profile.solved"
	if p.ArchiveSolved > 0 {
		solved = "profile.solved_archive"
	}
	lines = append(lines, l.T(solved, args), l.T("profile.streak", args))
	season := "profile.season"
	if p.SeasonRank == 0 {
		season = "profile.season_none"
	}
	lines = append(lines, l.T(season, args))
	badges := []string{l.T("profile.badges")}
	for _, b := range p.Badges {
		args := lang.Args{"Count": b.Count} // the podium and events: how often
		if !b.On.IsZero() {
			args = lang.Args{"Date": Date(l, b.On)}
		}
		badges = append(badges, l.T("badge."+b.Kind.String(), args))
	}
	if len(p.Badges) == 0 {
		badges = append(badges, l.T("profile.no_badges"))
	}
	reply := card(nil, text(strings.Join(lines, "\n")), separator(), text(strings.Join(badges, "\n")))
	// Private: a mention in an interaction's reply would notify the
	// member it names, and a member's freezes are theirs to tell.
	reply.Ephemeral = true
	return reply
}
